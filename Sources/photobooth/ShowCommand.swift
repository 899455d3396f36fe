import ArgumentParser
import BoothCore
import Foundation

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every field of one photo and where its file is.")

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The photo's id, or a unique prefix of it.", valueName: "id"))
    var id: String

    @Flag(help: "Print the photo as a JSON object with the keys of `list --json`.")
    var json = false

    func run() throws {
        let library = try library.openLibrary()
        let photo = try library.photo(matching: id)
        if json {
            print(try PhotoJSON.render(PhotoJSON(photo, in: library)))
            return
        }
        let fields = [
            ("id", photo.id.lowercased),
            ("caption", photo.caption.text),
            ("number", "\(photo.number)"),
            ("created", "\(photo.localCreationTime) local, \(photo.createdAt.utcTimestamp)"),
            ("size", "\(photo.width)x\(photo.height) pixels, \(photo.byteCount) bytes"),
            ("file", library.url(of: photo).path),
        ]
        for (name, value) in fields {
            print("\((name + ":").padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)")
        }
    }
}
