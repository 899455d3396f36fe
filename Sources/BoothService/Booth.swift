import BoothCore
import BoothDevices
import BoothImaging
import BoothPictures
import BoothPrint
import BoothScreen
import BoothStore
import BoothSync
import BoothSystem
import BoothWeb
import Foundation
import Logging
import ServiceLifecycle

/// The booth as a whole: library, devices, state machine and photo writer in one service group.
package enum Booth {
    /// Why ``run(_:reading:logger:)`` returned.
    package enum Outcome: Sendable {
        /// Input ended (a piped script), or SIGTERM/SIGINT.
        case stopped
        /// SIGHUP brought a configuration that reads well: start again to use it.
        case reload
    }

    /// Runs the booth until its input ends (a piped script), SIGTERM/SIGINT, or a SIGHUP after
    /// which `reading` gives a valid configuration (then once no photo is in flight). Returns
    /// once every photo it reported as saved is on disk and in the catalog.
    ///
    /// Under systemd (`Type=notify`) it reports readiness, its state and its watchdog beats
    /// (see ``ServiceManagerReporter``).
    package static func run(
        _ configuration: BoothConfiguration, reading: (@Sendable () throws -> BoothConfiguration)? = nil,
        logger: Logger
    ) async throws -> Outcome {
        // The signals are trapped before anything else, so that a `systemctl reload` or `stop`
        // while starting is kept for later.
        let reloading = reading.map { (read: $0, hangups: TrappedSignal.hangup) }
        let stops = TrappedSignal.stop
        let reporter = ServiceManagerReporter(notifier: SystemdNotifier())
        // The shot just taken, decoded once by the photo writer for every screen that shows it.
        let reviews = ReviewPictures()
        // The layout's frame over the live preview, set once the layout is read.
        let guides = PoseGuides()
        // Devices first: a booth that cannot work stops before it touches the library. Opening
        // them blocks (ioctls, termios, mmap), so on a thread of its own.
        let devices = try await DedicatedThread.run(name: "opening devices") {
            let real = configuration.simulate ? configuration.realParts : .all
            let devices: DeviceSet
            do {
                devices = try DeviceSet.open(
                    configuration.devices, keys: configuration.keyBindings, standardMode: configuration.settings.modes.standard,
                    language: configuration.language, real: real, reviews: reviews, guides: guides, mirrored: configuration.web.enabled,
                    logger: logger)
            } catch let error where !real.isEmpty {
                let alternative =
                    configuration.simulate
                    ? "without the device options, `photobooth run --simulate` simulates every part"
                    : "`photobooth run --simulate` runs the booth without hardware"
                throw BoothError(description: "\(error) `photobooth doctor` checks every part and says how to fix it; \(alternative).")
            }
            guard configuration.web.enabled else { return devices }
            return devices.mirrored(screenSettings: configuration.hardware.screen, reviews: reviews, guides: guides, logger: logger)
        }
        let outcome: Outcome
        do {
            outcome = try await serve(
                configuration, on: devices, reviews: reviews, guides: guides, reporter: reporter, reloading: reloading, stops: stops,
                logger: logger)
        } catch {
            // The screen gives the console back and the light goes off on every way out.
            await devices.finish()
            throw error
        }
        guard outcome == .reload else {
            await devices.finish()
            return outcome
        }
        // The reload's service group has ended, and with it its trap: a stop from now on ends
        // the process (every photo is saved), and one that came while it wound down wins.
        stops.endImmediately()
        await devices.finish()
        return stops.wasReceived ? .stopped : .reload
    }

    /// Opens the library and runs the booth's services on `devices` until they stop.
    private static func serve(
        _ configuration: BoothConfiguration, on devices: DeviceSet, reviews: ReviewPictures, guides: PoseGuides,
        reporter: ServiceManagerReporter,
        reloading: (read: @Sendable () throws -> BoothConfiguration, hangups: TrappedSignal)?, stops: TrappedSignal, logger: Logger
    ) async throws -> Outcome {
        let connectionLimits = raiseDescriptorLimit(logger: logger)
        // A layout that cannot be used stops the start before anything else, with its line.
        let layout = try configuration.loadedLayout()
        let printSettings = try configuration.printSettings()
        let hotspot = try configuration.hotspotPlan()
        if let hotspot {
            logger.info(
                "Guests join the booth's Wi-Fi \(hotspot.network) (photobooth-hotspot.service) and find their photos at \(hotspot.portalURL).")
        }
        // Where a picture's shots are decoded, kept from one picture to the next until idle.
        let decodeMemory = DecodeMemory()
        let composer: PictureComposer?
        do {
            composer = try layout.map { (layout) throws(LayoutError) in
                try PictureComposer(layout, defaultFont: configuration.hardware.screen.fonts.bold, memory: decodeMemory)
            }
        } catch {
            throw ConfigurationError(.notAllowed, key: "booth.layout", "booth.layout: \(error)")
        }
        guides.set(layout?.poseGuides ?? [])
        if let layout {
            logger.info(
                "Pictures are composed in the layout \(layout.layout.name) (\(layout.layout.width)x\(layout.layout.height), \(layout.layout.slots.count) shots)."
            )
        }
        let thumbnailer = JPEGThumbnailer()
        let (lock, library) = try await lockAndOpenLibrary(configuration, thumbnailer: thumbnailer, logger: logger)
        defer { withExtendedLifetime(lock) {} }
        logger.info("Photo library in \(library.directory.path)")

        let frames = RecentFrames()
        let monitor = BoothMonitor(dataDirectory: library.directory)
        // Room for the longest sequence the booth takes, above the reserve: a press finds the
        // disk full before its first countdown, never between a collage's shots.
        let storage = StorageWatcher(
            directory: library.directory, reserveBytes: configuration.storageReserveBytes + configuration.sequenceBytes, logger: logger)
        // The QR code after a save links to the photo's page, when there is a web gallery, with
        // the key that lets the guest delete the photo for a while.
        let deletionKeys = await guestDeletionKeys(configuration.web, library: library, logger: logger)
        let links = PhotoLinks(
            publicURL: configuration.web.publicURL, address: configuration.web.address, port: configuration.web.port,
            enabled: configuration.web.enabled, deletionKeys: deletionKeys, hotspot: hotspot)
        let live = BoothFeeds(
            screen: devices.mirror?.pictures ?? LatestValue(), status: { monitor.status }, metrics: { monitor.exposition() })
        let memory = IdleMemoryTrimmer {
            // The last shots' pictures at the screen's size: no screen shows them once idle.
            reviews.removeAll()
            decodeMemory.release()
            library.releaseMemory()
            FreedMemory.giveBack()
            FreedMemory.releaseUnusedCode()
        }
        let observer = BoothObserver(
            stateChanged: { state in
                monitor.stateChanged(to: state)
                reporter.stateChanged(to: state)
                memory.stateChanged(to: state)
            },
            inputReadiness: devices.paceInput,
            photoStored: { _, duration in monitor.photoStored(after: duration) },
            // A photo appears in the web gallery once it has its name.
            photoNamed: { live.photoAdded.publish($0) },
            stopping: { reporter.stopping() },
            libraryWritten: { failed in storage.checkNow(probing: failed) })
        var settings = configuration.settings
        settings.keys = devices.bindings
        settings.keys.modeKeys = configuration.settings.keys.modeKeys
        settings.keys.printKey = configuration.keyBindings.printKey
        settings.modes = configuration.modes(with: layout)
        // Photos are dated by the store's time once the sync has heard it (a Pi has no clock of
        // its own until NTP syncs).
        let wallClock = CorrectedClock()
        let speaker = await DedicatedThread.run(name: "sound") {
            BoothSpeaker.open(configuration.hardware.sound, voice: configuration.settings.voice, language: configuration.language, logger: logger)
        }
        let runtime = BoothRuntime(
            settings: settings, clock: MonotonicClock(), frames: frames, button: devices.button, modeButtons: devices.modeButtons,
            printButton: devices.printButton, keypad: devices.keypad,
            screen: devices.screen, library: library, reviews: reviews, dateFormat: configuration.dateFormat,
            photoLink: links.link(to:), deletionKey: links.deletionKey(for:), join: hotspot?.network, observer: observer,
            heartbeat: reporter.watchdogInterval.map { .init(interval: $0, beat: { reporter.alive() }) }, wallClock: wallClock,
            composer: composer, memory: decodeMemory, blanks: configuration.layoutBlanks,
            autoPrintCopies: configuration.printing.printer != nil && configuration.printing.auto ? configuration.printing.copies : 0,
            printCopies: configuration.printing.copies, speaker: speaker.speaker,
            logger: logger)
        let webPreview = PreviewPublisher(feed: live.preview)
        let cameraService = CameraService(
            camera: devices.camera, frames: frames, logger: logger,
            preview: { frame in
                devices.preview?(frame)
                webPreview.offer(frame)
            },
            metrics: monitor
        ) { event in
            monitor.cameraReported(event)
            runtime.post(event)
        }

        let storageChecked: @Sendable (StorageHealth) -> Void = { health in
            monitor.storageChecked(health)
            if library.isReadOnly && health.problem == nil {
                // The catalog was opened for reading only on a full disk, and cannot take a
                // photo: the fault stays on the screen while a new run opens it for writing (and
                // checks the library, as every start does).
                runtime.restart("to open the catalog for writing, now that the disk has room")
                return
            }
            runtime.storageChecked(health.problem.map { $0 == .full ? .storageFull : .storageFailing })
        }
        // The first check is reported before the camera can say it is ready (it blocks: off the pool).
        await DedicatedThread.run(name: "storage check") { storage.start(reporting: storageChecked) }
        defer { storage.stop() }
        memory.start()
        defer { memory.stop() }
        devices.start()
        // The group stops services in reverse order, waiting for each: the booth first (it
        // finishes the photo in flight and its saves, while the web still serves and the camera
        // still films), then the reloader, the web, the hashes made in the background, the
        // camera last. The booth is the one service
        // that may end by itself (a reload, the end of piped input); first in that order, it
        // always ends when the group expects it to, even while the group is stopping for a SIGTERM.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: cameraService, serviceName: "camera"),
            // Photos saved before the booth kept perceptual hashes get theirs, in the background.
            .init(
                service: PerceptualHashFiller(library: library, logger: logger), successTerminationBehavior: .ignore,
                serviceName: "perceptual hashes"),
        ]
        if configuration.web.enabled {
            var settings = WebSettings(
                address: configuration.web.address, port: configuration.web.port, boothName: configuration.web.boothName,
                adminToken: configuration.web.adminToken, dateFormat: configuration.dateFormat, event: configuration.sync.event ?? "",
                welcome: configuration.web.welcome, deletionKeys: deletionKeys)
            settings.language = configuration.language
            settings.hotspot = hotspot?.guests
            settings.connectionLimits = connectionLimits
            settings.connectionLimits?.hotspot = settings.hotspot
            settings.printCopies = configuration.printing.printer == nil ? nil : configuration.printing.copies
            settings.guestPrinting = configuration.printing.printer != nil && configuration.printing.guests ? configuration.printing.limits : nil
            let server = GalleryServer(library: library, live: live, settings: settings, logger: logger)
            services.append(.init(service: OptionalService(server, name: "The web gallery", logger: logger), serviceName: "web"))
        } else {
            logger.info("The web gallery is off (--no-http or http.enabled: false).")
        }
        if let reloading {
            let reloader = ConfigurationReloader(hangups: reloading.hangups, read: reloading.read, logger: logger) {
                reporter.reloading()
                runtime.restart("with the new configuration")
            }
            services.append(.init(service: reloader, serviceName: "reload"))
        }
        if configuration.sync.isEnabled {
            let sync = EventSync(
                settings: configuration.sync, boothName: configuration.web.boothName, library: library, tagger: PictureTagger(),
                thumbnailer: thumbnailer, logger: logger, isBeingNamed: { runtime.isBeingNamed($0) }, clock: wallClock,
                guestDeletions: deletionKeys.map(GuestDeletions.init(keys:)))
            monitor.attach(sync.metrics)
            services.append(.init(service: SyncService(sync: sync), serviceName: "sync"))
        } else {
            logger.info("The event sync is off (no sync.endpoint, sync.bucket and sync.event).")
        }
        if let settings = printSettings {
            let printing = PrintWorker(settings: settings, library: library, logger: logger, isBeingNamed: { runtime.isBeingNamed($0) }) {
                status in
                // Guests hear of what holds their prints; a warning (paper running low) is the operator's.
                runtime.post(.printerChanged(status.isHoldingPrints ? status.fault : nil))
            }
            logger.info(
                """
                Printing on the CUPS queue \(settings.queue) at \(settings.server), on \(settings.media)\
                \(settings.auto ? ", every picture as it is saved (\(settings.copies) cop\(settings.copies == 1 ? "y" : "ies"))" : ", on request").
                """)
            monitor.attach { printing.figures }
            services.append(.init(service: PrintService(worker: printing), serviceName: "print"))
        } else {
            logger.info("Printing is off (no print.printer).")
        }
        if let hotspot {
            let watch = HotspotWatch(HotspotFiles(hotspot), logger: logger)
            monitor.attach(hotspot: { watch.figures })
            services.append(.init(service: HotspotService(watch: watch), serviceName: "hotspot"))
        }
        services.append(.init(service: runtime, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "booth"))
        // SIGTERM and SIGINT come through TrappedSignal.stop, which hears them for the whole run.
        do {
            try await runUntilStopped(ServiceGroup(configuration: .init(services: services, logger: logger)), stops: stops)
        } catch {
            await speaker.stop()
            throw error
        }
        await speaker.stop()
        live.preview.close()
        live.photoAdded.close()
        return runtime.isRestarting ? .reload : .stopped
    }
}

