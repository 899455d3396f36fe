import Foundation

/// The booth's behaviour as a pure value: given the current state, an event and the current time,
/// the next state and what to do about it. It never reads a clock or touches a device, so tests
/// drive it with whatever instants they choose.
public struct BoothMachine: Sendable {
    /// Where the booth is now.
    public private(set) var state: BoothState = .starting
    /// How long each part of the cycle lasts.
    package let settings: BoothSettings
    /// Whether the camera delivers frames. A guest who is naming a photo finishes even when
    /// the camera goes away; the fault shows once the cycle is back at the main screen.
    package private(set) var cameraPresent = false
    /// Why the storage cannot take a photo now (full below the reserve, or not writable);
    /// `nil` when it can. A press then shows the fault at once instead of a countdown: no guest
    /// poses for a photo that cannot be saved.
    package private(set) var storageFault: BoothFault?
    /// The pictures whose print the guest asked for on their saved screen: once each.
    private var printAsked: Set<UUID> = []
    /// Why the printer holds prints, told beside every screen; `nil` when it prints (or the
    /// booth has no printer). It never stops a photo: the picture waits in the print queue.
    package private(set) var printerFault: PrinterFault?
    /// The phone key being tapped while a name is typed; `nil` when the next tap types a new
    /// letter. It ends at its own deadline, or with any other key.
    package private(set) var tap: MultiTap?
    /// The start of a name a guest is typing in the gallery's list to find a photo; `nil` when
    /// none is. It ends at its own deadline, with a key that moves, opens or goes back, and when
    /// the gallery closes.
    package private(set) var search: GallerySearch?
    /// The strongest request to stop so far; the machine stops once no photo is in flight
    /// (at once for a shutdown).
    package private(set) var stopRequest: StopRequest?
    /// Whether the machine has said ``BoothEffect/stop(restarting:)``; it then handles nothing.
    package private(set) var isStopped = false
    /// When the main screen becomes the slideshow, if nobody comes first
    /// (``BoothSettings/attractAfter``); `nil` off the main screen, or with attract mode off.
    package private(set) var attractAt: MonotonicInstant?
    /// The picture being made, from the press that starts it until its last shot is taken (or
    /// it is given up); `nil` otherwise.
    package private(set) var sequence: PictureSequence?
    /// The shots asked for and not yet taken: each one's id and shutter instant.
    private var pendingShots: [(id: UUID, shutterAt: MonotonicInstant)] = []
    /// The placeholder the picture keeps without a name, given with its first shot.
    private var picturePlaceholder: Caption?
    /// How many answers of the library the machine waits for (a count of the photos, where a
    /// name is): the booth is busy until they come.
    package private(set) var pendingAnswers = 0
    /// The line being typed on a keyboard whose keys come a line at a time
    /// (``KeyBindings/lines``), until its Enter.
    private var line = TypedLine()
    /// Mints a new photo's permanent id when the countdown ends.
    private let newPhotoID: @Sendable () -> UUID

    /// A booth waiting for its camera.
    ///
    /// - Parameter newPhotoID: a new, never-used id for each photo taken (`UUID.random`; the
    ///   machine reads no randomness itself, so tests give it ids they know).
    public init(settings: BoothSettings = BoothSettings(), newPhotoID: @escaping @Sendable () -> UUID) {
        self.settings = settings
        self.newPhotoID = newPhotoID
    }

    /// Applies `event`, which happened at `now`, and returns the effects to carry out in order.
    public mutating func handle(_ event: BoothEvent, at now: MonotonicInstant) -> [BoothEffect] {
        guard !isStopped else { return [.ignored(event)] }
        switch event {
        case .photosCounted, .nameFound: pendingAnswers = max(0, pendingAnswers - 1)
        default: break
        }
        let effects = apply(event, at: now) + stopIfDue(now: now)
        pendingAnswers += effects.count { effect in
            switch effect {
            case .countPhotos, .findName: true
            default: false
            }
        }
        return effects
    }

