import BoothCore
import BoothImaging
import Foundation

/// The pictures of the gallery's screens, decoded for the screen and kept between paints: the
/// thumbnails of the list, the photo shown full screen, the shot being named or just saved, and
/// the saved screen's QR code.
///
/// A screen repaints the same content many times (each move of the selection, the web mirror's
/// refreshes) and decoding is what costs; with the cache, a repaint only copies pixels. The
/// cache owns a TurboJPEG decoder, which one thread uses at a time, so it belongs to the
/// painter of the thread that draws.
final class GalleryPictures {
    private let decoder: JPEGDecoder
    /// Thumbnails fitted to their box, by photo and box size; `nil` for one that does not decode.
    private var thumbnails: [ThumbnailKey: Bitmap?] = [:]
    /// The last photo shown full screen; `nil` for one that cannot be read or decoded.
    private var photo: (key: PhotoKey, picture: Bitmap?)?
    private var code: QRCode?
    /// The last review picture drawn, fitted to its box.
    private var review: (key: PhotoKey, picture: Bitmap)?

    /// Pages of the list before the thumbnail cache starts over: paging back and forth over a
    /// few pages costs no decode, and the cache stays under a few megabytes.
    private static let thumbnailLimit = 8 * GalleryList.rowsPerPage

    private struct ThumbnailKey: Hashable {
        let id: UUID
        let width: Int
        let height: Int
    }

    private struct PhotoKey: Hashable {
        let id: UUID
        let width: Int
        let height: Int
    }

    init() throws(ScreenError) {
        do {
            decoder = try JPEGDecoder()
        } catch {
            throw ScreenError("The screen cannot decode photos: \(error)")
        }
    }

    /// The row's thumbnail as the largest picture that fits `width` x `height`; `nil` when the
    /// catalog's JPEG does not decode.
    func thumbnail(of row: GalleryList.Row, fitting width: Int, _ height: Int) -> Bitmap? {
        let key = ThumbnailKey(id: row.entry.id, width: width, height: height)
        if let cached = thumbnails[key] { return cached }
        if thumbnails.count >= Self.thumbnailLimit { thumbnails.removeAll(keepingCapacity: true) }
        let picture = try? decoder.decode(row.thumbnail, fitting: width, height)
        thumbnails[key] = picture
        return picture
    }

    /// The original of photo `id`, from `originals`, as the largest picture that fits `width` x
    /// `height`, decoded with TurboJPEG's DCT scaling (a 4K photo on a 1280x800 screen decodes
    /// at a quarter of its size); the last one is kept, so a repaint decodes nothing. `nil` for
    /// a missing, unreadable or damaged original, which the screen says it cannot show
    /// (`photobooth check` tells the operator which files are damaged).
    func photo(_ id: UUID, from originals: any PhotoOriginals, fitting width: Int, _ height: Int) -> Bitmap? {
        let key = PhotoKey(id: id, width: width, height: height)
        if let photo, photo.key == key { return photo.picture }
        let picture = (try? originals.original(of: id)).flatMap { try? decoder.decode($0, fitting: width, height) }
        photo = (key, picture)
        return picture
    }

    /// The review picture of photo `id` from `reviews`, as the largest picture that fits
    /// `width` x `height`, its pure whites toned down a shade (254): the saved screen's QR code
    /// stays the one pure white thing on the screen, which is how a screenshot finds it. The last
    /// one is kept; `nil` until the picture arrives (then nothing is kept, so the next paint
    /// looks again).
    func review(_ id: UUID, from reviews: ReviewPictures, fitting width: Int, _ height: Int) -> Bitmap? {
        let key = PhotoKey(id: id, width: width, height: height)
        if let review, review.key == key { return review.picture }
        guard var picture = reviews.picture(of: id)?.fitted(within: width, height) else { return nil }
        picture.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices where index % 4 != 3 { pixels[index] = min(pixels[index], 254) }
        }
        review = (key, picture)
        return picture
    }

    /// The QR code of `link`; `nil` when it is too long for one.
    func qrCode(for link: String) -> QRCode? {
        if let code, code.text == link { return code }
        code = try? QRCode(encoding: link)
        return code
    }
}
