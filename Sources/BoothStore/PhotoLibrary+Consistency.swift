import BoothCore
import Foundation
import GRDB
import Logging

/// Keeping files, sidecars and catalog in agreement. A crash can leave three things behind: a
/// temporary file (the write did not finish; the photo was never acknowledged), an original
/// without a row (the process died between rename and commit) and a deletion half done (see
/// ``recycle(_:)``). A catalog that lost its write-ahead log lost rows and names, which the
/// sidecars still have. All are handled at start: the operations a crash interrupted alone,
/// unless the catalog lost commits (``reconcileAtStart()``), when ``reconcile()`` checks every
/// photo. What a crash cannot explain is reported by ``check()`` and fixed by ``repair(_:)``,
/// which never deletes an original; a catalog SQLite cannot read is set aside and rebuilt
/// (``rebuildCatalog(in:thumbnailer:logger:boothName:)``).
extension PhotoLibrary {
    /// The folder where ``repair(_:)`` moves originals that cannot be decoded.
    public static let quarantineFolder = "quarantine"

    /// Checks every photo, reading every sidecar: finishes interrupted deletions, removes
    /// temporary files, adopts originals without a row (with the name and time of their sidecar,
    /// or a default caption), restores names and hidden flags the catalog lost from the sidecars
    /// (which are never older than the catalog), and writes the sidecars that are missing (a
    /// library of an earlier version has none). The operations in flight it began with are
    /// settled by it, and no full check is due after it (``reconcileAtStart()``). Returns what it
    /// did, one line per action.
    public func reconcile() throws(LibraryError) -> [String] {
        let settled = try lastIntent()
        var actions = try finishInterruptedRecycling()
        let files = try scanPhotos()
        for temporary in files.temporaries {
            try DurableFile.remove(directory.appendingPathComponent(temporary))
            actions.append("removed the temporary file \(temporary) left by an interrupted save")
        }
        let (rows, malformed) = try recordedRows()
        // A row without a photo id is no crash's doing: `check` reports it and `check --repair`
        // records its photo again. Until then its original is neither adopted (the row holds its
        // file) nor given a sidecar from a row that cannot say which photo it is.
        let heldByMalformedRows = Set(malformed.map(\.file))
        for row in malformed { logger.warning("\(LibraryReport.Problem.malformedRow(row))") }
        let sidecars = readSidecars(of: files)
        // An original adopted without a sidecar must not take the number another one's sidecar holds.
        for (file, sidecar) in sidecars where rows[file] == nil { numberTaken(sidecar.number) }
        var missingSidecars: [(Photo, PhotoSidecar)] = []
        for file in files.originals where !heldByMalformedRows.contains(file) {
            let sidecar = sidecars[file]
            guard let (photo, booth, hidden) = rows[file] else {
                if let adopted = try adoptAtStart(file, described: sidecar) { actions.append(adopted) }
                continue
            }
            guard let sidecar, sidecar.id == photo.id else {
                missingSidecars.append((photo, PhotoSidecar(photo, booth: booth, hidden: hidden)))
                continue
            }
            if let restored = try restore(photo, hidden: hidden, from: sidecar) { actions.append(restored) }
        }
        if !missingSidecars.isEmpty {
            // Copies of what the catalog holds: written without a sync each, then synced at once,
            // so that the first start after an upgrade does not sync thousands of small files.
            for (photo, sidecar) in missingSidecars {
                try setAsideUnreadableSidecar(of: photo)
                try DurableFile.replaceWithoutSync(
                    sidecarURL(of: photo), with: sidecar.xmp, temporaryName: Self.temporaryName(for: photo.id, extension: "xmp"))
            }
            DurableFile.syncEverything()
            let count = missingSidecars.count
            actions.append(
                "wrote the sidecar\(count == 1 ? "" : "s") of \(count) photo\(count == 1 ? "" : "s") that had none (<uuid>.xmp beside each original)")
        }
        try fullCheckDone(settlingUpTo: settled)
        return actions
    }

