import BoothCore
import BoothStore
import BoothSystem
import Foundation
import Logging
import Synchronization

/// Fills in what the state machine leaves to the booth before the screen shows it: the
/// gallery's rows and photos from the library, the photo page's link on the saved screen, and
/// the photos of the slideshow nobody is watching yet (attract mode).
///
/// Catalog reads block, so they run on a ``SerialWorker`` of their own, never on Swift's
/// cooperative thread pool. Every screen passes through that worker, so screens are shown in the
/// order the machine asked for them and a slow read never shows after a newer screen.
///
/// The list is paged from SQLite: one page (``GalleryList/rowsPerPage`` photos) is read when
/// the selection reaches it, and moves within the page read nothing.
final class ScreenContentLoader: Screen {
    private let screen: any Screen
    private let library: PhotoLibrary
    private let dateFormat: PhotoDateFormat
    private let photoLink: @Sendable (UUID) -> String?
    private let deletionKey: @Sendable (UUID) -> String?
    /// The booth's own Wi-Fi, which the saved screen asks the guest to join first; `nil` for none.
    private let join: WiFiJoin?
    private let logger: Logger
    /// Where the screens read the originals: the library.
    private let originals: LibraryOriginals
    private let worker = SerialWorker(name: "screen content loader")
    /// The page last read, while the gallery is open. Touched on `worker` only; the mutex makes
    /// that safe to state to the compiler.
    private let page = Mutex<Page?>(nil)
    /// The slideshow's photos in the order shown, read when it begins. Touched on `worker` only.
    private let slideshow = Mutex<[Photo]?>(nil)

    /// The most photos one slideshow goes through before it starts over: the favourites, then
    /// the newest others.
    static let slideshowLength = 100

    /// One page of the library as read: its photos and their thumbnails, for the library's
    /// count at the time and the generation of what the gallery showed (``GalleryChanges``): a
    /// different count, or a photo renamed, hidden or deleted since (here, over the web or by
    /// another process), is a different library, read afresh.
    private struct Page {
        let range: Range<Int>
        let count: Int
        let generation: UInt64
        let photos: [Photo]
        let thumbnails: [Data]
    }

    /// - Parameters:
    ///   - dateFormat: how the gallery writes when a photo was taken.
    ///   - photoLink: the address of a photo's web page, for the saved screen's QR code; `nil`
    ///     when the booth has none to give. It must return at once (it writes an address).
    ///   - deletionKey: the key that lets the guest delete the photo from that page, which the
    ///     link carries apart (``PhotoLink``); `nil` when guests cannot delete. It must return at
    ///     once too.
    init(
        screen: any Screen, library: PhotoLibrary, dateFormat: PhotoDateFormat,
        photoLink: @escaping @Sendable (UUID) -> String?, deletionKey: @escaping @Sendable (UUID) -> String? = { _ in nil }, join: WiFiJoin? = nil,
        logger: Logger
    ) {
        self.screen = screen
        self.library = library
        originals = LibraryOriginals(library: library)
        self.dateFormat = dateFormat
        self.photoLink = photoLink
        self.join = join
        self.deletionKey = deletionKey
        self.logger = logger
    }

    /// Shows `content` once filled in, after every screen asked for before it.
    func show(_ content: ScreenContent) {
        worker.submit { [self] in screen.show(filled(content)) }
    }

    /// Passes the printer's notice on, in its turn among the screens.
    func showPrinterNotice(_ fault: PrinterFault?) {
        worker.submit { [self] in screen.showPrinterNotice(fault) }
    }

    /// Counts the library's photos on the worker and hands the count to `report` (`nil` when the
    /// catalog cannot be read).
    func countPhotos(then report: @escaping @Sendable (Int?) -> Void) {
        worker.submit { [self] in
            do {
                report(try library.gallery.count())
            } catch {
                logger.error("The gallery cannot count the photos: \(error)")
                report(nil)
            }
        }
    }

    /// Finds on the worker where the newest photo whose name starts with `prefix` is in the
    /// gallery's list, and hands it to `report` (`nil` when no name does, or the catalog cannot
    /// be read: the selection then stays).
    func findName(startingWith prefix: String, then report: @escaping @Sendable (Int?) -> Void) {
        worker.submit { [self] in
            do {
                report(try library.gallery.position(ofNameStartingWith: prefix))
            } catch {
                logger.error("The gallery cannot look for a name: \(error)")
                report(nil)
            }
        }
    }

    /// Returns once every screen handed over so far is shown.
    func drain() async {
        await worker.drain()
    }