/// Raises the process's limit on open files as far as the web gallery's most connections need
/// (``ConnectionLimits/descriptorsWanted``) and the hard limit allows, and returns the web's
/// limits for it: a flood of connections then meets the web's limits, never the process's, and
/// the photo being saved always finds a descriptor.
func raiseDescriptorLimit(logger: Logger) -> ConnectionLimits {
    let before = try? DescriptorLimit.current()
    let limit: DescriptorLimit
    do {
        limit = try DescriptorLimit.raise(upTo: ConnectionLimits.descriptorsWanted)
    } catch {
        logger.warning("The limit on open files cannot be raised (\(error)); the web gallery fits its connections to the present one.")
        return .forThisProcess()
    }
    let limits = ConnectionLimits.fitting(descriptors: limit.soft)
    let raised = before.map { $0.soft == limit.soft ? "" : ", raised from \($0.soft)" } ?? ""
    logger.debug(
        """
        Open files: at most \(limit)\(raised). The web gallery holds at most \(limits), keeping \
        \(ConnectionLimits.reservedDescriptors) descriptors for the rest of the booth.
        """)
    return limits
}

/// The keys of the guests' deletion links, from the library's secret (made at the first start,
/// which writes a file: off the cooperative pool); `nil` when the gallery is off, the links are
/// configured not to delete (`http.guest_delete_hours: 0`), or the secret cannot be read or
/// made, which the log says (the booth works on, its links without a key).
func guestDeletionKeys(_ web: WebConfiguration, library: PhotoLibrary, logger: Logger) async -> DeletionKeys? {
    guard web.enabled, web.guestDeleteHours > 0 else { return nil }
    do {
        let secret = try await DedicatedThread.run(name: "guest link secret") { try library.guestLinkSecret() }
        return DeletionKeys(secret: secret, validity: .seconds(web.guestDeleteHours * 3600))
    } catch {
        logger.warning("Guests cannot delete their photos from the booth's link: \(error)")
        return nil
    }
}

