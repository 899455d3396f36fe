import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import BoothWeb

/// The connection limits on a live server on loopback, with real sockets: connections over
/// the total are closed, the oldest idle first, and a request on a new connection is still
/// answered; when every connection is busy, a new one is closed without an answer. Nothing
/// here waits for time to pass: each step waits for the server's doing (a close, an answer),
/// the deadlines only guard against a hang.
@Suite("Connection floods")
struct ConnectionFloodTests {
    /// Settings whose connections are few, and never closed for being idle during a test.
    static func settings(total: Int) -> WebSettings {
        var settings = WebSettings(boothName: "Test Booth", idleTimeout: .seconds(600))
        settings.connectionLimits = ConnectionLimits(total: total)
        return settings
    }

    /// A connection that sends nothing.
    static func idle(to port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
    }

    @Test("Over the total, the oldest idle connections are closed, and a new connection's request is answered")
    func idleFlood() async throws {
        let fixture = try WebFixture()
        try await fixture.server(Self.settings(total: 8)).test { client in
            let port = try #require(client.port)
            // The test's own client holds one connection, idle and the oldest: the first closed.
            var opened: [any Channel] = []
            for _ in 0..<20 { opened.append(try await Self.idle(to: port)) }
            let flood = opened
            // Eight fit: the twelve oldest make room for the newest, in the order they came.
            try await within(.seconds(60), "the server closes the 12 oldest idle connections") {
                for channel in flood.prefix(12) { try await channel.closeFuture.get() }
            }
            let newest = flood.suffix(8).filter(\.isActive).count
            #expect(newest == 8, "the 8 newest stay")

            let answer = try await RawConnection.with(port: port) { session in
                try await session.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await session.read { $0.response?.isComplete == true }
                return session.response
            }
            #expect(answer?.status == 200, "a request is answered while the flood holds every place")
            try await within(.seconds(60), "the server closes the oldest idle one for it") { try await flood[12].closeFuture.get() }
            let stayed = flood.suffix(7).filter(\.isActive).count
            #expect(stayed == 7)
            for channel in flood { try? await channel.close() }
        }
    }

    @Test("With every connection busy (live streams), a new connection is closed at once, without an answer")
    func allBusy() async throws {
        let fixture = try WebFixture()
        try await fixture.server(Self.settings(total: 3)).test { client in
            let port = try #require(client.port)
            // Three event streams: their answers have begun, and last as long as the connections.
            // Nothing is sent: the server may close the connection before a request could be
            // written. One let in would stay open (the idle timeout is 10 minutes here), and the
            // read would time out.
            let refused = try await Self.withEventStreams(3, port: port) {
                try await RawConnection.with(port: port) { session in
                    try await session.readUntilClosed()
                    return session.text
                }
            }
            #expect(refused.isEmpty, "closed without an answer: \(refused.prefix(200))")
        }
    }

    /// Runs `body` while `count` connections hold an event stream each.
    static func withEventStreams<Value>(_ count: Int, port: Int, _ body: () async throws -> Value) async throws -> Value {
        guard count > 0 else { return try await body() }
        return try await RawConnection.with(port: port, timeout: .seconds(600)) { session in
            try await session.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            try await session.read { $0.response != nil }
            #expect(session.response?.status == 200)
            return try await withEventStreams(count - 1, port: port, body)
        }
    }
}
/// Runs `body`, failing with `what` should it take longer than `limit`: a guard against a hang,
/// not a measure of speed. The body is left running then (a future's wait cannot be cancelled).
func within<Value: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = Mutex<CheckedContinuation<Value, any Error>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        outcome.withLock { $0 = continuation }
        let finish = { @Sendable (result: Result<Value, any Error>) in
            outcome.withLock { $0.take() }?.resume(with: result)
        }
        let work = Task {
            do {
                finish(.success(try await body()))
            } catch {
                finish(.failure(error))
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            work.cancel()
            finish(.failure(HangGuard(description: "Waited \(limit) for \(what)")))
        }
    }
}

struct HangGuard: Error, CustomStringConvertible {
    let description: String
}
