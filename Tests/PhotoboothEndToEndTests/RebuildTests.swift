import Foundation
import GRDB
import StoreFixture
import Testing

/// The library is its folder: originals and their XMP sidecars rebuild the catalog, whatever
/// happened to it.
@Suite("The catalog rebuilt from the library's folder", .fullLane, .timeLimit(.minutes(3)))
struct RebuildTests {
    /// Twenty photos, each named, small for speed.
    static let names = (1...20).map { "Guest \($0) \u{00E9}\u{00E8}" }

    static func twentyNamedPhotos(in directory: DataDirectory) async throws {
        try await session(names.map { "\n\($0)\n" }.joined(), in: directory, options: ["--countdown", "0", "--camera-size", "320x240"])
    }

    static var catalog: (DataDirectory) -> URL { { $0.url.appendingPathComponent("photobooth.sqlite") } }

    /// Moves everything from the write-ahead log into the catalog file (where damage then
    /// shows: with the log present, SQLite reads the newest pages from it).
    static func checkpoint(_ directory: DataDirectory) async throws {
        let queue = try DatabaseQueue(path: catalog(directory).path)
        try await queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
    }

    @Test("A catalog truncated to half: every command says so, and check --repair rebuilds it with every original and its name")
    func truncatedCatalog() async throws {
        let directory = DataDirectory()
        try await Self.twentyNamedPhotos(in: directory)
        try await Self.checkpoint(directory)
        let size = try FileManager.default.attributesOfItem(atPath: Self.catalog(directory).path)[.size] as! Int
        #expect(truncate(Self.catalog(directory).path, off_t(size / 2)) == 0)

        let list = try await BoothProcess.run(["list", "--data-dir", directory.path])
        #expect(list.status == 1 && list.stderr.contains("the catalog is damaged") && list.stderr.contains("check --repair"), "\(list.stderr)")
        #expect(!list.stderr.contains("in the catalog"), "the catalog is named once")
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 1 && check.stdout.contains("is damaged"), "\(check.stdout)")
        let repair = try await BoothProcess.run(["check", "--repair", "--data-dir", directory.path])
        #expect(repair.status == 0, "\(repair.stdout) \(repair.stderr)")
        #expect(repair.stdout.contains("set the damaged catalog aside as photobooth.damaged-"))
        #expect(repair.stdout.contains("rebuilt the catalog from 20 originals: 20 named from their sidecars"), "\(repair.stdout)")
        let captions = try await listed(directory).map(\.caption)
        #expect(Set(captions) == Set(Self.names), "\(captions)")
    }

    @Test("The booth itself rebuilds a damaged catalog at start, says so, and takes photos")
    func boothRebuildsAtStart() async throws {
        let directory = DataDirectory()
        try await Self.twentyNamedPhotos(in: directory)
        // Garbage over the catalog's header: SQLite no longer knows the file.
        try await Self.checkpoint(directory)
        let catalog = try FileHandle(forWritingTo: Self.catalog(directory))
        try catalog.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try catalog.close()
        let run = try await session("\nLast one\n", in: directory, options: ["--countdown", "0", "--camera-size", "320x240"])
        #expect(run.stderr.contains("the catalog is damaged") && run.stderr.contains("rebuilding it from the photos and their sidecars"))
        #expect(run.stderr.contains("20 named from their sidecars"), "\(run.stderr)")
        #expect(Set(try await listed(directory).map(\.caption)) == Set(Self.names + ["Last one"]))
    }

    @Test("Killed with SIGKILL, its write-ahead log deleted: the next start loses no name")
    func lostWriteAheadLog() async throws {
        let directory = DataDirectory()
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--camera-size", "320x240", "--data-dir", directory.path])
        try booth.type(Self.names.map { "\n\($0)\n" }.joined())
        #expect(await booth.stdout.wait { $0.contains("Saved as \(Self.names.last!)") })
        booth.kill()
        _ = await booth.finished()
        let wal = directory.url.appendingPathComponent("photobooth.sqlite-wal")
        #expect(FileManager.default.fileExists(atPath: wal.path), "the names are in the write-ahead log")
        try FileManager.default.removeItem(at: wal)

        let restart = try await BoothProcess.run(["run", "--simulate", "--no-http", "--data-dir", directory.path])
        #expect(restart.status == 0, "\(restart.stderr)")
        #expect(restart.stderr.contains("from its sidecar"), "\(restart.stderr)")
        #expect(Set(try await listed(directory).map(\.caption)) == Set(Self.names))
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test("exiftool, which no one here wrote, reads a sidecar's name, time, number, booth and hidden flag")
    func exiftoolReadsTheSidecar() async throws {
        let directory = DataDirectory()
        try await session("\nZo\u{00EB} & \u{674E}\n", in: directory, options: ["--countdown", "0", "--camera-size", "320x240"])
        let photo = try #require(try await listed(directory).first)
        let sidecar = URL(fileURLWithPath: photo.file).deletingPathExtension().appendingPathExtension("xmp")
        let exiftool = try BoothProcess(["-json", "-G", "-a", sidecar.path], executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
        let result = await exiftool.finished()
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(tags["XMP:Title"] as? String == "Zo\u{00EB} & \u{674E}")
        #expect(tags["XMP:Description"] as? String == "Zo\u{00EB} & \u{674E}")
        #expect((tags["XMP:CreateDate"] as? String)?.hasPrefix(String(photo.created_at.prefix(4))) == true, "\(tags)")
        #expect(tags["XMP:Number"] as? Int == 1, "\(tags)")
        #expect(tags["XMP:Hidden"] as? Bool == false && tags["XMP:Booth"] as? String == "Photobooth", "\(tags)")
    }
}