    /// What the booth waits for from a guest now: keys and the button where it waits for a
    /// guest (the main screen, the saved screen, the slideshow, the gallery, a fault that waits
    /// for the storage, where a press is answered with the fault), keys alone while a name is
    /// typed, nothing while it is busy (counting down, taking or saving a photo, waiting for the
    /// library's answer to a key, or for its camera) or stopped. Input faster than a guest (a
    /// script piped into the simulated booth) waits for it, so that none is lost.
    package var awaitedInput: AwaitedInput {
        guard !isStopped, pendingAnswers == 0 else { return [] }
        switch state {
        case .idle, .saved, .attract, .browsing, .viewing: return [.keys, .press]
        case .fault(let fault, nil) where fault.isStorage: return [.keys, .press]
        case .naming: return .keys
        case .starting, .countdown, .capturing, .reviewing, .saving, .fault: return []
        }
    }

    /// Whether the booth is between cycles, where input may end: it waits for a guest (a name
    /// being typed too, which the end of input gives up) or shows a fault, and waits for no
    /// answer of the library.
    package var isAtRest: Bool {
        guard pendingAnswers == 0 else { return false }
        switch state {
        case .idle, .naming, .saved, .fault, .browsing, .viewing, .attract: return true
        case .starting, .countdown, .capturing, .reviewing, .saving: return false
        }
    }

    /// The stop a request asks for, once it is due: a shutdown at once; the end of input and a
    /// restart once no photo is in flight, the end of input giving up a name being typed.
    private mutating func stopIfDue(now: MonotonicInstant) -> [BoothEffect] {
        guard let stopRequest else { return [] }
        var effects: [BoothEffect] = []
        if stopRequest == .endOfInput, case .naming(let photo, _, _) = state {
            effects = finish(photo, caption: photo.placeholder, now: now)
        }
        guard stopRequest == .shutdown || !state.hasPhotoInFlight else { return effects }
        isStopped = true
        return effects + [.stop(restarting: stopRequest == .restart)]
    }

