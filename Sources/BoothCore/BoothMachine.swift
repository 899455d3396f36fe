/// The booth's behaviour as a pure value: given the current state, an event and the current time,
/// the next state and what to do about it. It never reads a clock or touches a device, so tests
/// drive it with whatever instants they choose.
public struct BoothMachine: Sendable {
    /// Where the booth is now.
    public private(set) var state: BoothState = .starting
    /// How long each part of the cycle lasts.
    public let settings: BoothSettings
    /// Whether the camera delivers frames. A guest who is naming a photo finishes even when
    /// the camera goes away; the fault shows once the cycle is back at the main screen.
    public private(set) var cameraPresent = false

    /// A booth waiting for its camera.
    public init(settings: BoothSettings = BoothSettings()) {
        self.settings = settings
    }

    /// Applies `event`, which happened at `now`, and returns the effects to carry out in order.
    public mutating func handle(_ event: BoothEvent, at now: MonotonicInstant) -> [BoothEffect] {
        switch event {
        case .shutterPressed(let pressedAt):
            switch state {
            case .idle, .saved: return startCountdown(pressedAt: pressedAt, now: now)
            default: return [.ignored(event)]
            }

        case .key(let key):
            return type(key, now: now) ?? [.ignored(event)]

        case .tick:
            return checkDeadline(now: now)

        // A result for an earlier shot (one that timed out) is not this shot's.
        case .shotTaken(let photo, let shotAt):
            guard case .capturing(let shutterAt, _) = state, shotAt == shutterAt else { return [.ignored(event)] }
            return enter(.naming(photo, draft: CaptionDraft(), until: now + settings.nameTimeout), now: now)

        case .shotFailed(let shotAt):
            guard case .capturing(let shutterAt, _) = state, shotAt == shutterAt else { return [.ignored(event)] }
            return enter(.fault(.shotFailed, retryAt: now + settings.faultRetry), now: now)

        case .photoSaved(let id, let caption):
            guard case .saving(let photo, _, _) = state, photo.id == id else { return [.ignored(event)] }
            return enter(.saved(photo, caption: caption, until: now + settings.savedDisplay), now: now)

        case .photoNotSaved(let id, let fault):
            switch state {
            case .naming(let photo, _, _) where photo.id == id, .saving(let photo, _, _) where photo.id == id:
                return enter(.fault(fault, retryAt: now + settings.faultRetry), now: now)
            case .idle:
                return enter(.fault(fault, retryAt: now + settings.faultRetry), now: now)
            default:
                return [.ignored(event)]
            }

        case .cameraLost:
            cameraPresent = false
            switch state {
            case .starting, .idle, .countdown: return enter(.fault(.cameraMissing, retryAt: nil), now: now)
            default: return []
            }

        case .cameraReady:
            cameraPresent = true
            switch state {
            case .starting, .fault(.cameraMissing, _): return enter(.idle, now: now)
            default: return []
            }
        }
    }

    /// When the machine next needs a ``BoothEvent/tick``: a timeout, or the next change of the
    /// number shown during the countdown. `nil` when only an event can move it on.
    public func nextDeadline(after now: MonotonicInstant) -> MonotonicInstant? {
        switch state {
        case .starting, .idle:
            return nil
        case .countdown(let shutterAt):
            let secondsLeft = Self.secondsLeft(until: shutterAt, now: now)
            return secondsLeft <= 1 ? shutterAt : shutterAt - .seconds(secondsLeft - 1)
        case .capturing(_, let giveUpAt), .saving(_, _, let giveUpAt):
            return giveUpAt
        case .naming(_, _, let until), .saved(_, _, let until):
            return until
        case .fault(_, let retryAt):
            return retryAt
        }
    }

    // MARK: Transitions

    private mutating func startCountdown(pressedAt: MonotonicInstant, now: MonotonicInstant) -> [BoothEffect] {
        guard cameraPresent else { return enter(.fault(.cameraMissing, retryAt: nil), now: now) }
        let shutterAt = pressedAt + settings.countdown
        guard shutterAt > now else { return shoot(at: shutterAt, now: now) }
        return enter(.countdown(shutterAt: shutterAt), now: now)
    }