    /// Adopts an original found without a row at start (``adopt(_:described:)``); returns what
    /// it did, or `nil` when it does not decode (logged: `check --repair` moves it aside).
    func adoptAtStart(_ file: String, described sidecar: PhotoSidecar?) throws(LibraryError) -> String? {
        switch try adopt(file, described: sidecar) {
        case .adopted(let photo, let newID):
            let source = newID.map { ", with a new id since \($0)" } ?? (sidecar == nil ? "" : ", from its sidecar")
            return
                "adopted \(file) as \"\(photo.caption)\" (\(photo.id.lowercased))\(source): the booth stopped before recording it, or the catalog lost it"
        case .unreadable(let reason):
            logger.warning(
                "\(file) has no catalog row and does not decode (\(reason)); `photobooth check --repair` moves it to \(Self.quarantineFolder)/"
            )
            return nil
        }
    }

    /// Compares catalog, sidecars and files, decoding every original. Read-only.
    public func check() throws(LibraryError) -> LibraryReport {
        var problems: [LibraryReport.Problem] = []
        let integrity = try read("check the catalog") { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        problems += integrity.filter { $0 != "ok" }.map { .damagedCatalog($0) }

        let files = try scanPhotos()
        let (rows, malformed) = try recordedRows()
        problems += malformed.map { .malformedRow($0) }
        let heldByMalformedRows = Set(malformed.map(\.file))
        let onDisk = Set(files.originals)
        let beingRecycled = try interruptedRecycling()
        problems += beingRecycled.map { .interruptedRecycling($0) }
        for (photo, _, hidden) in rows.values.sorted(by: { $0.0.file < $1.0.file }) where !beingRecycled.contains(photo) {
            guard onDisk.contains(photo.file) else {
                problems.append(.missingOriginal(photo))
                continue
            }
            if let reason = unreadableReason(photo.file) {
                problems.append(.unreadable(file: photo.file, photo: photo, reason: reason))
                continue
            }
            guard let sidecar = readSidecar(of: photo.file), sidecar.id == photo.id else {
                problems.append(.missingSidecar(photo))
                continue
            }
            if sidecar.caption != photo.caption || sidecar.hidden != hidden || sidecar.favourite != photo.favourite {
                problems.append(.sidecarDiffers(photo, caption: sidecar.caption, hidden: sidecar.hidden, favourite: sidecar.favourite))
            }
        }
        for file in files.originals where rows[file] == nil && !heldByMalformedRows.contains(file) {
            if let reason = unreadableReason(file) {
                problems.append(.unreadable(file: file, photo: nil, reason: reason))
            } else {
                problems.append(.unrecorded(file: file))
            }
        }
        problems += files.temporaries.map { .temporaryFile($0) }
        return LibraryReport(problems: problems, photoCount: rows.count)
    }

    /// Fixes what `report` found, as far as it can be fixed without deleting an original:
    /// interrupted deletions are finished, temporary files are removed, unrecorded originals
    /// adopted, unreadable originals moved to `quarantine/`, the rows of missing or unreadable
    /// originals moved to the `lost_photo` table (caption and thumbnail are kept there), names
    /// restored from sidecars, missing sidecars written. A damaged catalog is not fixed here:
    /// ``rebuildCatalog(in:thumbnailer:logger:boothName:)`` replaces it. Returns what it did,
    /// one line per action.
    ///
    /// Its steps record no intents: while it runs, the next start is told to check every photo,
    /// in case it is cut short (``reconcileAtStart()``).
    public func repair(_ report: LibraryReport) throws(LibraryError) -> [String] {
        // A catalog that cannot be written (a full disk) or read still lets temporary files be removed.
        var marked = false
        do throws(LibraryError) {
            if try fullCheckDue() == nil {
                try setFullCheckDue("the last `photobooth check --repair` did not finish")
                marked = true
            }
        } catch {
            logger.warning("The next start cannot be told to check every photo should this repair be cut short: \(error)")
        }
        let actions = try repairing(report)
        if marked { try setFullCheckDue(nil) }
        return actions
    }

    private func repairing(_ report: LibraryReport) throws(LibraryError) -> [String] {
        var actions: [String] = []
        for problem in report.problems {
            switch problem {
            case .interruptedRecycling(let photo):
                actions.append(try finishRecycling(photo))
            case .temporaryFile(let file):
                try DurableFile.remove(directory.appendingPathComponent(file))
                actions.append("removed the temporary file \(file)")
            case .malformedRow(let row):
                actions.append(try recordAgain(row))
            case .unrecorded(let file):
                switch try adopt(file, described: readSidecar(of: file)) {
                case .adopted(let photo, let newID):
                    actions.append(
                        "adopted \(file) as \"\(photo.caption)\" (\(photo.id.lowercased))\(newID.map { ", with a new id since \($0)" } ?? "")")
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
                    actions.append(
                        "moved \(file) to \(destination) and recorded photo \(photo.id.lowercased) \"\(photo.caption)\" as lost: it does not decode")
                } else {
                    actions.append("moved \(file) to \(destination): it does not decode")
                }
            case .missingSidecar(let photo):
                guard let (photo, booth, hidden) = try row(of: photo.id) else { continue }
                try setAsideUnreadableSidecar(of: photo)
                try DurableFile.replace(
                    sidecarURL(of: photo), with: PhotoSidecar(photo, booth: booth, hidden: hidden).xmp,
                    temporaryName: Self.temporaryName(for: photo.id, extension: "xmp"))
                actions.append("wrote the sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\"")
            case .sidecarDiffers(let photo, _, _, _):
                guard let (photo, _, hidden) = try row(of: photo.id), let sidecar = readSidecar(of: photo.file),
                    let restored = try restore(photo, hidden: hidden, from: sidecar)
                else { continue }
                actions.append(restored)
            case .damagedCatalog(let detail):
                actions.append("left the damaged catalog (\(detail)) to be rebuilt from the photos and their sidecars")
            }
        }
        return actions
    }

    // MARK: Rebuilding the catalog

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
    public static func rebuildCatalog(
        in directory: URL, thumbnailer: any Thumbnailer, logger: Logger, boothName: String = ""
    ) throws(LibraryError) -> [String] {
        let directory = directory.standardizedFileURL
        let storage = StorageHealth.check(directory, reserveBytes: 0)
        if storage.problem == .full {
            throw LibraryError.storageFull("rebuild the damaged catalog of \(directory.path), which needs room for a new one", storage)
        }
        let rebuilding = "photobooth.rebuilding.sqlite"
        try removeCatalog(rebuilding, in: directory)
        let salvaged = salvage(directory.appendingPathComponent(catalogName).path, logger: logger)
        let library = try PhotoLibrary(
            directory: directory, catalogFile: rebuilding, thumbnailer: thumbnailer, logger: logger, create: true, boothName: boothName)
        var actions: [String]
        do throws(LibraryError) {
            guard !library.isReadOnly else { throw LibraryError.readOnlyCatalog("rebuild the catalog", library.catalogPath) }
            actions = try library.fillRebuiltCatalog(salvaged)
            try library.closeCheckpointed()
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
            let source = directory.appendingPathComponent(catalogName + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try DurableFile.move(source, to: directory.appendingPathComponent(damaged + suffix))
        }
        try DurableFile.move(directory.appendingPathComponent(rebuilding), to: directory.appendingPathComponent(catalogName))
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
            numberTaken(number)
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
        return [summary]
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
                for order in ["ASC", "DESC"] {
                    do {
                        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM photo ORDER BY rowid \(order)")
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
                        logger.warning("The damaged catalog yields no more rows read \(order == "ASC" ? "forward" : "backward"): \(error)")
                    }
                }
                highestLost = try? Int.fetchOne(db, sql: "SELECT MAX(number) FROM lost_photo")
            }
        } catch {
            logger.warning("Nothing could be read from the damaged catalog \(path): \(error)")
        }
        return (found, highestLost)
    }