/// Locks, opens, migrates and reconciles the library, rebuilding a catalog SQLite cannot read.
/// All of it blocks (fsync, decoding orphans): done on a thread of its own, not on the
/// cooperative pool. The library is the booth's while the lock lives.
func lockAndOpenLibrary(
    _ configuration: BoothConfiguration, thumbnailer: any Thumbnailer, logger: Logger
) async throws -> (LibraryLock, PhotoLibrary) {
    try await DedicatedThread.run(name: "opening library") {
        let lock = try LibraryLock(directory: configuration.dataDirectory)
        do {
            return (lock, try openLibrary(configuration, thumbnailer: thumbnailer, logger: logger))
        } catch let error as LibraryError where error.code == .damagedCatalog {
            logger.error("\(error)")
            logger.notice("Setting the damaged catalog aside and rebuilding it from the photos and their sidecars.")
            for action in try LibraryMaintenance.rebuildCatalog(
                in: configuration.dataDirectory, thumbnailer: thumbnailer, logger: logger, boothName: configuration.web.boothName)
            {
                logger.notice("Library: \(action)")
            }
            return (lock, try openLibrary(configuration, thumbnailer: thumbnailer, logger: logger))
        }
    }
}

/// Runs `group` until its services end or SIGTERM or SIGINT (`stops`) asks it to stop.
func runUntilStopped(_ group: ServiceGroup, stops: TrappedSignal) async throws {
    try await withThrowingDiscardingTaskGroup { tasks in
        tasks.addTask {
            if await stops.next() { await group.triggerGracefulShutdown() }
        }
        try await group.run()
        tasks.cancelAll()
    }
}