    private mutating func apply(_ event: BoothEvent, at now: MonotonicInstant) -> [BoothEffect] {
        switch event {
        case .stopRequested(let request):
            stopRequest = max(stopRequest ?? request, request)
            return []

        case .shutterPressed(let pressedAt, let mode):
            switch state {
            // From the gallery too: a guest looking at photos who wants one of their own.
            case .idle, .saved, .browsing, .viewing:
                return startCountdown(pressedAt: pressedAt, mode: mode ?? settings.modes.standard, now: now)
            // A guest who wakes the booth up is not posing yet: the press brings the main screen
            // and its live preview, and the next press starts the countdown.
            case .attract: return backToMainScreen(now: now)
            // A fault that waits for the camera or the storage: the press is answered with the
            // fault, so the guest learns at once why nothing happens.
            case .fault(let fault, nil): return [.show(.fault(fault)), .ignored(event)]
            default: return [.ignored(event)]
            }

        case .key(let key):
            return press(key, now: now) ?? [.ignored(event)]

        case .printPressed:
            guard case .saved = state else { return [.ignored(event)] }
            return act(.print, now: now) ?? [.ignored(event)]

        case .tick:
            return checkDeadline(now: now)

        // A result for an earlier shot (one that timed out) is not this shot's.
        case .shotTaken(let photo, let shotAt):
            guard case .capturing = state, let index = pendingShots.firstIndex(where: { $0.id == photo.id && $0.shutterAt == shotAt })
            else { return [.ignored(event)] }
            pendingShots.remove(at: index)
            return taken(photo, now: now)

        case .shotFailed(let shotAt):
            guard case .capturing = state, pendingShots.contains(where: { $0.shutterAt == shotAt }) else { return [.ignored(event)] }
            return enter(.fault(.shotFailed, retryAt: now + settings.faultRetry), now: now)

        case .photoSaved(let id, let caption, let pendingName):
            guard case .saving(let photo, _, _) = state, photo.id == id else { return [.ignored(event)] }
            return enter(.saved(photo, caption: caption, pendingName: pendingName, until: now + settings.savedDisplay), now: now)

        case .photoNotSaved(let id, let fault):
            // The library refused a photo: no guest poses for the next one until a check of the
            // disk (which then tries a write) finds it able to take one.
            if fault.isStorage { storageFault = fault }
            switch state {
            case .naming(let photo, _, _) where photo.id == id, .saving(let photo, _, _) where photo.id == id:
                return enter(.fault(fault, retryAt: now + settings.faultRetry), now: now)
            // Nobody is waiting for this photo, but the next one would fail too: say so.
            case .idle, .browsing, .viewing, .attract:
                return enter(.fault(fault, retryAt: now + settings.faultRetry), now: now)
            default:
                return [.ignored(event)]
            }

        case .cameraLost:
            cameraPresent = false
            switch state {
            case .starting, .idle, .countdown, .attract: return enter(.fault(.cameraMissing, retryAt: nil), now: now)
            default: return []
            }

        case .cameraReady:
            cameraPresent = true
            switch state {
            case .starting, .fault(.cameraMissing, _): return backToMainScreen(now: now)
            default: return []
            }

        case .printerChanged(let fault):
            guard fault != printerFault else { return [] }
            printerFault = fault
            return [.showPrinterNotice(fault)]

        case .storageChecked(let fault):
            storageFault = fault
            switch (state, fault) {
            // The main screen says so at once; a guest counting down stops posing for a photo
            // that could not be saved. A guest naming a photo already saved finishes.
            case (.idle, let fault?), (.countdown, let fault?), (.attract, let fault?):
                return enter(.fault(fault, retryAt: nil), now: now)
            case (.fault(let shown, nil), let fault?) where shown.isStorage && shown != fault:
                return enter(.fault(fault, retryAt: nil), now: now)
            // Photos can be saved again: the booth takes them again by itself.
            case (.fault(let shown, nil), nil) where shown.isStorage:
                return backToMainScreen(now: now)
            default:
                return []
            }

        case .photosCounted(let count):
            // The guest may have pressed the button since asking; then the gallery stays shut.
            guard isMainScreen else { return [.ignored(event)] }
            guard let count else { return enter(.fault(.storageFailing, retryAt: now + settings.faultRetry), now: now) }
            return enter(.browsing(GalleryPosition(index: 0, count: count), until: now + settings.galleryTimeout), now: now)

        case .nameFound(let prefix, let index):
            guard case .browsing(let position, let until) = state else { return [.ignored(event)] }
            // The answer for a name since changed or given up shows the list as it is, so that
            // every key still shows one screen.
            guard var search, search.prefix == prefix else { return [.show(screen(now: now))] }
            search.matches = index != nil
            self.search = search
            var moved = position
            // The list's count is the one it opened with; a photo come since may push a name
            // one further than the list reaches.
            if let index, position.count > 0 { moved.index = min(index, position.count - 1) }
            return enter(.browsing(moved, until: until), now: now)
        }
    }

    /// Whether the booth shows its main screen (or what stands for it: the saved screen, a
    /// fault), where the view key opens the gallery. A booth without its camera can still
    /// show the photos it took.
    private var isMainScreen: Bool {
        switch state {
        case .idle, .saved, .fault: true
        case .starting, .countdown, .capturing, .reviewing, .naming, .saving, .browsing, .viewing, .attract: false
        }
    }

