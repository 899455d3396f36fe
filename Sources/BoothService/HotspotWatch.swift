import BoothCore
import BoothSystem
import BoothWeb
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// hostapd's control interface, the datagram socket hostapd_cli talks to: a command, its
/// answer. The booth binds its end to an abstract address the kernel picks, so that it writes
/// nothing under /run, which its sandbox keeps read-only.
struct HostapdControl {
    let socketPath: String

    /// hostapd's answer to `command`, within `timeoutMilliseconds`.
    func ask(_ command: String, timeoutMilliseconds: Int32 = 1000) throws(HotspotError) -> String {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure("socket") }
        defer { close(descriptor) }
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        // Only the family: the kernel gives the socket an abstract name of its own (autobind).
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sa_family_t>.size)) }
        }
        guard bound == 0 else { throw failure("bind") }
        var remote = sockaddr_un()
        remote.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: remote.sun_path) else {
            throw HotspotError("the control socket's path \(socketPath) is too long")
        }
        withUnsafeMutableBytes(of: &remote.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw failure("connect to \(socketPath)") }
        let sent = Array(command.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == command.utf8.count else { throw failure("send") }
        var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&wait, 1, timeoutMilliseconds)
        guard ready > 0 else { throw ready == 0 ? HotspotError("hostapd did not answer within a second") : failure("poll") }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw failure("recv") }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    private func failure(_ call: String) -> HotspotError {
        HotspotError("hostapd's control socket: \(call): \(String(cString: strerror(errno)))")
    }
}

/// What the booth knows of its own Wi-Fi at one moment.
package struct HotspotFigures: Sendable, Hashable {
    /// hostapd's state of the access point (`ENABLED`, `DISABLED`, `COUNTRY_UPDATE`...), or
    /// `unreachable` when hostapd does not answer (photobooth-hotspot.service is not running).
    package var state = "unreachable"
    /// Phones joined now.
    package var clients = 0
    /// Bytes the radio received and sent since it came up.
    package var receivedBytes: UInt64 = 0
    package var sentBytes: UInt64 = 0
    /// Why hostapd cannot be asked, when it cannot.
    package var problem: String?

    /// Whether the access point runs.
    package var isRunning: Bool { state == "ENABLED" }

    /// Reads them now: hostapd's STATUS through its control socket, the interface's counters
    /// from sysfs. Blocks up to a second: off the cooperative pool.
    package static func read(_ files: HotspotFiles) -> HotspotFigures {
        var figures = HotspotFigures()
        let statistics = "/sys/class/net/\(files.plan.interface)/statistics/"
        figures.receivedBytes = HotspotSystem.kernelValue(statistics + "rx_bytes").flatMap { UInt64($0) } ?? 0
        figures.sentBytes = HotspotSystem.kernelValue(statistics + "tx_bytes").flatMap { UInt64($0) } ?? 0
        do {
            let answer = try HostapdControl(socketPath: files.controlSocket).ask("STATUS")
            var fields: [String: String] = [:]
            for line in answer.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            figures.state = fields["state"] ?? "unknown"
            figures.clients = fields["num_sta[0]"].flatMap { Int($0) } ?? 0
        } catch {
            figures.problem = error.description
        }
        return figures
    }

    /// As `/api/status` reports it.
    package var report: HotspotReport {
        HotspotReport(state: state, clients: clients, receivedBytes: receivedBytes, sentBytes: sentBytes, problem: problem)
    }
}

/// Reads the hotspot's figures every few seconds on a thread of its own (hostapd's socket
/// blocks), for `/api/status`, `/metrics` and the log: a change of the access point's state is
/// logged once.
final class HotspotWatch: Sendable {
    /// The last figures read, shared with the thread.
    private final class Latest: Sendable {
        let value = Mutex(HotspotFigures())
    }

    private let latest = Latest()
    private let thread: DedicatedThread

    /// Every 5 s: a phone that joins shows within that, at a cost too small to measure.
    static let interval = Duration.seconds(5)

    init(_ files: HotspotFiles, logger: Logger) {
        let latest = self.latest
        thread = DedicatedThread(name: "hotspot", priority: .background) { wakeup in
            var said: String?
            let clock = MonotonicClock()
            while !wakeup.isStopping {
                let figures = HotspotFigures.read(files)
                latest.value.withLock { $0 = figures }
                let state = figures.problem ?? figures.state
                if state != said {
                    if figures.isRunning {
                        logger.info("Hotspot \(files.plan.network) is up on \(files.plan.interface): \(figures.clients) phones joined.")
                    } else {
                        logger.warning(
                            "Hotspot \(files.plan.network) is not running (\(state)): guests cannot join. `systemctl status photobooth-hotspot` says why."
                        )
                    }
                    said = state
                }
                wakeup.wait(until: clock.now + Self.interval)
            }
        }
    }

    var figures: HotspotFigures { latest.value.withLock { $0 } }

    func stop() async {
        await thread.stop()
    }
}

/// The watch for the length of the booth's run: its thread ends with the booth.
struct HotspotService: Service {
    let watch: HotspotWatch

    func run() async throws {
        try? await gracefulShutdown()
        await watch.stop()
    }
}
