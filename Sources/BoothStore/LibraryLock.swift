import Foundation
import Glibc

/// An exclusive claim on a library folder, so that two booths, or a booth and a repair, never
/// write to the same library at once. The kernel releases it when the process ends, however it
/// ends, so a crash never leaves a stale lock.
public final class LibraryLock: Sendable {
    /// The lock file's name inside the library folder.
    public static let fileName = "photobooth.lock"

    private let descriptor: Int32

    /// Claims `directory`, creating it when needed; throws ``LibraryError/inUse`` when another
    /// process holds the claim. The corresponding C function is `flock(LOCK_EX | LOCK_NB)`.
    public init(directory: URL) throws(LibraryError) {
        try DurableFile.makeFolders(directory)
        let path = directory.appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw LibraryError.file("open the lock file", path, errno: code)
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw LibraryError.inUse(directory) }
            throw LibraryError.file("lock", path, errno: code)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Whether another process holds the claim on `directory` right now.
    public static func isHeld(in directory: URL) -> Bool {
        let descriptor = open(directory.appendingPathComponent(fileName).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