    /// When the machine next needs a ``BoothEvent/tick``: a timeout, or the next change of the
    /// number shown during the countdown. `nil` when only an event can move it on.
    public func nextDeadline(after now: MonotonicInstant) -> MonotonicInstant? {
        switch state {
        case .starting:
            return nil
        case .idle:
            return attractAt
        case .attract(_, let nextAt):
            return nextAt
        case .countdown(let shutterAt):
            let secondsLeft = Self.secondsLeft(until: shutterAt, now: now)
            return secondsLeft <= 1 ? shutterAt : shutterAt - .seconds(secondsLeft - 1)
        case .capturing(_, _, let giveUpAt), .saving(_, _, let giveUpAt):
            return giveUpAt
        case .naming(_, _, let until):
            return tap.map { min($0.until, until) } ?? until
        case .browsing(_, let until):
            return [until, search?.until, search?.tap?.until].compactMap { $0 }.min()
        case .saved(_, _, _, let until), .viewing(_, let until), .reviewing(_, let until):
            return until
        case .fault(_, let retryAt):
            return retryAt
        }
    }

    // MARK: Transitions

    private mutating func startCountdown(pressedAt: MonotonicInstant, mode: PictureMode, now: MonotonicInstant) -> [BoothEffect] {
        if let storageFault { return enter(.fault(storageFault, retryAt: nil), now: now) }
        guard cameraPresent else { return enter(.fault(.cameraMissing, retryAt: nil), now: now) }
        sequence = PictureSequence(mode: mode, count: settings.modes.shots(for: mode))
        picturePlaceholder = nil
        return countDown(to: pressedAt + settings.countdown, now: now)
    }

    /// A countdown to `shutterAt`, or the shot at once when that instant has passed.
    private mutating func countDown(to shutterAt: MonotonicInstant, now: MonotonicInstant) -> [BoothEffect] {
        guard shutterAt > now else { return shoot(at: shutterAt, now: now) }
        return enter(.countdown(shutterAt: shutterAt), now: now)
    }

    /// The countdown is over: the shot gets its id now, and the frame exposed nearest the
    /// shutter instant, within ``BoothSettings/shotWindow``, is the shot. A frame exposed after
    /// the instant may be nearer than the last one before it, so it is waited for, half the
    /// time the capture may take. An animation's frames are asked for at once, each at its own
    /// instant after the first; a picture made of shots gets its id with its first shot.
    private mutating func shoot(at shutterAt: MonotonicInstant, now: MonotonicInstant) -> [BoothEffect] {
        var sequence = self.sequence ?? PictureSequence(mode: .single, count: 1)
        let modes = settings.modes
        let composes = modes.composes(sequence.mode)
        if sequence.picture == nil, composes { sequence.picture = newPhotoID() }
        var requests: [ShotRequest] = []
        for frame in 0..<(sequence.mode.isBurst ? sequence.count : 1) {
            let id = newPhotoID()
            if sequence.picture == nil { sequence.picture = id }
            let part = ShotPart(picture: sequence.picture ?? id, mode: sequence.mode, index: sequence.taken.count + frame, count: sequence.count)
            requests.append(
                ShotRequest(
                    photo: id, exposedAt: shutterAt + modes.animationInterval * frame, window: settings.shotWindow,
                    waitingAtMost: settings.captureTimeout / 2, part: composes ? part : nil))
        }
        self.sequence = sequence
        pendingShots = requests.map { ($0.photo, $0.exposedAt) }
        let lastAt = requests.last?.exposedAt ?? shutterAt
        return enter(
            .capturing(shutterAt: shutterAt, photo: requests[0].photo, giveUpAt: now + shutterAt.duration(to: lastAt) + settings.captureTimeout),
            now: now)
            + requests.map { .takeShot($0) }
    }

    /// Shot `photo` is taken and being saved: the next shot of a collage after its review, the
    /// rest of a burst, or the name once the picture has all its shots. `photo` carries the
    /// placeholder the picture keeps without a name.
    private mutating func taken(_ photo: TakenPhoto, now: MonotonicInstant) -> [BoothEffect] {
        guard var sequence else { return enter(.naming(photo, draft: CaptionDraft(), until: now + settings.nameTimeout), now: now) }
        sequence.taken.append(photo.id)
        if picturePlaceholder == nil { picturePlaceholder = photo.placeholder }
        self.sequence = sequence
        guard pendingShots.isEmpty else { return [] }
        guard sequence.isComplete else { return enter(.reviewing(shot: photo.id, until: now + settings.modes.shotReview), now: now) }
        let picture = TakenPhoto(id: sequence.picture ?? photo.id, placeholder: picturePlaceholder ?? photo.placeholder)
        self.sequence = nil
        let order: [BoothEffect] =
            settings.modes.composes(sequence.mode)
            ? [.composePicture(PictureOrder(picture: picture, mode: sequence.mode, parts: sequence.taken))] : []
        return order + enter(.naming(picture, draft: CaptionDraft(), until: now + settings.nameTimeout), now: now)
    }

