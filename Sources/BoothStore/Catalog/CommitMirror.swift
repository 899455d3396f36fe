import Foundation
import Glibc
import Synchronization

/// The catalog's identity and its count of the commits that changed photos or intents
/// (`catalog_state.changes`, raised by triggers): what a start compares with the copy beside the
/// catalog to learn that the catalog lost commits (``LibraryMaintenance/reconcileAtStart()``).
struct CommitCount: Equatable, Sendable {
    var identity: String
    var changes: Int64
}

/// The count of commits written beside the catalog, in `photobooth.changes`, after each commit
/// that raised it. It is no change signal (the gallery's is ``GalleryChanges``): a start that
/// finds the file ahead of the catalog knows that the catalog lost commits, as a deleted
/// write-ahead log does.
///
/// The file is written after the commit and without `fsync`: it can lag behind the catalog (a
/// crash right after a commit, a power cut, another process's commit), which only means a loss
/// that goes unnoticed at start (`photobooth check` still finds it), but it can never be ahead of
/// what the catalog durably holds, so it never raises a false alarm. A file that does not read,
/// or names another catalog (a rebuilt one), says nothing.
final class CommitMirror: Sendable {
    /// The file beside the catalog.
    static let fileName = "photobooth.changes"

    private let directory: URL
    /// The count last written (or found there, for the same catalog); `nil` until the first
    /// commit reads the file.
    private let mirrored = Mutex<Int64?>(nil)

    init(directory: URL) {
        self.directory = directory
    }

    /// Writes `count` after a commit, when it is higher than what this library wrote last (or
    /// found there, for the same catalog): never lower, so that a catalog that lost commits stays
    /// known as such until a full check. Through a temporary file and a rename, so that the file
    /// is whole or old; without `fsync`, as a stale file only lets a loss go unnoticed. Nothing
    /// is said when the write fails.
    func mirror(_ count: CommitCount) {
        mirrored.withLock { mirrored in
            if mirrored == nil {
                mirrored = read().flatMap { $0.identity == count.identity ? $0.changes : nil } ?? 0
            }
            guard count.changes > mirrored ?? 0 else { return }
            let path = directory.appendingPathComponent(Self.fileName).path
            let temporary = directory.appendingPathComponent(".\(Self.fileName).tmp").path
            let text = Array("photobooth catalog \(count.identity) changes \(count.changes)\n".utf8)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return }
            let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            Glibc.close(descriptor)
            guard written == text.count, rename(temporary, path) == 0 else { return }
            mirrored = count.changes
        }
    }

    /// What the file says; `nil` when it is missing or does not read as written.
    func read() -> CommitCount? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.fileName).path),
            data.count < 200, let text = String(data: data, encoding: .utf8), let line = text.split(separator: "\n").first,
            text.hasPrefix(line + "\n")
        else { return nil }
        let words = line.split(separator: " ")
        guard words.count == 5, words[0] == "photobooth", words[1] == "catalog", words[3] == "changes", let changes = Int64(words[4]),
            changes >= 0
        else { return nil }
        return CommitCount(identity: String(words[2]), changes: changes)
    }
}