    // MARK: Helpers

    enum Adoption {
        /// Recorded; `newID` says why it was given a new id, when it had none of its own that
        /// was free.
        case adopted(Photo, newID: String?)
        case unreadable(String)
    }

    /// Records an original that has no row. `description` (its sidecar, or a salvaged row)
    /// gives its id, number, name, time, booth and hidden flag, when it does not clash with a
    /// photo already recorded; otherwise the id comes from the file name when it is a free UUID,
    /// the time from the file, and the caption is a default one. The sidecar is written to
    /// match.
    ///
    /// A file that says no id (no sidecar, and a name that is not one, such as a photo copied in
    /// by hand), or the id of another recorded photo (a copy), becomes a photo of its own with a
    /// new id: the adoption says so, for the caller to report.
    func adopt(_ file: String, described description: PhotoSidecar?) throws(LibraryError) -> Adoption {
        let url = directory.appendingPathComponent(file)
        let data = try DurableFile.read(url)
        let thumbnail: Thumbnail
        do {
            thumbnail = try thumbnailer.thumbnail(forJPEG: data)
        } catch {
            return .unreadable("\(error)")
        }
        let stem = url.deletingPathExtension().lastPathComponent
        var newID: String?
        var id: UUID
        if let own = description?.id ?? UUID(uuidString: stem) {
            id = own
        } else {
            id = UUID.random()
            newID = "neither a sidecar nor its file name gives one"
        }
        if try photo(id: id, includingHidden: true) != nil {
            newID = "its id \(id.lowercased) belongs to another photo"
            id = UUID.random()
        }
        var number = description?.number ?? reservePhotoNumber()
        if try isNumberTaken(number) { number = reservePhotoNumber() }
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
        let photo = Photo(
            id: id, number: number, caption: description?.caption ?? .placeholder(number: number),
            createdAt: (description?.createdAt ?? modified ?? Date()).roundedToMilliseconds, width: thumbnail.sourceWidth,
            height: thumbnail.sourceHeight, byteCount: data.count, file: file, camera: description?.camera,
            origin: description?.origin, booth: description?.booth ?? boothName, favourite: description?.favourite ?? false)
        let sidecar = PhotoSidecar(photo, booth: description?.booth ?? boothName, hidden: description?.hidden ?? false)
        if sidecar != readSidecar(of: file) {
            try DurableFile.replace(sidecarURL(of: photo), with: sidecar.xmp, temporaryName: Self.temporaryName(for: id, extension: "xmp"))
        }
        try insert(
            photo, thumbnail: thumbnail.jpeg, booth: sidecar.booth, hidden: sidecar.hidden, perceptualHash: thumbnail.perceptualHash)
        return .adopted(photo, newID: newID)
    }

