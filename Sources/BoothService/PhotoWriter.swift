import BoothCore
import BoothImaging
import BoothPictures
import BoothScreen
import BoothStore
import BoothSync
import BoothSystem
import Foundation
import Logging
import Synchronization

/// Decodes a shot once for a screen of the given size (`nil`: none): ``ShotDecoder``, which
/// tests wrap to count the decodes.
typealias ShotDecoding = @Sendable (Data, PixelSize?) throws -> DecodedShot

/// Saves shots on a ``SerialWorker`` while the guest types a name: JPEG repair, the one
/// decode, durable write and catalog commit all block, so none of them runs on Swift's
/// cooperative thread pool or delays the state machine. Jobs run one at a time, in order, so a
/// photo's caption is always stored after the photo itself.
///
/// The one decode of a shot (at the screen's size) makes the picture the naming and saved
/// screens show, handed to ``ReviewPictures`` as soon as it is made, the catalog's thumbnail
/// and the perceptual hash; no photo is decoded twice.
final class PhotoWriter: Sendable {
    /// A shot waiting to be saved.
    struct Shot: Sendable {
        let photo: TakenPhoto
        let number: Int
        /// The frames exposed nearest the shutter instant, nearest first; the first that decodes
        /// is saved.
        let candidates: [CameraFrame]
        let shutterAt: MonotonicInstant
        /// The picture it is a shot of; `nil` for a photo of its own.
        var part: ShotPart? = nil
    }

    private enum Outcome {
        /// On disk and in the catalog.
        case stored
        /// No frame near the shutter decoded.
        case noUsableFrame
        /// The library refused it (a full disk, a failing one).
        case notWritten
    }

    private let worker = SerialWorker(name: "photo writer")
    private let library: PhotoLibrary
    /// The wall clock photos are dated by: the system's, corrected by the event store's time
    /// once the sync has heard it.
    private let wallClock: CorrectedClock
    private let decodeShot: ShotDecoding
    /// Where the screens find the shot's picture.
    private let reviews: ReviewPictures
    private let observer: BoothObserver
    private let logger: Logger
    /// Where results go: the booth's event stream.
    private let report: @Sendable (BoothEvent) -> Void
    /// What became of each shot whose caption is not stored yet. Touched only on `worker`; the
    /// mutex makes that safe to state to the compiler. A shot the booth gave up on is saved
    /// but never finished; its entry stays, a few bytes per missed shot.
    private let outcomes = Mutex<[UUID: Outcome]>([:])
    /// Names guests typed that could not be written yet (the disk was full), by photo, in the
    /// order they came. The photo is saved under its placeholder meanwhile; each name is written
    /// once the disk can take it (``writePendingNames()``). Touched only on `worker`.
    private let pendingNames = Mutex<[(id: UUID, name: Caption)]>([])
    /// The shots of the pictures being made, by picture and index: their JPEGs, kept until the
    /// picture is composed (a few hundred KB each). Touched only on `worker`.
    private let shots = Mutex<[UUID: [Int: (jpeg: Data, part: PhotoPart, camera: CameraModel?, number: Int)]]>([:])
    /// What composes pictures, made when the booth starts; used only on `worker`. `nil` when the
    /// booth makes single photos only.
    private let composer: Mutex<PictureComposer?>
    /// What a picture's texts say: the event, the booth.
    private let blanks: [TextBlank: String]
    private let dateFormat: PhotoDateFormat
    /// The shots and blanks of the pictures composed in a layout that prints the name, kept
    /// until the guest has typed it: the picture is then composed again with it. Touched only
    /// on `worker`.
    private let awaitingName = Mutex<[UUID: (shots: [Data], blanks: [TextBlank: String])]>([:])
    /// The copies of every picture queued for printing as it is saved (`print.auto`); 0 for none.
    private let autoPrintCopies: Int
    /// The copies a guest's print key queues.
    private let printCopies: Int
    /// Where an animation's frames are decoded: the composer's, so that one mapping serves both.
    private let memory: DecodeMemory

