import BoothCore
import Foundation

/// Copies of photos that leave the booth (web download, export, the event's bucket) carry the
/// photo's name and time inside the JPEG (or the animation's GIF). The original on disk is never rewritten for it: the
/// metadata is spliced into each copy on its way out, from what the catalog says at that moment.
extension PhotoLibrary {
    /// What a copy of `photo` says about itself: its name and time (in the booth's time zone at
    /// that moment), camera, booth, `event` and this program's name and version.
    package func metadata(of photo: Photo, event: String) throws(LibraryError) -> PhotoMetadata {
        let booth = try row(of: photo.id)?.booth ?? boothName
        return PhotoMetadata(
            id: photo.id, title: photo.caption.text, createdAt: photo.createdAt,
            utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: photo.createdAt), camera: photo.camera,
            software: Release.software, booth: booth, event: event)
    }

    /// The original of `photo` with its metadata in it.
    package func outgoingCopy(of photo: Photo, event: String, tagger: any PhotoTagger) throws(LibraryError) -> Data {
        let file = url(of: photo)
        let original = try DurableFile.read(file)
        do {
            return try tagger.tagged(original, with: try metadata(of: photo, event: event))
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.unreadableOriginal(file.path, error)
        }
    }

    /// The JPEG of shot `part` of the composed picture `photo`, with the picture's name and
    /// the shot's own id and time in it.
    package func outgoingCopy(of part: PhotoPart, of photo: Photo, event: String, tagger: any PhotoTagger) throws(LibraryError) -> Data {
        let file = directory.appendingPathComponent(part.file)
        let original = try DurableFile.read(file)
        var metadata = try metadata(of: photo, event: event)
        metadata.id = part.id
        metadata.createdAt = part.createdAt
        metadata.utcOffsetSeconds = TimeZone.current.secondsFromGMT(for: part.createdAt)
        do {
            return try tagger.tagged(original, with: metadata)
        } catch {
            throw LibraryError.unreadableOriginal(file.path, error)
        }
    }

    /// Copies the originals of `photos` into `folder`, each named after its caption
    /// ("Alice.jpg", then "Alice (2).jpg"; an animation "Alice.gif"), never replacing a file that is already there. The
    /// copies are synced, carry the photo's name and time inside (``outgoingCopy(of:event:tagger:)``)
    /// and as the file's modification time. With `parts`, each composed picture's shots follow it
    /// ("Alice, shot 1 of 4.jpg"). Returns the new files in order.
    package func export(
        _ photos: [Photo], to folder: URL, event: String, tagger: any PhotoTagger, parts: Bool = false
    ) throws(LibraryError) -> [URL] {
        try DurableFile.makeFolders(folder)
        var exported: [URL] = []
        func copy(_ data: Data, named base: String, as fileExtension: String = "jpg", takenAt date: Date) throws(LibraryError) {
            var destination = folder.appendingPathComponent("\(base).\(fileExtension)")
            var counter = 2
            while FileManager.default.fileExists(atPath: destination.path) {
                destination = folder.appendingPathComponent("\(base) (\(counter)).\(fileExtension)")
                counter += 1
            }
            // The copy itself refuses to replace a file, should one appear meanwhile.
            try DurableFile.write(data, toNew: destination)
            try? FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: destination.path)
            exported.append(destination)
        }
        for photo in photos {
            let base = Self.fileName(for: photo.caption)
            try copy(
                try outgoingCopy(of: photo, event: event, tagger: tagger), named: base, as: photo.kind.fileExtension, takenAt: photo.createdAt)
            guard parts else { continue }
            for part in photo.parts {
                try copy(
                    try outgoingCopy(of: part, of: photo, event: event, tagger: tagger),
                    named: "\(base), shot \(part.index + 1) of \(photo.parts.count)",
                    takenAt: part.createdAt)
            }
        }
        try DurableFile.syncFolder(folder)
        return exported
    }

    /// A file name (without extension) for a caption that is safe on Linux file systems and on
    /// the FAT-formatted USB sticks photos are often exported to, and in a download's name.
    package static func fileName(for caption: Caption) -> String {
        let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        var name = String(caption.text.map { forbidden.contains($0) ? "_" : $0 })
        while name.hasPrefix(".") || name.hasPrefix(" ") { name.removeFirst() }
        while name.hasSuffix(".") || name.hasSuffix(" ") { name.removeLast() }
        // 255 bytes is the usual limit; leave room for " (123).jpg".
        while name.utf8.count > 200 { name.removeLast() }
        return name.isEmpty ? "photo" : name
    }
}
