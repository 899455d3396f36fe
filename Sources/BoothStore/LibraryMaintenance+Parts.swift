import BoothCore
import Foundation
import GRDB
import Glibc

/// The shots of pictures being made, at start: a save a crash interrupted is finished, and a
/// shot whose picture never came (the booth stopped between a collage's shots, or before it
/// composed them) becomes a photo of its own.
///
/// Why a photo and not the picture of the shots there are: a strip with two of its four slots
/// empty looks broken on a print and on a phone, while each shot is a whole photo the guests
/// posed for; as photos they are in the gallery, named, printed and shared like any other.
extension LibraryMaintenance {
    /// A shot's save a crash interrupted: its temporary files go; a shot whose files are in
    /// place without its row is recorded from its sidecar, or kept as a photo when its sidecar
    /// cannot say which picture it belongs to.
    func settlePart(_ id: UUID, file: String) throws(LibraryError) -> [String] {
        var actions = try removeTemporaries(of: id, beside: file)
        guard access(directory.appendingPathComponent(file).path, F_OK) == 0 else { return actions }
        let recorded = try catalog.read("look up a shot") { db in try PartRecord.fetchOne(db, key: id.lowercased) }
        guard recorded == nil else { return actions }
        let sidecar = readSidecar(of: file)
        let taken = try catalog.read("look up a picture's shots") { db in
            try sidecar?.partOf.map { try PartRecord.filter(PartRecord.Columns.picture == $0.lowercased).fetchAll(db) } ?? []
        }
        guard let sidecar, sidecar.id == id, let picture = sidecar.partOf, let index = sidecar.partIndex,
            let width = sidecar.width, let height = sidecar.height, !taken.contains(where: { $0.position == index })
        else {
            actions.append(try release(PartRecord(id: id, file: file, createdAt: sidecar?.createdAt), number: sidecar?.number))
            return actions
        }
        let byteCount = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.size] as? Int) ?? 0
        let part = PhotoPart(id: id, index: index, file: file, width: width, height: height, byteCount: byteCount, createdAt: sidecar.createdAt)
        try catalog.write("record a shot") { db in try PartRecord(part, of: picture, camera: sidecar.camera).insert(db) }
        actions.append("recorded the shot \(id.lowercased) (\(index + 1) of picture \(picture.lowercased)) from its sidecar")
        return actions
    }

    /// Every shot in parts/ against the catalog, as the full check looks at every photo:
    /// temporary files go, a file without its row is settled as an interrupted save, then the
    /// shots whose picture never came are kept as photos.
    func reconcileParts() throws(LibraryError) -> [String] {
        var actions: [String] = []
        let folder = directory.appendingPathComponent(PhotoLibrary.partsFolder)
        let files = try DurableFile.regularFiles(under: folder).map { PhotoLibrary.partsFolder + "/" + $0 }
        for temporary in files where temporary.hasSuffix(".tmp") {
            try DurableFile.remove(directory.appendingPathComponent(temporary))
            actions.append("removed the temporary file \(temporary) left by an interrupted save")
        }
        let recorded = try catalog.read("list the shots") { db in Set(try String.fetchAll(db, sql: "SELECT file FROM photo_part")) }
        for file in files where file.hasSuffix(".jpg") && !recorded.contains(file) {
            guard let id = UUID(uuidString: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent) else { continue }
            actions += try settlePart(id, file: file)
        }
        return actions + (try releaseOrphanParts())
    }

    /// Makes each shot whose picture is not in the catalog a photo of its own; returns what it
    /// did. At start nothing is being made, so such a shot's picture will never come.
    func releaseOrphanParts() throws(LibraryError) -> [String] {
        let orphans = try catalog.read("find shots without their picture") { db in
            try PartRecord.filter(sql: "picture NOT IN (SELECT id FROM photo)").order(PartRecord.Columns.picture, PartRecord.Columns.position)
                .fetchAll(db)
        }
        var actions: [String] = []
        for orphan in orphans { actions.append(try release(orphan, number: nil)) }
        return actions
    }

    /// Makes shot `part` a photo: its JPEG moved into photos/ (under an intent, as a save),
    /// adopted there with the shot's time and a number of its own, then its row and its sidecar
    /// in parts/ removed. Each step can be cut short: the intent's save adopts the moved file,
    /// and a row whose file has gone to photos/ goes at the next start.
    func release(_ part: PartRecord, number: Int?) throws(LibraryError) -> String {
        guard let id = UUID(uuidString: part.id) else {
            try catalog.write("forget a shot without an id") { db in _ = try PartRecord.deleteOne(db, key: part.id) }
            return "forgot the shot row \"\(part.id)\", which names no shot"
        }
        let source = directory.appendingPathComponent(part.file)
        let createdAt = Date(utcTimestamp: part.createdAt) ?? Date()
        let file = PhotoLibrary.relativePath(for: id, createdAt: createdAt)
        guard access(source.path, F_OK) == 0 else {
            try catalog.write("forget a shot that became a photo") { db in _ = try PartRecord.deleteOne(db, key: part.id) }
            if try library.row(of: id) != nil { return "the shot \(id.lowercased) is a photo already; its row in photo_part is removed" }
            logger.error("The shot \(id.lowercased) (\(part.file)) is gone from the disk; its row is removed.")
            return "removed the row of the shot \(id.lowercased), whose file \(part.file) is gone"
        }
        let intent = try library.beginOperation(.save, of: id, file: file)
        try DurableFile.move(source, to: directory.appendingPathComponent(file))
        let number = number ?? library.reservePhotoNumber()
        let described = PhotoSidecar(
            id: id, number: number, caption: .placeholder(number: number), createdAt: createdAt, booth: boothName, hidden: false,
            camera: part.cameraModel.map { CameraModel(make: part.cameraMake, model: $0) })
        let adoption = try adopt(file, described: described)
        try catalog.write("end a shot's release") { db in
            _ = try PartRecord.deleteOne(db, key: part.id)
            try PhotoLibrary.closeOperation(intent, in: db)
        }
        try DurableFile.remove(directory.appendingPathComponent(PhotoLibrary.sidecarPath(of: part.file)))
        switch adoption {
        case .adopted(let photo, _):
            return "kept the shot \(id.lowercased) of picture \(part.picture) as photo \"\(photo.caption)\": its picture was never made"
        case .unreadable(let reason):
            return "moved the shot \(id.lowercased) of picture \(part.picture) to \(file), which does not decode (\(reason))"
        }
    }
}

