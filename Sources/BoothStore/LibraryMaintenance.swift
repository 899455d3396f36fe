import BoothCore
import Foundation
import GRDB
import Logging

/// Keeping files, sidecars and catalog in agreement. A crash can leave three things behind: a
/// temporary file (the write did not finish; the photo was never acknowledged), an original
/// without a row (the process died between rename and commit) and a deletion half done (see
/// ``PhotoLibrary/recycle(_:)``). A catalog that lost its write-ahead log lost rows and names,
/// which the sidecars still have. All are handled at start: the operations a crash interrupted
/// alone, unless the catalog lost commits (``reconcileAtStart()``), when ``reconcile()`` checks
/// every photo. What a crash cannot explain is reported by ``check()`` and fixed by
/// ``repair(_:)``, which never deletes an original; a catalog SQLite cannot read is set aside and
/// rebuilt (``rebuildCatalog(in:thumbnailer:logger:boothName:)``). The derived values a photo
/// gets after the fact (its perceptual hash) are filled in here too.
///
/// It works through the library's own durable operations (a photo adopted is recorded as a save
/// records it) and keeps no state of its own: ``PhotoLibrary/maintenance`` hands one out.
package struct LibraryMaintenance: Sendable {
    let library: PhotoLibrary

    var directory: URL { library.directory }
    var catalog: Catalog { library.catalog }
    var logger: Logger { library.logger }
    var thumbnailer: any Thumbnailer { library.thumbnailer }
    var boothName: String { library.boothName }
}

extension LibraryMaintenance {
    /// The folder where ``repair(_:)`` moves originals that cannot be decoded.
    package static let quarantineFolder = "quarantine"

