import BoothCore
import BoothImaging
import BoothPictures
import BoothScreen
import BoothStore
import BoothSystem
import Foundation
import Logging
import Synchronization
import Testing

@testable import BoothService

/// A booth runtime and camera service over a library in a temporary folder. The booth's time
/// is ``clock``, which moves only when a test advances it: its deadlines never pass because the
/// machine running the test is slow. Presses and frames are stamped on that clock. The camera
/// is declared stalled (on the system's clock) only after `stallTimeout` (10 minutes unless a
/// test is about stalls): tests deliver a frame or two, and on a loaded machine their steps
/// may take longer than the booth's own 5 s, which would take the camera away from under them.
final class Rig: Sendable {
    let clock = ManualClock()
    let camera = ControlledCamera()
    let controls: TestControls
    let screen = RecordingScreen()
    let frames = RecentFrames()
    let directory: URL
    let library: PhotoLibrary
    let runtime: BoothRuntime<ManualClock>
    let cameraService: CameraService
    /// Where the booth puts the pictures of its shots for the screens.
    let reviews = ReviewPictures()
    /// The screen size of each decode the booth did, in order.
    let decodes = DecodeLog()

    init(
        countdown: Duration = .zero, stallTimeout: Duration = .seconds(600), screen: (any Screen)? = nil,
        controls: TestControls = TestControls(), dateFormat: PhotoDateFormat = .standard,
        photoLink: @escaping @Sendable (UUID) -> String? = { _ in nil }, observer: BoothObserver = BoothObserver(),
        modes: PictureModes = PictureModes(), composer: sending PictureComposer? = nil,
        modeButtons: [PictureMode: any ShutterButton] = [:], printButton: (any ShutterButton)? = nil,
        speaker: any Speaker = NoSpeaker()
    ) throws {
        self.controls = controls
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photobooth-runtime-\(UUID().lowercased)")
        library = try PhotoLibrary(
            directory: directory, thumbnailer: JPEGThumbnailer(), logger: Logger(label: "test"), create: true)
        runtime = BoothRuntime(
            settings: BoothSettings(countdown: countdown, modes: modes), clock: clock, frames: frames, button: controls,
            modeButtons: modeButtons, printButton: printButton, keypad: controls,
            screen: screen ?? self.screen, library: library, reviews: reviews,
            decodeShot: { [decodes] jpeg, screen in
                decodes.sizes.withLock { $0.append(screen) }
                return try ShotDecoder(screen: screen).decode(jpeg)
            }, dateFormat: dateFormat, photoLink: photoLink, observer: observer, composer: composer,
            blanks: [.event: "Anna & Ben"], speaker: speaker, logger: Logger(label: "test"))
        cameraService = CameraService(
            camera: camera, frames: frames, logger: Logger(label: "test"), stallTimeout: stallTimeout
        ) { [runtime] in
            runtime.post($0)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Adds `count` photos straight to the library, a minute apart, the newest last, named
    /// `names` in that order (else with their placeholders); returns them newest first, as the
    /// gallery lists them.
    @discardableResult
    func addPhotos(_ count: Int, named names: [String]? = nil, from start: Date = Date(timeIntervalSince1970: 1_795_000_000)) throws -> [Photo] {
        let jpeg = try JPEGSegments.repairedMJPEG(try TestFrames.frame(number: 1, at: clock.now).bytes)
        let thumbnail = try JPEGThumbnailer().thumbnail(of: jpeg)
        for offset in 0..<count {
            let number = library.reservePhotoNumber()
            _ = try library.add(
                jpeg, thumbnail: thumbnail, id: UUID(), number: number,
                caption: names.flatMap { Caption(sanitizing: $0[offset]) } ?? .placeholder(number: number), createdAt: start + Double(offset * 60))
        }
        return try library.gallery.photos()
    }

    /// Runs the booth while `body` drives it; returns when the booth has stopped.
    func run(_ body: () async throws -> Void) async throws {
        let cameraTask = Task { await cameraService.run() }
        let boothTask = Task { await runtime.run() }
        try await body()
        controls.endInput()
        await boothTask.value
        cameraTask.cancel()
        await cameraTask.value
    }
}

/// The screen size of each decode of a shot, in order.
final class DecodeLog: Sendable {
    let sizes = Mutex<[PixelSize?]>([])
}

@Suite("Booth runtime", .timeLimit(.minutes(1)))
struct BoothRuntimeTests {
    @Test("A name typed the instant the naming screen appears is kept (a fast keypad or a pipe)")
    func nameTypedAtOnce() async throws {
        let controls = TestControls()
        let recording = RecordingScreen()
        let rig = try Rig(screen: TypingScreen(forwardingTo: recording, controls: controls, name: "Quick"), controls: controls)
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await recording.next(.ready)
            let press = rig.clock.now
            controls.press(at: press)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: press + .milliseconds(5)))
            await recording.next { if case .saved = $0 { true } else { false } }
        }
        #expect(try rig.library.gallery.photos().map(\.caption.text) == ["Quick"])
    }

    @Test("The print button (gpio.print_line) on the saved screen queues the picture's print, once, and the screen says so")
    func printButton() async throws {
        let printButton = TestControls()
        let rig = try Rig(printButton: printButton)
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            let press = rig.clock.now
            rig.controls.press(at: press)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: press + .milliseconds(5)))
            await rig.screen.next { if case .naming = $0 { true } else { false } }
            rig.controls.type("Ada")
            await rig.screen.next { if case .saved(_, _, _, _, false) = $0 { true } else { false } }
            printButton.press(at: rig.clock.now)
            printButton.press(at: rig.clock.now)
            await rig.screen.next { if case .saved(_, _, _, _, true) = $0 { true } else { false } }
        }
        let photo = try #require(try rig.library.gallery.photos().first)
        let requests = try rig.library.prints.requests(in: [.pending])
        #expect(requests.map(\.photo) == [photo.id] && requests.first?.reason == .booth, "one print, however many presses")
    }

    @Test("After every event the runtime tells what the booth waits for and the keys it handled: nothing while the library counts")
    func readiness() async throws {
        let (told, tell) = AsyncStream.makeStream(of: InputReadiness.self)
        let rig = try Rig(observer: BoothObserver(inputReadiness: { tell.yield($0) }))
        var readiness = told.makeAsyncIterator()
        /// Whether `expected` is told, skipping what is told before it.
        func comes(_ expected: InputReadiness) async -> Bool {
            while let told = await readiness.next() {
                if told == expected { return true }
            }
            return false
        }
        func waiting(_ awaited: AwaitedInput, atRest: Bool, keys: Int) -> InputReadiness {
            InputReadiness(awaited: awaited, atRest: atRest, keysHandled: keys, pressesHandled: 0)
        }
        try rig.addPhotos(2)
        try await rig.run {
            #expect(await readiness.next() == waiting([], atRest: false, keys: 0), "starting: the camera is awaited")
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            #expect(await comes(waiting([.keys, .press], atRest: true, keys: 0)))
            rig.controls.send(.character("v"))
            #expect(await readiness.next() == waiting([], atRest: false, keys: 1), "the library counts the photos")
            #expect(await readiness.next() == waiting([.keys, .press], atRest: true, keys: 1), "the gallery is open")
            await rig.screen.next { if case .gallery = $0 { true } else { false } }
        }
    }

    @Test("A camera that opens but never delivers is a camera fault, not an endless start")
    func silentCamera() async throws {
        let rig = try Rig(stallTimeout: .milliseconds(200))
        try await rig.run {
            await rig.screen.next(.fault(.cameraMissing))
        }
        #expect(!rig.screen.contents.contains(.ready))
    }

    @Test("The saved photo is the camera's frame nearest the shutter, repaired, with the typed name")
    func zeroShutterLag() async throws {
        let rig = try Rig()
        let press = rig.clock.now
        let nearest = try TestFrames.frame(number: 2, at: press - .milliseconds(10))
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: press - .milliseconds(43)))
            await rig.screen.next(.ready)
            await rig.camera.deliver(nearest)
            rig.controls.press(at: press)
            // The frame after the shutter arrives later; it is further away than frame 2.
            await rig.camera.deliver(try TestFrames.frame(number: 3, at: press + .milliseconds(23)))
            await rig.screen.next { if case .naming = $0 { true } else { false } }
            rig.controls.type("Ann")
            await rig.screen.next { if case .saved = $0 { true } else { false } }
        }
        let photos = try rig.library.gallery.photos()
        #expect(photos.map(\.caption.text) == ["Ann"])
        let saved = try Data(contentsOf: rig.library.url(of: photos[0]))
        #expect(saved == (try JPEGSegments.repairedMJPEG(nearest.bytes)))
        #expect(rig.screen.contents.contains(.saved(Caption(sanitizing: "Ann")!, photo: photos[0].id)))
    }

    @Test("A shot is decoded once, at the screen's size: the naming screen gets its picture, the library its thumbnail")
    func oneDecodePerShot() async throws {
        let rig = try Rig()
        // A screen of the booth's, as the framebuffer registers itself once open.
        let (arrivals, arrived) = AsyncStream.makeStream(of: UUID.self)
        rig.reviews.register(screen: PixelSize(width: 640, height: 400)) { arrived.yield($0) }
        let press = rig.clock.now
        var shown: UUID?
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: press - .milliseconds(40)))
            await rig.screen.next(.ready)
            rig.controls.press(at: press)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: press + .milliseconds(5)))
            guard case .naming(_, _, let photo) = await rig.screen.next(where: { if case .naming = $0 { true } else { false } }) else {
                Issue.record("no naming screen")
                return
            }
            // The screen shows the photo the moment its picture arrives.
            for await id in arrivals where id == photo { break }
            shown = photo
            rig.controls.type("Ann")
            await rig.screen.next { if case .saved = $0 { true } else { false } }
        }
        let photo = try #require(try rig.library.gallery.photos().first)
        #expect(photo.id == shown)
        #expect(rig.decodes.sizes.withLock { $0 } == [PixelSize(width: 640, height: 400)], "one decode, for the screen")
        // A 160x120 camera's photo, enlarged to fill the 640x400 screen at its own 4:3.
        let review = try #require(rig.reviews.picture(of: photo.id)?.first)
        #expect((review.width, review.height, review.format) == (533, 400, .bgrx))
        let thumbnail = try #require(try rig.library.gallery.thumbnail(of: photo.id))
        let header = try JPEGHeader(thumbnail)
        #expect((header.width, header.height) == (160, 120), "the thumbnail of a photo smaller than one")
        // The same decode's hash, stored with the photo.
        let saved = try Data(contentsOf: rig.library.url(of: photo))
        #expect(
            try rig.library.gallery.perceptualHash(of: photo.id)
                == ShotDecoder(screen: PixelSize(width: 640, height: 400)).decode(saved).perceptualHash)
    }

    @Test("A corrupt frame at the shutter is replaced by the next nearest one")
    func corruptFrameFallsBack() async throws {
        let rig = try Rig()
        let press = rig.clock.now
        let fallback = try TestFrames.frame(number: 2, at: press + .milliseconds(30))
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 0, at: press - .milliseconds(200)))
            await rig.screen.next(.ready)
            await rig.camera.deliver(try TestFrames.truncatedFrame(number: 1, at: press))
            await rig.camera.deliver(fallback)
            rig.controls.press(at: press)
            await rig.screen.next { if case .naming = $0 { true } else { false } }
            rig.controls.type("")
            await rig.screen.next { if case .saved = $0 { true } else { false } }
        }
        let photo = try #require(try rig.library.gallery.photos().first)
        #expect(photo.caption.text == "Photo 1")
        #expect(try Data(contentsOf: rig.library.url(of: photo)) == (try JPEGSegments.repairedMJPEG(fallback.bytes)))
    }

    @Test("Camera unplugged mid-countdown: a fault, nothing saved, and back by itself when it returns")
    func cameraUnpluggedDuringCountdown() async throws {
        let rig = try Rig(countdown: .seconds(30))
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            rig.controls.press(at: rig.clock.now)
            await rig.screen.next(.countdown(secondsLeft: 30))
            rig.camera.unplug()
            await rig.screen.next(.fault(.cameraMissing))
            // The booth reopens the camera by itself; frames bring the main screen back.
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: rig.clock.now))
            await rig.screen.next(.ready)
        }
        #expect(try rig.library.gallery.photos().isEmpty)
        #expect(!rig.screen.contents.contains(.smile))
    }

    @Test("A photo that cannot be written interrupts naming with the reason, and the booth carries on")
    func storageFailure() async throws {
        let rig = try Rig()
        // A file where the photos folder should be: every write fails (even for root).
        let photos = rig.directory.appendingPathComponent("photos")
        try FileManager.default.removeItem(at: photos)
        try Data().write(to: photos)
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            rig.controls.press(at: rig.clock.now)
            await rig.camera.deliver(try TestFrames.frame(number: 2, at: rig.clock.now + .milliseconds(5)))
            await rig.screen.next(.fault(.storageFailing))
        }
        #expect(try rig.library.gallery.photos().isEmpty)
    }

    @Test("When input ends during naming, the photo keeps its placeholder and the booth stops")
    func inputEndsDuringNaming() async throws {
        let rig = try Rig()
        try await rig.run {
            let now = rig.clock.now
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: now))
            await rig.screen.next(.ready)
            rig.controls.press(at: now)
            await rig.screen.next { if case .naming = $0 { true } else { false } }
        }
        #expect(try rig.library.gallery.photos().map(\.caption.text) == ["Photo 1"])
    }

    // MARK: Gallery

    @Test(
        "The view key opens the list from the library: newest first, thumbnails, names, times in the booth's format; Enter shows the original; Back twice returns"
    )
    func gallery() async throws {
        let format = PhotoDateFormat(pattern: "'Taken' yyyy-MM-dd HH:mm")
        let rig = try Rig(dateFormat: format)
        let photos = try rig.addPhotos(7)
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            rig.controls.send(.character("v"))
            let opened = await rig.screen.next { if case .gallery = $0 { true } else { false } }
            guard case .gallery(let list) = opened else { return }
            #expect(list.position == GalleryPosition(index: 0, count: 7))
            #expect(list.rows.map(\.entry.id) == photos.prefix(5).map(\.id))
            #expect(list.rows.map(\.entry.caption.text) == ["Photo 7", "Photo 6", "Photo 5", "Photo 4", "Photo 3"])
            #expect(list.rows[0].entry.takenOn == format.string(from: photos[0].createdAt))
            #expect(list.rows[0].entry.takenOn.hasPrefix("Taken 20"))
            #expect(try list.rows.map(\.thumbnail) == photos.prefix(5).map { try #require(try rig.library.gallery.thumbnail(of: $0.id)) })

            for _ in 0..<5 { rig.controls.send(.down) }
            let turned = await rig.screen.next { if case .gallery(let list) = $0 { list.position.index == 5 } else { false } }
            guard case .gallery(let second) = turned else { return }
            #expect(second.page == 5..<7)
            #expect(second.rows.map(\.entry.id) == photos[5...].map(\.id), "the second page, read when the selection reached it")

            rig.controls.send(.enter)
            let shown = await rig.screen.next { if case .photo = $0 { true } else { false } }
            guard case .photo(let photo) = shown, let originals = photo.originals else {
                Issue.record("a full-screen photo with its original: \(shown)")
                return
            }
            #expect(photo.position == GalleryPosition(index: 5, count: 7))
            #expect(photo.entry == GalleryEntry(id: photos[5].id, caption: photos[5].caption, takenOn: format.string(from: photos[5].createdAt)))
            #expect(
                try originals.original(of: photos[5].id) == Data(contentsOf: rig.library.url(of: photos[5])), "the screens read it from the library")
            #expect(originals.location(of: photos[5].id) == rig.library.url(of: photos[5]).path)
            rig.controls.send(.escape)
            await rig.screen.next { if case .gallery(let list) = $0 { list.position.index == 5 } else { false } }
            rig.controls.send(.escape)
            await rig.screen.next(.ready)
        }
    }

    @Test("Typing in the gallery asks the library where the name leads: the list moves to the newest photo whose name starts so")
    func findByName() async throws {
        let rig = try Rig()
        // Newest first: Carl, Zoë, Ben, Anna, Bea.
        let photos = try rig.addPhotos(5, named: ["Bea", "Anna", "Ben", "Zoë", "Carl"])
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            rig.controls.send(.character("v"))
            await rig.screen.next { if case .gallery = $0 { true } else { false } }
            /// The list once the library's answer for `search` moved it to `index`.
            func list(_ search: NameSearch, at index: Int) async -> GalleryList? {
                let shown = await rig.screen.next {
                    if case .gallery(let list) = $0 { list.search == search && list.position.index == index } else { false }
                }
                guard case .gallery(let list) = shown else { return nil }
                return list
            }
            rig.controls.send(.character("B"))
            #expect(await list(NameSearch(prefix: "B"), at: 2)?.selectedRow?.entry.id == photos[2].id, "Ben, the newest B")
            rig.controls.send(.character("e"))
            rig.controls.send(.character("a"))
            #expect(await list(NameSearch(prefix: "Bea"), at: 4)?.selectedRow?.entry.caption.text == "Bea")
            // No name starts so: the selection stays, and the screen says so.
            rig.controls.send(.character("x"))
            _ = await list(NameSearch(prefix: "Beax", matches: false), at: 4)
            rig.controls.send(.escape)
            await rig.screen.next { if case .gallery(let list) = $0 { list.search == nil && list.position.index == 4 } else { false } }
            rig.controls.send(.character("z"))
            #expect(await list(NameSearch(prefix: "z"), at: 1)?.selectedRow?.entry.caption.text == "Zoë", "without case or accents")
        }
    }

    @Test("An empty library opens the empty list, and the button there starts the countdown")
    func emptyGallery() async throws {
        let rig = try Rig(countdown: .seconds(30))
        try await rig.run {
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: rig.clock.now))
            await rig.screen.next(.ready)
            rig.controls.send(.character("v"))
            await rig.screen.next(.gallery(GalleryList(position: GalleryPosition(index: 0, count: 0))))
            rig.controls.press(at: rig.clock.now)
            await rig.screen.next(.countdown(secondsLeft: 30))
            // The countdown runs out (no frame was exposed then: the shot fails), and the booth,
            // whose input has ended, can stop.
            rig.clock.advance(by: .seconds(30))
        }
    }

    @Test("The saved screen carries the photo page's link, from the closure the booth was given")
    func savedLink() async throws {
        let rig = try Rig(photoLink: { "http://booth.test:8080/photos/\($0.lowercased)" })
        try await rig.run {
            let now = rig.clock.now
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: now))
            await rig.screen.next(.ready)
            rig.controls.press(at: now)
            await rig.screen.next { if case .naming = $0 { true } else { false } }
            rig.controls.type("Ann")
            await rig.screen.next { if case .saved = $0 { true } else { false } }
        }
        let photo = try #require(try rig.library.gallery.photos().first)
        #expect(rig.screen.contents.contains(.saved(photo.caption, photo: photo.id, link: "http://booth.test:8080/photos/\(photo.id.lowercased)")))
    }

    @Test("Without a link the saved screen carries none")
    func savedWithoutLink() async throws {
        let rig = try Rig()
        try await rig.run {
            let now = rig.clock.now
            await rig.camera.deliver(try TestFrames.frame(number: 1, at: now))
            await rig.screen.next(.ready)
            rig.controls.press(at: now)
            await rig.screen.next { if case .naming = $0 { true } else { false } }
            rig.controls.type("")
            await rig.screen.next { if case .saved(_, _, nil, _, _) = $0 { true } else { false } }
        }
    }
}
