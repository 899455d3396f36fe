import ArgumentParser
import BoothCore
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the photos, newest first.",
        discussion: """
            Prints one line per photo: the first 8 characters of its id, its creation time in \
            local time, its size and its caption. Ids may be shortened to any unique prefix in \
            `show` and `export`. Photos hidden from guests (the web gallery's admin action) are \
            listed only with --hidden.

            EXIT STATUS
              0  The photos were listed, also when there are none.
              1  The library cannot be opened (it does not exist, or is not
                 readable).
              2  Bad usage.

            EXAMPLES
                sudo photobooth list --limit 10   the newest photos
                photobooth list --json            for scripts: JSON
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print one JSON array of objects: id, caption, created_at (ISO 8601 UTC), width, height, byte_count, file (absolute path).")
    var json = false

    @Option(help: ArgumentHelp("List only the newest N photos.", valueName: "N"))
    var limit: Int?

    @Flag(help: "List the photos hidden from guests instead (to unhide one over the web).")
    var hidden = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let library = try library.openLibrary()
        let photos = hidden ? Array(try library.hiddenPhotos().prefix(limit ?? .max)) : try library.photos(limit: limit)
        if json {
            print(try PhotoJSON.render(photos.map { PhotoJSON($0, in: library) }))
            return
        }
        guard !photos.isEmpty else {
            print(hidden ? "No hidden photos in \(library.directory.path)." : "No photos yet in \(library.directory.path).")
            return
        }
        let rows = photos.map { [String($0.id.lowercased.prefix(8)), $0.localCreationTime, $0.sizeDescription, $0.caption.text] }
        let header = ["ID", "CREATED", "SIZE", "CAPTION"]
        let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let padded = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            print((padded + [row[3]]).joined(separator: "  "))
        }
    }
}
