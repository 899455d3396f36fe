import Foundation

/// Where a guest is in the booth's gallery: which photo is selected, of how many. Index 0 is
/// the newest photo, as the library lists them.
public struct GalleryPosition: Sendable, Hashable {
    /// The selected photo, 0 (newest) to `count - 1`; 0 in an empty library.
    package var index: Int
    /// How many photos the library held when the gallery was opened.
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The position one photo newer, or this one at the top.
    package var previous: GalleryPosition { GalleryPosition(index: max(0, index - 1), count: count) }
    /// The position one photo older, or this one at the bottom.
    package var next: GalleryPosition { GalleryPosition(index: min(max(0, count - 1), index + 1), count: count) }
}

/// What the gallery says of one photo, on every screen that shows it.
package struct GalleryEntry: Sendable, Hashable {
    public var id: UUID
    public var caption: Caption
    /// When it was taken, written for people ("Taken on 22/11/2026 at 14h05").
    package var takenOn: String

    package init(id: UUID, caption: Caption, takenOn: String) {
        self.id = id
        self.caption = caption
        self.takenOn = takenOn
    }
}

/// The gallery's list: a page of photos with the selected one highlighted.
///
/// The state machine says which photo is selected; the booth fills in the page's rows from the
/// library before the screen shows it. A screen that gets a list with no rows for a library
/// that is not empty shows that the photos cannot be read.
public struct GalleryList: Sendable, Hashable {
    /// One photo of the page, with its thumbnail.
    package struct Row: Sendable, Hashable {
        package var entry: GalleryEntry
        /// The catalog's thumbnail JPEG (longest side 320 px).
        package var thumbnail: Data

        package init(entry: GalleryEntry, thumbnail: Data) {
            self.entry = entry
            self.thumbnail = thumbnail
        }
    }

    /// How many photos one page of the list shows: few enough that a name and a time read
    /// from two metres on a 640x480 screen.
    package static let rowsPerPage = 5

    package var position: GalleryPosition
    /// The photos of ``page``, newest first; empty until the booth reads them.
    package var rows: [Row]
    /// The start of a name the guest is typing to find a photo; `nil` when none is.
    package var search: NameSearch?

    package init(position: GalleryPosition, rows: [Row] = [], search: NameSearch? = nil) {
        self.position = position
        self.rows = rows
        self.search = search
    }

    /// The indices of the photos on the selected photo's page: the list turns a whole page at
    /// a time, so the booth reads one page of the library per turn and none while the
    /// selection moves within it.
    package var page: Range<Int> {
        let start = position.index / Self.rowsPerPage * Self.rowsPerPage
        return start..<min(position.count, start + Self.rowsPerPage)
    }

    /// The selected photo's row, once the rows are filled in.
    package var selectedRow: Row? {
        let offset = position.index - page.lowerBound
        return rows.indices.contains(offset) ? rows[offset] : nil
    }
}

/// The start of a name a guest types in the gallery, which the selection follows to the newest
/// photo whose name starts so.
package struct NameSearch: Sendable, Hashable {
    /// What has been typed; empty on a phone keypad between the key that starts a search and
    /// the first letter.
    package var prefix: String
    /// Whether some photo's name starts with ``prefix`` (the selection is there); `true` while
    /// the library has not answered, and for an empty prefix.
    package var matches: Bool

    package init(prefix: String, matches: Bool = true) {
        self.prefix = prefix
        self.matches = matches
    }
}

/// One photo of the gallery on the whole screen.
///
/// The state machine says which photo; the booth fills in what it is and where the screens get
/// its original. Both stay `nil` when the photo is no longer in the library or the catalog
/// cannot be read; the screen then says so.
public struct GalleryPhoto: Sendable, Hashable {
    package var position: GalleryPosition
    package var entry: GalleryEntry?
    /// Where the screens get the photo's original.
    package var originals: (any PhotoOriginals)?

    package init(position: GalleryPosition, entry: GalleryEntry? = nil, originals: (any PhotoOriginals)? = nil) {
        self.position = position
        self.entry = entry
        self.originals = originals
    }

    // Two screens are the same when they show the same photo, from wherever it comes.
    public static func == (lhs: GalleryPhoto, rhs: GalleryPhoto) -> Bool {
        lhs.position == rhs.position && lhs.entry == rhs.entry && (lhs.originals == nil) == (rhs.originals == nil)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(position)
        hasher.combine(entry)
    }
}

/// Where the screens get a photo's original. The booth implements it over its library, so no
/// screen reads files itself; the screens call it from their own threads, and it may block.
package protocol PhotoOriginals: Sendable {
    /// The original JPEG of the photo `id`.
    func original(of id: UUID) throws -> Data
    /// Where that original is kept, for an operator reading the terminal (a file's path).
    func location(of id: UUID) -> String
}