    /// Applies a key in the current state; `nil` when it does nothing here.
    private mutating func press(_ key: KeypadKey, now: MonotonicInstant) -> [BoothEffect]? {
        let bindings = settings.keys
        if let lines = bindings.lines { return pressInLine(key, lines: lines, now: now) }
        switch state {
        case .naming: return KeyAction.naming(key, bindings: bindings).flatMap { type($0, now: now) }
        // A phone keypad finding a name types it as while naming; its arrows still move.
        case .browsing where search != nil && bindings.layout == .phone:
            return (KeyAction.naming(key, bindings: bindings) ?? KeyAction.browsing(key, bindings: bindings)).flatMap { act($0, now: now) }
        case .browsing, .viewing: return KeyAction.browsing(key, bindings: bindings).flatMap { act($0, now: now) }
        case .idle, .saved, .fault: return KeyAction.atRest(key, bindings: bindings).flatMap { act($0, now: now) }
        // Any key ends the slideshow, and does nothing else: the guest sees where they are first.
        case .attract: return backToMainScreen(now: now)
        case .starting, .countdown, .capturing, .reviewing, .saving: return nil
        }
    }

    /// Applies a key of a keyboard whose keys come a line at a time (see ``LineKeys``): while a
    /// name is typed it types at once; elsewhere it waits in the line, which its Enter applies.
    private mutating func pressInLine(_ key: KeypadKey, lines: LineKeys, now: MonotonicInstant) -> [BoothEffect]? {
        if line.dropsRest {
            if key == .enter { line = TypedLine() }
            return nil
        }
        if case .naming = state {
            let effects = KeyAction.naming(key, bindings: settings.keys).flatMap { type($0, now: now) }
            // Escape kept the placeholder: what follows it on its line was typed for the name.
            if key == .escape, effects != nil { line.dropsRest = true }
            return effects
        }
        guard key == .enter else {
            if line.keys.count < LineKeys.maximumKeys { line.keys.append(key) }
            return []
        }
        let keys = line.keys
        line = TypedLine()
        // Any line ends the slideshow, and does nothing else, as any key does.
        if case .attract = state { return backToMainScreen(now: now) }
        let inGallery =
            switch state {
            case .browsing, .viewing: true
            default: false
            }
        var effects: [BoothEffect]?
        for action in lines.actions(of: keys, inGallery: inGallery, bindings: settings.keys) {
            if let done = act(action, now: now) { effects = (effects ?? []) + done }
        }
        return effects
    }

    /// Applies what a key does outside a name being typed; `nil` when it does nothing here.
    private mutating func act(_ action: KeyAction, now: MonotonicInstant) -> [BoothEffect]? {
        // As the button does: a countdown from the main screen or the gallery, a fault answered.
        if case .shutter(let mode) = action { return apply(.shutterPressed(at: now, mode: mode), at: now) }
        switch state {
        case .browsing, .viewing: return browse(action, now: now)
        // The print key prints the picture on the saved screen, once: the screen says so.
        case .saved(let photo, let caption, let pendingName, _) where action == .print:
            guard !printAsked.contains(photo.id) else { return [] }
            printAsked.insert(photo.id)
            return [.printPicture(photo.id), .show(.saved(caption, photo: photo.id, pendingName: pendingName, printing: true))]
        case .idle, .saved, .fault: return action == .openGallery ? [.countPhotos] : nil
        case .attract: return backToMainScreen(now: now)
        case .naming: return type(action, now: now)
        case .starting, .countdown, .capturing, .reviewing, .saving: return nil
        }
    }

