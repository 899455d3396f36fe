import BoothCore
import Foundation
import GRDB
import Logging
import Synchronization

/// The photo library: originals as files under `photos/`, each with an XMP sidecar that says
/// what the library knows of it, and a SQLite catalog of them.
///
/// ```
/// <directory>/
///   photobooth.sqlite (+ -wal, -shm)
///   photos/YYYY/MM/DD/<uuid>.jpg, <uuid>.xmp
/// ```
///
/// The library makes the durable changes: a photo added, renamed, hidden, marked, deleted
/// (``recycle(_:)``), imported from another booth of the event. Each is durable when it returns:
/// the sidecar is written before the catalog, at each save and each change, so it is never older
/// than the catalog's row, and originals and sidecars alone can rebuild the catalog. What else
/// the catalog answers is in types named for their concern, which the library hands out:
/// ``gallery`` (what the gallery reads), ``outbox`` (the event sync's side), ``maintenance``
/// (reconciliation, check, repair, rebuild) and ``changes`` (the signal that what guests see
/// changed).
package final class PhotoLibrary: Sendable {
    /// The catalog's file name inside the library folder.
    package static let catalogName = "photobooth.sqlite"
    /// The folder of originals inside the library folder.
    package static let photosFolder = "photos"

    /// The library folder.
    package let directory: URL
    let catalog: Catalog
    let thumbnailer: any Thumbnailer
    let logger: Logger
    /// The booth the photos saved here are from, for their sidecars.
    let boothName: String
    /// The next photo number to hand out. Numbers are never reused, not even those of lost photos.
    private let nextNumber: Mutex<Int>
    /// Held while a photo is changed or recycled, from reading its row to writing the catalog:
    /// two changes (a name from the keypad, a hide over the web) must not each write a sidecar
    /// from the row before the other, nor share its temporary file, and a change must not write
    /// a sidecar back into photos/ after a deletion moved it away.
    let changing = Mutex(())
    /// Called with the name of each step of an operation that writes into photos/, between the
    /// steps: tests copy the library folder there, as a crash at that instant would leave it.
    let stepReached = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// What the gallery reads of the catalog.
    package let gallery: GalleryQueries
    /// The event sync's side of the catalog.
    package let outbox: SyncOutbox
    /// The print queue.
    package let prints: PrintQueue

    /// Opens the library in `directory` and brings its catalog to the current schema. On a disk
    /// so full that SQLite cannot open the catalog for writing, or one that cannot be written at
    /// all, it is opened for reading only (``isReadOnly``): the photos can still be listed,
    /// shown, exported and checked.
    ///
    /// - Parameters:
    ///   - create: create the folder and catalog when they do not exist (the booth does); when
    ///     `false`, a missing catalog is an error (a typo in `--data-dir` should not look like an
    ///     empty library).
    ///   - boothName: the booth the photos added here are from, as their sidecars say.
    package convenience init(
        directory: URL, thumbnailer: any Thumbnailer, logger: Logger, create: Bool, boothName: String = ""
    ) throws(LibraryError) {
        try self.init(
            directory: directory, catalogFile: Self.catalogName, thumbnailer: thumbnailer, logger: logger, create: create,
            boothName: boothName)
    }

    /// Opens the library with its catalog in `catalogFile`: a rebuild makes the new catalog
    /// under another name and puts it in place once it is whole.
    init(
        directory: URL, catalogFile: String, thumbnailer: any Thumbnailer, logger: Logger, create: Bool, boothName: String
    ) throws(LibraryError) {
        self.directory = directory.standardizedFileURL
        self.thumbnailer = thumbnailer
        self.logger = logger
        self.boothName = boothName
        let path = self.directory.appendingPathComponent(catalogFile).path
        if create {
            try DurableFile.makeFolders(self.directory.appendingPathComponent(Self.photosFolder))
        } else if !FileManager.default.fileExists(atPath: path) {
            throw LibraryError.noLibrary(at: self.directory)
        }
        catalog = try Catalog(directory: self.directory, file: catalogFile, isTheLibrarys: catalogFile == Self.catalogName, logger: logger)
        let (highest, malformed) = try catalog.read("open the catalog") { db in
            (
                max(
                    try PhotoRecord.select(max(PhotoRecord.Columns.number), as: Int.self).fetchOne(db) ?? 0,
                    try LostPhotoRecord.select(max(LostPhotoRecord.Columns.number), as: Int.self).fetchOne(db) ?? 0),
                try PhotoRecord.all().malformed().fetchCount(db)
            )
        }
        nextNumber = Mutex(highest + 1)
        gallery = GalleryQueries(catalog: catalog, malformedRowCount: malformed)
        outbox = SyncOutbox(catalog: catalog, directory: self.directory, boothName: boothName)
        prints = PrintQueue(catalog: catalog)
        if malformed > 0 {
            logger.warning(
                """
                The catalog \(path) has \(malformed) photo row\(malformed == 1 ? "" : "s") whose id is not a photo id; \
                the gallery and every list leave \(malformed == 1 ? "it" : "them") out. `photobooth check` names \
                \(malformed == 1 ? "it" : "them"), and `photobooth check --repair` records the photo\(malformed == 1 ? "" : "s") again from \
                the original\(malformed == 1 ? "" : "s") and sidecar\(malformed == 1 ? "" : "s").
                """)
        }
    }

    /// Whether the catalog is open for reading only: its disk was full (or read-only, or not the
    /// booth's to write) when it was opened. Everything that reads works; writes throw
    /// ``LibraryError/storageFull``. Opening it again once the disk can take writes gives a
    /// writable catalog.
    package var isReadOnly: Bool { catalog.isReadOnly }

    /// What the gallery shows, as a number that moves after each change guests can see, made by
    /// this process or another.
    package var changes: GalleryChanges { catalog.changes }

    /// Reconciliation, check, repair and the rebuild of the catalog; the derived values filled in
    /// after the fact.
    package var maintenance: LibraryMaintenance { LibraryMaintenance(library: self) }

    /// Closes the catalog; the library cannot be used afterwards. Before its files are set aside
    /// (``LibraryMaintenance/rebuildCatalog(in:thumbnailer:logger:boothName:)``), so that no
    /// connection of this library touches them any more.
    package func close() {
        catalog.close()
    }

    /// Frees what SQLite keeps in memory for the catalog: the writer's cache of pages, and the
    /// reader connections with theirs (each up to 2 MB, filled with thumbnails by a burst of
    /// photos), which open again when next needed. It waits for a write under way: call it off
    /// Swift's cooperative pool, when the booth is quiet.
    package func releaseMemory() {
        catalog.releaseMemory()
    }

    /// The catalog's journal mode, as SQLite reports it ("wal").
    package func journalMode() throws(LibraryError) -> String {
        try catalog.read("read the journal mode") { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Hands out the next photo number (for the default caption "Photo 42").
    package func reservePhotoNumber() -> Int {
        nextNumber.withLock { number in
            defer { number += 1 }
            return number
        }
    }

    /// Numbers of adopted photos come from their sidecars: the next number handed out is above
    /// them all.
    func numberTaken(_ number: Int) {
        nextNumber.withLock { $0 = max($0, number + 1) }
    }

    /// Where the original of `photo` is.
    package func url(of photo: Photo) -> URL {
        directory.appendingPathComponent(photo.file)
    }

    /// Where the sidecar of `photo` is: beside its original, `<uuid>.xmp`.
    package func sidecarURL(of photo: Photo) -> URL {
        directory.appendingPathComponent(Self.sidecarPath(of: photo.file))
    }

    // MARK: Saving

    /// How long the steps of ``add(_:thumbnail:id:number:caption:createdAt:camera:perceptualHash:)`` took.
    package struct SaveTimings: Sendable {
        /// The catalog transaction of the save's intent (``beginOperation(_:of:file:)``).
        package var intent: Duration
        /// Writing the temporary file, `fsync`, rename and `fsync` of the folder.
        package var write: Duration
        /// The catalog transaction of the row (which ends the intent).
        package var commit: Duration
    }

    /// Stores a new photo durably: its intent first (``beginOperation(_:of:file:)``), then the
    /// original and its sidecar (temporary files, `fsync`, renames, `fsync` of the folder), then
    /// its catalog row in one transaction with the intent's end. When this returns, the photo
    /// survives a crash or power cut. The original is never rewritten afterwards.
    ///
    /// `perceptualHash` is the picture's fingerprint for near-duplicates, when the caller made
    /// it from the decode it already did; a photo without one gets it at the next start.
    ///
    /// A picture composed of shots (`kind`, `layout`, `parts`) is saved the same way, once its
    /// shots are (``addPart(_:id:of:index:number:width:height:createdAt:camera:)``): its sidecar
    /// names them, so that it can be made again from them. An animation's bytes are its GIF.
    ///
    /// `printCopies` above 0 queues a print of the picture in the same transaction
    /// (`print.auto`): a picture the booth saved is never left unprinted by a crash.
    package func add(
        _ jpeg: Data, thumbnail: Thumbnail, id: UUID, number: Int, caption: Caption, createdAt: Date, camera: CameraModel? = nil,
        perceptualHash: UInt64? = nil, kind: PictureKind = .photo, layout: String? = nil, parts: [PhotoPart] = [], printCopies: Int = 0
    ) throws(LibraryError) -> (Photo, SaveTimings) {
        let createdAt = createdAt.roundedToMilliseconds
        let file = Self.relativePath(for: id, createdAt: createdAt, fileExtension: kind.fileExtension)
        var photo = Photo(
            id: id, number: number, caption: caption, createdAt: createdAt,
            width: thumbnail.sourceWidth, height: thumbnail.sourceHeight, byteCount: jpeg.count, file: file, camera: camera,
            booth: boothName)
        photo.kind = kind
        photo.layout = layout
        photo.parts = parts
        let clock = ContinuousClock()
        let started = clock.now
        let original = directory.appendingPathComponent(file)
        let sidecar = directory.appendingPathComponent(Self.sidecarPath(of: file))
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog("save a photo", catalog.path) }
        let intent = try beginOperation(.save, of: id, file: file)
        let intended = clock.now
        try DurableFile.write([
            (jpeg, original, Self.temporaryName(for: id, extension: kind.fileExtension)),
            (PhotoSidecar(photo, booth: boothName, hidden: false).xmp, sidecar, Self.temporaryName(for: id, extension: "xmp")),
        ])
        reached("save: files in place")
        let written = clock.now
        do {
            try insert(photo, thumbnail: thumbnail.jpeg, booth: boothName, perceptualHash: perceptualHash, closing: intent) { db in
                if printCopies > 0 { _ = try PrintJobRecord.queue(id, copies: printCopies, reason: .auto, at: createdAt, in: db) }
            }
            if printCopies > 0 { prints.noteQueued() }
        } catch {
            // The guest is told that this photo was not saved: the original must not be adopted
            // at the next start, and its space goes back to the photos that can be saved.
            do {
                try DurableFile.remove(original)
                try DurableFile.remove(sidecar)
                try DurableFile.syncFolder(original.deletingLastPathComponent())
            } catch let removal {
                logger.error(
                    "The original of photo \(id.lowercased), which was not saved, could not be removed (\(removal)); the next start adopts it.")
            }
            throw error
        }
        return (photo, SaveTimings(intent: intended - started, write: written - intended, commit: clock.now - written))
    }

    /// Records a photo whose original and sidecar are on disk; a photo taken here is queued for
    /// the event's bucket in the same transaction, which also ends the operation's intent
    /// (`closing`), when it has one, and does what else the photo needs kept with it (`also`).
    func insert(
        _ photo: Photo, thumbnail: Data, booth: String, hidden: Bool = false, perceptualHash: UInt64? = nil, closing intent: Int64? = nil,
        also: (Database) throws -> Void = { _ in }
    ) throws(LibraryError) {
        try catalog.write("record the photo \(photo.id.lowercased)") { db in
            try PhotoRecord(photo, thumbnail: thumbnail, booth: booth, hidden: hidden, perceptualHash: perceptualHash).insert(db)
            try OutboxRecord.queue(photo.id, thumbnail: true, in: db)
            try also(db)
            try Self.closeOperation(intent, in: db)
        }
        outbox.noteQueued()
        numberTaken(photo.number)
    }

    // MARK: Changing

    /// Changes the caption of a photo: its sidecar first, then the catalog.
    package func setCaption(_ caption: Caption, of id: UUID) throws(LibraryError) {
        try change(id, "rename a photo", sidecar: { $0.caption = caption }, row: { $0.caption = caption.text })
    }

    /// Marks a photo as one of the event's best, or no longer: favourites come first in the
    /// slideshow and make an album of their own. Kept in the sidecar like the name.
    package func setFavourite(_ favourite: Bool, of id: UUID) throws(LibraryError) {
        try change(
            id, favourite ? "mark a favourite" : "unmark a favourite", sidecar: { $0.favourite = favourite }, row: { $0.favourite = favourite })
    }

    /// Takes a photo out of the guests' sight (gallery, lists, direct links) or brings it back.
    /// The original and the row stay; the booth's operator still sees it (`includingHidden`).
    package func setHidden(_ hidden: Bool, of id: UUID) throws(LibraryError) {
        try change(id, hidden ? "hide a photo" : "unhide a photo", sidecar: { $0.hidden = hidden }, row: { $0.hidden = hidden })
    }

    /// Applies a change to a photo: `sidecar` to its sidecar, written durably, then `row` to its
    /// catalog row (with `also`, in the same transaction), with an intent around both
    /// (``beginOperation(_:of:file:)``). A change whose sidecar cannot be written is not made at
    /// all, so the sidecar is never older than the row.
    ///
    /// When the catalog refuses the change, the sidecar is put back as it was, so that the next
    /// start does not make a change the caller was told failed.
    ///
    /// A photo imported from another booth of the event is changed only by what that booth
    /// publishes (`imported`); anyone else is refused, since the next import would undo it.
    func change(
        _ id: UUID, _ operation: String, imported: Bool = false, sidecar modify: (inout PhotoSidecar) -> Void,
        row update: (inout PhotoRecord) -> Void, also: (Database) throws -> Void = { _ in }
    ) throws(LibraryError) {
        try changing.withLock { _ throws(LibraryError) in
            guard let row = try row(of: id) else { throw LibraryError.unknownPhoto(id.lowercased) }
            let photo = row.photo
            if let origin = photo.origin, !imported { throw LibraryError.notOurs(operation, photo.id.lowercased, booth: row.booth, origin: origin) }
            let before = PhotoSidecar(photo, booth: row.booth, hidden: row.hidden)
            var sidecar = before
            modify(&sidecar)
            guard !isReadOnly else { throw LibraryError.readOnlyCatalog(operation, catalog.path) }
            let intent = try beginOperation(.change, of: id, file: photo.file)
            let temporaryName = Self.temporaryName(for: id, extension: "xmp")
            try DurableFile.replace(sidecarURL(of: photo), with: sidecar.xmp, temporaryName: temporaryName)
            reached("change: sidecar replaced")
            do throws(LibraryError) {
                try catalog.write(operation) { db in
                    if var record = try PhotoRecord.fetchOne(db, key: id.lowercased) { try record.updateChanges(db, modify: update) }
                    try also(db)
                    try OutboxRecord.queue(id, thumbnail: false, in: db)
                    try Self.closeOperation(intent, in: db)
                }
                outbox.noteQueued()
            } catch {
                do {
                    try DurableFile.replace(sidecarURL(of: photo), with: before.xmp, temporaryName: temporaryName)
                } catch let restoring {
                    logger.error(
                        "The sidecar of photo \(id.lowercased) could not be put back after a failed change (\(restoring)); the next start applies the change from it."
                    )
                }
                throw error
            }
        }
    }

    /// A photo, hidden or not, with the booth it is from and whether it is hidden.
    func row(of id: UUID) throws(LibraryError) -> ListedPhoto? {
        let request = ListedPhoto.all().photo(id)
        return try catalog.read("look up a photo") { db in
            // A composed picture's sidecar, written from its row, names its shots.
            guard var row = try request.fetchOne(db) else { return nil }
            row.photo = try GalleryQueries.withParts([row.photo], in: db)[0]
            return row
        }
    }

    // MARK: Where files go

    /// `photos/YYYY/MM/DD/<uuid>.jpg` (`.gif` for an animation), dated in UTC like `created_at`.
    static func relativePath(for id: UUID, createdAt: Date, fileExtension: String = "jpg") -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: createdAt)
        let folder = String(format: "%04d/%02d/%02d", day.year!, day.month!, day.day!)
        return "\(photosFolder)/\(folder)/\(id.lowercased).\(fileExtension)"
    }

    /// The sidecar beside the original `file`: the same path, ending in `.xmp`.
    static func sidecarPath(of file: String) -> String {
        (isOriginal(file) ? String(file.dropLast(4)) : file) + ".xmp"
    }

    /// The kind of a picture whose description says `claimed`: an animation is a GIF, whatever
    /// a sidecar or another booth's record says, and a GIF is an animation.
    static func kind(_ claimed: PictureKind?, isGIF: Bool) -> PictureKind {
        if let claimed, claimed.isAnimated == isGIF { return claimed }
        return isGIF ? .animation : .photo
    }

    /// Whether `file` is named as an original is: a photo's or a collage's JPEG, an animation's GIF.
    static func isOriginal(_ file: String) -> Bool {
        file.hasSuffix(".jpg") || file.hasSuffix(".gif")
    }

    /// Temporary files are hidden and end in `.tmp`, so that reconciliation recognises them.
    static func temporaryName(for id: UUID, extension fileExtension: String = "jpg") -> String {
        ".\(id.lowercased).\(fileExtension).tmp"
    }
}
