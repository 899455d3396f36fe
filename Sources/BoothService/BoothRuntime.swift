import BoothCore
import BoothImaging
import BoothPictures
import BoothScreen
import BoothStore
import BoothSync
import BoothSystem
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The running booth: a thin interpreter of the state machine. One loop feeds what happens
/// (presses, keys, camera status, save results, deadlines, requests to stop) into the machine and
/// carries out its effects; the machine decides everything, when to stop included. The loop owns
/// the machine, so there is no shared mutable state; everything that blocks happens elsewhere
/// (device threads, the photo writer's queue, the screen content loader's catalog reads).
///
/// Its time is `TimeSource`'s: ``MonotonicClock`` in the booth, on which devices stamp presses
/// and frames; a clock the test advances in tests, so that no deadline passes because the
/// machine running them was slow.
final class BoothRuntime<TimeSource: Clock<Duration>>: Service where TimeSource.Instant == MonotonicInstant {
    private enum Input: Sendable {
        case event(BoothEvent)
        /// A request to restart, for the reason given (for the log): the machine decides when.
        case restart(String)
        /// Time to show systemd's watchdog that the loop runs.
        case heartbeat
    }

    /// How the booth proves to a watchdog that its loop runs: `beat` is called from the loop
    /// itself every `interval`, so a stuck loop stops the beats.
    struct Heartbeat: Sendable {
        var interval: Duration
        var beat: @Sendable () -> Void
    }

    private let settings: BoothSettings
    private let frames: RecentFrames
    private let button: any ShutterButton
    /// The buttons that make a picture of another mode, each pressed as the shutter is.
    private let modeButtons: [PictureMode: any ShutterButton]
    private let printButton: (any ShutterButton)?
    private let keypad: any Keypad
    /// Every screen update passes through it, in order, to get the gallery's photos and the
    /// saved photo's link.
    private let screen: ScreenContentLoader
    private let library: PhotoLibrary
    private let logger: Logger
    private let clock: TimeSource
    private let inputs: AsyncStream<Input>
    private let sink: AsyncStream<Input>.Continuation
    private let writer: PhotoWriter
    private let observer: BoothObserver
    private let heartbeat: Heartbeat?
    private let speaker: any Speaker
    private let restarting = Atomic(false)
    /// Counts the machine's `silence`s: a shutter sound waiting to be placed plays only if none
    /// came since it was asked for.
    private let silences = Atomic(0)
    /// The number of each picture being made, reserved with its first shot.
    private let pictureNumbers = Mutex<[UUID: Int]>([:])

    /// - Parameters:
    ///   - clock: what the booth reads the time from, and waits for its deadlines on.
    ///   - reviews: where the screens find the picture of the shot just taken, decoded once by
    ///     the photo writer for them, as the thumbnail and the perceptual hash are.
    ///   - decodeShot: how that one decode is done (``ShotDecoder``, unless a test counts them).
    ///   - dateFormat: how the gallery writes when a photo was taken.
    ///   - photoLink: the address of a photo's web page, which the saved screen shows as a QR
    ///     code; `nil` (the default for every photo) when the booth has no address to give.
    ///   - deletionKey: the key that lets the guest delete the photo from that page, which only
    ///     the guest's own screens show (``ScreenAudience``); `nil` (the default) for none.
    ///   - wallClock: what photos are dated by: the event sync corrects it by the store's time.
    ///   - composer: what composes the pictures made of several shots, in the booth's layout;
    ///     `nil` when the booth takes single photos only.
    ///   - memory: where a picture's shots are decoded (the composer's, for an animation's frames).
    ///   - blanks: what the layout's texts say (the event, the booth).
    ///   - autoPrintCopies: the copies of every picture printed when saved (`print.auto`); 0
    ///     for none.
    ///   - printCopies: the copies a guest's print key asks for (`print.copies`).
    ///   - speaker: where the machine's sounds play; none by default.
    init(
        settings: BoothSettings, clock: TimeSource, frames: RecentFrames, button: any ShutterButton,
        modeButtons: [PictureMode: any ShutterButton] = [:], printButton: (any ShutterButton)? = nil, keypad: any Keypad, screen: any Screen,
        library: PhotoLibrary, reviews: ReviewPictures = ReviewPictures(),
        decodeShot: @escaping ShotDecoding = { try ShotDecoder(screen: $1).decode($0) }, dateFormat: PhotoDateFormat = .standard,
        photoLink: @escaping @Sendable (UUID) -> String? = { _ in nil },
        deletionKey: @escaping @Sendable (UUID) -> String? = { _ in nil }, join: WiFiJoin? = nil, observer: BoothObserver = BoothObserver(),
        heartbeat: Heartbeat? = nil, wallClock: CorrectedClock = CorrectedClock(), composer: sending PictureComposer? = nil,
        memory: DecodeMemory = DecodeMemory(), blanks: [TextBlank: String] = [:], autoPrintCopies: Int = 0, printCopies: Int = 1,
        speaker: any Speaker = NoSpeaker(),
        logger: Logger
    ) {
        self.settings = settings
        self.clock = clock
        self.frames = frames
        self.button = button
        self.modeButtons = modeButtons
        self.printButton = printButton
        self.keypad = keypad
        self.screen = ScreenContentLoader(
            screen: screen, library: library, dateFormat: dateFormat, photoLink: photoLink, deletionKey: deletionKey, join: join, logger: logger)
        self.library = library
        self.logger = logger
        self.observer = observer
        self.heartbeat = heartbeat
        self.speaker = speaker
        let (inputs, sink) = AsyncStream.makeStream(of: Input.self)
        self.inputs = inputs
        self.sink = sink
        writer = PhotoWriter(
            library: library, reviews: reviews, decodeShot: decodeShot, clock: wallClock, observer: observer, logger: logger,
            composer: composer, memory: memory, blanks: blanks, dateFormat: dateFormat, autoPrintCopies: autoPrintCopies,
            printCopies: printCopies
        ) { event in
            sink.yield(.event(event))
        }
    }

