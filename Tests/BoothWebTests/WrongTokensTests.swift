import BoothCore
import Foundation
import HTTPTypes
import NIOCore
import StoreFixture
import Synchronization
import Testing

@testable import BoothWeb

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let instant = Mutex(MonotonicInstant(nanoseconds: 1_000_000_000_000))

    var now: MonotonicInstant { instant.withLock { $0 } }

    func advance(by duration: Duration) {
        instant.withLock { $0 = $0 + duration }
    }
}

/// Issue 25: some 850 wrong admin tokens a second were neither logged nor slowed. A client may
/// be wrong ten times; then each wrong token makes it wait, 1 s doubling to 15 min, answered 429
/// with Retry-After meanwhile; the log gets a line per client and minute at most.
@Suite("Wrong admin tokens")
struct WrongTokensTests {
    static let guest = ClientAddress(try! SocketAddress(ipAddress: "192.168.1.23", port: 50000))
    static let other = ClientAddress(try! SocketAddress(ipAddress: "192.168.1.24", port: 50000))

    @Test("Ten tries are free; then each wrong token waits 1 s doubling to 15 minutes; the right one forgives")
    func waits() {
        let tokens = WrongTokens()
        let clock = ManualClock()
        for _ in 0..<10 {
            #expect(tokens.wait(for: Self.guest, at: clock.now) == nil)
            #expect(tokens.failed(Self.guest, at: clock.now).wait == nil)
        }
        var waits: [Duration] = []
        for _ in 0..<14 {
            #expect(tokens.wait(for: Self.guest, at: clock.now) == nil, "its wait is over")
            let wait = tokens.failed(Self.guest, at: clock.now).wait
            waits.append(wait ?? .zero)
            #expect(tokens.wait(for: Self.guest, at: clock.now)?.wait == wait, "refused for the whole wait")
            clock.advance(by: (wait ?? .zero) - .milliseconds(1))
            #expect(tokens.wait(for: Self.guest, at: clock.now)?.wait == .milliseconds(1))
            clock.advance(by: .milliseconds(1))
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900].map { Duration.seconds($0) })
        #expect(tokens.failed(Self.other, at: clock.now).wait == nil, "another client has its own tries")

        tokens.succeeded(Self.guest)
        #expect(tokens.failed(Self.guest, at: clock.now).wait == nil, "forgiven: its ten tries again")
    }

    @Test("A client quiet for an hour is forgotten; at most 1,024 clients are remembered")
    func bounded() throws {
        let tokens = WrongTokens()
        let clock = ManualClock()
        for _ in 0..<11 { _ = tokens.failed(Self.guest, at: clock.now) }
        clock.advance(by: .seconds(3601))
        #expect(tokens.wait(for: Self.guest, at: clock.now) == nil)
        #expect(tokens.failed(Self.guest, at: clock.now).wait == nil, "an hour after its wait, it starts over")

        for index in 0..<3000 {
            let address = try SocketAddress(ipAddress: "10.0.\(index / 250).\(index % 250)", port: 1)
            _ = tokens.failed(ClientAddress(address), at: clock.now)
        }
        #expect(tokens.count == WrongTokens.mostClients)
    }

    @Test("The log: the first wrong token at once, then one line a minute at most, with the counts")
    func reports() {
        let tokens = WrongTokens()
        let clock = ManualClock()
        var lines: [String] = []
        for _ in 0..<850 {
            if let (_, report) = tokens.wait(for: Self.guest, at: clock.now) {
                if let report { lines.append(report) }
            } else if let report = tokens.failed(Self.guest, at: clock.now).report {
                lines.append(report)
            }
        }
        #expect(lines == ["Web admin: 1 wrong admin token from 192.168.1.23 (1 in a row); it has to wait after 9 more."])
        clock.advance(by: .seconds(60))
        let report = tokens.failed(Self.guest, at: clock.now).report
        #expect(
            report
                == """
                Web admin: 11 wrong admin tokens from 192.168.1.23 in the last 60 s (12 in a row), and 839 requests refused (429) \
                while it had to wait; its next try is in 2 s.
                """)
    }

    @Test("850 wrong tokens in a second through the router: ten 401s, then 429 with Retry-After, the right token too; one log line")
    func throughTheRouter() async throws {
        let clock = ManualClock()
        var settings = WebSettings(boothName: "Test Booth", adminToken: "secret")
        settings.clock = { clock.now }
        let log = RecordedLog()
        let fixture = try WebFixture()
        let photo = try fixture.add()
        try await fixture.server(settings, logger: log.logger).test { client in
            let uri = "/api/photos/\(photo.id.lowercased)/favourite"
            var statuses: [HTTPResponse.Status: Int] = [:]
            for _ in 0..<850 {
                let response = try await client.execute(uri: uri, method: .post, headers: [.authorization: "Bearer guess"])
                statuses[response.status, default: 0] += 1
                if response.status == .tooManyRequests {
                    #expect(response.headers[.retryAfter] == "1")
                }
            }
            #expect(statuses == [.unauthorized: 11, .tooManyRequests: 839])
            let refused = try await client.execute(uri: uri, method: .post, headers: WrongTokensTests.admin)
            #expect(refused.status == .tooManyRequests, "while it waits, not even the right token is looked at")
            #expect(try APITests.error(refused).contains("Too many wrong admin tokens"))
            let warnings = log.messages().filter { $0.hasPrefix("Web admin: ") && $0.contains("wrong admin token") }
            #expect(warnings.count == 1, "\(warnings)")

            clock.advance(by: .seconds(1))
            let allowed = try await client.execute(uri: uri, method: .post, headers: WrongTokensTests.admin)
            #expect(allowed.status == .noContent)
            #expect(try await client.execute(uri: uri, method: .post, headers: [.authorization: "Bearer guess"]).status == .unauthorized)
        }
        #expect(log.levels.contains(.warning))
    }

    static let admin: HTTPFields = [.authorization: "Bearer secret"]
}
