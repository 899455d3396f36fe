import BoothCore
import BoothImaging
import BoothStore
import Dispatch
import Foundation
import Glibc
import Logging
import Synchronization

/// How long the booth takes from `exec` to ready, by the size of its library: for libraries of
/// 0, 10,000 and 100,000 photos, the real `photobooth run --simulate` (the binary beside this
/// one, so a release bench measures a release booth) is started again and again, with its web
/// gallery on a free loopback port, and timed from just before `posix_spawn` to its `READY=1`
/// on a `NOTIFY_SOCKET` the bench listens on: the message systemd waits for, sent once the
/// library is open and checked and the camera delivers. It is then stopped with SIGTERM.
///
/// The libraries are filled with the library's own durable `add`, from 8 threads (a 320x240
/// test pattern each). The first start after a fill meets a new catalog, which it checks photo
/// by photo (as after an upgrade); it is printed apart, and the median is over the starts
/// after it.
struct StartupBenchmark {
    /// Where the libraries are made (each removed once measured).
    let directory: URL
    let runs: Int
    var sizes = [0, 10_000, 100_000]

    func run() throws {
        let booth = try Self.boothExecutable()
        print("start-up: \(booth.path) run --simulate, exec to READY=1 (sd_notify), median of \(runs) starts")
        fflush(nil)
        for size in sizes {
            let folder = directory.appendingPathComponent("startup-\(size)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clock = ContinuousClock()
            let filling = try clock.measure { try Self.fill(folder, count: size) }
            let first = try start(booth, in: folder)
            var starts: [Duration] = []
            for _ in 0..<runs { starts.append(try start(booth, in: folder)) }
            let sorted = starts.sorted()
            let photos = String(size).padding(toLength: 7, withPad: " ", startingAt: 0)
            print(
                "  \(photos) photos: ready in \(Benchmark.format(Benchmark.middle(starts))) (\(Benchmark.format(sorted[0]))-\(Benchmark.format(sorted[sorted.count - 1])));"
                    + " first start, every photo checked: \(Benchmark.format(first)); filled in \(String(format: "%.1f", filling.inSeconds)) s"
            )
            // Each line as it comes (`nil`: every stream): the largest library takes minutes.
            fflush(nil)
        }
    }

    /// `photobooth` beside this executable.
    static func boothExecutable() throws -> URL {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let booth = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("photobooth")
        guard FileManager.default.isExecutableFile(atPath: booth.path) else {
            throw BenchmarkError("no photobooth beside \(own): build it too (swift build -c release --product photobooth)")
        }
        return booth
    }

    /// Adds `count` small photos to a new library in `folder`, a second apart, from 8 threads,
    /// each with its perceptual hash, as the booth saves them (or the background filler would
    /// decode photos during the starts measured).
    static func fill(_ folder: URL, count: Int) throws {
        let library = try PhotoLibrary(directory: folder, thumbnailer: JPEGThumbnailer(), logger: .init(label: "bench"), create: true)
        defer { library.close() }
        let jpeg = try JPEGEncoder().encode(TestPattern(width: 320, height: 240).render(frame: 1, at: Date()), quality: 80)
        let thumbnail = try JPEGThumbnailer().thumbnail(of: jpeg)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for offset in stride(from: thread, to: count, by: 8) where failure.withLock({ $0 == nil }) {
                do {
                    let number = library.reservePhotoNumber()
                    _ = try library.add(
                        jpeg, thumbnail: thumbnail, id: UUID(), number: number, caption: .placeholder(number: number),
                        createdAt: start + Double(offset), perceptualHash: thumbnail.perceptualHash)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Starts the booth on the library in `folder` and returns how long it took to say it is
    /// ready; stops it again and waits for it to exit.
    func start(_ booth: URL, in folder: URL) throws -> Duration {
        let socketPath = folder.appendingPathComponent("notify.socket").path
        unlink(socketPath)
        let listener = try Self.notifySocket(at: socketPath)
        defer {
            close(listener)
            unlink(socketPath)
        }
        var environment = ProcessInfo.processInfo.environment
        for name in ["JOURNAL_STREAM", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS"] { environment[name] = nil }
        environment["NOTIFY_SOCKET"] = socketPath
        let arguments = [
            booth.path, "run", "--simulate", "--data-dir", folder.path, "--http-address", "127.0.0.1", "--http-port",
            String(try Self.freePort()),
        ]
        // Standard input is a pipe left open: the simulated keypad reads it, and its end would stop the booth.
        var input: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw BenchmarkError("pipe: \(String(cString: strerror(errno)))") }
        defer { close(input[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, input[1])
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let log = folder.appendingPathComponent("booth.log").path
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        let clock = ContinuousClock()
        let started = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, booth.path, &actions, nil, argv, envp)
        close(input[0])
        guard spawned == 0 else { throw BenchmarkError("posix_spawn \(booth.path): \(String(cString: strerror(spawned)))") }
        var ready: Duration?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ready == nil {
            let count = recv(listener, &buffer, buffer.count, 0)
            guard count >= 0 else { break }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            if message.split(separator: "\n").contains("READY=1") { ready = clock.now - started }
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard let ready else {
            throw BenchmarkError("the booth did not say it was ready within a minute; its log: \(log)")
        }
        // Exited normally with status 0 (`WIFEXITED` and `WEXITSTATUS`, macros Swift does not see).
        guard status & 0xFFFF == 0 else {
            throw BenchmarkError("the booth ended with status \(status) after SIGTERM; its log: \(log)")
        }
        return ready
    }

    /// A datagram socket bound to `path`, which waits at most a minute for a message.
    static func notifySocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw BenchmarkError("the socket's path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        guard bound == 0, setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchmarkError("cannot listen on \(path): \(reason)")
        }
        return descriptor
    }

    /// A loopback port nobody listens on now, for the booth's web gallery.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, found else { throw BenchmarkError("no free loopback port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