    /// Hands an event to the booth; safe from any thread.
    func post(_ event: BoothEvent) {
        sink.yield(.event(event))
    }

    /// Tells the booth what its storage can take now (see ``BoothEvent/storageChecked(_:)``);
    /// once it can take photos again, the names that waited for it are written.
    func storageChecked(_ fault: BoothFault?) {
        if fault == nil { writer.writePendingNames() }
        post(.storageChecked(fault))
    }

    /// Asks the booth to stop once no photo is in flight (countdown, capture, naming or
    /// saving), so that it can start again: with a new configuration, or to open its catalog
    /// for writing; ``isRestarting`` then says so. `purpose` completes the log line ("to apply
    /// the new configuration").
    /// Whether photo `id` is saved and its guest still typing its name.
    func isBeingNamed(_ id: UUID) -> Bool {
        writer.isAwaitingName(id)
    }

    func restart(_ purpose: String) {
        sink.yield(.restart(purpose))
    }

    /// Whether ``run()`` returned for ``restart()``, rather than for the end of input or a
    /// shutdown.
    var isRestarting: Bool { restarting.load(ordering: .relaxed) }

    /// Runs the booth until the keypad's input ends (and the cycle under way is finished), a
    /// restart (once no photo is in flight) or a graceful shutdown; every queued save completes
    /// before it returns.
    func run() async {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await pressedAt in self.button.presses { self.post(.shutterPressed(at: pressedAt)) }
                }
                for (mode, button) in self.modeButtons {
                    group.addTask {
                        for await pressedAt in button.presses { self.post(.shutterPressed(at: pressedAt, mode: mode)) }
                    }
                }
                if let printButton = self.printButton {
                    group.addTask {
                        for await _ in printButton.presses { self.post(.printPressed) }
                    }
                }
                group.addTask {
                    for await key in self.keypad.keys { self.post(.key(key)) }
                    self.logger.info("Input has ended: the booth finishes the photo under way and stops.")
                    self.post(.stopRequested(.endOfInput))
                }
                if let heartbeat {
                    group.addTask { [clock, sink] in
                        // Only asks: the loop beats when it gets to it. The first beat comes at
                        // once: after a reload the process starts again, and systemd has counted
                        // since the previous run's last beat.
                        repeat {
                            sink.yield(.heartbeat)
                        } while (try? await clock.sleep(for: heartbeat.interval)) != nil
                    }
                }
                await loop(in: &group)
                group.cancelAll()
            }
        } onGracefulShutdown: { [self] in
            logger.notice("Stopping: finishing the photos being saved.")
            post(.stopRequested(.shutdown))
        }
        await writer.drain()
        await screen.drain()
        logger.info("All photos are saved.")
    }

    private func loop(in group: inout DiscardingTaskGroup) async {
        var machine = BoothMachine(settings: settings, newPhotoID: { UUID.random() })
        var stateEnteredAt = clock.now
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }

        // What paces piped input: what the machine waits for, and how many keys and presses
        // it has handled, told after every event that changes it.
        var readiness = InputReadiness(awaited: machine.awaitedInput, atRest: machine.isAtRest, keysHandled: 0, pressesHandled: 0)
        screen.show(machine.screen(now: clock.now))
        observer.stateChanged(machine.state)
        observer.inputReadiness(readiness)
        for await input in inputs {
            let event: BoothEvent
            switch input {
            case .event(let posted):
                event = posted
            case .restart(let purpose):
                logger.notice("Restarting \(purpose) once no photo is in flight (now \(machine.state.kind)).")
                event = .stopRequested(.restart)
            case .heartbeat:
                heartbeat?.beat()
                continue
            }
            let now = clock.now
            let before = machine.state.kind
            let effects = machine.handle(event, at: now)
            if before != machine.state.kind {
                logger.info(
                    "\(before) -> \(machine.state.kind) (\(before) lasted \(String(format: "%.3f", stateEnteredAt.duration(to: now).inSeconds)) s)"
                )
                stateEnteredAt = now
                observer.stateChanged(machine.state)
            }
            for effect in effects {
                perform(effect, in: &group, state: machine.state)
            }
            var latest = readiness
            latest.awaited = machine.awaitedInput
            latest.atRest = machine.isAtRest
            switch event {
            case .key: latest.keysHandled += 1
            case .shutterPressed: latest.pressesHandled += 1
            default: break
            }
            if latest != readiness {
                readiness = latest
                observer.inputReadiness(readiness)
            }
            if machine.isStopped { return }
            timer?.cancel()
            timer = machine.nextDeadline(after: clock.now).map { deadline in
                Task { [clock, sink] in
                    guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                    sink.yield(.event(.tick))
                }
            }
        }
    }

    private func perform(_ effect: BoothEffect, in group: inout DiscardingTaskGroup, state: BoothState) {
        switch effect {
        case .show(let content):
            screen.show(content)
        case .showPrinterNotice(let fault):
            screen.showPrinterNotice(fault)
        case .printPicture(let id):
            writer.queuePrint(of: id)
        case .takeShot(let request):
            group.addTask { await self.takeShot(request) }
        case .finishPhoto(let photo, let caption):
            writer.finish(photo, caption: caption)
        case .composePicture(let order):
            pictureNumbers.withLock { _ = $0.removeValue(forKey: order.picture.id) }
            writer.compose(order)
        case .abandonPicture(let picture, let parts):
            pictureNumbers.withLock { _ = $0.removeValue(forKey: picture) }
            logger.notice("Picture \(picture.lowercased) is given up after \(parts.count) shots; they are kept as photos.")
            writer.abandon(picture)
        case .countPhotos:
            screen.countPhotos { [sink] count in sink.yield(.event(.photosCounted(count))) }
        case .findName(let prefix):
            screen.findName(startingWith: prefix) { [sink] index in sink.yield(.event(.nameFound(prefix: prefix, at: index))) }
        case .stop(let restarting):
            if restarting {
                logger.notice("No photo in flight: restarting.")
                self.restarting.store(true, ordering: .relaxed)
            } else {
                observer.stopping()
            }
        case .play(.shutter, let instant):
            let silences = silences.load(ordering: .relaxed)
            group.addTask { await self.playShutter(at: instant, unlessSilencedSince: silences) }
        case .play(let sound, let instant):
            speaker.play(sound, at: instant)
        case .silence:
            silences.add(1, ordering: .relaxed)
            speaker.silence()
        case .ignored(.shutterPressed):
            logger.info("Shutter press ignored: the booth is in \(state.kind).")
        case .ignored(let event):
            logger.debug("Ignored \(event) in \(state.kind).")
        }
    }

    /// Plays the shutter as the shot's frame is exposed: the frame nearest the shutter instant,
    /// up to half a frame from the instant itself, expected at the camera's pace. It is placed
    /// ``shutterPlacement`` before the instant, from the frames just before it, rather than as
    /// the countdown starts: a pace measured on a few frames and carried over seconds would
    /// drift by more than the sound may be off. A `silence` since it was asked for drops it.
    private func playShutter(at instant: MonotonicInstant, unlessSilencedSince count: Int) async {
        guard (try? await clock.sleep(until: instant - Self.shutterPlacement, tolerance: nil)) != nil else { return }
        guard silences.load(ordering: .relaxed) == count else { return }
        speaker.play(.shutter, at: frames.expectedExposure(near: instant))
    }

    /// How long before the shutter instant its sound is placed: more than the speaker's lead.
    static var shutterPlacement: Duration { .milliseconds(300) }

    /// Picks the frames exposed nearest the shutter instant, as the machine asked, and queues
    /// them for saving as its photo, under the library's next number.
    private func takeShot(_ request: ShotRequest) async {
        let shutterAt = request.exposedAt
        // An animation's later frames are asked for with its first: each waits for its instant.
        if let part = request.part, part.index > 0, clock.now < shutterAt {
            try? await clock.sleep(until: shutterAt, tolerance: nil)
        }
        let candidates = await frames.shot(at: shutterAt, within: request.window, waitingAtMost: request.waitingAtMost)
        guard !candidates.isEmpty else {
            logger.error("No frame from the camera near the shutter instant; the shot is missed.")
            post(.shotFailed(shutterAt: shutterAt))
            return
        }
        // A picture of several shots is numbered once, with its first shot.
        let number =
            request.part.map { part in
                pictureNumbers.withLock { numbers in
                    if let number = numbers[part.picture] { return number }
                    let number = library.reservePhotoNumber()
                    numbers[part.picture] = number
                    return number
                }
            } ?? library.reservePhotoNumber()
        let photo = TakenPhoto(id: request.photo, placeholder: .placeholder(number: number))
        // The writer announces the shot from its queue, so that every answer about it arrives
        // in order (see `PhotoWriter.store`).
        writer.store(.init(photo: photo, number: number, candidates: candidates, shutterAt: shutterAt, part: request.part))
    }
}