    /// Checks every photo, reading every sidecar: finishes interrupted deletions, removes
    /// temporary files, adopts originals without a row (with the name and time of their sidecar,
    /// or a default caption), restores names and hidden flags the catalog lost from the sidecars
    /// (which are never older than the catalog), and writes the sidecars that are missing (a
    /// library of an earlier version has none). The operations in flight it began with are
    /// settled by it, and no full check is due after it (``reconcileAtStart()``). Returns what it
    /// did, one line per action.
    package func reconcile() throws(LibraryError) -> [String] {
        let settled = try lastIntent()
        var actions = try library.finishInterruptedRecycling()
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
        for (file, sidecar) in sidecars where rows[file] == nil { library.numberTaken(sidecar.number) }
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
        actions += try reconcileParts()
        if !missingSidecars.isEmpty {
            // Copies of what the catalog holds: written without a sync each, then synced at once,
            // so that the first start after an upgrade does not sync thousands of small files.
            for (photo, sidecar) in missingSidecars {
                try setAsideUnreadableSidecar(of: photo)
                try DurableFile.replaceWithoutSync(
                    library.sidecarURL(of: photo), with: sidecar.xmp, temporaryName: PhotoLibrary.temporaryName(for: photo.id, extension: "xmp"))
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
    package func check() throws(LibraryError) -> LibraryReport {
        var problems: [LibraryReport.Problem] = []
        let integrity = try catalog.read("check the catalog") { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        problems += integrity.filter { $0 != "ok" }.map { .damagedCatalog($0) }

        let files = try scanPhotos()
        let (rows, malformed) = try recordedRows()
        problems += malformed.map { .malformedRow($0) }
        let heldByMalformedRows = Set(malformed.map(\.file))
        let onDisk = Set(files.originals)
        let beingRecycled = try library.interruptedRecycling()
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
        problems += try checkParts()
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
    ///
    /// A composed picture whose original is missing or does not decode is made again from its
    /// shots with `recompose`, when it is given and every shot reads, rather than recorded as
    /// lost.
    package func repair(_ report: LibraryReport, recompose: Recomposer? = nil) throws(LibraryError) -> [String] {
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
        let actions = try repairing(report, recompose: recompose)
        if marked { try setFullCheckDue(nil) }
        return actions
    }

    private func repairing(_ report: LibraryReport, recompose: Recomposer?) throws(LibraryError) -> [String] {
        var actions: [String] = []
        for problem in report.problems {
            switch problem {
            case .interruptedRecycling(let photo):
                actions.append(try library.finishRecycling(photo))
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
                if let recompose, let action = try remake(photo, with: recompose) {
                    actions.append(action)
                    continue
                }
                try markLost(photo, reason: "original missing")
                actions.append("recorded photo \(photo.id.lowercased) \"\(photo.caption)\" as lost: its original \(photo.file) is missing")
            case .unreadable(let file, let photo, let reason):
                let destination = try quarantine(file)
                if let photo, let recompose, let action = try remake(photo, with: recompose) {
                    actions.append("moved \(file) to \(destination): it does not decode; " + action)
                } else if let photo {
                    try markLost(photo, reason: "original unreadable (\(reason)), moved to \(destination)")
                    actions.append(
                        "moved \(file) to \(destination) and recorded photo \(photo.id.lowercased) \"\(photo.caption)\" as lost: it does not decode")
                } else {
                    actions.append("moved \(file) to \(destination): it does not decode")
                }
            case .missingSidecar(let photo):
                guard let row = try library.row(of: photo.id) else { continue }
                let photo = row.photo
                try setAsideUnreadableSidecar(of: photo)
                try writeSidecar(of: row)
                actions.append("wrote the sidecar of photo \(photo.id.lowercased) \"\(photo.caption)\"")
            case .sidecarDiffers(let photo, _, _, _):
                guard let row = try library.row(of: photo.id), let sidecar = readSidecar(of: row.photo.file),
                    let restored = try restore(row.photo, hidden: row.hidden, from: sidecar)
                else { continue }
                actions.append(restored)
            case .brokenPart(let picture, let part, let file, let reason):
                actions.append(try forget(part, of: picture, file: file, reason: reason))
            case .damagedCatalog(let detail):
                actions.append("left the damaged catalog (\(detail)) to be rebuilt from the photos and their sidecars")
            }
        }
        return actions
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
            thumbnail = try thumbnailer.thumbnail(of: data)
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
        if try library.gallery.photo(id: id, includingHidden: true) != nil {
            newID = "its id \(id.lowercased) belongs to another photo"
            id = UUID.random()
        }
        var number = description?.number ?? library.reservePhotoNumber()
        if try isNumberTaken(number) { number = library.reservePhotoNumber() }
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
        var photo = Photo(
            id: id, number: number, caption: description?.caption ?? .placeholder(number: number),
            createdAt: (description?.createdAt ?? modified ?? Date()).roundedToMilliseconds, width: thumbnail.sourceWidth,
            height: thumbnail.sourceHeight, byteCount: data.count, file: file, camera: description?.camera,
            origin: description?.origin, booth: description?.booth ?? boothName, favourite: description?.favourite ?? false)
        // A composed picture stays one: its shots are in parts/, and find it by its id again.
        photo.kind = PhotoLibrary.kind(description?.kind, isGIF: file.hasSuffix(".gif"))
        photo.layout = description?.layout
        var sidecar = PhotoSidecar(photo, booth: description?.booth ?? boothName, hidden: description?.hidden ?? false)
        // Its shots, as its description names them (their rows may come after it).
        sidecar.parts = description?.parts ?? []
        if sidecar != readSidecar(of: file) {
            try DurableFile.replace(
                library.sidecarURL(of: photo), with: sidecar.xmp, temporaryName: PhotoLibrary.temporaryName(for: id, extension: "xmp"))
        }
        try library.insert(
            photo, thumbnail: thumbnail.jpeg, booth: sidecar.booth, hidden: sidecar.hidden, perceptualHash: thumbnail.perceptualHash)
        return .adopted(photo, newID: newID)
    }

    /// Replaces a row without a photo id by a row made from its original and sidecar, as an
    /// unrecorded original is adopted (the sidecar, written before the row, has the photo's id,
    /// name and time). A row whose original is gone or does not decode is kept as lost, under
    /// the id it has, and the original moved to `quarantine/`. Returns what it did.
    private func recordAgain(_ row: LibraryReport.MalformedRow) throws(LibraryError) -> String {
        // The row's file is as suspect as its id: only a file under photos/ is the booth's.
        let isOurs = row.file.hasPrefix(PhotoLibrary.photosFolder + "/") && !row.file.split(separator: "/").contains("..")
        let exists = isOurs && access(directory.appendingPathComponent(row.file).path, F_OK) == 0
        if exists, unreadableReason(row.file) == nil {
            try catalog.write("remove a row without a photo id") { db in try Self.forget(row, in: db) }
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
        try catalog.write("record a lost photo") { db in
            if let photo = try PhotoRecord.filter(Column.rowID == row.rowID).fetchOne(db) {
                try LostPhotoRecord(photo, lostAt: Date(), reason: reason).insert(db, onConflict: .replace)
            }
            try Self.forget(row, in: db)
        }
        return "recorded photo \(row.number) \"\(row.caption)\" as lost: \(reason)"
    }

    /// Removes a row without a photo id, and what the sync outbox holds for it.
    private static func forget(_ row: LibraryReport.MalformedRow, in db: Database) throws {
        try PhotoRecord.filter(Column.rowID == row.rowID).deleteAll(db)
        try OutboxRecord.deleteOne(db, key: row.id)
    }

    /// Gives a row the name, hidden flag and favourite mark of its sidecar when they differ;
    /// returns what it did, or `nil` when they agree.
    func restore(_ photo: Photo, hidden: Bool, from sidecar: PhotoSidecar) throws(LibraryError) -> String? {
        // What kind of picture it is, too: a catalog taken back to before pictures had kinds,
        // or rebuilt by an older booth, calls an animation a photo, and its GIF is then printed
        // and shared as a JPEG would be.
        let kindDiffers = sidecar.kind != photo.kind || sidecar.layout != photo.layout
        guard sidecar.caption != photo.caption || sidecar.hidden != hidden || sidecar.favourite != photo.favourite || kindDiffers else {
            return nil
        }
        try catalog.write("restore a photo from its sidecar") { db in
            guard var row = try PhotoRecord.fetchOne(db, key: photo.id.lowercased) else { return }
            try row.updateChanges(db) { row in
                row.caption = sidecar.caption.text
                row.hidden = sidecar.hidden
                row.favourite = sidecar.favourite
                row.kind = sidecar.kind.rawValue
                row.layout = sidecar.layout
            }
        }
        var changes: [String] = []
        if kindDiffers {
            let layout = sidecar.layout.map { " in the layout \($0)" } ?? ""
            changes.append("its kind, \(sidecar.kind)\(layout) (the catalog had \(photo.kind))")
        }
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
        for file in files.originals where files.sidecars.contains(PhotoLibrary.sidecarPath(of: file)) {
            sidecars[file] = readSidecar(of: file)
        }
        return sidecars
    }

    /// The sidecar beside the original `file`; `nil` when there is none or it does not read.
    func readSidecar(of file: String) -> PhotoSidecar? {
        guard let data = try? DurableFile.read(directory.appendingPathComponent(PhotoLibrary.sidecarPath(of: file))) else { return nil }
        return PhotoSidecar(xmp: data)
    }

    /// Writes the sidecar of `row` from the catalog, in place of any.
    func writeSidecar(of row: ListedPhoto) throws(LibraryError) {
        try DurableFile.replace(
            library.sidecarURL(of: row.photo), with: PhotoSidecar(row.photo, booth: row.booth, hidden: row.hidden).xmp,
            temporaryName: PhotoLibrary.temporaryName(for: row.photo.id, extension: "xmp"))
    }

    /// Renames the sidecar of a photo found to have none that reads (or one that describes
    /// another photo) to `<uuid>.xmp.unreadable` before a new one is written from the catalog,
    /// so that what a photo tool wrote in it is kept for a person to look at. Nothing to do when
    /// there is no file.
    func setAsideUnreadableSidecar(of photo: Photo) throws(LibraryError) {
        let sidecar = library.sidecarURL(of: photo)
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
            _ = try thumbnailer.thumbnail(of: try DurableFile.read(directory.appendingPathComponent(file)))
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Moves a file from `photos/` to the same path under `quarantine/`, its sidecar with it;
    /// returns the new path.
    func quarantine(_ file: String) throws(LibraryError) -> String {
        let destination = Self.quarantineFolder + "/" + file
        try DurableFile.move(directory.appendingPathComponent(file), to: directory.appendingPathComponent(destination))
        let sidecar = directory.appendingPathComponent(PhotoLibrary.sidecarPath(of: file))
        if FileManager.default.fileExists(atPath: sidecar.path) {
            try DurableFile.move(sidecar, to: directory.appendingPathComponent(Self.quarantineFolder + "/" + PhotoLibrary.sidecarPath(of: file)))
        }
        return destination
    }

    /// Moves a photo's row to `lost_photo` in one transaction.
    private func markLost(_ photo: Photo, reason: String) throws(LibraryError) {
        try catalog.write("record a lost photo") { db in
            guard let row = try PhotoRecord.fetchOne(db, key: photo.id.lowercased) else { return }
            try LostPhotoRecord(row, lostAt: Date(), reason: reason).insert(db, onConflict: .replace)
            try row.delete(db)
        }
    }

    /// Records a salvaged photo whose original is gone as lost: its name, number and time are
    /// all that is left of it.
    func recordLost(_ photo: PhotoSidecar, reason: String) throws(LibraryError) {
        try catalog.write("record a lost photo") { db in
            try LostPhotoRecord(
                photo, file: PhotoLibrary.relativePath(for: photo.id, createdAt: photo.createdAt), lostAt: Date(), reason: reason
            ).insert(db, onConflict: .replace)
        }
        library.numberTaken(photo.number)
    }

    /// Whether a photo, recorded or lost, has this number.
    private func isNumberTaken(_ number: Int) throws(LibraryError) -> Bool {
        try catalog.read("look up a photo number") { db in
            try !PhotoRecord.filter(PhotoRecord.Columns.number == number).isEmpty(db)
                || !LostPhotoRecord.filter(LostPhotoRecord.Columns.number == number).isEmpty(db)
        }
    }

    /// Every recorded photo, hidden or not, by its file, with its booth and hidden flag; and
    /// the rows whose id is not a photo id, which are no photo (``PhotoRecord/wellFormedID``).
    private func recordedRows() throws(LibraryError) -> (
        photos: [String: (Photo, booth: String, hidden: Bool)], malformed: [LibraryReport.MalformedRow]
    ) {
        try catalog.read("list recorded photos") { db in
            var rows: [String: (Photo, booth: String, hidden: Bool)] = [:]
            var malformed: [LibraryReport.MalformedRow] = []
            let request = ListedPhoto.all().annotated(with: Column.rowID).order(PhotoRecord.Columns.file)
            for row in try Row.fetchAll(db, request) {
                do {
                    let listed = try ListedPhoto(row: row)
                    rows[listed.photo.file] = (listed.photo, listed.booth, listed.hidden)
                } catch let error as MalformedRow {
                    malformed.append(
                        LibraryReport.MalformedRow(
                            rowID: row[Column.rowID], id: error.id, file: error.file, number: row[PhotoRecord.Columns.number],
                            caption: row[PhotoRecord.Columns.caption]))
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

    /// The originals (`*.jpg`, `*.gif`) and sidecars (`*.xmp`) under `photos/` and the temporary files
    /// (`*.tmp`) under `photos/` and `recycle/`, as paths relative to the library folder,
    /// sorted.
    func scanPhotos() throws(LibraryError) -> FolderContents {
        var originals: [String] = []
        var sidecars: Set<String> = []
        var temporaries: [String] = []
        for folder in [PhotoLibrary.photosFolder, PhotoLibrary.recycleFolder] {
            for file in try DurableFile.regularFiles(under: directory.appendingPathComponent(folder)) {
                let relative = folder + "/" + file
                if relative.hasSuffix(".tmp") {
                    temporaries.append(relative)
                } else if folder == PhotoLibrary.photosFolder && PhotoLibrary.isOriginal(relative) {
                    originals.append(relative)
                } else if folder == PhotoLibrary.photosFolder && relative.hasSuffix(".xmp") {
                    sidecars.insert(relative)
                }
            }
        }
        return FolderContents(originals: originals.sorted(), sidecars: sidecars, temporaries: temporaries.sorted())
    }
}
