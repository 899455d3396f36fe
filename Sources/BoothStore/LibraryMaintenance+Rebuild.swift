import BoothCore
import Foundation
import GRDB
import Logging

/// A catalog SQLite cannot read is set aside and made again from the photos and their sidecars.
extension LibraryMaintenance {
    /// Replaces a catalog SQLite cannot read (truncated, overwritten, its write-ahead log lost
    /// mid-checkpoint): the rows it still yields are salvaged, a new catalog is made from the
    /// originals, each with the name and time of its sidecar, else of its salvaged row, else a
    /// default caption, and rows whose original is gone are kept as lost. The new catalog is made
    /// as `photobooth.rebuilding.sqlite` and only once whole takes the place of the damaged one,
    /// which is set aside as `photobooth.damaged-<time>.sqlite` (with its `-wal` and `-shm`): a
    /// rebuild cut short (a power cut, a full disk) leaves the damaged catalog where it was, and
    /// the next one starts over. Never deletes an original. Returns what it did, one line per
    /// action. Call it with the library's lock held and no other ``PhotoLibrary`` open on the
    /// folder.
    package static func rebuildCatalog(
        in directory: URL, thumbnailer: any Thumbnailer, logger: Logger, boothName: String = ""
    ) throws(LibraryError) -> [String] {
        let directory = directory.standardizedFileURL
        let storage = StorageHealth.check(directory, reserveBytes: 0)
        if storage.problem == .full {
            throw LibraryError.storageFull("rebuild the damaged catalog of \(directory.path), which needs room for a new one", storage)
        }
        let rebuilding = "photobooth.rebuilding.sqlite"
        try removeCatalog(rebuilding, in: directory)
        let salvaged = salvage(directory.appendingPathComponent(PhotoLibrary.catalogName).path, logger: logger)
        let library = try PhotoLibrary(
            directory: directory, catalogFile: rebuilding, thumbnailer: thumbnailer, logger: logger, create: true, boothName: boothName)
        var actions: [String]
        do throws(LibraryError) {
            guard !library.isReadOnly else { throw LibraryError.readOnlyCatalog("rebuild the catalog", library.catalog.path) }
            actions = try library.maintenance.fillRebuiltCatalog(salvaged)
            try library.catalog.closeCheckpointed()
        } catch {
            library.close()
            try? removeCatalog(rebuilding, in: directory)
            throw error
        }

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let damaged = "photobooth.damaged-\(formatter.string(from: Date())).sqlite"
        // The write-ahead log and its index first: beside the new catalog they would be applied to it.
        for suffix in ["-wal", "-shm", ""] {
            let source = directory.appendingPathComponent(PhotoLibrary.catalogName + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try DurableFile.move(source, to: directory.appendingPathComponent(damaged + suffix))
        }
        try DurableFile.move(directory.appendingPathComponent(rebuilding), to: directory.appendingPathComponent(PhotoLibrary.catalogName))
        // Empty since the checkpoint; beside no catalog now.
        try removeCatalog(rebuilding, in: directory)
        return ["set the damaged catalog aside as \(damaged)"] + actions
    }

    /// Removes the catalog `name` and its `-wal` and `-shm`, if there.
    private static func removeCatalog(_ name: String, in directory: URL) throws(LibraryError) {
        for suffix in ["-wal", "-shm", ""] {
            try DurableFile.remove(directory.appendingPathComponent(name + suffix))
        }
    }

    /// Fills a new, empty catalog from the originals, their sidecars and the rows `salvaged`
    /// from the damaged one; returns what it did.
    private func fillRebuiltCatalog(_ salvaged: (photos: [UUID: PhotoSidecar], highestLost: Int?)) throws(LibraryError) -> [String] {
        let (salvaged, highestLost) = salvaged
        let files = try scanPhotos()
        let sidecars = readSidecars(of: files)
        // Numbers are never reused: an original described by nothing gets one after every number
        // a sidecar or a salvaged row (of a photo or of a lost one) holds, and the described are
        // adopted first so that none of them finds its number taken.
        for number in sidecars.values.map(\.number) + salvaged.values.map(\.number) + [highestLost ?? 0] {
            library.numberTaken(number)
        }
        func description(of file: String) -> (sidecar: PhotoSidecar?, row: PhotoSidecar?) {
            let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            return (sidecars[file], (sidecars[file]?.id ?? UUID(uuidString: stem)).flatMap { salvaged[$0] })
        }
        let (described, undescribed) = files.originals.reduce(into: ([String](), [String]())) { sorted, file in
            let (sidecar, row) = description(of: file)
            if sidecar ?? row != nil { sorted.0.append(file) } else { sorted.1.append(file) }
        }
        var (fromSidecars, fromRows, unnamed, unreadable, newIDs) = (0, 0, 0, 0, 0)
        var adopted = Set<UUID>()
        for file in described + undescribed {
            let (sidecar, row) = description(of: file)
            switch try adopt(file, described: sidecar ?? row) {
            case .adopted(let photo, let newID):
                adopted.insert(sidecar?.id ?? row?.id ?? photo.id)
                if sidecar != nil { fromSidecars += 1 } else if row != nil { fromRows += 1 } else { unnamed += 1 }
                if let newID {
                    newIDs += 1
                    logger.notice("The rebuilt catalog gives \(file) the new id \(photo.id.lowercased), since \(newID).")
                }
            case .unreadable:
                unreadable += 1
            }
        }
        // The shots of the pictures adopted, from their sidecars; those of no picture are photos.
        let shots = try reconcileParts()
        var lost = 0
        for (id, row) in salvaged where !adopted.contains(id) {
            try recordLost(row, reason: "original missing when the catalog was rebuilt")
            lost += 1
        }
        var summary = """
            rebuilt the catalog from \(files.originals.count) original\(files.originals.count == 1 ? "" : "s"): \
            \(fromSidecars) named from their sidecars, \(fromRows) from the damaged catalog, \(unnamed) given a default name
            """
        if newIDs > 0 { summary += "; \(newIDs) given a new id, having none of their own that was free" }
        if unreadable > 0 { summary += "; \(unreadable) that do not decode are left for `photobooth check --repair`" }
        if lost > 0 { summary += "; \(lost) salvaged row\(lost == 1 ? "" : "s") without an original kept as lost" }
        // Every original was looked at: the new catalog needs no full check at its first start.
        try fullCheckDone(settlingUpTo: nil)
        return [summary] + shots
    }

    /// The photos a damaged catalog still yields, read forward and backward until SQLite gives
    /// up each way (empty when it yields nothing), and the highest number of a lost photo it
    /// still yields.
    private static func salvage(_ path: String, logger: Logger) -> (photos: [UUID: PhotoSidecar], highestLost: Int?) {
        var found: [UUID: PhotoSidecar] = [:]
        var highestLost: Int?
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let catalog = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? catalog.close() }
            try catalog.read { db in
                for forward in [true, false] {
                    do {
                        // Rows, not records: a damaged catalog may be of any version, and any
                        // column of a row may not read.
                        let rows = try Row.fetchCursor(db, PhotoRecord.all().order(forward ? Column.rowID : Column.rowID.desc))
                        while let row = try rows.next() {
                            guard let id = (row["id"] as String?).flatMap(UUID.init(uuidString:)), let number: Int = row["number"],
                                let caption = (row["caption"] as String?).flatMap(Caption.init(sanitizing:)),
                                let createdAt = (row["created_at"] as String?).flatMap(Date.init(utcTimestamp:))
                            else { continue }
                            var record = PhotoSidecar(
                                id: id, number: number, caption: caption, createdAt: createdAt, booth: row["booth"] ?? "",
                                hidden: row["hidden"] ?? false,
                                camera: (row["camera_model"] as String?).map { CameraModel(make: row["camera_make"], model: $0) })
                            // A catalog of before favourites has no such column: nil, not a favourite.
                            record.favourite = row["favourite"] ?? false
                            found[id] = record
                        }
                    } catch {
                        logger.warning("The damaged catalog yields no more rows read \(forward ? "forward" : "backward"): \(error)")
                    }
                }
                highestLost = try? LostPhotoRecord.select(max(LostPhotoRecord.Columns.number), as: Int.self).fetchOne(db)
            }
        } catch {
            logger.warning("Nothing could be read from the damaged catalog \(path): \(error)")
        }
        return (found, highestLost)
    }
}
