import BoothCore
import Foundation
import GRDB

/// The photos of the event's other booths: imported, changed and removed only as the booth that
/// took each one publishes, and the guests' deletions of them taken here. Each is as durable as
/// a photo taken here (its intent, its files, then its row).
extension PhotoLibrary {
    /// Adds a photo of another booth, durably, as a photo taken here is added: its intent,
    /// original and sidecar first, then the catalog row, marked with `origin`, the booth folder it came from.
    /// The photo keeps its id, name, time, camera and hidden flag; it gets a number of this
    /// library. Importing a photo already here is an error (``LibraryError/unknownPhoto`` is
    /// never thrown; the catalog refuses the duplicate id).
    @discardableResult
    package func importPhoto(_ bytes: Data, thumbnail: Thumbnail, record: PhotoSidecar, origin: String) throws(LibraryError) -> Photo {
        let createdAt = record.createdAt.roundedToMilliseconds
        let number = reservePhotoNumber()
        // A picture composed at another booth is the same kind here; its shots stay there.
        let kind = Self.kind(record.kind, isGIF: bytes.starts(with: Array("GIF8".utf8)))
        var photo = Photo(
            id: record.id, number: number, caption: record.caption, createdAt: createdAt, width: thumbnail.sourceWidth,
            height: thumbnail.sourceHeight, byteCount: bytes.count,
            file: Self.relativePath(for: record.id, createdAt: createdAt, fileExtension: kind.fileExtension),
            camera: record.camera, origin: origin, booth: record.booth, favourite: record.favourite)
        photo.kind = kind
        photo.layout = record.layout
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog("import a photo", catalog.path) }
        let original = directory.appendingPathComponent(photo.file)
        let sidecar = directory.appendingPathComponent(Self.sidecarPath(of: photo.file))
        let intent = try beginOperation(.importing, of: photo.id, file: photo.file)
        try DurableFile.write([
            (bytes, original, Self.temporaryName(for: photo.id, extension: kind.fileExtension)),
            (PhotoSidecar(photo, booth: record.booth, hidden: record.hidden).xmp, sidecar, Self.temporaryName(for: photo.id, extension: "xmp")),
        ])
        reached("import: files in place")
        do {
            try insert(
                photo, thumbnail: thumbnail.jpeg, booth: record.booth, hidden: record.hidden, perceptualHash: thumbnail.perceptualHash,
                closing: intent
            ) { db in try DeletionKeyRecord.keep(of: record, in: db) }
        } catch {
            try? DurableFile.remove(original)
            try? DurableFile.remove(sidecar)
            throw error
        }
        return photo
    }

    /// Applies what the booth that took an imported photo changed: its name or hidden flag, and
    /// the digest of its deletion key. Only the booth the photo came from (`origin`, its folder)
    /// changes it: a record of another booth's folder is ignored. A photo a guest asked to delete
    /// here stays hidden until its booth deletes it. Returns whether anything changed.
    @discardableResult
    package func applyImported(_ record: PhotoSidecar, from origin: String) throws(LibraryError) -> Bool {
        guard let row = try row(of: record.id), row.photo.origin == origin else { return false }
        let photo = row.photo
        let requested = try outbox.deletionRequest(of: record.id).map { !$0.settled } ?? false
        let keepsHidden = record.hidden || requested
        let key = try catalog.read("read a photo's deletion key") { db in try DeletionKeyRecord.fetchOne(db, key: record.id.lowercased) }
        if key?.keySHA256 != record.deletionKeySHA256 || key?.until != record.deletableUntil?.utcTimestamp {
            try catalog.write("keep a photo's deletion key") { db in try DeletionKeyRecord.keep(of: record, in: db) }
        }
        guard photo.caption != record.caption || row.hidden != keepsHidden || photo.favourite != record.favourite else { return false }
        try change(
            record.id, "update an imported photo", imported: true,
            sidecar: { sidecar in
                sidecar.caption = record.caption
                sidecar.hidden = keepsHidden
                sidecar.favourite = record.favourite
            },
            row: { row in
                row.caption = record.caption.text
                row.hidden = keepsHidden
                row.favourite = record.favourite
            })
        return true
    }

    /// Removes an imported photo whose booth deleted it: original, sidecar and row, with no copy
    /// kept (a guest's wish to be forgotten reaches every booth). Only the booth the photo came
    /// from (`origin`) deletes it. Returns whether it was here and removed.
    @discardableResult
    package func removeImported(_ id: UUID, from origin: String) throws(LibraryError) -> Bool {
        try changing.withLock { _ throws(LibraryError) -> Bool in
            guard let photo = try gallery.photo(id: id, includingHidden: true), photo.origin == origin else { return false }
            // The intent comes with the row's removal: a crash before the files are gone leaves
            // it, and the next start removes them (``LibraryMaintenance/reconcileAtStart()``).
            let intent = try catalog.write("remove an imported photo") { db in
                try PhotoRecord.deleteOne(db, key: id.lowercased)
                return try Self.insertOperation(.removeImported, of: id, file: photo.file, in: db)
            }
            reached("remove imported: row deleted")
            try DurableFile.remove(url(of: photo))
            try DurableFile.remove(sidecarURL(of: photo))
            try DurableFile.syncFolder(url(of: photo).deletingLastPathComponent())
            reached("remove imported: files removed")
            try catalog.write("end the removal of an imported photo") { db in try Self.closeOperation(intent, in: db) }
            return true
        }
    }

    /// A guest's deletion of imported photo `id`, with the `key` the guest gave (checked by the
    /// caller against ``SyncOutbox/deletionKey(of:)``): the photo is hidden here at once, and the
    /// request queued for the bucket in the same transaction, where the booth that took the photo
    /// finds it, checks the key with its own secret and deletes the photo everywhere.
    package func requestDeletion(of id: UUID, key: String, at time: Date) throws(LibraryError) {
        try change(id, "hide a photo its guest deleted", imported: true, sidecar: { $0.hidden = true }, row: { $0.hidden = true }) { db in
            // A request made again is new: not uploaded yet, and settled only if it was.
            _ = try DeletionRequestRecord(photoID: id.lowercased, key: key, requestedAt: time.utcTimestamp).upsertAndFetch(db) { _ in
                [DeletionRequestRecord.Columns.settledAt.noOverwrite]
            }
        }
        outbox.noteQueued()
    }
}

extension DeletionKeyRecord {
    /// Keeps (or forgets) the digest of an imported photo's deletion key, as its record gives it.
    static func keep(of record: PhotoSidecar, in db: Database) throws {
        if let digest = record.deletionKeySHA256, let until = record.deletableUntil {
            try DeletionKeyRecord(photoID: record.id.lowercased, keySHA256: digest, until: until.utcTimestamp).upsert(db)
        } else {
            try DeletionKeyRecord.deleteOne(db, key: record.id.lowercased)
        }
    }
}
