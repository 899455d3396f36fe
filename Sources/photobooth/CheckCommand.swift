import ArgumentParser
import BoothImaging
import BoothService
import BoothStore
import Foundation
import Logging

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that catalog, sidecars and files agree and that every photo decodes.",
        discussion: """
            Reports a damaged catalog, catalog rows without files, catalog rows whose id is not a \
            photo id (the gallery and lists leave them out), files without rows, unreadable \
            JPEGs, photos whose XMP sidecar is missing or says another name than the catalog, and \
            leftover temporary files. Exits 0 when the library is clean, 1 otherwise. With --repair it fixes \
            what can be fixed without deleting an original: temporary files are removed, files \
            without rows are adopted with the name and time of their sidecar (or a default \
            caption; a file that gives no free id gets a new one, and says so), rows without a \
            photo id are replaced by rows made from their original and sidecar, names the catalog \
            lost are restored from the sidecars, missing sidecars are \
            written, unreadable files are moved to quarantine/, a strip, collage or animation whose \
            file is missing or unreadable is made again from its shots (in its layout: a built-in \
            one or the configuration's), other rows whose file is missing or \
            unreadable are kept in the lost_photo table, and shots that are missing or unreadable \
            are forgotten (their picture stays). A damaged catalog (truncated, or its \
            write-ahead log lost mid-checkpoint) is set aside as photobooth.damaged-TIME.sqlite and \
            rebuilt from the originals and their sidecars, salvaging what rows it still yields.

            EXIT STATUS
              0  The library is clean (after the repair, with --repair).
              1  Problems remain, the library cannot be opened, or (with
                 --repair) the booth holds it.
              2  Bad usage.

            EXAMPLES
                sudo photobooth check
                sudo systemctl stop photobooth
                sudo -u photobooth photobooth check --repair \\
                    --data-dir /var/lib/photobooth
                sudo systemctl start photobooth
              Repair as the user photobooth, so that what the repair creates
              (quarantine/) belongs to the service.
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Fix what can be fixed (needs the booth to be stopped).")
    var repair = false

    func run() throws {
        // Repairs write; the lock makes sure no booth writes at the same time.
        let directory = library.existingDirectory
        let lock = repair ? try LibraryLock(directory: directory) : nil
        defer { withExtendedLifetime(lock) {} }
        var report: LibraryReport
        var library: PhotoLibrary
        var opened: PhotoLibrary?
        do {
            library = try self.library.openLibrary(at: directory)
            opened = library
            if !repair && LibraryLock.isHeld(in: library.directory) {
                print("Note: the booth is running; a photo being saved right now may show up as a temporary file or a file without a row.")
            }
            report = try library.maintenance.check()
        } catch let error as LibraryError where error.code == .damagedCatalog {
            print("The catalog of \(directory.path) is damaged: \(error)")
            guard repair else { throw ExitCode.failure }
            // Opened before the check found the damage: no connection may touch the files set aside.
            opened?.close()
            (library, report) = try rebuild(directory)
        }
        print(summary(report))
        if repair && report.problems.contains(where: { if case .damagedCatalog = $0 { true } else { false } }) {
            library.close()
            (library, report) = try rebuild(directory)
            print("After rebuilding the catalog: " + summary(report))
        }
        if repair && !report.isClean {
            // A composed picture whose file is lost is made again from its shots.
            let recomposer = PictureRecomposer(configuration: self.library.installedConfiguration).recomposer
            for action in try library.maintenance.repair(report, recompose: recomposer) { print("  repaired: \(action)") }
            report = try library.maintenance.check()
            print("After repair: " + summary(report))
        } else if !report.isClean {
            print("Run `photobooth check --repair` to fix what can be fixed.")
        }
        if !report.isClean { throw ExitCode.failure }
    }

    /// Sets the damaged catalog aside and makes a new one from the originals and their sidecars.
    private func rebuild(_ directory: URL) throws -> (PhotoLibrary, LibraryReport) {
        let logger = Logger(label: "photobooth")
        let boothName = self.library.installedConfiguration?.web.boothName ?? ""
        for action in try LibraryMaintenance.rebuildCatalog(in: directory, thumbnailer: JPEGThumbnailer(), logger: logger, boothName: boothName) {
            print("  repaired: \(action)")
        }
        let library = try self.library.openLibrary(at: directory)
        return (library, try library.maintenance.check())
    }

    private func summary(_ report: LibraryReport) -> String {
        let photos = "\(report.photoCount) photo\(report.photoCount == 1 ? "" : "s")"
        guard !report.isClean else { return "Checked \(photos): no problems." }
        let lines = report.problems.map { "  - \($0)" }.joined(separator: "\n")
        return "Checked \(photos): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"):\n" + lines
    }
}
