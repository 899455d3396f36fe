import ArgumentParser
import BoothCore
import BoothStore
import Foundation

/// What `favourite`, `unfavourite`, `hide` and `unhide` do to a photo.
enum PhotoMark: Sendable {
    case favourite(Bool)
    case hidden(Bool)

    /// "marked as a favourite", for the line each photo gets.
    var done: String {
        switch self {
        case .favourite(true): "marked as a favourite"
        case .favourite(false): "no longer a favourite"
        case .hidden(true): "hidden from guests"
        case .hidden(false): "shown to guests again"
        }
    }

    func apply(to photo: Photo, in library: PhotoLibrary) throws(LibraryError) {
        switch self {
        case .favourite(let favourite): try library.setFavourite(favourite, of: photo.id)
        case .hidden(let hidden): try library.setHidden(hidden, of: photo.id)
        }
    }
}

/// The photos a mark command changes, and how it changes them: by id or a unique prefix, each
/// reported on a line of its own, the whole command failing when one photo could not be
/// changed (after trying the others).
struct MarkedPhotos: ParsableArguments {
    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The photos' ids, or unique prefixes of them.", valueName: "id"))
    var ids: [String]

    func mark(_ mark: PhotoMark) throws {
        let library = try library.openLibrary()
        var failed = 0
        for reference in ids {
            do {
                let photo = try library.gallery.photo(matching: reference)
                try mark.apply(to: photo, in: library)
                print("\(photo.id.lowercased.prefix(8))  \(photo.caption.text): \(mark.done)")
            } catch {
                failed += 1
                FileHandle.standardError.write(Data("photobooth: \(reference): \(error)\n".utf8))
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }

    static func discussion(_ what: String, example: String) -> String {
        """
        \(what) The change is in the photo's sidecar and the catalog, and reaches the event's \
        other booths through the bucket. The booth may be running: its gallery shows the \
        change at the next page.

        EXIT STATUS
          0  Every photo was changed.
          1  A photo is unknown, ambiguous or from another booth of the event
             (change it there), or the library cannot be written.
          2  Bad usage.

        EXAMPLE
            sudo photobooth \(example)
        """
    }
}

struct FavouriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourite",
        abstract: "Mark photos as favourites: first in the slideshow, and an album of their own.",
        discussion: MarkedPhotos.discussion(
            "Favourites come first in the slideshow and make the gallery's Favourites album.", example: "favourite 3f2a9c1e"))

    @OptionGroup var photos: MarkedPhotos

    func run() throws { try photos.mark(.favourite(true)) }
}

struct UnfavouriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfavourite",
        abstract: "Take photos out of the favourites.",
        discussion: MarkedPhotos.discussion("The photos stay in the gallery.", example: "unfavourite 3f2a9c1e"))

    @OptionGroup var photos: MarkedPhotos

    func run() throws { try photos.mark(.favourite(false)) }
}

struct HideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Hide photos from guests without deleting them.",
        discussion: MarkedPhotos.discussion(
            """
            Hidden photos leave the web gallery, its lists, albums, search and slideshow, and the \
            booth's screen; `list --hidden` lists them and `unhide` brings them back.
            """, example: "hide 3f2a9c1e 7b01"))

    @OptionGroup var photos: MarkedPhotos

    func run() throws { try photos.mark(.hidden(true)) }
}

struct UnhideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unhide",
        abstract: "Show hidden photos to guests again.",
        discussion: MarkedPhotos.discussion("The photos return to the gallery where they were.", example: "unhide 3f2a9c1e"))

    @OptionGroup var photos: MarkedPhotos

    func run() throws { try photos.mark(.hidden(false)) }
}
