import BoothCore
import Foundation
import GRDB

/// Perceptual hashes made after the fact, for photos saved before the catalog kept them.
extension LibraryMaintenance {
    /// Photos whose perceptual hash is not known yet, oldest first, at most `limit`.
    package func photosWithoutPerceptualHash(limit: Int) throws(LibraryError) -> [Photo] {
        let request = library.gallery.shown(includingHidden: true).withoutPerceptualHash().oldestFirst().limit(limit)
        return try catalog.read("list photos without a perceptual hash") { db in try request.fetchAll(db).map(\.photo) }
    }

    /// Stores a photo's perceptual hash. A derived value: no sidecar keeps it, the event's
    /// bucket does not need it, and guests do not see it (``GalleryChanges`` stays).
    package func setPerceptualHash(_ hash: UInt64, of id: UUID) throws(LibraryError) {
        try catalog.write("store a perceptual hash") { db in
            try PhotoRecord.all().photo(id).updateAll(db, PhotoRecord.Columns.perceptualHash.set(to: Int64(bitPattern: hash)))
        }
    }
}