    init(
        library: PhotoLibrary, reviews: ReviewPictures, decodeShot: @escaping ShotDecoding = { try ShotDecoder(screen: $1).decode($0) },
        clock: CorrectedClock = CorrectedClock(), observer: BoothObserver = BoothObserver(), logger: Logger,
        composer: sending PictureComposer? = nil, memory: DecodeMemory = DecodeMemory(), blanks: [TextBlank: String] = [:],
        dateFormat: PhotoDateFormat = BoothLanguage.english.dateFormat, autoPrintCopies: Int = 0, printCopies: Int = 1,
        report: @escaping @Sendable (BoothEvent) -> Void
    ) {
        self.autoPrintCopies = autoPrintCopies
        self.printCopies = printCopies
        self.composer = Mutex(composer)
        self.memory = memory
        self.blanks = blanks
        self.dateFormat = dateFormat
        self.library = library
        self.wallClock = clock
        self.reviews = reviews
        self.decodeShot = decodeShot
        self.observer = observer
        self.logger = logger
        self.report = report
    }

    /// Queues a shot for saving with its placeholder caption.
    ///
    /// The job itself announces the shot (``BoothEvent/shotTaken(_:shutterAt:)``) before saving
    /// it. That one order settles two races: the save's own failure report cannot reach the
    /// booth before the shot does, and the guest's name (``finish(_:caption:)``), which can only
    /// be typed once the shot is announced, is always queued after the store job.
    ///
    /// A shot of a picture is announced once it is durable instead: the machine counts down to
    /// the next shot only when the one before is safe.
    func store(_ shot: Shot) {
        worker.submit { [self] in
            if let part = shot.part {
                let stored = savePart(shot, of: part)
                if stored { report(.shotTaken(shot.photo, shutterAt: shot.shutterAt)) }
                observer.libraryWritten(!stored)
                return
            }
            report(.shotTaken(shot.photo, shutterAt: shot.shutterAt))
            let outcome = save(shot)
            outcomes.withLock { $0[shot.photo.id] = outcome }
            // The disk took a photo: it may take the names that wait for it.
            if outcome == .stored { writePending(finally: false) }
            observer.libraryWritten(outcome == .notWritten)
        }
    }

    /// Whether the guest is still naming photo `id` (it is saved, its name not yet stored): the
    /// event sync waits for the name rather than uploading the original twice.
    func isAwaitingName(_ id: UUID) -> Bool {
        outcomes.withLock { $0[id] != nil }
    }

    /// Queues the final caption of a photo; reports ``BoothEvent/photoSaved(id:caption:)`` once
    /// the photo and the caption are committed.
    func finish(_ photo: TakenPhoto, caption: Caption) {
        worker.submit { [self] in
            let printing = awaitingName.withLock { $0.removeValue(forKey: photo.id) }
            guard outcomes.withLock({ $0.removeValue(forKey: photo.id) }) == .stored else { return }
            // Once the guest has been told, the pictures of the photos before (their decode,
            // their review picture, megabytes each) go back to the kernel: malloc would keep them.
            defer { FreedMemory.giveBack() }
            guard caption != photo.placeholder else {
                observer.photoNamed(photo.id)
                report(.photoSaved(id: photo.id, caption: caption))
                return
            }
            var failed = false
            defer { observer.libraryWritten(failed) }
            do {
                try library.setCaption(caption, of: photo.id)
                logger.info("named \(photo.id.lowercased) \(caption.quoted)")
                if let printing { printName(caption, on: photo.id, shots: printing.shots, blanks: printing.blanks) }
                observer.photoNamed(photo.id)
                report(.photoSaved(id: photo.id, caption: caption))
            } catch {
                // The photo is safe under its placeholder, and the name is kept: the screen says
                // it follows, and it does once the disk can take it.
                logger.error(
                    """
                    Photo \(photo.id.lowercased) keeps its caption \(photo.placeholder.quoted) for now: \(error) \
                    The name \(caption.quoted) is kept and written once the library can take it.
                    """)
                failed = true
                pendingNames.withLock { $0.append((photo.id, caption)) }
                observer.photoNamed(photo.id)
                report(.photoSaved(id: photo.id, caption: photo.placeholder, pendingName: caption))
            }
        }
    }

