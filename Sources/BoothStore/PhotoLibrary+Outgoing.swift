import BoothCore
import Foundation

/// Copies of photos that leave the booth (web download, export, the event's bucket) carry the
/// photo's name and time inside the JPEG. The original on disk is never rewritten for it: the
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

    /// Copies the originals of `photos` into `folder`, each named after its caption
    /// ("Alice.jpg", then "Alice (2).jpg"), never replacing a file that is already there. The
    /// copies are synced, carry the photo's name and time inside (``outgoingCopy(of:event:tagger:)``)
    /// and as the file's modification time. Returns the new files in order.
    package func export(_ photos: [Photo], to folder: URL, event: String, tagger: any PhotoTagger) throws(LibraryError) -> [URL] {
        try DurableFile.makeFolders(folder)
        var exported: [URL] = []
        for photo in photos {
            let base = Self.fileName(for: photo.caption)
            var destination = folder.appendingPathComponent(base + ".jpg")
            var counter = 2
            while FileManager.default.fileExists(atPath: destination.path) {
                destination = folder.appendingPathComponent("\(base) (\(counter)).jpg")
                counter += 1
            }
            // The copy itself refuses to replace a file, should one appear meanwhile.
            try DurableFile.write(try outgoingCopy(of: photo, event: event, tagger: tagger), toNew: destination)
            try? FileManager.default.setAttributes([.modificationDate: photo.createdAt], ofItemAtPath: destination.path)
            exported.append(destination)
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
