import Foundation
import GRDB
import SystemPackage

/// Why the photo library could not do what was asked. The description says what failed, on which
/// file, and what to do; ``code`` says which kind of failure it is, for callers and tests that
/// act on the kind rather than on the words.
///
/// Two errors are equal when they have the same code, whatever their message, so a caller can
/// also match on the static members (`error == .storageFull`).
package struct LibraryError: Error, Hashable, CustomStringConvertible {
    /// A kind of library error.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case noLibrary, storageFull, fileFailure, databaseFailure, damagedCatalog, unknownPhoto, ambiguousPhoto, inUse, notOurs
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The folder holds no catalog.
        package static let noLibrary = Code(.noLibrary)
        /// The library's disk is full, or the catalog is open for reading only because it was.
        package static let storageFull = Code(.storageFull)
        /// A file of the library could not be read or written.
        package static let fileFailure = Code(.fileFailure)
        /// The catalog failed for another reason than damage or a full disk.
        package static let databaseFailure = Code(.databaseFailure)
        /// SQLite cannot read the catalog: it has to be rebuilt.
        package static let damagedCatalog = Code(.damagedCatalog)
        /// No photo has the id asked for.
        package static let unknownPhoto = Code(.unknownPhoto)
        /// Several photos have ids that start with the reference given.
        package static let ambiguousPhoto = Code(.ambiguousPhoto)
        /// Another process holds the library.
        package static let inUse = Code(.inUse)
        /// The photo belongs to another booth of the event, which alone changes it.
        package static let notOurs = Code(.notOurs)

        package var description: String {
            switch kind {
            case .noLibrary: "no photo library"
            case .storageFull: "the disk is full"
            case .fileFailure: "a file operation failed"
            case .databaseFailure: "the catalog failed"
            case .damagedCatalog: "the catalog is damaged"
            case .unknownPhoto: "no such photo"
            case .ambiguousPhoto: "several photos match"
            case .inUse: "the library is in use"
            case .notOurs: "the photo belongs to another booth of the event"
            }
        }
    }

    /// Which kind of failure this is.
    package let code: Code
    package let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    private init(_ code: Code) {
        self.init(code, code.description)
    }

    package static func == (lhs: LibraryError, rhs: LibraryError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Errors of each kind with a generic message, for matching (`#expect(throws: LibraryError.storageFull)`).
    package static let noLibrary = LibraryError(.noLibrary)
    package static let storageFull = LibraryError(.storageFull)
    package static let fileFailure = LibraryError(.fileFailure)
    package static let databaseFailure = LibraryError(.databaseFailure)
    package static let damagedCatalog = LibraryError(.damagedCatalog)
    package static let unknownPhoto = LibraryError(.unknownPhoto)
    package static let ambiguousPhoto = LibraryError(.ambiguousPhoto)
    package static let inUse = LibraryError(.inUse)
    package static let notOurs = LibraryError(.notOurs)

    static func noLibrary(at directory: URL) -> LibraryError {
        LibraryError(
            .noLibrary,
            """
            There is no photo library in \(directory.path) (no photobooth.sqlite). \
            Take a photo with `photobooth run` first, or pass the right --data-dir.
            """)
    }

    /// What to free when the disk that holds `path` is full, for every message that says so.
    package static func freeSpaceAdvice(for path: String) -> String {
        // A failed write names a file that may be gone (a temporary one): name what is there.
        var existing = URL(fileURLWithPath: path)
        while access(existing.path, F_OK) != 0 && existing.path != "/" { existing.deleteLastPathComponent() }
        let path = existing.path
        return """
            Free some space on the disk that holds \(path): empty the library's recycle/ folder (photos \
            deleted over the web) once it is copied elsewhere, delete files you do not need on that disk, \
            or shrink the system's logs (`sudo journalctl --vacuum-size=50M`); `df -h \(path)` shows what is left.
            """
    }

    /// A photo imported from another booth of the event can only be changed there.
    static func notOurs(_ operation: String, _ id: String, booth: String, origin: String) -> LibraryError {
        LibraryError(
            .notOurs,
            """
            Cannot \(operation) \(id): it was taken by the booth "\(booth)" of the event (\(origin) in the bucket), and only \
            that booth changes it; do it there, and the change reaches every booth.
            """)
    }

    /// The original at `path` is not a JPEG that metadata can be written into.
    static func unreadableOriginal(_ path: String, _ error: any Error) -> LibraryError {
        LibraryError(.fileFailure, "The original \(path) cannot be copied with its name and time: \(error). `photobooth check` looks at it.")
    }

    /// A system call on `path` failed with `errno`.
    static func file(_ operation: String, _ path: String, errno code: Errno) -> LibraryError {
        file(operation, path, errno: code.rawValue)
    }

    static func file(_ operation: String, _ path: String, errno code: Int32) -> LibraryError {
        let reason = String(cString: strerror(code))
        if code == ENOSPC || code == EDQUOT {
            return LibraryError(.storageFull, "Cannot \(operation) \(path): the disk is full (\(reason)). \(freeSpaceAdvice(for: path))")
        }
        return LibraryError(.fileFailure, "Cannot \(operation) \(path): \(reason).")
    }

    static func database(_ error: any Error, while operation: String, at path: String) -> LibraryError {
        if let error = error as? LibraryError { return error }
        switch (error as? DatabaseError)?.resultCode {
        case .SQLITE_FULL?:
            return storageFull(operation, path)
        case .SQLITE_CORRUPT?, .SQLITE_NOTADB?:
            return LibraryError(
                .damagedCatalog,
                """
                Cannot \(operation) in \(path): the catalog is damaged (\(error)). `photobooth check --repair` sets it \
                aside and rebuilds it from the photos and their sidecars; the booth does so by itself at start.
                """)
        default:
            return LibraryError(.databaseFailure, "Cannot \(operation) in \(path): \(error)")
        }
    }

    /// `operation` cannot start: the disk is as `storage` says.
    static func storageFull(_ operation: String, _ storage: StorageHealth) -> LibraryError {
        LibraryError(.storageFull, "Cannot \(operation). \(storage)")
    }

    /// `operation` on the catalog `path` failed for want of space.
    static func storageFull(_ operation: String, _ path: String) -> LibraryError {
        LibraryError(.storageFull, "Cannot \(operation) in \(path): the disk is full. \(freeSpaceAdvice(for: path))")
    }

    /// A write to a catalog opened read-only because its disk was full or could not be written.
    static func readOnlyCatalog(_ operation: String, _ path: String) -> LibraryError {
        LibraryError(
            .storageFull,
            """
            Cannot \(operation) in \(path): the catalog is open for reading only, since its disk was full or \
            could not be written when it was opened (the booth opens it for writing again once it can). \
            \(freeSpaceAdvice(for: path))
            """)
    }

    static func unknownPhoto(_ reference: String) -> LibraryError {
        LibraryError(.unknownPhoto, "No photo has the id \(reference). `photobooth list` shows the ids.")
    }

    /// The secret of the guests' deletion links has the wrong size: someone wrote the file.
    static func badGuestLinkSecret(_ path: String, size: Int, expected: Int) -> LibraryError {
        LibraryError(
            .fileFailure,
            """
            The guests' link secret \(path) holds \(size) bytes, not \(expected). Remove the file: the booth makes a \
            new one (the deletion links given so far stop working).
            """)
    }

    static func ambiguousPhoto(_ reference: String) -> LibraryError {
        LibraryError(.ambiguousPhoto, "Several photos have ids starting with \(reference). Give more of the id.")
    }

    static func inUse(_ directory: URL) -> LibraryError {
        LibraryError(
            .inUse,
            """
            Another photobooth process is using the library in \(directory.path). \
            Stop it first (systemctl stop photobooth) and try again.
            """)
    }
}
