import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A plain TCP connection to a live server, for what an HTTP client hides: streams read as
/// they come, requests sent byte by byte or not at all, headers too large, a client that
/// stops reading.
enum RawConnection {
    /// Connects to `port` on localhost, runs `body`, then closes the connection (the client
    /// goes away). Should `body` still run after `timeout`, the connection is closed under it
    /// and its reads throw ``RawConnectionError/timedOut``: no test waits forever.
    /// With `halfClosing`, ``RawSession/closeOutput()`` ends what the client sends and keeps
    /// the connection open for the answer. With `receiveBuffer`, the client's socket takes
    /// about that many bytes before the server's writes wait (the kernel's default grows to
    /// megabytes on the loopback): a client that stops reading holds the server back after a
    /// few answers, however fast the machine.
    static func with<Result>(
        port: Int, timeout: Duration = .seconds(60), halfClosing: Bool = false, receiveBuffer: Int? = nil,
        _ body: (inout RawSession) async throws -> Result
    ) async throws -> Result {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let receiveBuffer {
            // Before the connection is made: the window it offers is set by then.
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
        }
        let channel =
            try await bootstrap
            .connect(host: "localhost", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: halfClosing))
                }
            }
        let timedOut = TimeoutFlag()
        let watchdog = Task {
            // A connection the server closed in time has not timed out, however late this runs
            // or the test reads (a loaded machine can hold both back alike).
            guard (try? await Task.sleep(for: timeout)) != nil, channel.channel.isActive else { return }
            timedOut.set()
            channel.channel.close(promise: nil)
        }
        defer { watchdog.cancel() }
        var result: Result?
        do {
            try await channel.executeThenClose { inbound, outbound in
                var session = RawSession(iterator: inbound.makeAsyncIterator(), outbound: outbound, timedOut: timedOut)
                result = try await body(&session)
            }
        } catch let error as ChannelError where result != nil && (error == .ioOnClosedChannel || error == .alreadyClosed) {
            // The test is over; closing a connection the server already closed is no failure.
        }
        guard let result else { preconditionFailure("executeThenClose returned without running the test's body") }
        return result
    }
}

enum RawConnectionError: Error, CustomStringConvertible {
    case timedOut(received: String)
    case closed(received: String)

    var description: String {
        switch self {
        case .timedOut(let received): "timed out; received so far: \(received.prefix(600))"
        case .closed(let received): "the server closed the connection; received: \(received.prefix(600))"
        }
    }
}

final class TimeoutFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// One open raw connection: what was received so far, and whether the server closed it.
struct RawSession {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let timedOut: TimeoutFlag
    /// Every byte received so far.
    private(set) var received: [UInt8] = []
    /// Whether the server closed (or reset) the connection.
    private(set) var isClosed = false

    init(iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, timedOut: TimeoutFlag)
    {
        self.iterator = iterator
        self.outbound = outbound
        self.timedOut = timedOut
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// What was received, as an HTTP response (nil until its head is complete).
    var response: RawResponse? { RawResponse(received) }

    func send(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Ends what the client sends (a half-close, on a connection opened `halfClosing`).
    func closeOutput() {
        outbound.finish()
    }

    /// Reads until `condition` holds for what was received; throws if the server closes the
    /// connection first, or on timeout.
    mutating func read(until condition: (RawSession) -> Bool) async throws {
        while !condition(self) {
            // What arrived before the timeout counts, even if read after it.
            if timedOut.isSet { throw RawConnectionError.timedOut(received: text) }
            guard !isClosed else { throw RawConnectionError.closed(received: text) }
            await readMore()
        }
    }

    /// Reads until the server closes the connection; throws if the timeout closed it instead.
    mutating func readUntilClosed() async throws {
        while !isClosed { await readMore() }
        if timedOut.isSet { throw RawConnectionError.timedOut(received: text) }
    }

    private mutating func readMore() async {
        do {
            if let buffer = try await iterator.next() {
                received += buffer.readableBytesView
            } else {
                isClosed = true
            }
        } catch {
            // A reset is a close too.
            isClosed = true
        }
    }
}

/// An HTTP/1.1 response as bytes arrive: the head, and the body decoded from chunked transfer
/// coding as far as complete chunks go.
struct RawResponse {
    let status: Int
    let headers: [(name: String, value: String)]
    /// The body received so far, without chunk framing.
    let body: [UInt8]
    /// Whether the body's end (the last chunk, or Content-Length bytes) arrived.
    let isComplete: Bool

    init?(_ bytes: [UInt8]) {
        guard let headEnd = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        self.status = status
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]).lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let rest = Array(bytes[headEnd.upperBound...])
        if headers.contains(where: { $0.name == "transfer-encoding" && $0.value.lowercased() == "chunked" }) {
            var body: [UInt8] = []
            var index = 0
            var complete = false
            while let lineEnd = rest[index...].firstRange(of: Array("\r\n".utf8)) {
                let sizeText = String(decoding: rest[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText, radix: 16) else { break }
                if size == 0 {
                    complete = true
                    break
                }
                let start = lineEnd.upperBound
                guard rest.count >= start + size + 2 else { break }
                body += rest[start..<(start + size)]
                index = start + size + 2
            }
            self.body = body
            isComplete = complete
        } else {
            let length = headers.first { $0.name == "content-length" }.flatMap { Int($0.value) } ?? 0
            body = Array(rest.prefix(length))
            isComplete = rest.count >= length
        }
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    /// The complete responses at the start of `bytes`, one after another (pipelined), each
    /// with a Content-Length.
    static func all(_ bytes: [UInt8]) -> [RawResponse] {
        var responses: [RawResponse] = []
        var rest = bytes[...]
        while let response = RawResponse(Array(rest)), response.isComplete,
            let headEnd = rest.firstRange(of: Array("\r\n\r\n".utf8)),
            let length = response.header("content-length").flatMap({ Int($0) })
        {
            responses.append(response)
            rest = rest[(headEnd.upperBound + length)...]
        }
        return responses
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