    /// Applies a key in the gallery. Every key that does something shows exactly one screen,
    /// even when the selection cannot move (the top of the list), and restarts the timeout; a
    /// key that changes the name being found shows it once the library says where it leads.
    private mutating func browse(_ action: KeyAction, now: MonotonicInstant) -> [BoothEffect]? {
        let until = now + settings.galleryTimeout
        switch (state, action) {
        case (.browsing(let position, _), .type), (.browsing(let position, _), .tap), (.browsing(let position, _), .erase),
            (.browsing(let position, _), .find):
            return find(action, from: position, until: until, now: now)
        // Moving ends a search: the selection goes on from where the name led.
        case (.browsing(let position, _), .up):
            search = nil
            return enter(.browsing(position.previous, until: until), now: now)
        case (.browsing(let position, _), .down):
            search = nil
            return enter(.browsing(position.next, until: until), now: now)
        // A phone keypad's # ends its search, and Escape any search, leaving the selection there.
        case (.browsing(let position, _), .confirm) where search != nil && settings.keys.layout == .phone,
            (.browsing(let position, _), .back) where search != nil:
            search = nil
            return enter(.browsing(position, until: until), now: now)
        case (.browsing(let position, _), .confirm):
            search = nil
            // An empty library has no photo to open: the list (its friendly message) stays.
            return enter(position.count > 0 ? .viewing(position, until: until) : .browsing(position, until: until), now: now)
        case (.browsing, .back):
            return backToMainScreen(now: now)
        case (.viewing(let position, _), .up):
            return enter(.viewing(position.previous, until: until), now: now)
        case (.viewing(let position, _), .down):
            return enter(.viewing(position.next, until: until), now: now)
        // Enter toggles, like Back: on a phone keypad 5 opens a photo and 5 closes it.
        case (.viewing(let position, _), .confirm), (.viewing(let position, _), .back):
            return enter(.browsing(position, until: until), now: now)
        default:
            return nil
        }
    }

    /// A key that starts, types or erases the name being found in the list at `position`. A
    /// name that changes is looked for (``BoothEffect/findName(startingWith:)``), and the answer
    /// shows the screen; a search started or emptied shows it at once. `nil` when the key does
    /// nothing (erasing with no search, a name as long as a caption can be).
    private mutating func find(
        _ action: KeyAction, from position: GalleryPosition, until: MonotonicInstant, now: MonotonicInstant
    ) -> [BoothEffect]? {
        let bindings = settings.keys
        var search = self.search ?? GallerySearch(prefix: "", until: now, tap: nil, matches: true)
        switch action {
        case .find where self.search == nil:
            break
        case .type(let character) where search.prefix.count < Caption.maximumLength:
            search.tap = nil
            search.prefix.append(character)
        case .tap(let key):
            guard let (tap, letter, replacing) = MultiTap.tap(key, after: search.tap, at: now, timeout: bindings.multiTapTimeout),
                replacing || search.prefix.count < Caption.maximumLength
            else { return nil }
            if replacing { search.prefix.removeLast() }
            search.prefix.append(letter)
            search.tap = tap
        case .erase where self.search != nil:
            search.tap = nil
            // Erasing what a phone keypad's search has not typed ends it, as does erasing a
            // keyboard's last letter: the keys are the list's again.
            if search.prefix.isEmpty || (search.prefix.count == 1 && bindings.layout == .keyboard) {
                self.search = nil
                return enter(.browsing(position, until: until), now: now)
            }
            search.prefix.removeLast()
        default:
            return nil
        }
        search.until = now + bindings.findTimeout
        search.matches = true
        self.search = search
        state = .browsing(position, until: until)
        guard !search.prefix.isEmpty else { return [.show(screen(now: now))] }
        return [.findName(startingWith: search.prefix)]
    }

