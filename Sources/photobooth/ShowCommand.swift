import ArgumentParser
import BoothCore
import Foundation

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every field of one photo and where its file is.",
        discussion: """
            Prints the photo's id, caption, number (the booth's running count), creation time \
            (local and UTC), size in pixels and bytes, and the path of the original. Photos \
            hidden from guests are shown too.

            EXIT STATUS
              0  The photo was shown.
              1  No photo has this id, the prefix matches several, or the
                 library cannot be opened.
              2  Bad usage.

            EXAMPLE
                sudo photobooth show 3f2a9c1e
            """)

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The photo's id, or a unique prefix of it.", valueName: "id"))
    var id: String

    @Flag(help: "Print the photo as a JSON object with the keys of `list --json`.")
    var json = false

    func run() throws {
        let library = try library.openLibrary()
        let photo = try library.gallery.photo(matching: id)
        if json {
            print(try PhotoJSON.render(PhotoJSON(photo, in: library)))
            return
        }
        var fields = [
            ("id", photo.id.lowercased),
            ("caption", photo.caption.text),
            ("number", "\(photo.number)"),
            ("created", "\(photo.localCreationTime) local, \(photo.createdAt.utcTimestamp)"),
            ("size", "\(photo.width)x\(photo.height) pixels, \(photo.byteCount) bytes"),
            ("file", library.url(of: photo).path),
        ]
        if photo.favourite { fields.append(("marked", "a favourite")) }
        for (name, value) in fields {
            print("\((name + ":").padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)")
        }
    }
}
