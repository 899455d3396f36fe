import BoothCore
import Foundation

/// What `check` found in a library.
package struct LibraryReport: Sendable {
    /// A catalog row whose id is not a photo id (a hand edit, or damage SQLite's own check does
    /// not see): it has no identity to show it by, so the gallery and every list leave it out.
    package struct MalformedRow: Sendable, Hashable {
        /// Where the row is in the catalog's `photo` table.
        package var rowID: Int64
        /// The id it has, as it is.
        package var id: String
        /// The original it names.
        package var file: String
        package var number: Int
        package var caption: String
    }

    /// One inconsistency.
    package enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// A catalog row whose id is not a photo id.
        case malformedRow(MalformedRow)
        /// A catalog row whose original file is missing.
        case missingOriginal(Photo)
        /// An original without a catalog row (the booth stopped between rename and commit, or
        /// someone copied a file in).
        case unrecorded(file: String)
        /// A file that does not decode (as a JPEG, or an animation's GIF); `photo` is its row, if it has one.
        case unreadable(file: String, photo: Photo?, reason: String)
        /// A temporary file left by an interrupted save; it never held an acknowledged photo.
        case temporaryFile(String)
        /// SQLite's own consistency check failed.
        case damagedCatalog(String)
        /// The booth stopped while deleting this photo: the recycle folder has its record, the
        /// catalog still lists it.
        case interruptedRecycling(Photo)
        /// A photo without its sidecar (or with one that does not read): the catalog alone knows
        /// its name. A library of an earlier version has none until the booth starts.
        case missingSidecar(Photo)
        /// The catalog and the photo's sidecar disagree on its name or hidden flag: the catalog
        /// lost a change (the sidecar is written first), or a photo tool edited the sidecar.
        case sidecarDiffers(Photo, caption: Caption, hidden: Bool, favourite: Bool)
        /// A shot of a composed picture whose file is gone or does not decode: the picture is
        /// whole, but cannot be made again from its shots.
        case brokenPart(picture: UUID, part: UUID, file: String, reason: String)

        package var description: String {
            switch self {
            case .malformedRow(let row):
                """
                catalog row without a photo id: photo \(row.number) "\(row.caption)" in \(row.file) (rowid \(row.rowID) of the \
                catalog's photo table) has the id "\(row.id)"; the gallery and lists leave it out until \
                `photobooth check --repair` records the photo again from its original and sidecar
                """
            case .missingOriginal(let photo):
                "missing original: photo \(photo.id.lowercased) \"\(photo.caption)\" has no file \(photo.file)"
            case .unrecorded(let file):
                "file without catalog row: \(file)"
            case .unreadable(let file, let photo?, let reason):
                "unreadable JPEG: photo \(photo.id.lowercased) \"\(photo.caption)\" in \(file): \(reason)"
            case .unreadable(let file, nil, let reason):
                "unreadable JPEG without catalog row: \(file): \(reason)"
            case .temporaryFile(let file):
                "leftover temporary file: \(file)"
            case .damagedCatalog(let detail):
                "damaged catalog: \(detail)"
            case .interruptedRecycling(let photo):
                "deletion not finished: photo \(photo.id.lowercased) \"\(photo.caption)\" has a record in recycle/ but is still in the catalog"
            case .missingSidecar(let photo):
                "no sidecar: photo \(photo.id.lowercased) \"\(photo.caption)\" has no readable \(PhotoLibrary.sidecarPath(of: photo.file))"
            case .sidecarDiffers(let photo, let caption, _, _) where caption != photo.caption:
                "the sidecar of photo \(photo.id.lowercased) names it \"\(caption)\", the catalog \"\(photo.caption)\""
            case .sidecarDiffers(let photo, _, _, let favourite) where favourite != photo.favourite:
                "the sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\" \(favourite ? "marks" : "does not mark") it as a favourite, the catalog \(favourite ? "does not" : "does")"
            case .brokenPart(let picture, _, let file, let reason):
                "a shot of picture \(picture.lowercased), \(file), \(reason): the picture cannot be made again from its shots"
            case .sidecarDiffers(let photo, _, let hidden, _):
                "the sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\" says it is \(hidden ? "hidden" : "visible"), the catalog does not"
            }
        }
    }

    /// Every problem found, in a stable order.
    package var problems: [Problem]
    /// How many photos the catalog lists.
    package var photoCount: Int

    /// Whether nothing is wrong.
    package var isClean: Bool { problems.isEmpty }
}
