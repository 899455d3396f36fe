import BoothCore
import Foundation
import GRDB

/// Deleting a photo without losing it: the original moves to `recycle/<uuid>.jpg` (or `.gif`; its
/// sidecar to `recycle/<uuid>.xmp`, a composed picture's shots to `recycle/<shot uuid>.jpg`) beside a record of what the catalog knew (`recycle/<uuid>.json`:
/// caption, number, times, thumbnail), then the row goes.
///
/// The record is written first and is the journal of the deletion: a crash before the row is
/// gone leaves a record for a photo the catalog still lists, and the next start (through the
/// deletion's intent, ``LibraryMaintenance/reconcileAtStart()``) or `check --repair` finishes
/// the move and the delete. At no point is the original in neither place, nor does a row
/// outlive its recycled original.
extension PhotoLibrary {
    /// The folder of recycled originals and their records.
    package static let recycleFolder = "recycle"

    /// Moves a photo's original to the recycle folder and removes it from the catalog, hidden or
    /// not. Returns where the original now is. Throws ``LibraryError/unknownPhoto`` when the
    /// catalog has no such photo.
    @discardableResult
    package func recycle(_ id: UUID) throws(LibraryError) -> URL {
        try changing.withLock { _ throws(LibraryError) in try recycleAlone(id) }
    }

    private func recycleAlone(_ id: UUID) throws(LibraryError) -> URL {
        guard let row = try row(of: id) else { throw LibraryError.unknownPhoto(id.lowercased) }
        let photo = row.photo
        if let origin = photo.origin { throw LibraryError.notOurs("delete", id.lowercased, booth: row.booth, origin: origin) }
        let intent = try beginOperation(.recycle, of: photo.id, file: photo.file)
        let record = recycleURL(photo.id, extension: "json")
        if !FileManager.default.fileExists(atPath: record.path) {
            try DurableFile.write(
                try recycleRecord(of: photo), to: record, temporaryName: ".\(photo.id.lowercased).json.tmp")
        }
        reached("recycle: record written")
        try finishRecycling(photo, closing: intent)
        return recycleURL(photo.id, extension: photo.kind.fileExtension)
    }

    /// Finishes deletions that a crash interrupted: each photo that the catalog lists and that
    /// has a record in the recycle folder. Returns what it did, one line per photo.
    func finishInterruptedRecycling() throws(LibraryError) -> [String] {
        var actions: [String] = []
        for photo in try interruptedRecycling() {
            actions.append(try finishRecycling(photo))
        }
        return actions
    }

    /// The photos that the catalog lists although the recycle folder has their record: their
    /// deletion was interrupted.
    func interruptedRecycling() throws(LibraryError) -> [Photo] {
        let folder = directory.appendingPathComponent(Self.recycleFolder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var photos: [Photo] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            guard let id = UUID(uuidString: String(name.dropLast(".json".count))) else { continue }
            if let photo = try gallery.photo(id: id, includingHidden: true) { photos.append(photo) }
        }
        return photos
    }

    /// The steps after the record: the move (unless done already) and the delete, which ends the
    /// deletion's intent (`closing`), when it has one. Returns what it did, for the log.
    @discardableResult
    func finishRecycling(_ photo: Photo, closing intent: Int64? = nil) throws(LibraryError) -> String {
        let original = url(of: photo)
        let destination = recycleURL(photo.id, extension: photo.kind.fileExtension)
        if FileManager.default.fileExists(atPath: original.path) && !FileManager.default.fileExists(atPath: destination.path) {
            try DurableFile.move(original, to: destination)
            reached("recycle: original moved")
        }
        // The sidecar goes with it: a sidecar left in photos/ would describe a photo that is not there.
        let sidecar = sidecarURL(of: photo)
        if FileManager.default.fileExists(atPath: sidecar.path) {
            try DurableFile.move(sidecar, to: recycleURL(photo.id, extension: "xmp"))
            reached("recycle: sidecar moved")
        }
        // A composed picture's shots go with it: left in parts/, the next start would find shots
        // without their picture and keep them as photos, bringing back what the guest deleted.
        let parts = try catalog.read("read a picture's shots") { db in
            try PartRecord.filter(PartRecord.Columns.picture == photo.id.lowercased).fetchAll(db)
        }
        for part in parts {
            guard let id = UUID(uuidString: part.id) else { continue }
            for (file, fileExtension) in [(part.file, "jpg"), (Self.sidecarPath(of: part.file), "xmp")] {
                let source = directory.appendingPathComponent(file)
                if FileManager.default.fileExists(atPath: source.path) { try DurableFile.move(source, to: recycleURL(id, extension: fileExtension)) }
            }
        }
        if !parts.isEmpty { reached("recycle: parts moved") }
        try catalog.write("delete the photo \(photo.id.lowercased)") { db in
            _ = try PartRecord.filter(PartRecord.Columns.picture == photo.id.lowercased).deleteAll(db)
            // The bucket's copies go too, and a tombstone says so to the event's other booths.
            try OutboxRecord.queue(photo.id, thumbnail: false, in: db)
            try PhotoRecord.deleteOne(db, key: photo.id.lowercased)
            try Self.closeOperation(intent, in: db)
        }
        outbox.noteQueued()
        let relative = "\(Self.recycleFolder)/\(destination.lastPathComponent)"
        return "deleted photo \(photo.id.lowercased) \"\(photo.caption)\"; its original is kept in \(relative)"
    }

    func recycleURL(_ id: UUID, extension fileExtension: String) -> URL {
        directory.appendingPathComponent(Self.recycleFolder).appendingPathComponent("\(id.lowercased).\(fileExtension)")
    }

    /// The JSON record of a photo about to be recycled.
    func recycleRecord(of photo: Photo) throws(LibraryError) -> Data {
        let row = try catalog.read("read the photo \(photo.id.lowercased)") { db in try PhotoRecord.fetchOne(db, key: photo.id.lowercased) }
        let record = RecycledPhoto(
            id: photo.id.lowercased, number: photo.number, caption: photo.caption.text,
            createdAt: photo.createdAt.utcTimestamp, width: photo.width, height: photo.height,
            byteCount: photo.byteCount, file: photo.file, hidden: row?.hidden ?? false,
            recycledAt: Date().utcTimestamp, thumbnail: row?.thumbnail ?? Data(),
            parts: photo.parts.isEmpty ? nil : photo.parts.map(\.id.lowercased))
        // Strings, integers, a Boolean and bytes always encode: there is no error to report.
        return try! JSONEncoder.booth(forPeople: true).encode(record)
    }
}

/// What `recycle/<uuid>.json` holds: the catalog's row as it was, with the thumbnail in base64.
struct RecycledPhoto: Codable {
    var id: String
    var number: Int
    var caption: String
    var createdAt: String
    var width: Int
    var height: Int
    var byteCount: Int
    /// Where the original was, relative to the library folder.
    var file: String
    var hidden: Bool
    var recycledAt: String
    var thumbnail: Data
    /// A composed picture's shots, recycled with it (`recycle/<uuid>.jpg`); none in records
    /// of before pictures had shots.
    var parts: [String]? = nil
}