    /// Applies a key while a name is being typed; `nil` when the key does nothing here.
    private mutating func type(_ action: KeyAction, now: MonotonicInstant) -> [BoothEffect]? {
        guard case .naming(let photo, var draft, _) = state else { return nil }
        switch action {
        case .type(let character):
            tap = nil
            guard draft.type(character) else { return nil }
        case .tap(let key):
            guard multiTap(key, on: &draft, now: now) else { return nil }
        case .erase:
            tap = nil
            guard draft.erase() else { return nil }
        case .confirm:
            return finish(photo, caption: draft.caption ?? photo.placeholder, now: now)
        case .back:
            return finish(photo, caption: photo.placeholder, now: now)
        case .up, .down, .openGallery, .find, .shutter, .print:
            return nil
        }
        // Every key restarts the timeout: a slow typist is still typing.
        return enter(.naming(photo, draft: draft, until: now + settings.nameTimeout), now: now)
    }

    /// A phone key's tap: its first letter, or, when the same key was tapped before its
    /// deadline, the next of its letters in place of the last one ("2" "2" is b). Returns
    /// whether the draft changed.
    private mutating func multiTap(_ key: Character, on draft: inout CaptionDraft, now: MonotonicInstant) -> Bool {
        guard let (tap, letter, replacing) = MultiTap.tap(key, after: tap, at: now, timeout: settings.keys.multiTapTimeout) else {
            return false
        }
        self.tap = tap
        return replacing ? draft.retype(letter) : draft.type(letter)
    }

    private mutating func finish(_ photo: TakenPhoto, caption: Caption, now: MonotonicInstant) -> [BoothEffect] {
        enter(.saving(photo, caption: caption, giveUpAt: now + settings.saveTimeout), now: now)
            + [.finishPhoto(photo, caption: caption)]
    }

    private mutating func checkDeadline(now: MonotonicInstant) -> [BoothEffect] {
        switch state {
        case .starting:
            return []
        case .idle:
            guard let attractAt, now >= attractAt else { return [] }
            return enter(.attract(slide: 0, nextAt: now + settings.attractSlide), now: now)
        case .attract(let slide, let nextAt):
            guard now >= nextAt else { return [] }
            return enter(.attract(slide: slide + 1, nextAt: now + settings.attractSlide), now: now)
        case .countdown(let shutterAt):
            guard now < shutterAt else { return shoot(at: shutterAt, now: now) }
            return [.show(screen(now: now))]
        case .capturing(_, _, let giveUpAt):
            guard now >= giveUpAt else { return [] }
            return enter(.fault(.shotFailed, retryAt: now + settings.faultRetry), now: now)
        case .reviewing(_, let until):
            guard now >= until else { return [] }
            // The next shot needs what the first one did: a camera, and room to save it.
            if storageFault != nil || !cameraPresent { return backToMainScreen(now: now) }
            return countDown(to: now + settings.modes.nextCountdown, now: now)
        case .naming(let photo, _, let until):
            // The tapped letter stays: the next tap of the same key types a new one.
            if let tap, now >= tap.until { self.tap = nil }
            guard now >= until else { return [] }
            return finish(photo, caption: photo.placeholder, now: now)
        case .saving(_, _, let giveUpAt):
            guard now >= giveUpAt else { return [] }
            return enter(.fault(.storageFailing, retryAt: now + settings.faultRetry), now: now)
        case .browsing(_, let until):
            guard now < until else { return backToMainScreen(now: now) }
            // The tapped letter stays; a search left alone ends, and the list shows without it.
            if let tap = search?.tap, now >= tap.until { search?.tap = nil }
            guard let search, now >= search.until else { return [] }
            self.search = nil
            return [.show(screen(now: now))]
        case .saved(_, _, _, let until), .viewing(_, let until):
            guard now >= until else { return [] }
            return backToMainScreen(now: now)
        case .fault(_, let retryAt):
            guard let retryAt, now >= retryAt else { return [] }
            return backToMainScreen(now: now)
        }
    }

