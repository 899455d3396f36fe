import BoothCore
import Foundation

extension PhotoLibrary {
    /// Copies the originals of `photos` into `folder`, each named after its caption
    /// ("Alice.jpg", then "Alice (2).jpg"), never replacing a file that is already there. The
    /// copies are synced, carry the photo's name and time inside (``outgoingCopy(of:event:tagger:)``)
    /// and as the file's modification time. Returns the new files in order.
    public func export(_ photos: [Photo], to folder: URL, event: String, tagger: any PhotoTagger) throws(LibraryError) -> [URL] {
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
    public static func fileName(for caption: Caption) -> String {
        let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        var name = String(caption.text.map { forbidden.contains($0) ? "_" : $0 })
        while name.hasPrefix(".") || name.hasPrefix(" ") { name.removeFirst() }
        while name.hasSuffix(".") || name.hasSuffix(" ") { name.removeLast() }
        // 255 bytes is the usual limit; leave room for " (123).jpg".
        while name.utf8.count > 200 { name.removeLast() }
        return name.isEmpty ? "photo" : name
    }
}
