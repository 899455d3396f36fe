import Foundation

/// What the simulated booth costs while it runs: its resident memory idle with the web on, and
/// again a minute after a burst of photos; and the share of a core it uses idle, with nobody
/// watching. It runs the real `photobooth` beside the benchmark (`run --simulate`, the
/// countdown at 0, names typed on its standard input) on a library of its own.
struct RunningBoothBenchmark {
    let folder: URL
    let photos: Int
    /// Whether each press makes a strip of four from 1080p shots (`--collages`) rather than a
    /// photo.
    var collages = false

    /// How long the booth is left alone before the idle figures: its idle memory trimmer tidies after
    /// 30 s of quiet.
    static let settle = Duration.seconds(40)
    /// How long the share of a core is measured over.
    static let cpuWindow = Duration.seconds(30)
    /// How long after the burst's last name the memory is measured again.
    static let afterBurst = Duration.seconds(60)

    func run() throws {
        let booth = try SimulatedBooth(library: folder.appendingPathComponent("running"), collages: collages)
        defer { booth.stop() }
        try booth.waitForLog(timeout: .seconds(60)) { $0.contains(" -> idle (") }
        print("simulated booth (pid \(booth.pid)) ready; left alone for \(Self.settle)")
        Thread.sleep(forTimeInterval: Self.settle.inSeconds)
        let idle = try booth.memory()
        let cpu = try booth.cpuShare(over: Self.cpuWindow)
        print("  idle:            \(idle)")
        print("  CPU idle:        \(String(format: "%.2f", cpu * 100))% of a core over \(Self.cpuWindow) (nobody watching)")

        let clock = ContinuousClock()
        let started = clock.now
        for number in 1...photos { booth.type("\nGuest \(number)\n") }
        // A strip is four shots, each shown for 2 s before the next.
        try booth.waitForLog(timeout: .seconds(photos * (collages ? 15 : 5))) { log in
            log.components(separatedBy: "] named ").count - 1 >= photos
        }
        let what = collages ? "strips of four 1080p shots" : "photos"
        print("  burst:           \(photos) \(what) taken and named in \(Benchmark.format(clock.now - started))")
        Thread.sleep(forTimeInterval: Self.afterBurst.inSeconds)
        let after = try booth.memory()
        print("  \(Self.afterBurst) after it: \(after)")
        print(
            String(
                format: "  resident after the burst minus idle: %+.1f MiB (anonymous %+.1f MiB)",
                Double(after.resident - idle.resident) / 1024, Double(after.anonymous - idle.anonymous) / 1024))
    }
}

/// `photobooth run --simulate` beside the benchmark, its input a pipe and its log a file.
private final class SimulatedBooth {
    let process = Process()
    let input = Pipe()
    let logFile: URL

    init(library: URL, collages: Bool) throws {
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let config = library.appendingPathComponent("photobooth.yaml")
        try "booth:\n  next_countdown_seconds: 0\n".write(to: config, atomically: true, encoding: .utf8)
        logFile = library.appendingPathComponent("booth.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process.executableURL = try StartupBenchmark.boothExecutable()
        process.arguments = [
            "run", "--simulate", "--data-dir", library.appendingPathComponent("photos").path, "--countdown", "0",
            "--http-port", "\(Int.random(in: 20_000..<40_000))",
        ]
        if collages {
            process.arguments! += [
                "--config", config.path, "--mode", "collage", "--layout", "strip-4", "--camera-size", "1920x1080",
            ]
        }
        process.standardInput = input
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func type(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Polls the log until `done` says so; throws after `timeout` or when the booth ended.
    func waitForLog(timeout: Duration, _ done: (String) -> Bool) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            if done(log) { return }
            guard process.isRunning else { throw BenchmarkError("the booth ended: \(log.suffix(600))") }
            guard clock.now < deadline else { throw BenchmarkError("the booth did not get there in \(timeout): \(log.suffix(600))") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Its resident memory, from /proc.
    func memory() throws -> ResidentMemory {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func kilobytes(_ field: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix("\(field):") } ?? ""
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }
        return ResidentMemory(resident: kilobytes("VmRSS"), anonymous: kilobytes("RssAnon"), file: kilobytes("RssFile"))
    }

    /// The share of one core its threads used over `window`.
    func cpuShare(over window: Duration) throws -> Double {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        func ticks() throws -> Int {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            // After the command's name in parentheses: state is field 3, utime and stime 14 and 15.
            let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
            return Int(fields[11])! + Int(fields[12])!
        }
        let before = try ticks()
        Thread.sleep(forTimeInterval: window.inSeconds)
        return Double(try ticks() - before) / ticksPerSecond / window.inSeconds
    }

    /// Ends its input, so that it finishes its saves and exits.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

struct ResidentMemory: CustomStringConvertible {
    /// Kilobytes.
    var resident: Int
    var anonymous: Int
    var file: Int

    var description: String {
        String(
            format: "%.1f MiB resident (%.1f MiB anonymous, %.1f MiB of files: code and read-only data)",
            Double(resident) / 1024, Double(anonymous) / 1024, Double(file) / 1024)
    }
}
