import BoothCore
import BoothImaging
import Foundation
import GRDB
import StoreFixture
import Testing

@Suite("Library commands", .fullLane, .timeLimit(.minutes(2)))
struct LibraryCommandTests {
    @Test("check finds a deleted original, names the photo, and --repair leaves the library consistent")
    func checkAndRepair() async throws {
        let directory = DataDirectory()
        try await session("\nAlice\n\nBob\n", in: directory)
        let photos = try await listed(directory)
        let alice = try #require(photos.first { $0.caption == "Alice" })
        try FileManager.default.removeItem(atPath: alice.file)

        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 1)
        #expect(check.stdout.contains(alice.id) && check.stdout.contains("Alice"))

        let repair = try await BoothProcess.run(["check", "--repair", "--data-dir", directory.path])
        #expect(repair.status == 0, "\(repair.stdout)")
        let after = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(after.status == 0)
        #expect(try await listed(directory).map(\.caption) == ["Bob"])
    }

    @Test("check names a catalog row whose id is not a photo id, list leaves it out, and --repair records the photo again")
    func malformedRow() async throws {
        let directory = DataDirectory()
        try await session("\nAlice\n\nBob\n", in: directory)
        let alice = try #require(try await listed(directory).first { $0.caption == "Alice" })
        let catalog = try DatabaseQueue(path: directory.url.appendingPathComponent("photobooth.sqlite").path)
        try await catalog.write { try $0.execute(sql: "UPDATE photo SET id = 'not-an-id' WHERE id = ?", arguments: [alice.id]) }
        try catalog.close()

        #expect(try await listed(directory).map(\.caption) == ["Bob"])
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 1)
        #expect(check.stdout.contains("Checked 1 photo: 1 problem:"), "\(check.stdout)")
        let file = try #require(alice.file.firstRange(of: "/photos/").map { alice.file[$0.lowerBound...].dropFirst() })
        #expect(check.stdout.contains("catalog row without a photo id: photo 1 \"Alice\" in \(file) (rowid "), "\(check.stdout)")
        #expect(check.stdout.contains(" has the id \"not-an-id\""), "\(check.stdout)")
        #expect(check.stdout.contains("`photobooth check --repair` records the photo again"), "\(check.stdout)")

        let repair = try await BoothProcess.run(["check", "--repair", "--data-dir", directory.path])
        #expect(repair.status == 0, "\(repair.stdout)")
        #expect(repair.stdout.contains("with the id of its sidecar or file name: its row had the id \"not-an-id\""), "\(repair.stdout)")
        #expect(try await listed(directory).map(\.id).contains(alice.id))
    }

    @Test("The running booth's claim on its library holds even when the old lock file is deleted")
    func claimSurvivesDeletedLockFile() async throws {
        let directory = DataDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let former = directory.url.appendingPathComponent("photobooth.lock")
        try Data().write(to: former)
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--data-dir", directory.path])
        #expect(await booth.stdout.wait { $0.contains("to take a photo") })
        #expect(!FileManager.default.fileExists(atPath: former.path), "an earlier version's lock file is cleared away")
        // What the hostile test did: remove every lock file it could find, then start a second writer.
        try? FileManager.default.removeItem(at: former)
        let second = try await BoothProcess.run(["run", "--simulate", "--no-http", "--data-dir", directory.path])
        #expect(second.status == 1 && second.stderr.contains("Another photobooth process is using the library"), "\(second.stderr)")
        let repair = try await BoothProcess.run(["check", "--repair", "--data-dir", directory.path])
        #expect(repair.status == 1 && repair.stderr.contains("Another photobooth process"), "\(repair.stderr)")
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.stdout.contains("the booth is running"))
        try booth.endInput()
        #expect(await booth.finished().status == 0)
    }

    @Test("list leaves out photos hidden from guests; list --hidden shows only them")
    func hiddenPhotos() async throws {
        let directory = DataDirectory()
        try await session("\nAnna\n\nBen\n", in: directory)
        let anna = try #require(try await listed(directory).first { $0.caption == "Anna" })
        // What the web's admin action does to the catalog.
        let catalog = try DatabaseQueue(path: directory.url.appendingPathComponent("photobooth.sqlite").path)
        try await catalog.write { try $0.execute(sql: "UPDATE photo SET hidden = 1 WHERE id = ?", arguments: [anna.id]) }
        try catalog.close()

        #expect(try await listed(directory).map(\.caption) == ["Ben"])
        let hidden = try await BoothProcess.run(["list", "--hidden", "--json", "--data-dir", directory.path])
        #expect(hidden.status == 0)
        #expect(try JSONDecoder().decode([ListedPhoto].self, from: Data(hidden.stdout.utf8)).map(\.id) == [anna.id])
    }

    @Test("show prints every field of one photo; an unknown id fails clearly")
    func show() async throws {
        let directory = DataDirectory()
        try await session("\nDave\n", in: directory)
        let photo = try #require(try await listed(directory).first)
        let shown = try await BoothProcess.run(["show", String(photo.id.prefix(8)), "--data-dir", directory.path])
        #expect(shown.status == 0)
        for value in [photo.id, "Dave", photo.created_at, photo.file, "\(photo.byte_count) bytes", "\(photo.width)x\(photo.height)"] {
            #expect(shown.stdout.contains(value), "show lacks \(value)")
        }
        let unknown = try await BoothProcess.run(["show", "0000dead", "--data-dir", directory.path])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("No photo has the id 0000dead"))
        #expect(!unknown.stderr.contains("Fatal") && !unknown.stderr.contains("Stack"))
    }

    @Test("export copies originals named after captions, without overwriting")
    func export() async throws {
        let directory = DataDirectory()
        try await session("\nAlice\n\nBob\n", in: directory)
        let target = directory.url.appendingPathComponent("usb-stick").path
        let first = try await BoothProcess.run(["export", "--all", "--to", target, "--data-dir", directory.path])
        #expect(first.status == 0, "\(first.stderr)")
        // A folder given with "/./" is named plainly, not as "usb-stick/." before the full stop.
        let second = try await BoothProcess.run(["export", "--all", "--to", target + "/./", "--data-dir", directory.path + "/./"])
        #expect(second.status == 0)
        #expect(second.stdout.hasSuffix("Exported 2 photos to \(target).\n"), "\(second.stdout)")
        #expect(second.stdout.contains("\(target)/Alice (2).jpg\n"), "\(second.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
        #expect(files == ["Alice (2).jpg", "Alice.jpg", "Bob (2).jpg", "Bob.jpg"])
        let alice = try #require(try await listed(directory).first { $0.caption == "Alice" })
        // The copy is the camera's image with the name and time spliced in, as exiftool reads.
        let copy = try Data(contentsOf: URL(fileURLWithPath: target + "/Alice.jpg"))
        #expect(try JPEGSegments(copy).imageData == JPEGSegments(Data(contentsOf: URL(fileURLWithPath: alice.file))).imageData)
        let exiftool = try BoothProcess(["-json", "-G", target + "/Alice.jpg"], executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
        let result = await exiftool.finished()
        let tags = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(tags["XMP:Title"] as? String == "Alice" && tags["EXIF:ImageDescription"] as? String == "Alice", "\(tags)")
        let created = try #require(Date(utcTimestamp: alice.created_at))
        let local = created.civilTime(utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: created))
        #expect(tags["EXIF:DateTimeOriginal"] as? String == local.exif, "\(tags)")
        #expect(tags["EXIF:OffsetTimeOriginal"] as? String == local.offset, "\(tags)")
        #expect(tags["EXIF:Model"] as? String == "simulated camera", "\(tags)")
    }

    @Test(
        "Bad usage exits 2; a failed operation exits 1 with a message and no stack trace",
        arguments: [
            (["list", "--limit", "0"], Int32(2), "--limit"),
            (["frobnicate"], 2, "frobnicate"),
            (["export", "--to", "/tmp/x"], 2, "--all"),
            (["run", "--countdown", "-1"], 2, "--countdown"),
            (["list", "--data-dir", "/nonexistent/photobooth"], 1, "no photo library in /nonexistent/photobooth"),
            (
                ["run", "--data-dir", "/tmp/photobooth-not-simulated", "--gpio-chip", "/dev/no-such-gpiochip"], 1,
                "/dev/no-such-gpiochip: opening the GPIO chip failed: No such file or directory. `photobooth doctor` checks every part"
            ),
        ])
    func exitCodes(arguments: [String], status: Int32, message: String) async throws {
        let result = try await BoothProcess.run(arguments)
        #expect(result.status == status)
        #expect(result.stderr.localizedCaseInsensitiveContains(message), "stderr: \(result.stderr)")
    }

    @Test("--help works for every command")
    func help() async throws {
        for command in ["run", "doctor", "list", "show", "export", "check"] {
            let result = try await BoothProcess.run([command, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("--data-dir"))
        }
    }

    @Test("list on an empty library says so")
    func emptyList() async throws {
        let directory = DataDirectory()
        try await session("", in: directory)
        let result = try await BoothProcess.run(["list", "--data-dir", directory.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("No photos yet"))
    }
}