    /// Replaces a row without a photo id by a row made from its original and sidecar, as an
    /// unrecorded original is adopted (the sidecar, written before the row, has the photo's id,
    /// name and time). A row whose original is gone or does not decode is kept as lost, under
    /// the id it has, and the original moved to `quarantine/`. Returns what it did.
    private func recordAgain(_ row: LibraryReport.MalformedRow) throws(LibraryError) -> String {
        // The row's file is as suspect as its id: only a file under photos/ is the booth's.
        let isOurs = row.file.hasPrefix(Self.photosFolder + "/") && !row.file.split(separator: "/").contains("..")
        let exists = isOurs && access(directory.appendingPathComponent(row.file).path, F_OK) == 0
        if exists, unreadableReason(row.file) == nil {
            try write("remove a row without a photo id") { db in try Self.forget(row, in: db) }
            switch try adopt(row.file, described: readSidecar(of: row.file)) {
            case .adopted(let photo, let newID):
                let source = newID.map { "with a new id since \($0)" } ?? "with the id of its sidecar or file name"
                return "recorded \(row.file) again as \"\(photo.caption)\" (\(photo.id.lowercased)), \(source): its row had the id \"\(row.id)\""
            case .unreadable(let reason):
                return "removed the row of \(row.file) with the id \"\(row.id)\"; its original does not decode (\(reason))"
            }
        }
        var reason = "its catalog row had the id \"\(row.id)\", which is not a photo id, and its original is missing"
        if exists {
            let destination = try quarantine(row.file)
            reason = "its catalog row had the id \"\(row.id)\", which is not a photo id, and its original does not decode (moved to \(destination))"
        }
        try write("record a lost photo") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO lost_photo
                    SELECT id, number, caption, created_at, thumbnail, width, height, byte_count, file, ?, ?
                    FROM photo WHERE rowid = ?
                    """,
                arguments: [Date().utcTimestamp, reason, row.rowID])
            try Self.forget(row, in: db)
        }
        return "recorded photo \(row.number) \"\(row.caption)\" as lost: \(reason)"
    }

    /// Removes a row without a photo id, and what the sync outbox holds for it.
    private static func forget(_ row: LibraryReport.MalformedRow, in db: Database) throws {
        try db.execute(sql: "DELETE FROM photo WHERE rowid = ?", arguments: [row.rowID])
        try db.execute(sql: "DELETE FROM sync_outbox WHERE photo_id = ?", arguments: [row.id])
    }

    /// Gives a row the name and hidden flag of its sidecar when they differ; returns what it
    /// did, or `nil` when they agree.
    func restore(_ photo: Photo, hidden: Bool, from sidecar: PhotoSidecar) throws(LibraryError) -> String? {
        guard sidecar.caption != photo.caption || sidecar.hidden != hidden || sidecar.favourite != photo.favourite else { return nil }
        try write("restore a photo from its sidecar") { db in
            try db.execute(
                sql: "UPDATE photo SET caption = ?, name_key = ?, search_text = ?, hidden = ?, favourite = ? WHERE id = ?",
                arguments: [
                    sidecar.caption.text, NameKey.of(sidecar.caption, number: photo.number), NameKey.fold(sidecar.caption.text),
                    sidecar.hidden, sidecar.favourite,
                    photo.id.lowercased,
                ])
        }
        var changes: [String] = []
        if sidecar.caption != photo.caption { changes.append("the name \"\(sidecar.caption)\" (the catalog had \"\(photo.caption)\")") }
        if sidecar.hidden != hidden { changes.append(sidecar.hidden ? "its hidden flag" : "its visibility") }
        if sidecar.favourite != photo.favourite {
            changes.append(sidecar.favourite ? "its favourite mark" : "its removal from the favourites")
        }
        return "restored \(changes.joined(separator: " and ")) of photo \(photo.id.lowercased) from its sidecar"
    }

    /// The sidecars that read, by the original they are beside.
    func readSidecars(of files: FolderContents) -> [String: PhotoSidecar] {
        var sidecars: [String: PhotoSidecar] = [:]
        for file in files.originals where files.sidecars.contains(Self.sidecarPath(of: file)) {
            sidecars[file] = readSidecar(of: file)
        }
        return sidecars
    }

    /// The sidecar beside the original `file`; `nil` when there is none or it does not read.
    func readSidecar(of file: String) -> PhotoSidecar? {
        guard let data = try? DurableFile.read(directory.appendingPathComponent(Self.sidecarPath(of: file))) else { return nil }
        return PhotoSidecar(xmp: data)
    }

    /// Renames the sidecar of a photo found to have none that reads (or one that describes
    /// another photo) to `<uuid>.xmp.unreadable` before a new one is written from the catalog,
    /// so that what a photo tool wrote in it is kept for a person to look at. Nothing to do when
    /// there is no file.
    func setAsideUnreadableSidecar(of photo: Photo) throws(LibraryError) {
        let sidecar = sidecarURL(of: photo)
        guard access(sidecar.path, F_OK) == 0 else { return }
        let destination = sidecar.appendingPathExtension("unreadable")
        guard rename(sidecar.path, destination.path) == 0 else {
            let code = errno
            throw LibraryError.file("set aside the unreadable sidecar as", destination.path, errno: code)
        }
        logger.warning(
            "The sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\" does not read; it is kept as \(destination.path) and a new one is written from the catalog."
        )
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

    /// Moves a file from `photos/` to the same path under `quarantine/`, its sidecar with it;
    /// returns the new path.
    private func quarantine(_ file: String) throws(LibraryError) -> String {
        let destination = Self.quarantineFolder + "/" + file
        try DurableFile.move(directory.appendingPathComponent(file), to: directory.appendingPathComponent(destination))
        let sidecar = directory.appendingPathComponent(Self.sidecarPath(of: file))
        if FileManager.default.fileExists(atPath: sidecar.path) {
            try DurableFile.move(sidecar, to: directory.appendingPathComponent(Self.quarantineFolder + "/" + Self.sidecarPath(of: file)))
        }
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

    /// Records a salvaged photo whose original is gone as lost: its name, number and time are
    /// all that is left of it.
    private func recordLost(_ photo: PhotoSidecar, reason: String) throws(LibraryError) {
        try write("record a lost photo") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO lost_photo (id, number, caption, created_at, thumbnail, width, height, byte_count, file, lost_at, reason)
                    VALUES (?, ?, ?, ?, x'', 0, 0, 0, ?, ?, ?)
                    """,
                arguments: [
                    photo.id.lowercased, photo.number, photo.caption.text, photo.createdAt.utcTimestamp,
                    Self.relativePath(for: photo.id, createdAt: photo.createdAt), Date().utcTimestamp, reason,
                ])
        }
        numberTaken(photo.number)
    }

    /// Whether a photo, recorded or lost, has this number.
    private func isNumberTaken(_ number: Int) throws(LibraryError) -> Bool {
        try read("look up a photo number") { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE number = ? UNION ALL SELECT 1 FROM lost_photo WHERE number = ?)",
                arguments: [number, number]) ?? false
        }
    }

    /// Every recorded photo, hidden or not, by its file, with its booth and hidden flag; and
    /// the rows whose id is not a photo id, which are no photo (``wellFormedID``).
    private func recordedRows() throws(LibraryError) -> (
        photos: [String: (Photo, booth: String, hidden: Bool)], malformed: [LibraryReport.MalformedRow]
    ) {
        try read("list recorded photos") { db in
            var rows: [String: (Photo, booth: String, hidden: Bool)] = [:]
            var malformed: [LibraryReport.MalformedRow] = []
            for row in try Row.fetchAll(db, sql: "SELECT rowid, \(Self.photoColumns), booth, hidden FROM photo ORDER BY file") {
                do throws(MalformedRow) {
                    let photo = try Self.photo(from: row)
                    rows[photo.file] = (photo, row["booth"], row["hidden"])
                } catch {
                    malformed.append(
                        LibraryReport.MalformedRow(
                            rowID: row["rowid"], id: error.id, file: error.file, number: row["number"], caption: row["caption"]))
                }
            }
            return (rows, malformed)
        }
    }

    /// What the library's folders hold, as paths relative to the library.
    struct FolderContents {
        /// The originals in photos/, sorted.
        var originals: [String]
        /// The sidecars in photos/.
        var sidecars: Set<String>
        /// Temporary files of interrupted writes, in photos/ and recycle/, sorted.
        var temporaries: [String]
    }

    /// The originals (`*.jpg`) and sidecars (`*.xmp`) under `photos/` and the temporary files
    /// (`*.tmp`) under `photos/` and `recycle/`, as paths relative to the library folder,
    /// sorted.
    private func scanPhotos() throws(LibraryError) -> FolderContents {
        var originals: [String] = []
        var sidecars: Set<String> = []
        var temporaries: [String] = []
        for folder in [Self.photosFolder, Self.recycleFolder] {
            for file in try DurableFile.regularFiles(under: directory.appendingPathComponent(folder)) {
                let relative = folder + "/" + file
                if relative.hasSuffix(".tmp") {
                    temporaries.append(relative)
                } else if folder == Self.photosFolder && relative.hasSuffix(".jpg") {
                    originals.append(relative)
                } else if folder == Self.photosFolder && relative.hasSuffix(".xmp") {
                    sidecars.insert(relative)
                }
            }
        }
        return FolderContents(originals: originals.sorted(), sidecars: sidecars, temporaries: temporaries.sorted())
    }
}
