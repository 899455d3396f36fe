import BoothSystem
import Foundation
import Glibc
import SystemPackage

/// An exclusive claim on a library folder, so that two booths, or a booth and a repair, never
/// write to the same library at once. The kernel releases it when the process ends, however it
/// ends, so a crash never leaves a stale lock.
///
/// The claim is a lock on the folder itself, not on a file in it: a lock file can be deleted
/// under a running booth (by hand, or by a cleanup), and the next process would then lock a new
/// file of the same name and write beside it. The folder cannot go while it holds the library.
package final class LibraryLock: Sendable {
    /// The lock file of earlier versions, removed when found: nothing locks it any more.
    static let formerFileName = "photobooth.lock"

    private let descriptor: FileDescriptor

    /// Claims `directory`, creating it when needed; throws ``LibraryError/inUse`` when another
    /// process holds the claim. The corresponding C function is `flock(LOCK_EX | LOCK_NB)` on
    /// the folder.
    package init(directory: URL) throws(LibraryError) {
        try DurableFile.makeFolders(directory)
        let descriptor = try Self.openFolder(directory)
        do {
            try SystemCall.retrying { flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            try? descriptor.close()
            if error == .wouldBlock { throw LibraryError.inUse(directory) }
            throw LibraryError.file("lock", directory.path, errno: error)
        }
        self.descriptor = descriptor
        _ = unlink(directory.appendingPathComponent(Self.formerFileName).path)
    }

    deinit {
        try? descriptor.close()
    }

    /// Whether another process holds the claim on `directory` right now.
    package static func isHeld(in directory: URL) -> Bool {
        guard let descriptor = try? openFolder(directory) else { return false }
        defer { try? descriptor.close() }
        do {
            try SystemCall.retrying { flock(descriptor.rawValue, LOCK_SH | LOCK_NB) }
            return false
        } catch {
            return error == .wouldBlock
        }
    }

    /// The corresponding C function is `open(O_DIRECTORY)`.
    private static func openFolder(_ directory: URL) throws(LibraryError) -> FileDescriptor {
        do {
            return try Errno.catching { try FileDescriptor.open(FilePath(directory.path), .readOnly, options: [.directory, .closeOnExec]) }
        } catch {
            throw LibraryError.file("open the library folder", directory.path, errno: error)
        }
    }
}
