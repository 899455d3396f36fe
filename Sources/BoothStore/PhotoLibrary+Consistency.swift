import BoothCore
import Foundation
import GRDB

/// Keeping files and catalog in agreement. A crash can leave three things behind: a temporary
/// file (the write did not finish; the photo was never acknowledged), an original without a
/// row (the process died between rename and commit) and a deletion half done (see
/// ``recycle(_:)``). All are handled at every start. What a crash cannot explain is reported
/// by ``check()`` and fixed by ``repair(_:)``, which never deletes an original.
extension PhotoLibrary {
    /// The folder where ``repair(_:)`` moves originals that cannot be decoded.
    public static let quarantineFolder = "quarantine"

    /// Cleans up after a crash: finishes interrupted deletions, removes temporary files and
    /// adopts originals without a row, with a default caption. Returns what it did, one line per
    /// action.
    public func reconcile() throws(LibraryError) -> [String] {
        var actions = try finishInterruptedRecycling()
        let files = try scanPhotos()
        for temporary in files.temporaries {
            try DurableFile.remove(directory.appendingPathComponent(temporary))
            actions.append("removed the temporary file \(temporary) left by an interrupted save")
        }
        let recorded = Set(try recordedFiles())
        for file in files.originals where !recorded.contains(file) {
            switch try adopt(file) {
            case .adopted(let photo):
                actions.append(
                    "adopted \(file) as \"\(photo.caption)\" (\(photo.id.lowercased)): the booth stopped before recording it")
            case .unreadable(let reason):
                logger.warning("\(file) has no catalog row and does not decode (\(reason)); `photobooth check --repair` moves it to \(Self.quarantineFolder)/")
            }
        }
        return actions
    }

