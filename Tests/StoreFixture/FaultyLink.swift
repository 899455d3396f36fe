import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The network between a booth and its store as a venue's can be: a TCP relay on loopback in
/// front of the real store, which misbehaves on the requests its script names and passes every
/// other request on unchanged. It is not a fake store: whatever gets through is answered by
/// SeaweedFS. It exists because no store can be asked to throttle or to lose half an upload.
///
/// The relay reads requests (their head and their `Content-Length` body) from the client and
/// passes answers back as bytes, on threads of its own: the test's blocking sockets never run
/// on Swift's cooperative pool.
package final class FaultyLink: Sendable {
    package enum Fault: String, Sendable {
        /// Answers `503 SlowDown`, as S3 does when it throttles, without passing the request on.
        case slowDown
        /// Passes on the request's head and half of its body, then drops the connection both
        /// ways: an upload cut half way, as a Wi-Fi that drops or a mobile link that stalls cuts it.
        case cutHalfway
    }

    /// The fault for the next request with `method`.
    package struct Rule: Sendable {
        package let method: String
        package let fault: Fault

        package init(_ method: String, _ fault: Fault) {
            self.method = method
            self.fault = fault
        }
    }

    /// Where the booth sends its requests instead of the store.
    package let endpoint: URL
    private let listener: Int32
    private let relay: Relay
    private let finished = DispatchSemaphore(value: 0)

    /// Relays to the store on loopback port `upstreamPort`, applying `rules` in order: each
    /// applies to the first request after the previous rule's with its method.
    package init(toPort upstreamPort: Int, rules: [Rule]) throws {
        relay = Relay(upstreamPort: upstreamPort, script: rules)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = SeaweedFS.loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        self.listener = listener
        guard listener >= 0, bound else {
            Glibc.close(listener)
            throw SeaweedFS.FixtureError(description: "the faulty link cannot listen on loopback: \(String(cString: strerror(errno)))")
        }
        endpoint = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        // The threads hold the relay, not the link, so that the link's deinit stops them.
        Thread { [listener, relay, finished] in
            relay.acceptConnections(on: listener)
            finished.signal()
        }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        Glibc.close(listener)
    }

    /// The faults applied so far, as "METHOD fault", in order.
    package var faultsApplied: [String] { relay.applied.withLock { $0 } }

    /// How many rules have not been applied yet.
    package var rulesLeft: Int { relay.script.withLock { $0.count } }
}

/// The link's connections and its script.
private final class Relay: Sendable {
    let upstreamPort: Int
    let script: Mutex<[FaultyLink.Rule]>
    let applied = Mutex<[String]>([])

    init(upstreamPort: Int, script: [FaultyLink.Rule]) {
        self.upstreamPort = upstreamPort
        self.script = Mutex(script)
    }

    /// Accepts connections until the listener is shut down.
    func acceptConnections(on listener: Int32) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in relay(client) }.start()
        }
    }

    /// The rule for a request with `method`, taken from the script if it is the next one's.
    private func fault(for method: String) -> FaultyLink.Fault? {
        script.withLock { rules in
            guard let rule = rules.first, rule.method == method else { return nil }
            rules.removeFirst()
            return rule.fault
        }
    }

    /// One client connection: requests go to the store one by one, answers come back on a
    /// thread of their own, until either side closes or a fault ends the connection.
    private func relay(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = SeaweedFS.loopback(upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard server >= 0, connected else {
            Glibc.close(server)
            Glibc.close(client)
            return
        }
        let answersDone = DispatchSemaphore(value: 0)
        Thread {
            Self.pump(from: server, to: client)
            answersDone.signal()
        }.start()
        var pending: [UInt8] = []
        while let (head, method, bodyLength) = Self.readHead(client, &pending) {
            guard Self.read(client, &pending, atLeast: bodyLength) else { break }
            let body = Array(pending.prefix(bodyLength))
            pending.removeFirst(bodyLength)
            switch fault(for: method) {
            case .slowDown?:
                applied.withLock { $0.append("\(method) slowDown") }
                let answer = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>
                    """
                Self.writeAll(
                    client,
                    Array(
                        "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: \(answer.utf8.count)\r\nConnection: close\r\n\r\n\(answer)"
                            .utf8))
            case .cutHalfway?:
                applied.withLock { $0.append("\(method) cutHalfway") }
                Self.writeAll(server, head + body.prefix(bodyLength / 2))
            case nil:
                if Self.writeAll(server, head + body) { continue }
            }
            break
        }
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        answersDone.wait()
        Glibc.close(client)
        Glibc.close(server)
    }

    /// Reads up to the end of a request's head; returns it with its method and body length, or
    /// `nil` when the client closed.
    private static func readHead(_ descriptor: Int32, _ pending: inout [UInt8]) -> (head: [UInt8], method: String, bodyLength: Int)? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let head = Array(pending[..<range.upperBound])
                pending.removeFirst(head.count)
                let text = String(decoding: head, as: UTF8.self)
                let method = String(text.prefix { $0 != " " })
                let length = text.split(separator: "\r\n").lazy
                    .compactMap { line -> Int? in
                        let parts = line.split(separator: ":", maxSplits: 1)
                        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                        return Int(parts[1].trimmingCharacters(in: .whitespaces))
                    }
                    .first
                return (head, method, length ?? 0)
            }
            guard read(descriptor, &pending, atLeast: pending.count + 1) else { return nil }
        }
    }

    /// Reads until `pending` holds `count` bytes; `false` when the peer closed first.
    private static func read(_ descriptor: Int32, _ pending: inout [UInt8], atLeast count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while pending.count < count {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            pending += chunk.prefix(got)
        }
        return true
    }

    @discardableResult
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Copies bytes from `source` to `destination` until `source` ends.
    private static func pump(from source: Int32, to destination: Int32) {
        var pending: [UInt8] = []
        while read(source, &pending, atLeast: 1), writeAll(destination, pending) {
            pending.removeAll(keepingCapacity: true)
        }
        shutdown(destination, Int32(SHUT_WR))
    }
}