    /// The main screen, or the fault that keeps the booth from taking photos: the storage's
    /// first (nothing could be saved), then the camera's.
    private mutating func backToMainScreen(now: MonotonicInstant) -> [BoothEffect] {
        if let storageFault { return enter(.fault(storageFault, retryAt: nil), now: now) }
        return enter(cameraPresent ? .idle : .fault(.cameraMissing, retryAt: nil), now: now)
    }

    private mutating func enter(_ next: BoothState, now: MonotonicInstant) -> [BoothEffect] {
        if case .naming = next {} else { tap = nil }
        if case .browsing = next {} else { search = nil }
        // The main screen waits for a guest from the moment it shows.
        if case .idle = next { attractAt = settings.attractAfter.map { now + $0 } } else { attractAt = nil }
        let old = state
        state = next
        return [.show(screen(now: now))] + sounds(from: old, to: next, now: now) + giveUpSequence(unless: next)
    }

    /// The picture being made, given up when the booth leaves its sequence for `next` (a
    /// fault, the main screen): its shots taken stay as photos of their own.
    private mutating func giveUpSequence(unless next: BoothState) -> [BoothEffect] {
        switch next {
        case .countdown, .capturing, .reviewing: return []
        default: break
        }
        guard let sequence else { return [] }
        self.sequence = nil
        pendingShots = []
        guard let picture = sequence.picture, !sequence.taken.isEmpty, settings.modes.composes(sequence.mode) else { return [] }
        return [.abandonPicture(picture, parts: sequence.taken)]
    }

    /// What the screen shows in the current state.
    package func screen(now: MonotonicInstant) -> ScreenContent {
        switch state {
        case .starting: .starting
        case .idle: .ready
        case .countdown(let shutterAt): .countdown(secondsLeft: Self.secondsLeft(until: shutterAt, now: now), shot: shotCount)
        case .capturing: .smile
        case .reviewing(let shot, _): .review(shot: shot, number: sequence?.taken.count ?? 1, of: sequence?.count ?? 1)
        case .naming(let photo, let draft, _): .naming(typed: draft.text, placeholder: photo.placeholder, photo: photo.id)
        case .saving: .saving
        case .saved(let photo, let caption, let pendingName, _):
            .saved(caption, photo: photo.id, pendingName: pendingName, printing: printAsked.contains(photo.id))
        case .fault(let fault, _): .fault(fault)
        case .browsing(let position, _):
            .gallery(GalleryList(position: position, search: search.map { NameSearch(prefix: $0.prefix, matches: $0.matches) }))
        case .viewing(let position, _): .photo(GalleryPhoto(position: position))
        case .attract(let slide, _): .attract(AttractSlide(number: slide))
        }
    }

    /// Which shot of a collage the countdown is for; `nil` for a photo or an animation (one
    /// countdown for the whole picture).
    private var shotCount: ShotCount? {
        guard let sequence, sequence.mode == .collage, sequence.count > 1 else { return nil }
        return ShotCount(number: sequence.taken.count + 1, of: sequence.count)
    }

    /// The number the countdown shows: whole seconds left, rounded up, so "1" is on screen
    /// during the last second.
    static func secondsLeft(until shutterAt: MonotonicInstant, now: MonotonicInstant) -> Int {
        let remaining = now.duration(to: shutterAt).inNanoseconds
        guard remaining > 0 else { return 0 }
        return Int((remaining + 999_999_999) / 1_000_000_000)
    }
}

/// A name being typed in the gallery to find a photo, as the machine keeps it.
package struct GallerySearch: Sendable, Hashable {
    /// What has been typed; empty on a phone keypad between the key that starts the search
    /// and its first letter.
    package var prefix: String
    /// When the search ends if no key comes (``KeyBindings/findTimeout``).
    package var until: MonotonicInstant
    /// The phone key being tapped, which may still change the last letter.
    package var tap: MultiTap?
    /// Whether the library's last answer found a photo whose name starts with ``prefix``.
    package var matches: Bool
}
