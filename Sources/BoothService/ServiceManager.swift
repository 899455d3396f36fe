import BoothCore
import Foundation
import Synchronization

/// systemd's notification protocol (`sd_notify`): newline-separated `KEY=value` lines in one
/// datagram to the Unix socket named by `$NOTIFY_SOCKET`. Outside systemd (no socket) every
/// call does nothing.
///
/// Sending never blocks: the datagram goes with `MSG_DONTWAIT`, so the booth's loop can report
/// from Swift's cooperative pool. A message the socket cannot take at once is dropped, as
/// libsystemd's `sd_notify` would fail it.
package final class SystemdNotifier: Sendable {
    /// The socket's address, `nil` when the booth does not run under systemd's `Type=notify`.
    private let address: [UInt8]?
    private let descriptor: Int32
    /// How often systemd expects `WATCHDOG=1`: half of `WatchdogSec=`, as systemd advises;
    /// `nil` without a watchdog.
    package let watchdogInterval: Duration?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        watchdogInterval = Self.watchdogInterval(environment: environment)
        guard let path = environment["NOTIFY_SOCKET"], let first = path.first, first == "/" || first == "@",
            path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        else {
            address = nil
            descriptor = -1
            return
        }
        // '@' names a socket in the abstract namespace, whose name starts with a zero byte.
        address = first == "@" ? [0] + Array(path.utf8.dropFirst()) : Array(path.utf8)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether systemd listens (the service is `Type=notify`).
    package var isListening: Bool { address != nil && descriptor >= 0 }

    /// Parses `WATCHDOG_USEC`, for this process only (`WATCHDOG_PID`, when set, must be ours).
    static func watchdogInterval(environment: [String: String], pid: Int32 = getpid()) -> Duration? {
        if let owner = environment["WATCHDOG_PID"], Int32(owner) != pid { return nil }
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        return .microseconds(microseconds / 2)
    }

    /// Sends `fields` (`READY=1`, `STATUS=...`) as one message; `false` if it could not be sent.
    @discardableResult
    package func send(_ fields: [String]) -> Bool {
        guard let address, descriptor >= 0 else { return false }
        // A newline would start a field of its own.
        let message = Array(fields.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n").utf8)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { path in
            path.copyBytes(from: address)
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + address.count)
        let sent = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketPointer in
                sendto(descriptor, message, message.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), socketPointer, length)
            }
        }
        return sent == message.count
    }
}

/// Tells systemd how the booth is: `READY=1` once the library is open and the camera delivers
/// frames or the screen shows a fault, `STATUS=` at every change of state, `WATCHDOG=1` each
/// time the booth's loop proves it runs, `RELOADING=1` and `STOPPING=1`.
final class ServiceManagerReporter: Sendable {
    private let notifier: SystemdNotifier
    private let ready = Atomic(false)

    init(notifier: SystemdNotifier) {
        self.notifier = notifier
    }

    /// How often the booth's loop must call ``alive()``; `nil` without a watchdog.
    var watchdogInterval: Duration? { notifier.watchdogInterval }

    func stateChanged(to state: BoothState) {
        var fields = ["STATUS=\(Self.status(of: state))"]
        // `.starting` waits for the camera's first frames; any other state is a booth that
        // works, or one that shows its fault on the screen.
        if state.kind != .starting, !ready.exchange(true, ordering: .relaxed) {
            fields.insert("READY=1", at: 0)
        }
        notifier.send(fields)
    }

    func alive() {
        notifier.send(["WATCHDOG=1"])
    }

    /// The booth starts again in the same process (exec), whose first ready state sends the
    /// `READY=1` that ends the reload for systemd; this one sends no more.
    func reloading() {
        notifier.send(["RELOADING=1", "STATUS=Reloading the configuration once no photo is in flight"])
    }

    func stopping() {
        notifier.send(["STOPPING=1", "STATUS=Stopping: finishing the photos being saved"])
    }

    /// The state in words, as `systemctl status photobooth` shows it.
    static func status(of state: BoothState) -> String {
        switch state {
        case .starting: "Starting: waiting for the camera's first frames"
        case .idle: "Ready: waiting for the button"
        case .countdown: "Counting down"
        case .capturing: "Taking the photo"
        case .reviewing: "Showing a collage's shot before the next"
        case .naming: "Waiting for a name on the keypad"
        case .saving: "Saving the photo"
        case .saved(_, let caption, _, _): "Saved as \(caption.text)"
        case .fault(let fault, _): "Fault: \(fault.sentence())"
        case .browsing: "Showing the gallery"
        case .viewing: "Showing a photo"
        case .attract: "Showing the photos until a guest comes"
        }
    }
}