/// Opens the library for the booth and cleans up after a crash (``PhotoLibrary/reconcileAtStart()``:
/// the operations a crash interrupted, in a time that does not grow with the library; every
/// photo when the catalog lost commits or is new); blocking. A check that fails for another reason than a damaged catalog (for want of space,
/// say) is logged, and the booth starts all the same.
private func openLibrary(
    _ configuration: BoothConfiguration, thumbnailer: any Thumbnailer, logger: Logger
) throws(LibraryError) -> PhotoLibrary {
    let library = try PhotoLibrary(
        directory: configuration.dataDirectory, thumbnailer: thumbnailer, logger: logger, create: true,
        boothName: configuration.web.boothName)
    guard !library.isReadOnly else {
        logger.notice("The library's check at start waits for a start with room to write: a crash's leftovers stay as they are until then.")
        return library
    }
    do {
        let clock = ContinuousClock()
        let started = clock.now
        let reconciliation = try library.maintenance.reconcileAtStart()
        for action in reconciliation.actions {
            logger.notice("Library: \(action)")
        }
        if reconciliation.fullCheck != nil {
            logger.notice("Library: every photo checked in \((clock.now - started).formattedMilliseconds).")
        }
    } catch let error where error.code == .damagedCatalog {
        // Its files are about to be set aside: no connection of it may touch them after.
        library.close()
        throw error
    } catch {
        // A crash's leftovers wait for the next start; the photos taken meanwhile are safe.
        logger.error("The library's check at start could not finish: \(error) The booth starts anyway; the next start tries again.")
    }
    return library
}

