import Foundation
import Logging
import Synchronization
import Testing

@testable import BoothService

/// Receives datagrams on a Unix socket bound at `address` (a path, or `@name` in the abstract
/// namespace).
private struct DatagramSocket: ~Copyable {
    let descriptor: Int32

    init(address: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let bytes = address.hasPrefix("@") ? [0] + Array(address.utf8.dropFirst()) : Array(address.utf8)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        try #require(descriptor >= 0 && bound == 0, "bind \(address): \(String(cString: strerror(errno)))")
    }

    deinit { close(descriptor) }

    /// The next datagram, already sent (the notifier never blocks, so it is there).
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

@Suite("systemd's notification protocol")
struct SystemdNotifierTests {
    @Test("Fields go as one newline-separated datagram to a socket path; a newline in a value cannot start a field")
    func path() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
        defer { unlink(path) }
        let socket = try DatagramSocket(address: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.isListening)
        #expect(notifier.send(["READY=1", "STATUS=Saved as Ann\nREADY=0"]))
        #expect(socket.receive() == "READY=1\nSTATUS=Saved as Ann READY=0")
    }

    @Test("A socket in the abstract namespace (@name)")
    func abstractNamespace() throws {
        let name = "@photobooth-test-\(UUID().uuidString.prefix(8))"
        let socket = try DatagramSocket(address: name)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        #expect(notifier.send(["WATCHDOG=1"]))
        #expect(socket.receive() == "WATCHDOG=1")
    }

    @Test("Without NOTIFY_SOCKET, or with one nobody listens on, nothing is sent and nothing fails")
    func nobodyListens() {
        #expect(!SystemdNotifier(environment: [:]).send(["READY=1"]))
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]).isListening)
        let gone = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/photobooth-notify"])
        #expect(!gone.send(["READY=1"]))
    }

    @Test("The watchdog beats at half of WatchdogSec, only for the process systemd watches")
    func watchdogInterval() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"], pid: 42) == .seconds(15))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"], pid: 42) == .seconds(15))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"], pid: 42) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], pid: 42) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "soon"], pid: 42) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:], pid: 42) == nil)
    }
}

@Suite("Log lines for the journal")
struct JournalLogHandlerTests {
    private final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("Each line starts with its syslog priority, on one line, with its metadata and no time")
    func priorities() {
        let lines = Lines()
        var logger = Logger(label: "photobooth") { _ in JournalLogHandler { line in lines.lines.withLock { $0.append(line) } } }
        logger.logLevel = .debug
        logger.debug("frame")
        logger.info("idle -> countdown")
        logger.notice("Stopping")
        logger.warning("Keypad sent 3 bytes that are no key")
        logger.error("No frame\nfrom the camera", metadata: ["device": "/dev/video0"])
        logger.critical("Could not start again")
        #expect(
            lines.all == [
                "<7>frame\n", "<6>idle -> countdown\n", "<5>Stopping\n", "<4>Keypad sent 3 bytes that are no key\n",
                "<3>No frame from the camera device=/dev/video0\n", "<2>Could not start again\n",
            ])
    }

    @Test("Standard error is the journal only when JOURNAL_STREAM names its device and inode")
    func detection() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        var status = stat()
        try #require(fstat(ends[1], &status) == 0)
        let stream = "\(status.st_dev):\(status.st_ino)"
        #expect(JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": stream], descriptor: ends[1]))
        #expect(
            !JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"], descriptor: ends[1]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "journal"], descriptor: ends[1]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: [:], descriptor: ends[1]))
    }
}
