import ArgumentParser
import BoothCore
import BoothStore
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

            --search, --album, --day and --favourites list what the web gallery's search and \
            albums show guests (names compared without case or accents). --duplicates prints \
            groups of photos that look alike (a burst of identical shots), to hide all but one.

            EXIT STATUS
              0  The photos were listed, also when there are none.
              1  The library cannot be opened (it does not exist, or is not
                 readable).
              2  Bad usage.

            EXAMPLES
                sudo photobooth list --limit 10   the newest photos
                photobooth list --json            for scripts: JSON
                photobooth list --search zoe      names with "zoe", "Zoë", "ZOE"
                photobooth list --day 2026-11-23  one day of the event
                photobooth list --duplicates      groups of near-identical shots
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(
        help:
            "Print one JSON array of objects: id, caption, created_at (ISO 8601 UTC), width, height, byte_count, file (absolute path), favourite; with --duplicates, an array of such arrays."
    )
    var json = false

    @Option(help: ArgumentHelp("List only the newest N photos.", valueName: "N"))
    var limit: Int?

    @Flag(help: "List the photos hidden from guests instead (to unhide one).")
    var hidden = false

    @Option(help: ArgumentHelp("List the photos whose name has these words, whatever their case and accents.", valueName: "text"))
    var search: String?

    @Option(help: ArgumentHelp("List one name's album: the photos with this name, whatever its case and accents.", valueName: "name"))
    var album: String?

    @Option(help: ArgumentHelp("List one day's album (in local time).", valueName: "YYYY-MM-DD"))
    var day: String?

    @Flag(help: "List the favourites.")
    var favourites = false

    @Flag(help: "Print groups of photos that look alike, newest group first.")
    var duplicates = false

    @Option(
        help: ArgumentHelp(
            "With --duplicates: how many of the 64 bits of their fingerprints two photos may differ in and still look alike.", valueName: "bits"))
    var distance = GalleryQueries.defaultDuplicateDistance

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        let choices = [search != nil, album != nil, day != nil, favourites, duplicates, hidden].filter { $0 }.count
        if choices > 1 {
            throw ValidationError("--search, --album, --day, --favourites, --duplicates and --hidden each choose what to list: give one of them.")
        }
        if let search, NameKey.words(search).isEmpty {
            throw ValidationError("--search needs a word: letters or digits.")
        }
        if let album, NameKey.fold(album).isEmpty { throw ValidationError("--album needs a name.") }
        if let day, PhotoQuery.start(ofDay: day) == nil {
            throw ValidationError("--day takes a date as YYYY-MM-DD (2026-11-23), not \"\(day)\".")
        }
        if !(0...64).contains(distance) { throw ValidationError("--distance is a number of bits, from 0 to 64.") }
    }

    /// What the options ask to list.
    var query: PhotoQuery {
        if let search { return .search(search) }
        if let album { return .name(album) }
        if let day { return .day(day) }
        return favourites ? .favourites : .all
    }

    func run() throws {
        let library = try library.openLibrary()
        if duplicates { return try listDuplicates(in: library) }
        let photos = hidden ? Array(try library.gallery.hiddenPhotos().prefix(limit ?? .max)) : try library.gallery.photos(query, limit: limit)
        if json {
            print(try PhotoJSON.render(photos.map { PhotoJSON($0, in: library) }))
            return
        }
        guard !photos.isEmpty else {
            print(emptyMessage(library.directory.path))
            return
        }
        printTable(photos)
    }

    /// What an empty listing says, for what was asked.
    func emptyMessage(_ folder: String) -> String {
        if hidden { return "No hidden photos in \(folder)." }
        return switch query {
        case .all: "No photos yet in \(folder)."
        case .search(let text): "No photo's name has \"\(text)\" in \(folder)."
        case .name(let name): "No photo is named \"\(name)\" in \(folder)."
        case .day(let day): "No photo was taken on \(day) in \(folder)."
        case .favourites: "No favourites in \(folder): `photobooth favourite ID` marks one."
        }
    }

    /// The groups of near-duplicates, a blank line between groups.
    func listDuplicates(in library: PhotoLibrary) throws {
        let groups = Array(try library.gallery.duplicateGroups(maxDistance: distance).prefix(limit ?? .max))
        if json {
            print(try PhotoJSON.render(groups.map { $0.map { PhotoJSON($0, in: library) } }))
            return
        }
        let waiting = try library.maintenance.photosWithoutPerceptualHash(limit: 1).count
        guard !groups.isEmpty else {
            print("No photos look alike within \(distance) bits in \(library.directory.path).")
            if waiting > 0 { print("Some photos have no fingerprint yet: the booth makes them when it starts.") }
            return
        }
        for (index, group) in groups.enumerated() {
            print("Group \(index + 1): \(group.count) photos")
            printTable(group)
            if index < groups.count - 1 { print("") }
        }
        if waiting > 0 { print("\nSome photos have no fingerprint yet: the booth makes them when it starts.") }
    }

    func printTable(_ photos: [Photo]) {
        let rows = photos.map { [String($0.id.lowercased.prefix(8)), $0.localCreationTime, $0.sizeDescription, $0.caption.text] }
        let header = ["ID", "CREATED", "SIZE", "CAPTION"]
        let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let padded = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            print((padded + [row[3]]).joined(separator: "  "))
        }
    }
}