/// The event sync as one of the booth's services: it runs until the group stops.
struct SyncService: Service {
    let sync: EventSync

    func run() async throws {
        await cancelWhenGracefulShutdown { await sync.run() }
    }
}

/// The print thread as one of the booth's services: it runs until the group stops.
struct PrintService: Service {
    let worker: PrintWorker

    func run() async throws {
        worker.start()
        try? await gracefulShutdown()
        await worker.stop()
    }
}

extension PrintSettings {
    /// The print thread's settings from `print:`, without a print layout; `nil` when the booth
    /// does not print.
    init?(_ configuration: PrintConfiguration) {
        guard let printer = configuration.printer else { return nil }
        let device = PrintConfiguration.isPrinterAddress(printer) ? printer : nil
        self.init(
            server: configuration.server ?? .cupsDefault, queue: device == nil ? printer : PrintConfiguration.boothQueue,
            media: configuration.media, copies: configuration.copies, auto: configuration.auto,
            margin: configuration.marginMillimetres * 100, resumeQueue: configuration.resumeQueue, device: device)
    }
}

/// A part the booth can do without: when it fails (the web port is taken), the failure is
/// logged and the booth goes on taking photos until it stops.
struct OptionalService<Wrapped: Service>: Service {
    let wrapped: Wrapped
    let name: String
    let logger: Logger

    init(_ wrapped: Wrapped, name: String, logger: Logger) {
        self.wrapped = wrapped
        self.name = name
        self.logger = logger
    }

    func run() async throws {
        do {
            try await wrapped.run()
        } catch {
            // Messages end with their own full stop, or not.
            let reason = "\(error)".hasSuffix(".") ? "\(error)" : "\(error)."
            logger.error("\(name) stopped: \(reason) The booth goes on without it.")
            try? await gracefulShutdown()
        }
    }
}

/// The booth's parts, simulated or real, behind the BoothCore protocols.
struct DeviceSet: Sendable {
    var camera: any Camera
    var button: any ShutterButton
    /// The buttons that make a picture of another mode than the standard one.
    var modeButtons: [PictureMode: any ShutterButton] = [:]
    /// The button that prints the picture on its saved screen (`gpio.print_line`).
    var printButton: (any ShutterButton)?
    var keypad: any Keypad
    var screen: any Screen
    /// What the keys mean: the real keypad's bindings, or the terminal's.
    var bindings: KeyBindings
    /// What the screens call the keys.
    var labels: KeyLabels
    /// The words the screens say.
    var texts: BoothTexts
    /// Receives the camera's frames for a live preview, when the screen shows one.
    var preview: (@Sendable (CameraFrame) -> Void)?
    /// The screen drawn off-screen for the web (`/screen.mjpg`); `nil` without one.
    var mirror: ScreenMirror?
    /// Called once the booth is about to run.
    var start: @Sendable () -> Void = {}
    /// Told what the booth waits for after every event: piped input waits for it.
    var paceInput: @Sendable (InputReadiness) -> Void = { _ in }
    /// Called after the booth stopped (the terminal prints its last lines).
    var finish: @Sendable () async -> Void = {}

