import CSpawn
import Foundation
import GRDB
import StoreFixture
import Testing

/// Whether this machine lets a test mount a small tmpfs in a private user and mount namespace
/// (`unshare -rm`): true for root and where unprivileged user namespaces are enabled.
let canMountTmpfs: Bool = {
    var child: pid_t = 0
    let command = ["/usr/bin/unshare", "-rm", "/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard cspawn_close_from(&actions, 3) == 0, posix_spawn(&child, command[0], &actions, nil, argv, environ) == 0 else { return false }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return status == 0
}()

/// A disk of a few megabytes for one library: a tmpfs mounted on the library's folder in a
/// private user and mount namespace (`unshare -rm`), so that a test can fill it to the last
/// byte, or make it read-only, without root and without touching the machine's disks. Each
/// command gets a fresh one, with a copy of another library in it.
///
/// While a command runs, the test fills the disk (``fill()``) or frees it (``free()``): the
/// script in the namespace waits for a file the test creates outside it.
final class SmallDisk {
    /// How the disk is when the command starts.
    enum Start: String {
        case roomy
        /// Filled to the last byte.
        case full
        /// The library's photos folder is mounted read-only.
        case photosReadOnly = "photos-read-only"
    }

    let library = DataDirectory()
    let size: String
    private let triggers = DataDirectory()

    /// `size` is tmpfs's size option, and may carry others (`2m,nr_inodes=48`).
    init(size: String = "2m") throws {
        self.size = size
        try FileManager.default.createDirectory(at: library.url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: triggers.url, withIntermediateDirectories: true)
    }

    var path: String { library.path }

    private static let script = #"""
        set -u
        d=$1; src=$2; start=$3; triggers=$4; size=$5; shift 5
        mount -t tmpfs -o size="$size" tmpfs "$d" || exit 97
        if [ -n "$src" ]; then cp -a "$src"/. "$d"/ || exit 97; fi
        fill() { cat /dev/zero > "$d/.fill" 2>/dev/null; true; }
        case "$start" in
          full) fill ;;
          photos-read-only) mkdir -p "$d/photos" && mount --bind "$d/photos" "$d/photos" && mount -o remount,bind,ro "$d/photos" || exit 97 ;;
        esac
        # The command keeps the test's standard input; an asynchronous command would get /dev/null.
        exec 3<&0
        "$@" <&3 3<&- &
        command=$!
        exec 3<&-
        filled=; freed=
        while kill -0 "$command" 2>/dev/null; do
            if [ -z "$filled" ] && [ -e "$triggers/fill" ]; then fill; filled=yes; fi
            if [ -z "$freed" ] && [ -e "$triggers/free" ]; then rm -f "$d/.fill"; freed=yes; fi
            sleep 0.05
        done
        wait "$command"
        """#

    /// Starts `photobooth arguments` with the disk as `start` says, holding a copy of `source`.
    func run(_ arguments: [String], copying source: DataDirectory? = nil, start: Start = .roomy) throws -> BoothProcess {
        try BoothProcess(
            arguments,
            wrappedIn: ["unshare", "-rm", "/bin/sh", "-c", Self.script, "small-disk", path, source?.path ?? "", start.rawValue, triggers.path, size])
    }

    /// Fills the disk of the command running now, to the last byte.
    func fill() throws { try Data().write(to: triggers.url.appendingPathComponent("fill")) }

    /// Gives the room back.
    func free() throws { try Data().write(to: triggers.url.appendingPathComponent("free")) }
}

/// Checkpoints the catalog of `library` and closes it, as SQLite does when the last connection
/// closes: no `-wal` or `-shm` is left, so that the next open must make them, which a full disk
/// does not allow (the booth then opens the catalog for reading only).
private func closeCleanly(_ library: DataDirectory) throws {
    let catalog = try DatabaseQueue(path: library.url.appendingPathComponent("photobooth.sqlite").path)
    try catalog.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    try catalog.close()
    #expect(!FileManager.default.fileExists(atPath: library.url.appendingPathComponent("photobooth.sqlite-shm").path))
}

/// One GET with curl: the status and the body.
private func get(_ url: String) async throws -> (status: Int, body: String) {
    let curl = try BoothProcess(["-s", "--max-time", "10", "-w", "\n%{http_code}", url], executable: URL(fileURLWithPath: "/usr/bin/curl"))
    let result = await curl.finished()
    let status = result.stdout.split(separator: "\n").last.flatMap { Int($0) } ?? 0
    return (status, String(result.stdout.dropLast(String(status).count)))
}

/// Storage that cannot take a photo, found out before a guest poses for one. The tests on a
/// full or read-only disk need `unshare -rm`; a machine that forbids user namespaces reports them
/// as skipped with that reason, and CI runs them.
@Suite("A full or read-only disk", .fullLane, .timeLimit(.minutes(3)))
struct DiskTests {
    static let needsNamespaces = "needs `unshare -rm` (user and mount namespaces) to mount a small tmpfs as the library's disk"

    @Test("A reserve larger than the free space: a press shows the fault, not a countdown; doctor says why")
    func reserveAboveFreeSpace() async throws {
        let directory = DataDirectory()
        let result = try await BoothProcess.run(
            ["run", "--simulate", "--countdown", "1", "--no-http", "--storage-reserve", "1000000", "--data-dir", directory.path],
            input: "\n\n")
        #expect(result.status == 0 && !result.signaled, "\(result.stderr)")
        #expect(result.lines.filter { $0.hasPrefix("Storage full: ") }.count == 3, "at start, then once for each press: \(result.stdout)")
        #expect(!result.lines.contains("1") && !result.lines.contains("Smile!"), "no countdown: \(result.stdout)")
        #expect(result.stderr.contains("below the reserve of 1 TB (storage.reserve_mb)") && result.stderr.contains("Free some space"))

        let doctor = try await BoothProcess.run(["doctor", "--data-dir", directory.path, "--storage-reserve", "1000000"])
        let line = try #require(doctor.lines.first { $0.hasPrefix("FAIL data dir: ") }, "\(doctor.stdout)")
        #expect(line.contains("Storage full: ") && line.contains("below the reserve") && line.contains("Fix: "))
        #expect(doctor.status == 1)
    }

    @Test(
        "0 bytes free: list, show, check and export work, and the booth starts, says \"Storage full\" and serves its gallery",
        .enabled(if: canMountTmpfs, Comment(rawValue: needsNamespaces)))
    func zeroBytesFree() async throws {
        let source = DataDirectory()
        try await session("\nAnna\n\nBen\n", in: source)
        let anna = try #require(try await listed(source).first { $0.caption == "Anna" })
        try closeCleanly(source)
        let disk = try SmallDisk()

        let list = try await disk.run(["list", "--data-dir", disk.path], copying: source, start: .full).finished()
        #expect(list.status == 0 && list.stdout.contains("Anna") && list.stdout.contains("Ben"), "\(list.stderr)")
        let show = try await disk.run(["show", String(anna.id.prefix(8)), "--data-dir", disk.path], copying: source, start: .full).finished()
        #expect(show.status == 0 && show.stdout.contains("Anna"), "\(show.stderr)")
        let check = try await disk.run(["check", "--data-dir", disk.path], copying: source, start: .full).finished()
        #expect(check.status == 0 && check.stdout.contains("Checked 2 photos: no problems."), "\(check.stdout) \(check.stderr)")
        let usb = DataDirectory()
        let export = try await disk.run(["export", "--all", "--to", usb.path, "--data-dir", disk.path], copying: source, start: .full).finished()
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: usb.path).sorted() == ["Anna.jpg", "Ben.jpg"])

        let port = try TakenPort.free()
        let booth = try disk.run(
            ["run", "--simulate", "--countdown", "0", "--http-address", "127.0.0.1", "--http-port", String(port), "--data-dir", disk.path],
            copying: source, start: .full)
        #expect(await booth.stdout.wait { $0.contains("Storage full: ") }, "\(booth.stderr.text)")
        try booth.type("\n")
        #expect(await booth.stdout.wait { $0.components(separatedBy: "Storage full: ").count == 3 }, "the press is answered with the fault")
        #expect(await booth.stderr.wait { $0.contains("Web gallery on http://127.0.0.1:\(port)") }, "\(booth.stderr.text)")
        let health = try await get("http://127.0.0.1:\(port)/healthz")
        #expect(health.status == 503 && health.body.contains("storage: Storage full: ") && health.body.contains("Free some space"), "\(health)")
        let gallery = try await get("http://127.0.0.1:\(port)/")
        #expect(gallery.status == 200 && gallery.body.contains("Anna"), "\(gallery.status)")
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0 && !result.signaled, "\(result.stderr)")
        #expect(!result.lines.contains("Smile!"))
        #expect(result.stderr.contains("open for reading only") && result.stderr.contains("Free some space"))
    }

    @Test(
        "A disk out of inodes is full whatever its free space: doctor says so",
        .enabled(if: canMountTmpfs, Comment(rawValue: needsNamespaces)))
    func outOfInodes() async throws {
        let source = DataDirectory()
        try await session("\nAnna\n", in: source)
        let disk = try SmallDisk(size: "2m,nr_inodes=48")
        let doctor = try await disk.run(["doctor", "--data-dir", disk.path], copying: source).finished()
        let line = try #require(doctor.lines.first { $0.hasPrefix("FAIL data dir: ") }, "\(doctor.stdout) \(doctor.stderr)")
        #expect(line.contains("Storage full: ") && line.contains("more files (inodes)"), "\(line)")
    }

    @Test(
        "A full disk at start: the start-up check waits for room and touches nothing, and the booth starts",
        .enabled(if: canMountTmpfs, Comment(rawValue: needsNamespaces)))
    func startUpCheckWaitsForRoom() async throws {
        let source = DataDirectory()
        try await session("\nAnna\n", in: source)
        let anna = try #require(try await listed(source).first)
        // What a crash between rename and commit leaves: an original without its row, to adopt,
        // and the intent of its save, which tells the start to look at it.
        let id = UUID().uuidString.lowercased()
        let orphan = URL(fileURLWithPath: anna.file).deletingLastPathComponent().appendingPathComponent("\(id).jpg")
        try FileManager.default.copyItem(atPath: anna.file, toPath: orphan.path)
        let catalog = try DatabaseQueue(path: source.url.appendingPathComponent("photobooth.sqlite").path)
        try await catalog.write { db in
            try db.execute(
                sql: "INSERT INTO in_flight (photo_id, file, operation, started_at) VALUES (?, ?, 'save', '')",
                arguments: [id, "photos/" + orphan.path.components(separatedBy: "/photos/").last!])
        }
        try catalog.close()
        let disk = try SmallDisk()
        let booth = try disk.run(["run", "--simulate", "--countdown", "0", "--no-http", "--data-dir", disk.path], copying: source, start: .full)
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("The library's check at start waits for a start with room to write"), "\(result.stderr)")
        #expect(!result.stderr.contains("Library: "), "nothing adopted, moved or deleted on a read-only catalog")
        #expect(result.lines.contains { $0.hasPrefix("Storage full: ") })

        // With room, the next start adopts the original.
        let roomy = try await BoothProcess.run(["run", "--simulate", "--countdown", "0", "--no-http", "--data-dir", source.path], input: "")
        #expect(roomy.status == 0 && roomy.stderr.contains("Library: "), "\(roomy.stderr)")
        #expect(try await listed(source).count == 2)
    }

    @Test(
        "Space freed while the fault shows: the booth takes photos again by itself",
        .enabled(if: canMountTmpfs, Comment(rawValue: needsNamespaces)))
    func takesPhotosAgainOnceFreed() async throws {
        let source = DataDirectory()
        try await session("\nAnna\n", in: source)
        try closeCleanly(source)
        let disk = try SmallDisk()
        let booth = try disk.run(
            ["run", "--simulate", "--countdown", "0", "--no-http", "--storage-reserve", "1", "--data-dir", disk.path],
            copying: source, start: .full)
        #expect(await booth.stderr.wait { $0.contains("open for reading only") }, "\(booth.stderr.text)")
        #expect(await booth.stdout.wait { $0.contains("Storage full: ") }, "\(booth.stderr.text)")
        try disk.free()
        #expect(await booth.stderr.wait { $0.contains("to open the catalog for writing") }, "\(booth.stderr.text)")
        #expect(await booth.stdout.wait { $0.contains("to take a photo") })
        try booth.type("\nCarol\n")
        #expect(await booth.stdout.wait { $0.contains("Saved as Carol") }, "\(booth.stderr.text)")
        try booth.endInput()
        #expect(await booth.finished().status == 0)
    }

    @Test(
        "A read-only photos folder is known before a guest poses, and said so",
        .enabled(if: canMountTmpfs, Comment(rawValue: needsNamespaces)))
    func readOnlyPhotos() async throws {
        let source = DataDirectory()
        try await session("\nAnna\n", in: source)
        let disk = try SmallDisk()
        let booth = try disk.run(
            ["run", "--simulate", "--countdown", "0", "--no-http", "--data-dir", disk.path], copying: source, start: .photosReadOnly)
        try booth.type("\n")
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains { $0.hasPrefix("Cannot save photos: ") }, "\(result.stdout)")
        #expect(!result.lines.contains("Smile!"))
        #expect(result.stderr.contains("the booth cannot write to \(disk.path)/photos: Read-only file system"), "\(result.stderr)")
    }

    @Test(
        "A name typed while the disk filled up is kept, promised on the screen, and written once there is room",
        .enabled(if: canMountTmpfs, Comment(rawValue: needsNamespaces)))
    func nameWaitsForTheDisk() async throws {
        let source = DataDirectory()
        try await session("\nAnna\n\nBen\n", in: source)
        let disk = try SmallDisk(size: "4m")
        let booth = try disk.run(
            ["run", "--simulate", "--countdown", "0", "--no-http", "--storage-reserve", "1", "--data-dir", disk.path],
            copying: source)
        try booth.type("\n")
        #expect(await booth.stdout.wait { $0.contains("Name your photo:") })
        #expect(await booth.stderr.wait { $0.contains("] saved ") }, "the photo is committed before the disk fills")
        try disk.fill()
        #expect(await booth.stderr.wait { $0.contains("Storage full: ") }, "\(booth.stderr.text)")
        try booth.type("Dora\n")
        #expect(await booth.stdout.wait { $0.contains("Saved as Photo 3\nYour name \u{201C}Dora\u{201D} will be added") }, "\(booth.stdout.text)")
        try disk.free()
        #expect(await booth.stderr.wait { $0.contains("\"Dora\" (the name waited for the disk)") }, "\(booth.stderr.text)")
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0, "\(result.stderr)")
    }
}
