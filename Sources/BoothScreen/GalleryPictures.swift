import BoothCore
import BoothImaging
import Foundation

/// The pictures of the gallery's screens, decoded for the screen and kept between paints: the
/// thumbnails of the list, the photo shown full screen, the shot being named or just saved, and
/// the saved screen's QR code. An animation plays from its first drawing; the cache says when
/// its next frame is due (``nextChange``), so that the screen draws again then.
///
/// A screen repaints the same content many times (each move of the selection, the web mirror's
/// refreshes) and decoding is what costs; with the cache, a repaint only copies pixels. The
/// cache owns a TurboJPEG decoder, which one thread uses at a time, so it belongs to the
/// painter of the thread that draws.
final class GalleryPictures {
    private let decoder: JPEGDecoder
    /// Thumbnails fitted to their box, by photo and box size; `nil` for one that does not decode.
    private var thumbnails: [ThumbnailKey: Bitmap?] = [:]
    /// The last photo shown full screen; its picture is `nil` for one that cannot be read or
    /// decoded.
    private var photo: Playing?
    /// The saved screen's QR codes: the photo's page, and the booth's Wi-Fi where it has one.
    private var codes: [QRCode] = []
    /// The last review picture drawn, fitted to its box.
    private var review: Playing?
    /// The moment of the paint under way: an animation shows its frame of that moment.
    private var now = MonotonicInstant(nanoseconds: 0)
    /// When a picture drawn in this paint shows its next frame; `nil` while none moves.
    private(set) var nextChange: MonotonicInstant?

    /// A picture on screen: its frames no larger than its box, when it began to play, and the
    /// frame last drawn as large as the box (an animation's frames are kept at their own size
    /// and enlarged one at a time, as they are drawn).
    private struct Playing {
        let key: PhotoKey
        let picture: ScreenPicture?
        var start: MonotonicInstant?
        var enlarged: (frame: Int, bitmap: Bitmap)?

        init(_ key: PhotoKey, _ picture: ScreenPicture?) {
            self.key = key
            self.picture = picture
        }
    }

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

    /// A paint of the moment `now` begins.
    func beginPaint(at now: MonotonicInstant) {
        self.now = now
        nextChange = nil
    }

    /// The original of photo `id`, from `originals`, as the largest picture that fits `width` x
    /// `height`, decoded with TurboJPEG's DCT scaling (a 4K photo on a 1280x800 screen decodes
    /// at a quarter of its size); an animation's frame of the paint's moment, its frames decoded
    /// once. The last one is kept, so a repaint decodes nothing. `nil` for a missing, unreadable
    /// or damaged original, which the screen says it cannot show (`photobooth check` tells the
    /// operator which files are damaged).
    func photo(_ id: UUID, from originals: any PhotoOriginals, fitting width: Int, _ height: Int) -> Bitmap? {
        let key = PhotoKey(id: id, width: width, height: height)
        if photo?.key != key {
            let original = try? originals.original(of: id)
            photo = Playing(key, original.flatMap { data in try? picture(of: data, fitting: width, height) })
        }
        return frame(of: &photo)
    }

    /// `data` (a JPEG, or an animation's GIF) for a box of `width` x `height`.
    private func picture(of data: Data, fitting width: Int, _ height: Int) throws -> ScreenPicture {
        if GIFFile.isGIF(data) { return try GIFFile(data).screenPicture(fitting: PixelSize(width: width, height: height)) }
        return ScreenPicture(still: try decoder.decode(data, fitting: width, height))
    }

    /// The review picture of photo `id` from `reviews` (an animation's frame of the paint's
    /// moment), as the largest picture that fits `width` x `height`, its pure whites toned down a
    /// shade (254): the saved screen's QR code stays the one pure white thing on the screen,
    /// which is how a screenshot finds it. The last one is kept; `nil` until the picture arrives
    /// (then nothing is kept, so the next paint looks again).
    func review(_ id: UUID, from reviews: ReviewPictures, fitting width: Int, _ height: Int) -> Bitmap? {
        let key = PhotoKey(id: id, width: width, height: height)
        if review?.key != key {
            guard let arrived = reviews.picture(of: id) else { return nil }
            let picture = arrived.map { frame in
                // A still is made to fit; an animation's frames only made smaller.
                var fitted = arrived.isMoving && frame.width <= width && frame.height <= height ? frame : frame.fitted(within: width, height)
                fitted.pixels.withUnsafeMutableBufferPointer { pixels in
                    for index in pixels.indices where index % 4 != 3 { pixels[index] = min(pixels[index], 254) }
                }
                return fitted
            }
            review = Playing(key, picture)
        }
        return frame(of: &review)
    }

    /// The frame of `playing` to draw at the paint's moment, its first drawing being its
    /// start; an animation's is enlarged to fill its box. Notes when the next frame is due.
    private func frame(of playing: inout Playing?) -> Bitmap? {
        guard var current = playing, let picture = current.picture else { return nil }
        defer { playing = current }
        let start = current.start ?? now
        current.start = start
        let (index, changesAt) = picture.frame(at: start.duration(to: now))
        if let changesAt {
            let instant = start + changesAt
            nextChange = min(nextChange ?? instant, instant)
        }
        let frame = picture.frames[index]
        guard picture.isMoving, frame.width < current.key.width, frame.height < current.key.height else { return frame }
        if let enlarged = current.enlarged, enlarged.frame == index { return enlarged.bitmap }
        let bitmap = frame.fitted(within: current.key.width, current.key.height)
        current.enlarged = (index, bitmap)
        return bitmap
    }

    /// The QR code of `text`; `nil` when it is too long for one. The last two are kept: a
    /// saved screen shows at most two.
    func qrCode(for text: String) -> QRCode? {
        if let code = codes.first(where: { $0.text == text }) { return code }
        guard let code = try? QRCode(encoding: text) else { return nil }
        codes = [code] + codes.prefix(1)
        return code
    }
}