    /// The booth's parts: the `real` ones as `hardware` says (the V4L2 camera, the GPIO
    /// button, the light, the serial keypad, the framebuffer), the others simulated: the
    /// test-pattern camera, and the terminal as button, keypad and screen. A camera, keypad or
    /// display that is not plugged in yet is waited for; a button line, a screen or fonts that
    /// cannot be used stop the booth here, with a message saying why. The screens, the keypad's
    /// display and the terminal speak `language`.
    ///
    /// The terminal is a keyboard like any other: it sends the keys typed, and the machine
    /// gives them their meaning with the terminal's bindings (``KeyBindings/terminal(pressesShutter:)``:
    /// a line at a time, Enter pressing the shutter when the button is simulated too). With a
    /// real keypad and a simulated button, each of its lines is a press. What the terminal and
    /// the keypad's display print is their ``TextScreen``.
    ///
    /// - Parameters:
    ///   - standardMode: what the button makes, which the main screens say.
    ///   - reviews: the pictures of the shots just taken, which the framebuffer shows.
    ///   - mirrored: whether the web will mirror the screen (``mirrored(screenSettings:reviews:guides:logger:)``):
    ///     then, as with a framebuffer, the keypad and the terminal say that the photo is shown.
    static func open(
        _ hardware: HardwareConfiguration, keys: KeyBindings, standardMode: PictureMode = .single, language: BoothLanguage,
        real: DeviceParts, reviews: ReviewPictures, guides: PoseGuides? = nil, mirrored: Bool, logger: Logger
    ) throws -> DeviceSet {
        let texts = language.texts
        let photoOnScreen = real.contains(.screen) || mirrored
        let camera: any Camera =
            real.contains(.camera)
            ? hardware.realCamera(logger: logger)
            : SimulatedCamera(
                width: hardware.camera.width, height: hardware.camera.height, framesPerSecond: hardware.camera.framesPerSecond)
        let button = real.contains(.button) ? try GPIOButton(settings: hardware.shutter, logger: logger) : nil
        var modeButtons: [PictureMode: any ShutterButton] = [:]
        if real.contains(.button) {
            for (mode, settings) in hardware.modeButtons {
                modeButtons[mode] = try GPIOButton(settings: settings, logger: logger, named: mode.rawValue.capitalized)
            }
        }
        let printButton = real.contains(.button) ? try hardware.printButton.map { try GPIOButton(settings: $0, logger: logger, named: "Print") } : nil
        let keypad = real.contains(.keypad) ? try SerialKeypad(settings: hardware.keypad, logger: logger) : nil
        let light = real.contains(.light) ? try hardware.light.map { try StatusLight(settings: $0, logger: logger) } : nil
        // The terminal stands for the keypad (its keys, the button's too when that is simulated),
        // or for the button alone; a booth with anything simulated prints its screen there too.
        let reading: TerminalConsole.Reading? = keypad == nil ? .keys : button == nil ? .presses : nil
        let console = real == .all ? nil : try TerminalConsole(reading: reading, logger: logger)
        var bindings = keypad == nil ? KeyBindings.terminal(pressesShutter: button == nil) : keys
        // The modes' own keys, on whichever keyboard the guests have; the screens say what each makes.
        bindings.modeKeys = keys.modeKeys
        bindings.printKey = keys.printKey
        var labels = KeyLabels(for: bindings, in: texts)
        labels.standardMode = standardMode
        // As the modes' buttons: a guest at the booth sees the print button before the key.
        if printButton != nil { labels.print = texts(.thePrintButton) }
        // The modes' own buttons come before their keys: a guest at the booth sees the buttons.
        labels.modeKeys.insert(
            contentsOf: modeButtons.keys.sorted { $0.sortOrder < $1.sortOrder }.map {
                KeyLabels.ModeKey(label: texts(.theModeButton(for: $0)), mode: $0)
            },
            at: 0)
        var terminalLabels = labels
        if reading == .presses {
            // Every line presses the shutter, Enter on its own included.
            terminalLabels.shutter = texts(.keyEnter)
            terminalLabels.galleryShutter = texts(.keyEnter)
        }
        let terminal = console.map { console in
            TextDisplay(
                TextScreen(
                    form: .lines(drawsQRCodes: console.printsToTerminal), keys: terminalLabels, texts: texts, photoOnScreen: photoOnScreen,
                    // Lines that go to a file or the journal are not the guest's alone.
                    audience: console.printsToTerminal ? .guest : .anyone),
                on: console)
        }
        let keypadDisplay = keypad.map { keypad in
            TextDisplay(
                TextScreen(
                    form: .display(ansi: hardware.keypad.ansi), keys: labels, texts: texts, photoOnScreen: photoOnScreen, audience: .guest),
                on: keypad)
        }
        // The screen last: once open it holds the console in graphics mode until stopped.
        let framebuffer: DisplayScreen?
        do {
            framebuffer =
                real.contains(.screen)
                ? try DisplayScreen(
                    device: hardware.screen.device, fonts: hardware.screen.fonts, theme: hardware.screen.theme,
                    previewFPS: hardware.screen.previewFramesPerSecond, keys: labels, texts: texts, reviews: reviews, guides: guides,
                    logger: logger)
                : nil
        } catch {
            light?.stopWaiting()
            throw error
        }
        let screens: [(any Screen)?] = [framebuffer, terminal, keypadDisplay, light]
        let shutter: any ShutterButton = button ?? console!
        let keyboard: any Keypad = keypad ?? console!
        var preview: (@Sendable (CameraFrame) -> Void)?
        if let framebuffer { preview = { framebuffer.showPreview($0) } }
        return DeviceSet(
            camera: camera, button: shutter, modeButtons: modeButtons, printButton: printButton, keypad: keyboard,
            screen: ScreenGroup(screens.compactMap { $0 }),
            bindings: bindings, labels: labels, texts: texts, preview: preview,
            start: {
                guard let console else { return }
                // A person at the terminal is told what its keys do; a script knows.
                if console.isInteractive, let help = TextScreen.terminalHelp(shoots: button == nil, types: keypad == nil, in: texts) {
                    console.write(Array(help.utf8))
                }
                console.start()
            },
            paceInput: { console?.follow($0) },
            finish: {
                // The terminal prints its last lines; the console gets its text mode back; the light goes off.
                await console?.flush()
                await framebuffer?.stop()
                await light?.stop()
            })
    }
}

