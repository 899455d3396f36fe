import BoothCore
import Foundation
import GRDB

/// The shots of pictures being made: each stored durably as it is taken, before its picture
/// exists, in `parts/` (where nothing takes it for a photo of its own), with its sidecar.
extension PhotoLibrary {
    /// The folder of the shots composed pictures are made of.
    package static let partsFolder = "parts"

    /// `parts/YYYY/MM/DD/<uuid>.jpg`, dated in UTC like a photo's original.
    static func partPath(for id: UUID, createdAt: Date) -> String {
        partsFolder + relativePath(for: id, createdAt: createdAt).dropFirst(photosFolder.count)
    }

    /// Stores shot `index` of picture `picture` durably: its intent, its JPEG and sidecar
    /// (written, synced and renamed, the folder synced), then its row in `photo_part` with the
    /// intent's end. When this returns the shot survives a crash or a power cut, whether or not
    /// its picture is ever composed: a start that finds a shot whose picture never came keeps it
    /// as a photo of its own.
    ///
    /// `number` and `placeholder` are the picture's, which the shot's sidecar names so that a
    /// person reading it knows which picture it belongs to.
    package func addPart(
        _ jpeg: Data, id: UUID, of picture: UUID, index: Int, number: Int, width: Int, height: Int, createdAt: Date,
        camera: CameraModel? = nil
    ) throws(LibraryError) -> PhotoPart {
        precondition((0..<PhotoPart.maximumCount).contains(index), "a picture has at most \(PhotoPart.maximumCount) shots")
        let createdAt = createdAt.roundedToMilliseconds
        let file = Self.partPath(for: id, createdAt: createdAt)
        let part = PhotoPart(id: id, index: index, file: file, width: width, height: height, byteCount: jpeg.count, createdAt: createdAt)
        var sidecar = PhotoSidecar(
            id: id, number: number, caption: .placeholder(number: number), createdAt: createdAt, booth: boothName, hidden: false,
            camera: camera)
        sidecar.width = width
        sidecar.height = height
        sidecar.partOf = picture
        sidecar.partIndex = index
        guard !isReadOnly else { throw LibraryError.readOnlyCatalog("save a shot", catalog.path) }
        let original = directory.appendingPathComponent(file)
        let sidecarURL = directory.appendingPathComponent(Self.sidecarPath(of: file))
        let intent = try beginOperation(.savePart, of: id, file: file)
        try DurableFile.write([
            (jpeg, original, Self.temporaryName(for: id)),
            (sidecar.xmp, sidecarURL, Self.temporaryName(for: id, extension: "xmp")),
        ])
        reached("save part: files in place")
        do {
            try catalog.write("record the shot \(id.lowercased)") { db in
                try PartRecord(part, of: picture, camera: camera).insert(db)
                try Self.closeOperation(intent, in: db)
            }
        } catch {
            // The guest is told the shot was missed: it must not come back as a photo.
            do {
                try DurableFile.remove(original)
                try DurableFile.remove(sidecarURL)
                try DurableFile.syncFolder(original.deletingLastPathComponent())
            } catch let removal {
                logger.error("The shot \(id.lowercased), which was not saved, could not be removed (\(removal)); the next start keeps it as a photo.")
            }
            throw error
        }
        return part
    }

    /// Keeps the shots of a picture that will not be made (the camera went away between a
    /// collage's shots) as photos of their own, now rather than at the next start; returns what
    /// it did. A shot that cannot be kept now is at the next start.
    package func keepAsPhotos(shotsOf picture: UUID) throws(LibraryError) -> [String] {
        let shots = try catalog.read("read a picture's shots") { db in
            try PartRecord.filter(PartRecord.Columns.picture == picture.lowercased).order(PartRecord.Columns.position).fetchAll(db)
        }
        return try changing.withLock { _ throws(LibraryError) in
            try shots.map { (shot) throws(LibraryError) in try maintenance.release(shot, number: nil) }
        }
    }

    /// Replaces the file of composed picture `id` with `picture`, made again from its shots (its
    /// layout prints the name, which the guest typed after it was composed), and its thumbnail:
    /// the new file replaces the old at once (a temporary file, synced, renamed), under a change's
    /// intent, so a crash leaves one or the other whole. A photo's original is never replaced.
    package func replaceComposedFile(of id: UUID, with picture: Data, thumbnail: Thumbnail) throws(LibraryError) {
        try changing.withLock { _ throws(LibraryError) in
            guard let row = try row(of: id) else { throw LibraryError.unknownPhoto(id.lowercased) }
            let photo = row.photo
            // A framed photo is composed too (a photo of one shot in a layout); a camera's original never is.
            precondition(!photo.parts.isEmpty && photo.origin == nil, "only a composed picture of this booth is made again")
            guard !isReadOnly else { throw LibraryError.readOnlyCatalog("replace a composed picture", catalog.path) }
            let intent = try beginOperation(.change, of: id, file: photo.file)
            try DurableFile.replace(url(of: photo), with: picture, temporaryName: Self.temporaryName(for: id, extension: photo.kind.fileExtension))
            try catalog.write("record the picture made again") { db in
                try db.execute(
                    sql: "UPDATE photo SET byte_count = ?, thumbnail = ? WHERE id = ?", arguments: [picture.count, thumbnail.jpeg, id.lowercased])
                try OutboxRecord.queue(id, thumbnail: false, in: db)
                try Self.closeOperation(intent, in: db)
            }
            outbox.noteQueued()
        }
    }

    /// The shots of picture `picture`, in the order they were taken.
    package func parts(of picture: UUID) throws(LibraryError) -> [PhotoPart] {
        try catalog.read("read a picture's shots") { db in try PartRecord.parts(of: [picture], in: db)[picture] ?? [] }
    }
}