    /// `content` with the booth's part filled in.
    private func filled(_ content: ScreenContent) -> ScreenContent {
        switch content {
        case .gallery(var list):
            if let page = read(list.page, count: list.position.count) {
                list.rows = zip(page.photos, page.thumbnails).map { GalleryList.Row(entry: entry(for: $0), thumbnail: $1) }
            }
            return .gallery(list)
        case .photo(var shown):
            let position = shown.position
            let range = GalleryList(position: position).page
            if let page = read(range, count: position.count), page.photos.indices.contains(position.index - range.lowerBound) {
                let photo = page.photos[position.index - range.lowerBound]
                shown.entry = entry(for: photo)
                shown.originals = originals
            }
            return .photo(shown)
        case .attract(var slide):
            var photos = slideshowPhotos(beginning: slide.number == 0)
            // Each round starts from the library again, so photos saved, marked or synced since
            // join it; and a photo hidden or deleted since is never shown again.
            if !photos.isEmpty
                && (slide.number % photos.count == 0
                    || (try? library.gallery.photo(id: photos[slide.number % photos.count].id)) == nil)
            {
                photos = slideshowPhotos(beginning: true)
            }
            if !photos.isEmpty {
                slide.entry = entry(for: photos[slide.number % photos.count])
                slide.originals = originals
            }
            return .attract(slide)
        default:
            // Out of the gallery and the slideshow: the next visit reads afresh, since photos may
            // have come since.
            page.withLock { $0 = nil }
            slideshow.withLock { $0 = nil }
            guard case .saved(let caption, let id, _, let pendingName, let printing) = content else { return content }
            let link = photoLink(id).map { PhotoLink(page: $0, deletionKey: deletionKey(id), join: join) }
            // The page alone: a log line is no place for the guest's key.
            logger.debug("Saved screen of \(id.lowercased): photo page \(link?.page ?? "none")")
            return .saved(caption, photo: id, link: link, pendingName: pendingName, printing: printing)
        }
    }

    /// The photos at `range` (newest first) and their thumbnails, from the last page read when
    /// it is the same; `nil` when the catalog cannot be read.
    private func read(_ range: Range<Int>, count: Int) -> Page? {
        let generation = library.changes.current
        if let cached = page.withLock({ $0 }), cached.range == range, cached.count == count, cached.generation == generation {
            return cached
        }
        guard !range.isEmpty else { return Page(range: range, count: count, generation: generation, photos: [], thumbnails: []) }
        do {
            let photos = try library.gallery.photos(skipping: range.lowerBound, limit: range.count)
            var thumbnails: [Data] = []
            for photo in photos {
                thumbnails.append(try library.gallery.thumbnail(of: photo.id) ?? Data())
            }
            let read = Page(range: range, count: count, generation: generation, photos: photos, thumbnails: thumbnails)
            page.withLock { $0 = read }
            return read
        } catch {
            logger.error("The gallery cannot read photos \(range.lowerBound + 1) to \(range.upperBound): \(error)")
            return nil
        }
    }

    /// The slideshow's photos, favourites first, each part newest first; read from the library
    /// when the slideshow `beginning`, or when it was not read yet. Empty when the library has
    /// none or cannot be read (then the screen shows the invitation alone).
    private func slideshowPhotos(beginning: Bool) -> [Photo] {
        if !beginning, let photos = slideshow.withLock({ $0 }) { return photos }
        var photos: [Photo] = []
        do {
            let favourites = try library.gallery.photos(.favourites, limit: Self.slideshowLength)
            let newest = try library.gallery.photos(limit: Self.slideshowLength + favourites.count)
            photos = favourites + newest.filter { !$0.favourite }.prefix(Self.slideshowLength - favourites.count)
        } catch {
            logger.error("The slideshow cannot read the photos: \(error)")
        }
        slideshow.withLock { $0 = photos }
        return photos
    }

    private func entry(for photo: Photo) -> GalleryEntry {
        GalleryEntry(id: photo.id, caption: photo.caption, takenOn: dateFormat.string(from: photo.createdAt))
    }
}

/// The originals of the library's photos, for the screens that show one full screen.
struct LibraryOriginals: PhotoOriginals {
    let library: PhotoLibrary

    func original(of id: UUID) throws -> Data {
        guard let photo = try library.gallery.photo(id: id) else { throw LibraryError.unknownPhoto }
        return try Data(contentsOf: library.url(of: photo))
    }

    func location(of id: UUID) -> String {
        guard let photo = try? library.gallery.photo(id: id) else { return "(no longer in the library)" }
        return library.url(of: photo).path
    }
}