extension PartRecord {
    /// What is known of a shot from its file alone, to release it as a photo.
    fileprivate init(id: UUID, file: String, createdAt: Date?) {
        self.id = id.lowercased
        picture = ""
        position = 0
        self.file = file
        width = 0
        height = 0
        byteCount = 0
        self.createdAt = (createdAt ?? Date()).utcTimestamp
    }
}

/// Makes a composed picture's file again from its shots (their JPEGs, in order): the composer
/// of its kind and layout, which the library does not know. Throws when it cannot.
package typealias Recomposer = @Sendable (Photo, [Data]) throws -> Data

extension LibraryMaintenance {
    /// The shots of the catalog's pictures whose file is gone or does not decode.
    func checkParts() throws(LibraryError) -> [LibraryReport.Problem] {
        let parts = try catalog.read("list the shots") { db in
            try PartRecord.filter(sql: "picture IN (SELECT id FROM photo)").order(PartRecord.Columns.picture, PartRecord.Columns.position)
                .fetchAll(db)
        }
        var problems: [LibraryReport.Problem] = []
        for part in parts {
            guard let picture = UUID(uuidString: part.picture), let id = UUID(uuidString: part.id) else { continue }
            let url = directory.appendingPathComponent(part.file)
            let reason: String?
            if access(url.path, F_OK) != 0 {
                reason = "is missing"
            } else {
                do {
                    _ = try thumbnailer.thumbnail(of: try DurableFile.read(url))
                    reason = nil
                } catch {
                    reason = "does not decode (\(error))"
                }
            }
            if let reason { problems.append(.brokenPart(picture: picture, part: id, file: part.file, reason: reason)) }
        }
        return problems
    }

    /// The picture `photo` made again from its shots with `recompose` and put in place as a
    /// named picture's is (``PhotoLibrary/replaceComposedFile(of:with:thumbnail:)``: under an
    /// intent, with its size and thumbnail); `nil` when it has no shots, or not all of them
    /// read, or `recompose` cannot make it.
    func remake(_ photo: Photo, with recompose: Recomposer) throws(LibraryError) -> String? {
        var photo = photo
        let parts = try library.parts(of: photo.id)
        photo.parts = parts
        guard !parts.isEmpty else { return nil }
        let shots = parts.compactMap { try? DurableFile.read(directory.appendingPathComponent($0.file)) }
        guard shots.count == parts.count else { return nil }
        let made: Data
        do {
            made = try recompose(photo, shots)
        } catch {
            logger.warning("Picture \(photo.id.lowercased) \"\(photo.caption)\" could not be made again from its shots: \(error)")
            return nil
        }
        let thumbnail: Thumbnail
        do {
            thumbnail = try thumbnailer.thumbnail(of: made)
        } catch {
            logger.warning("Picture \(photo.id.lowercased) \"\(photo.caption)\" made again from its shots does not decode: \(error)")
            return nil
        }
        // Put in place as a picture named after it was composed is: one way to replace a composed file.
        try library.replaceComposedFile(of: photo.id, with: made, thumbnail: thumbnail)
        // A sidecar that went to quarantine/ with the unreadable file is written again from the row.
        if readSidecar(of: photo.file) == nil, let row = try library.row(of: photo.id) { try writeSidecar(of: row) }
        return "made \(photo.kind) \(photo.id.lowercased) \"\(photo.caption)\" again from its \(parts.count) shots: \(photo.file)"
    }

    /// Forgets shot `part` of `picture`, whose file is gone or does not decode: its row goes, and
    /// a file that is there goes to quarantine/. The picture stays as it is.
    func forget(_ part: UUID, of picture: UUID, file: String, reason: String) throws(LibraryError) -> String {
        var moved = ""
        if access(directory.appendingPathComponent(file).path, F_OK) == 0 { moved = ", moved to \(try quarantine(file))" }
        try catalog.write("forget a broken shot") { db in _ = try PartRecord.deleteOne(db, key: part.lowercased) }
        return "forgot the shot \(file) of picture \(picture.lowercased), which \(reason)\(moved)"
    }
}
