import BoothCore
import BoothImaging
import Foundation

/// Every screen the booth shows, filled as a guest sees it, over the pictures that make its
/// words hardest to read: what `photobooth screens` paints for an operator to look at, and what
/// the tests check in every language, size and theme.
package enum ScreenCatalogue {
    /// One screen to paint.
    package struct Screen {
        /// A name for its screendump's file: `ready-over-white`, `saved-two-codes`.
        package let name: String
        package let content: ScreenContent
        /// A printer fault shown across the top.
        package var notice: PrinterFault?
        /// The camera's picture under the screens that show it, fitted to the canvas.
        package var preview: Bitmap?
    }

    /// The keys of a booth that has them all: a print key and a key for each mode, which give
    /// the main screen its most lines and the saved screen its invitation to print.
    package static func keysOfAFullBooth(in texts: BoothTexts) -> KeyLabels {
        var keys = KeyLabels.keyboard(in: texts)
        keys.print = "p"
        keys.modeKeys = [.init(label: "c", mode: .collage), .init(label: "a", mode: .animation), .init(label: "b", mode: .boomerang)]
        return keys
    }

    /// The screens of a booth for a canvas of `width` x `height` (their words are the
    /// painter's, in its language): the main screen, the countdown and the shot over each backdrop (``backdrops``), naming, saved (with
    /// one code, two, a name still pending, a print on its way), each fault, each printer
    /// notice, the gallery, a photo and the slideshow over a white photo.
    package static func screens(width: Int, height: Int) throws -> [Screen] {
        var screens: [Screen] = []
        for (backdrop, colour) in backdrops {
            let preview = try self.preview(colour, fitting: width, height)
            for (name, content) in [
                ("ready", ScreenContent.ready), ("countdown", .countdown(secondsLeft: 3)),
                ("countdown-collage", .countdown(secondsLeft: 2, shot: ShotCount(number: 2, of: 4))), ("smile", .smile),
            ] {
                screens.append(Screen(name: "\(name)-over-\(backdrop)", content: content, preview: preview))
            }
        }
        let black = try preview(PixelColor.black, fitting: width, height)
        for fault in PrinterFault.allCases {
            screens.append(Screen(name: "printer-\(fault.rawValue)", content: .ready, notice: fault, preview: black))
        }
        let photo = UUID()
        let caption = Caption(sanitizing: "Anna & Zoë")!
        let link = PhotoLink(page: "http://booth.local/photos/\(photo.lowercased)", deletionKey: "Z0wIAHXlYlY7mR3K9QTLsPq8cQE")
        let join = WiFiJoin(name: "Photobooth", security: .wpa2, passphrase: "say cheese")!
        screens += [
            ("starting", .starting), ("review", .review(shot: photo, number: 2, of: 4)),
            ("naming", .naming(typed: "", placeholder: .placeholder(number: 127), photo: photo)),
            ("naming-typed", .naming(typed: "Anna & Zoë", placeholder: .placeholder(number: 127), photo: photo)), ("saving", .saving),
            ("saved", .saved(caption, photo: photo)), ("saved-code", .saved(caption, photo: photo, link: link)),
            ("saved-two-codes", .saved(caption, photo: photo, link: PhotoLink(page: link.page, join: join))),
            ("saved-name-pending", .saved(.placeholder(number: 127), photo: photo, link: link, pendingName: caption)),
            ("saved-printing", .saved(caption, photo: photo, link: link, printing: true)),
        ].map { Screen(name: $0, content: $1) }
        for fault in BoothFault.allCases { screens.append(Screen(name: "fault-\(fault)", content: .fault(fault))) }
        screens += try galleryScreens()
        return screens
    }

    /// The gallery's list (browsing, finding a name, empty), a photo and a slide, over a white
    /// photo where there is one: the bands over it must hold their words.
    private static func galleryScreens() throws -> [Screen] {
        let names = ["Anna & Zoë", "Ben", "Claire", "Dmitri", "Emma"]
        let entries = names.enumerated().map { index, name in
            GalleryEntry(id: UUID(), caption: Caption(sanitizing: name)!, takenOn: "28/11/2026 2\(index):04")
        }
        let white = try JPEGEncoder().encode(
            Bitmap(width: 640, height: 480, format: .rgb, pixels: [UInt8](repeating: 255, count: 640 * 480 * 3)), quality: 90)
        let originals = Originals(pictures: Dictionary(uniqueKeysWithValues: entries.map { ($0.id, white) }))
        var list = GalleryList(position: GalleryPosition(index: 2, count: 127))
        list.rows = entries.map { GalleryList.Row(entry: $0, thumbnail: white) }
        var finding = list
        finding.search = NameSearch(prefix: "Cl")
        return [
            ("gallery", .gallery(list)), ("gallery-finding", .gallery(finding)),
            ("gallery-empty", .gallery(GalleryList(position: GalleryPosition(index: 0, count: 0)))),
            ("photo", .photo(GalleryPhoto(position: GalleryPosition(index: 2, count: 127), entry: entries[0], originals: originals))),
            ("slide", .attract(AttractSlide(number: 1, entry: entries[0], originals: originals))),
            ("slide-empty-library", .attract(AttractSlide(number: 0))),
        ].map { Screen(name: $0, content: $1) }
    }

    /// The pictures the camera's screens are checked over: the darkest, the lightest, the
    /// accent's own colour, a mid grey, and the simulated camera's test pattern.
    package static let backdrops: [(name: String, colour: PixelColor?)] = [
        ("black", .black), ("white", .white), ("yellow", PixelColor(red: 255, green: 210, blue: 0)),
        ("grey", PixelColor(red: 128, green: 128, blue: 128)), ("pattern", nil),
    ]

    /// A 4:3 camera picture as large as fits the canvas: `colour` all over, or the test pattern.
    private static func preview(_ colour: PixelColor?, fitting width: Int, _ height: Int) throws -> Bitmap {
        let size = (width: min(width, height * 4 / 3), height: min(height, width * 3 / 4))
        guard let colour else {
            return TestPattern(width: size.width, height: size.height).render(frame: 1, at: Date(timeIntervalSince1970: 1_795_000_000))
        }
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        pixels.withUnsafeMutableBufferPointer { pixels in
            for index in stride(from: 0, to: pixels.count, by: 4) {
                (pixels[index], pixels[index + 1], pixels[index + 2]) = (colour.blue, colour.green, colour.red)
            }
        }
        return Bitmap(width: size.width, height: size.height, format: .bgrx, pixels: pixels)
    }

    /// Originals kept in memory.
    private struct Originals: PhotoOriginals {
        let pictures: [UUID: Data]

        func original(of id: UUID) throws -> Data {
            guard let picture = pictures[id] else { throw CocoaError(.fileNoSuchFile) }
            return picture
        }

        func location(of id: UUID) -> String { "the catalogue" }
    }
}
