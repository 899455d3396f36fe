import Foundation

/// One slide of the slideshow the main screen becomes while nobody is at the booth (attract
/// mode): the library's photos with their names, favourites first.
///
/// The state machine counts the slides; the booth picks the photo of each (it knows the
/// library) and fills in what it is and where the screens get its original. Both stay `nil`
/// when the library has no photo to show or cannot be read; the screen then shows the main
/// screen's invitation alone.
public struct AttractSlide: Sendable, Hashable {
    /// How many slides came before this one since the slideshow began; the booth shows its
    /// photos in turn and starts over after the last.
    public var number: Int
    package var entry: GalleryEntry?
    /// Where the screens get the photo's original.
    package var originals: (any PhotoOriginals)?

    package init(number: Int, entry: GalleryEntry? = nil, originals: (any PhotoOriginals)? = nil) {
        self.number = number
        self.entry = entry
        self.originals = originals
    }

    // Two slides are the same when they show the same photo, from wherever it comes.
    public static func == (lhs: AttractSlide, rhs: AttractSlide) -> Bool {
        lhs.number == rhs.number && lhs.entry == rhs.entry && (lhs.originals == nil) == (rhs.originals == nil)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(entry)
    }
}