extension DeviceSet {
    /// These devices with a ``ScreenMirror`` beside the screen, for the web's `/screen.mjpg`. A
    /// mirror that cannot be made (no fonts) is logged, and the booth runs without it.
    func mirrored(screenSettings: ScreenSettings, reviews: ReviewPictures, guides: PoseGuides? = nil, logger: Logger) -> DeviceSet {
        let mirror: ScreenMirror
        do {
            mirror = try ScreenMirror(
                fonts: screenSettings.fonts, theme: screenSettings.theme, keys: labels, texts: texts, reviews: reviews, guides: guides,
                logger: logger)
        } catch {
            logger.error("The web cannot show the booth's screen: \(error)")
            return self
        }
        var devices = self
        devices.mirror = mirror
        devices.screen = ScreenGroup([screen, mirror])
        devices.preview = { [preview] frame in
            preview?(frame)
            mirror.showPreview(frame)
        }
        devices.finish = { [finish] in
            await finish()
            await mirror.stop()
        }
        return devices
    }
}

/// Several outputs that follow the booth's screen: the display, the keypad's echo, the light.
struct ScreenGroup: Screen {
    let screens: [any Screen]

    init(_ screens: [any Screen]) {
        self.screens = screens
    }

    func show(_ content: ScreenContent) {
        for screen in screens { screen.show(content) }
    }

    func showPrinterNotice(_ fault: PrinterFault?) {
        for screen in screens { screen.showPrinterNotice(fault) }
    }
}

/// Why the booth could not start.
package struct BoothError: Error, CustomStringConvertible {
    package let description: String
}

extension HardwareConfiguration {
    /// The camera `camera.device` names: a libcamera camera (`libcamera:0`) or a V4L2 device.
    func realCamera(logger: Logger) -> any Camera {
        if let camera = LibcameraCamera(settings: camera, logger: logger) { return camera }
        return V4L2Camera(settings: camera, logger: logger)
    }
}