    /// On `worker`: the picture `id` composed again with the name the guest typed, which its
    /// layout prints, and put in place of the one composed with its placeholder. The picture
    /// is named either way; a failure here leaves it as first composed, and says so.
    private func printName(_ caption: Caption, on id: UUID, shots: [Data], blanks: [TextBlank: String]) {
        var blanks = blanks
        blanks[.caption] = caption.text
        do {
            let made = try composer.withLock { (composer) throws -> (Data, DecodedShot)? in
                guard let composer else { return nil }
                let jpeg = try composer.jpeg(shots: shots, blanks: blanks)
                return (jpeg, try decodeShot(jpeg, reviews.screenSize))
            }
            guard let (jpeg, decoded) = made else { return }
            try library.replaceComposedFile(of: id, with: jpeg, thumbnail: decoded.thumbnail)
            reviews.add(decoded.review, of: id)
            logger.info("composed \(id.lowercased) again with its name \(caption.quoted)")
        } catch {
            logger.error("Picture \(id.lowercased) keeps its placeholder on the picture itself, though it is named \(caption.quoted): \(error)")
        }
    }

    /// Writes the names that could not be written when they were typed; those that still cannot
    /// wait for the next call (or the next photo saved). Call it whenever the disk looks able to
    /// take them: nothing is written when no name waits.
    func writePendingNames() {
        worker.submit { [self] in writePending(finally: false) }
    }

    /// Returns when every queued job has run, after a last try at the names still waiting.
    /// Queues a print of picture `id`, which its guest asked for on the saved screen, after
    /// every save asked for before it (the catalog's write, off Swift's cooperative pool).
    func queuePrint(of id: UUID) {
        worker.submit { [self] in
            do {
                let request = try library.prints.request(id, copies: printCopies, reason: .booth)
                logger.info(
                    "print \(request.number) of \(id.lowercased) asked for at the booth (\(printCopies) cop\(printCopies == 1 ? "y" : "ies"))")
            } catch {
                logger.error("The print of \(id.lowercased) asked for at the booth could not be queued: \(error)")
            }
        }
    }

    func drain() async {
        worker.submit { [self] in writePending(finally: true) }
        await worker.drain()
    }

    /// On `worker`. `finally`: the booth is stopping, so a name that cannot be written now is lost,
    /// and the log says which.
    private func writePending(finally: Bool) {
        let waiting = pendingNames.withLock { $0 }
        guard !waiting.isEmpty else { return }
        var still: [(id: UUID, name: Caption)] = []
        for (id, name) in waiting {
            do {
                try library.setCaption(name, of: id)
                logger.notice("named \(id.lowercased) \(name.quoted) (the name waited for the disk)")
                observer.photoNamed(id)
            } catch  where error.code == .unknownPhoto {
                logger.notice("The name \(name.quoted) waited for photo \(id.lowercased), which was deleted meanwhile; it is dropped.")
            } catch {
                if finally {
                    logger.error("The name \(name.quoted) of photo \(id.lowercased) could not be written before the booth stopped: \(error)")
                } else {
                    still.append((id, name))
                }
            }
        }
        pendingNames.withLock { $0 = still }
        if !still.isEmpty {
            logger.warning("\(still.count) name\(still.count == 1 ? "" : "s") still wait\(still.count == 1 ? "s" : "") for the disk.")
        }
    }

    /// Composes a picture from its shots, all queued before, and saves it: the guest names it
    /// next, as a photo (``finish(_:caption:)``).
    func compose(_ order: PictureOrder) {
        worker.submit { [self] in
            let outcome = savePicture(order)
            outcomes.withLock { $0[order.picture.id] = outcome }
            observer.libraryWritten(outcome == .notWritten)
        }
    }

