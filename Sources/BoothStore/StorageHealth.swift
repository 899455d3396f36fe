import Foundation
import Glibc

/// Whether the library's disk can take photos now: its free space against a reserve, and
/// whether the library can be written at all. The booth checks it before a guest poses, so
/// that nobody goes through a countdown for a photo that could not be saved.
package struct StorageHealth: Sendable, Hashable, CustomStringConvertible {
    /// Why photos cannot be saved.
    package enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// Less free space than the reserve.
        case full
        /// The library cannot be written: a read-only disk, a folder the booth's user may not
        /// write to, a folder that is gone. The text says which.
        case unwritable(String)

        /// What the operator does about it.
        package var description: String {
            switch self {
            case .full: "Its disk is full."
            case .unwritable(let reason): "It cannot be written: \(reason)."
            }
        }
    }

    /// The library folder checked.
    package let directory: URL
    /// Bytes an unprivileged process may still write there; `nil` when it cannot be known.
    package let freeBytes: Int64?
    /// Files that can still be made there, when the file system counts them (ext4 and tmpfs
    /// do, btrfs and FAT do not); each photo takes two, its original and its sidecar.
    package let freeFiles: Int64?
    /// The free space kept for a burst of photos and the catalog's growth (`storage.reserve_mb`).
    package let reserveBytes: Int64
    /// `nil` when a photo can be saved.
    package let problem: Problem?

    /// The free space never used for photos, whatever the reserve: SQLite needs room for its
    /// shared memory and journal, and below it the catalog opens for reading only.
    package static let minimumFreeBytes: Int64 = 1 << 20

    /// Below this many free files (inodes) the disk is full too: a burst of photos, their
    /// sidecars and temporary files, and SQLite's journal files.
    package static let minimumFreeFiles: Int64 = 64

    /// Checks the library folder `directory` against `reserveBytes` (and
    /// ``minimumFreeBytes``): `statvfs` for the free
    /// space and a read-only mount, `access(W_OK)` for the folders and the catalog. It writes
    /// nothing, so it can run every few seconds on an SD card, unless `probing`: then, when all
    /// looks well, it also writes and removes a test file in photos/ (see
    /// ``DurableFile/probe(_:)``), for after a save the library refused although it looked well.
    package static func check(_ directory: URL, reserveBytes: Int64, probing: Bool = false) -> StorageHealth {
        var stats = statvfs()
        guard statvfs(directory.path, &stats) == 0 else {
            let reason = "\(directory.path) cannot be examined: \(String(cString: strerror(errno)))"
            return StorageHealth(directory: directory, freeBytes: nil, freeFiles: nil, reserveBytes: reserveBytes, problem: .unwritable(reason))
        }
        let free = Int64(stats.f_bavail) * Int64(stats.f_frsize)
        let freeFiles = stats.f_files > 0 ? Int64(stats.f_favail) : nil
        func health(_ problem: Problem?) -> StorageHealth {
            StorageHealth(directory: directory, freeBytes: free, freeFiles: freeFiles, reserveBytes: reserveBytes, problem: problem)
        }
        if stats.f_flag & UInt(ST_RDONLY) != 0 {
            return health(.unwritable("the disk that holds \(directory.path) is mounted read-only"))
        }
        let catalog = directory.appendingPathComponent(PhotoLibrary.catalogName)
        let photos = directory.appendingPathComponent(PhotoLibrary.photosFolder)
        for path in [directory.path, photos.path, catalog.path] where FileManager.default.fileExists(atPath: path) {
            if access(path, W_OK) != 0 {
                return health(.unwritable("the booth cannot write to \(path): \(String(cString: strerror(errno)))"))
            }
        }
        let full = free < max(reserveBytes, minimumFreeBytes) || freeFiles.map { $0 < minimumFreeFiles } == true
        if !full && probing && FileManager.default.fileExists(atPath: photos.path) {
            do {
                try DurableFile.probe(photos)
            } catch {
                return health(.unwritable("a test write in \(photos.path) failed although the disk has room: \(error)"))
            }
        }
        return health(full ? .full : nil)
    }

    /// The check in words for the operator: the log, `/healthz`, `doctor`.
    package var description: String {
        let freeText = freeBytes.map { ByteCountFormatter.string(fromByteCount: $0, countStyle: .file) } ?? "unknown"
        let reserveText = ByteCountFormatter.string(fromByteCount: reserveBytes, countStyle: .file)
        switch problem {
        case nil:
            return "\(freeText) free for \(directory.path) (the reserve is \(reserveText))."
        case .full where freeFiles.map { $0 < Self.minimumFreeFiles } == true:
            return """
                Storage full: the disk of \(directory.path) can hold only \(freeFiles ?? 0) more files (inodes), whatever \
                its free space (\(freeText)). \(LibraryError.freeSpaceAdvice(for: directory.path))
                """
        case .full:
            return """
                Storage full: \(freeText) free on the disk of \(directory.path), below the reserve of \(reserveText) \
                (storage.reserve_mb). \(LibraryError.freeSpaceAdvice(for: directory.path))
                """
        case .unwritable(let reason):
            return """
                Cannot save photos: \(reason). Check that the disk is mounted read-write (`findmnt -T \(directory.path)`) \
                and that the booth's user owns the library (`sudo chown -R photobooth: \(directory.path)`).
                """
        }
    }
}