    private mutating func shoot(at shutterAt: MonotonicInstant, now: MonotonicInstant) -> [BoothEffect] {
        enter(.capturing(shutterAt: shutterAt, giveUpAt: now + settings.captureTimeout), now: now)
            + [.takeShot(exposedAt: shutterAt)]
    }

    /// Applies a key while a name is being typed; `nil` when the key does nothing here.
    private mutating func type(_ key: KeypadKey, now: MonotonicInstant) -> [BoothEffect]? {
        guard case .naming(let photo, var draft, _) = state else { return nil }
        switch key {
        case .character(let character):
            guard draft.type(character) else { return nil }
        case .retype(let character):
            guard draft.retype(character) else { return nil }
        case .backspace:
            guard draft.erase() else { return nil }
        case .enter:
            return finish(photo, caption: draft.caption ?? photo.placeholder, now: now)
        case .cancel:
            return finish(photo, caption: photo.placeholder, now: now)
        case .view, .up, .down:
            return nil
        }
        // Every key restarts the timeout: a slow typist is still typing.
        return enter(.naming(photo, draft: draft, until: now + settings.nameTimeout), now: now)
    }

    private mutating func finish(_ photo: TakenPhoto, caption: Caption, now: MonotonicInstant) -> [BoothEffect] {
        enter(.saving(photo, caption: caption, giveUpAt: now + settings.saveTimeout), now: now)
            + [.finishPhoto(photo, caption: caption)]
    }

    private mutating func checkDeadline(now: MonotonicInstant) -> [BoothEffect] {
        switch state {
        case .starting, .idle:
            return []
        case .countdown(let shutterAt):
            guard now < shutterAt else { return shoot(at: shutterAt, now: now) }
            return [.show(.countdown(secondsLeft: Self.secondsLeft(until: shutterAt, now: now)))]
        case .capturing(_, let giveUpAt):
            guard now >= giveUpAt else { return [] }
            return enter(.fault(.shotFailed, retryAt: now + settings.faultRetry), now: now)
        case .naming(let photo, _, let until):
            guard now >= until else { return [] }
            return finish(photo, caption: photo.placeholder, now: now)
        case .saving(_, _, let giveUpAt):
            guard now >= giveUpAt else { return [] }
            return enter(.fault(.storageFailing, retryAt: now + settings.faultRetry), now: now)
        case .saved(_, _, let until):
            guard now >= until else { return [] }
            return backToMainScreen(now: now)
        case .fault(_, let retryAt):
            guard let retryAt, now >= retryAt else { return [] }
            return backToMainScreen(now: now)
        }
    }

    private mutating func backToMainScreen(now: MonotonicInstant) -> [BoothEffect] {
        enter(cameraPresent ? .idle : .fault(.cameraMissing, retryAt: nil), now: now)
    }

    private mutating func enter(_ next: BoothState, now: MonotonicInstant) -> [BoothEffect] {
        state = next
        return [.show(screen(now: now))]
    }

    /// What the screen shows in the current state.
    public func screen(now: MonotonicInstant) -> ScreenContent {
        switch state {
        case .starting: .starting
        case .idle: .ready
        case .countdown(let shutterAt): .countdown(secondsLeft: Self.secondsLeft(until: shutterAt, now: now))
        case .capturing: .smile
        case .naming(let photo, let draft, _): .naming(typed: draft.text, placeholder: photo.placeholder)
        case .saving: .saving
        case .saved(let photo, let caption, _): .saved(caption, photo: photo.id)
        case .fault(let fault, _): .fault(fault)
        }
    }

    /// The number the countdown shows: whole seconds left, rounded up, so "1" is on screen
    /// during the last second.
    private static func secondsLeft(until shutterAt: MonotonicInstant, now: MonotonicInstant) -> Int {
        let remaining = now.duration(to: shutterAt).inNanoseconds
        guard remaining > 0 else { return 0 }
        return Int((remaining + 999_999_999) / 1_000_000_000)
    }
}