    /// A picture that will not be made: its shots taken are kept as photos of their own.
    func abandon(_ picture: UUID) {
        worker.submit { [self] in
            shots.withLock { _ = $0.removeValue(forKey: picture) }
            do {
                for action in try library.keepAsPhotos(shotsOf: picture) { logger.notice("\(action)") }
            } catch {
                logger.error("The shots of picture \(picture.lowercased) stay in parts/ until the next start keeps them: \(error)")
            }
        }
    }

    /// On `worker`: one shot of a picture, durable as a part of it, its picture on the screens.
    private func savePart(_ shot: Shot, of part: ShotPart) -> Bool {
        for frame in shot.candidates {
            let jpeg: Data
            let decoded: DecodedShot
            do {
                jpeg = try frame.photoJPEG()
                decoded = try decodeShot(jpeg, reviews.screenSize)
            } catch {
                logger.warning("Frame #\(frame.sequence) for shot \(shot.photo.id.lowercased) is unusable (\(error)); trying the next nearest frame.")
                continue
            }
            reviews.add(decoded.review, of: shot.photo.id)
            do {
                let saved = try library.addPart(
                    jpeg, id: shot.photo.id, of: part.picture, index: part.index, number: shot.number, width: decoded.thumbnail.sourceWidth,
                    height: decoded.thumbnail.sourceHeight, createdAt: wallClock.date(of: frame.timestamp), camera: frame.source)
                shots.withLock { $0[part.picture, default: [:]][part.index] = (jpeg, saved, frame.source, shot.number) }
                logger.info("saved shot \(part.index + 1) of \(part.count) of picture \(part.picture.lowercased): \(saved.file)")
                return true
            } catch {
                logger.error("Shot \(part.index + 1) of picture \(part.picture.lowercased) was not saved: \(error)")
                // The storage's fault first, so that the booth takes no further shot, then the
                // shot missed: the picture is given up, its shots before kept.
                report(.photoNotSaved(id: shot.photo.id, fault: error.code == .storageFull ? .storageFull : .storageFailing))
                report(.shotFailed(shutterAt: shot.shutterAt))
                return false
            }
        }
        logger.error("Shot \(part.index + 1) of picture \(part.picture.lowercased) was not saved: no usable frame near the shutter.")
        report(.shotFailed(shutterAt: shot.shutterAt))
        return false
    }

