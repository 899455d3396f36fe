import BoothCore
import Foundation

/// Copies of photos that leave the booth (web download, export, the event's bucket) carry the
/// photo's name and time inside the JPEG. The original on disk is never rewritten for it: the
/// metadata is spliced into each copy on its way out, from what the catalog says at that moment.
extension PhotoLibrary {
    /// What a copy of `photo` says about itself: its name and time (in the booth's time zone at
    /// that moment), camera, booth, `event` and this program's name and version.
    public func metadata(of photo: Photo, event: String) throws(LibraryError) -> PhotoMetadata {
        let booth = try row(of: photo.id)?.booth ?? boothName
        return PhotoMetadata(
            id: photo.id, title: photo.caption.text, createdAt: photo.createdAt,
            utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: photo.createdAt), camera: photo.camera,
            software: Release.software, booth: booth, event: event)
    }

    /// The original of `photo` with its metadata in it.
    public func outgoingCopy(of photo: Photo, event: String, tagger: any PhotoTagger) throws(LibraryError) -> Data {
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
}