    /// Compares catalog and files, decoding every original. Read-only.
    public func check() throws(LibraryError) -> LibraryReport {
        var problems: [LibraryReport.Problem] = []
        let integrity = try read("check the catalog") { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        problems += integrity.filter { $0 != "ok" }.map { .damagedCatalog($0) }

        let files = try scanPhotos()
        let photos = try self.photos(includingHidden: true)
        let onDisk = Set(files.originals)
        let beingRecycled = try interruptedRecycling()
        problems += beingRecycled.map { .interruptedRecycling($0) }
        for photo in photos where !beingRecycled.contains(photo) {
            guard onDisk.contains(photo.file) else {
                problems.append(.missingOriginal(photo))
                continue
            }
            if let reason = unreadableReason(photo.file) {
                problems.append(.unreadable(file: photo.file, photo: photo, reason: reason))
            }
        }
        let recorded = Set(photos.map(\.file))
        for file in files.originals where !recorded.contains(file) {
            if let reason = unreadableReason(file) {
                problems.append(.unreadable(file: file, photo: nil, reason: reason))
            } else {
                problems.append(.unrecorded(file: file))
            }
        }
        problems += files.temporaries.map { .temporaryFile($0) }
        return LibraryReport(problems: problems, photoCount: photos.count)
    }

    /// Fixes what `report` found, as far as it can be fixed without deleting an original:
    /// interrupted deletions are finished, temporary files are removed, unrecorded originals
    /// adopted, unreadable originals moved to `quarantine/`, and the rows of missing or
    /// unreadable originals moved to the `lost_photo` table (caption and thumbnail are kept
    /// there). Returns what it did, one line per action.
    public func repair(_ report: LibraryReport) throws(LibraryError) -> [String] {
        var actions: [String] = []
        for problem in report.problems {
            switch problem {
            case .interruptedRecycling(let photo):
                actions.append(try finishRecycling(photo))
            case .temporaryFile(let file):
                try DurableFile.remove(directory.appendingPathComponent(file))
                actions.append("removed the temporary file \(file)")
            case .unrecorded(let file):
                switch try adopt(file) {
                case .adopted(let photo):
                    actions.append("adopted \(file) as \"\(photo.caption)\" (\(photo.id.lowercased))")
                case .unreadable(let reason):
                    let destination = try quarantine(file)
                    actions.append("moved \(file) to \(destination): it does not decode (\(reason))")
                }
            case .missingOriginal(let photo):
                try markLost(photo, reason: "original missing")
                actions.append("recorded photo \(photo.id.lowercased) \"\(photo.caption)\" as lost: its original \(photo.file) is missing")
            case .unreadable(let file, let photo, let reason):
                let destination = try quarantine(file)
                if let photo {
                    try markLost(photo, reason: "original unreadable (\(reason)), moved to \(destination)")
                    actions.append("moved \(file) to \(destination) and recorded photo \(photo.id.lowercased) \"\(photo.caption)\" as lost: it does not decode")
                } else {
                    actions.append("moved \(file) to \(destination): it does not decode")
                }
            case .damagedCatalog(let detail):
                actions.append("""
                    cannot repair the catalog itself (\(detail)): stop the booth, copy \(Self.catalogName) aside \
                    and restore it from a backup
                    """)
            }
        }
        return actions
    }

    // MARK: Helpers

    private enum Adoption {
        case adopted(Photo)
        case unreadable(String)
    }

    /// Records an original that has no row, with a default caption and the file's time as its
    /// creation time. The id is taken from the file name when it is a free UUID.
    private func adopt(_ file: String) throws(LibraryError) -> Adoption {
        let url = directory.appendingPathComponent(file)
        let data = try DurableFile.read(url)
        let thumbnail: Thumbnail
        do {
            thumbnail = try thumbnailer.thumbnail(forJPEG: data)
        } catch {
            return .unreadable("\(error)")
        }
        let stem = url.deletingPathExtension().lastPathComponent
        var id = UUID(uuidString: stem) ?? UUID()
        if try photo(id: id, includingHidden: true) != nil { id = UUID() }
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
        let number = reservePhotoNumber()
        let photo = Photo(
            id: id, number: number, caption: .placeholder(number: number), createdAt: (modified ?? Date()).roundedToMilliseconds,
            width: thumbnail.sourceWidth, height: thumbnail.sourceHeight, byteCount: data.count, file: file)
        try insert(photo, thumbnail: thumbnail.jpeg)
        return .adopted(photo)
    }

    /// Why `file` does not decode, or `nil` when it does.
    private func unreadableReason(_ file: String) -> String? {
        do {
            _ = try thumbnailer.thumbnail(forJPEG: try DurableFile.read(directory.appendingPathComponent(file)))
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Moves a file from `photos/` to the same path under `quarantine/`; returns the new path.
    private func quarantine(_ file: String) throws(LibraryError) -> String {
        let destination = Self.quarantineFolder + "/" + file
        try DurableFile.move(directory.appendingPathComponent(file), to: directory.appendingPathComponent(destination))
        return destination
    }

    /// Moves a photo's row to `lost_photo` in one transaction.
    private func markLost(_ photo: Photo, reason: String) throws(LibraryError) {
        try write("record a lost photo") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO lost_photo
                    SELECT id, number, caption, created_at, thumbnail, width, height, byte_count, file, ?, ?
                    FROM photo WHERE id = ?
                    """,
                arguments: [Date().utcTimestamp, reason, photo.id.lowercased])
            try db.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [photo.id.lowercased])
        }
    }

    private func recordedFiles() throws(LibraryError) -> [String] {
        try read("list recorded files") { db in try String.fetchAll(db, sql: "SELECT file FROM photo") }
    }

    /// The originals (`*.jpg`) under `photos/` and the temporary files (`*.tmp`) under
    /// `photos/` and `recycle/`, as paths relative to the library folder, sorted.
    private func scanPhotos() throws(LibraryError) -> (originals: [String], temporaries: [String]) {
        var originals: [String] = []
        var temporaries: [String] = []
        let prefix = directory.path + "/"
        for folder in [Self.photosFolder, Self.recycleFolder] {
            let root = directory.appendingPathComponent(folder)
            guard FileManager.default.fileExists(atPath: root.path) else { continue }
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
                throw LibraryError.file("list", root.path, errno: EIO)
            }
            for case let url as URL in walker {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
                if relative.hasSuffix(".tmp") {
                    temporaries.append(relative)
                } else if relative.hasSuffix(".jpg") && folder == Self.photosFolder {
                    originals.append(relative)
                }
            }
        }
        return (originals.sorted(), temporaries.sorted())
    }
}