    /// On `worker`: the picture composed from its shots and saved.
    private func savePicture(_ order: PictureOrder) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        let picture = order.picture
        let kept = shots.withLock { $0.removeValue(forKey: picture.id) } ?? [:]
        let taken = order.parts.indices.compactMap { kept[$0] }
        guard taken.count == order.parts.count, let first = taken.first else {
            logger.error("Picture \(picture.id.lowercased) cannot be composed: \(order.parts.count - taken.count) of its shots were not saved.")
            report(.photoNotSaved(id: picture.id, fault: .storageFailing))
            return .notWritten
        }
        var blanks = self.blanks
        blanks[.date] = dateFormat.string(from: first.part.createdAt)
        let composed: Result<(Data, String?), ImageError>?
        if order.mode.isBurst {
            // An animation is its frames as the camera took them, at the pace they were taken.
            let delay = AnimatedGIF.frameDelay(taken.map(\.part.createdAt))
            composed = Result { () throws(ImageError) in
                let gif = try AnimatedGIF.animation(of: taken.map(\.jpeg), boomerang: order.mode == .boomerang, delay: delay, memory: memory)
                return (gif, nil)
            }
        } else {
            // A layout that prints the name shows the placeholder until the guest types one.
            blanks[.caption] = picture.placeholder.text
            composed = composer.withLock { composer -> Result<(Data, String?), ImageError>? in
                guard let composer else { return nil }
                if composer.layout.layout.printsCaption { awaitingName.withLock { $0[picture.id] = (taken.map(\.jpeg), blanks) } }
                return Result { () throws(ImageError) in (try composer.jpeg(shots: taken.map(\.jpeg), blanks: blanks), composer.layout.layout.name) }
            }
        }
        guard let composed else {
            logger.error("Picture \(picture.id.lowercased) cannot be composed: this booth has no layout.")
            report(.photoNotSaved(id: picture.id, fault: .storageFailing))
            return .notWritten
        }
        do {
            let (file, layout) = try composed.get()
            let decoded = try decodeShot(file, reviews.screenSize)
            reviews.add(decoded.review, of: picture.id)
            let composedAt = clock.now
            let (photo, timings) = try library.add(
                file, thumbnail: decoded.thumbnail, id: picture.id, number: first.number,
                caption: picture.placeholder, createdAt: first.part.createdAt, camera: first.camera, perceptualHash: decoded.perceptualHash,
                kind: PictureKind(order.mode), layout: layout, parts: taken.map(\.part), printCopies: autoPrintCopies)
            logger.info(
                """
                saved \(photo.id.lowercased) \(photo.caption.quoted) \(photo.width)x\(photo.height) \(photo.byteCount / 1024) KiB: \
                \(photo.kind) of \(taken.count) shots\(layout.map { " in \($0)" } ?? ""): composed in \((composedAt - started).formattedMilliseconds), write \(timings.write.formattedMilliseconds)
                """)
            observer.photoStored(photo.id, clock.now - started)
            return .stored
        } catch let error as LibraryError {
            logger.error("Picture \(picture.id.lowercased) was not saved: \(error)")
            report(.photoNotSaved(id: picture.id, fault: error.code == .storageFull ? .storageFull : .storageFailing))
            return .notWritten
        } catch {
            logger.error("Picture \(picture.id.lowercased) could not be composed: \(error)")
            report(.photoNotSaved(id: picture.id, fault: .storageFailing))
            return .notWritten
        }
    }

    private func save(_ shot: Shot) -> Outcome {
        let clock = ContinuousClock()
        for frame in shot.candidates {
            let started = clock.now
            let jpeg: Data
            let decoded: DecodedShot
            do {
                jpeg = try frame.photoJPEG()
                decoded = try decodeShot(jpeg, reviews.screenSize)
            } catch {
                logger.warning(
                    "Frame #\(frame.sequence) for photo \(shot.photo.id.lowercased) is unusable (\(error)); trying the next nearest frame.")
                continue
            }
            let prepared = clock.now
            // The screen shows the photo now, while it is written.
            reviews.add(decoded.review, of: shot.photo.id)
            do {
                let (photo, timings) = try library.add(
                    jpeg, thumbnail: decoded.thumbnail, id: shot.photo.id, number: shot.number,
                    caption: shot.photo.placeholder, createdAt: wallClock.date(of: frame.timestamp), camera: frame.source,
                    perceptualHash: decoded.perceptualHash, printCopies: autoPrintCopies)
                let offset = Double(shot.shutterAt.duration(to: frame.timestamp).inNanoseconds) / 1e6
                logger.info(
                    """
                    saved \(photo.id.lowercased) \(photo.caption.quoted) \(photo.width)x\(photo.height) \(photo.byteCount / 1024) KiB: \
                    frame #\(frame.sequence) \(String(format: "%+.1f", offset)) ms from the shutter, exposed at \
                    \(String(format: "%.6f", Double(frame.timestamp.nanoseconds) / 1e9)) s; \
                    decode \((prepared - started).formattedMilliseconds), write \(timings.write.formattedMilliseconds), \
                    commit \(timings.commit.formattedMilliseconds)
                    """)
                observer.photoStored(photo.id, clock.now - started)
                return .stored
            } catch {
                logger.error("Photo \(shot.photo.id.lowercased) was not saved: \(error)")
                report(.photoNotSaved(id: shot.photo.id, fault: error.code == .storageFull ? .storageFull : .storageFailing))
                return .notWritten
            }
        }
        logger.error("Photo \(shot.photo.id.lowercased) was not saved: no usable frame among the \(shot.candidates.count) nearest the shutter.")
        report(.photoNotSaved(id: shot.photo.id, fault: .shotFailed))
        return .noUsableFrame
    }
}
