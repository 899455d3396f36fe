import Foundation

/// A small JPEG that stands for a photo in lists.
package struct Thumbnail: Sendable, Hashable {
    /// The thumbnail's JPEG bytes.
    package var jpeg: Data
    /// The thumbnail's size in pixels (longest side at most 320).
    public var width: Int
    public var height: Int
    /// The size of the photo it was made from.
    package var sourceWidth: Int
    package var sourceHeight: Int
    /// The photo's 64-bit perceptual hash, made from the same decode, when the thumbnailer
    /// makes one: a photo recorded from it (imported, adopted) needs no second decode for it.
    package var perceptualHash: UInt64?

    package init(
        jpeg: Data, width: Int, height: Int, sourceWidth: Int, sourceHeight: Int, perceptualHash: UInt64? = nil
    ) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.perceptualHash = perceptualHash
    }
}

/// Makes thumbnails from originals: JPEG photos and collages, animations' GIFs (from their first
/// frame). Making one decodes the whole photo, so success also proves that the photo is readable.
package protocol Thumbnailer: Sendable {
    /// Decodes `picture` and returns its thumbnail; throws when `picture` is corrupt or truncated.
    func thumbnail(of picture: Data) throws -> Thumbnail
}
