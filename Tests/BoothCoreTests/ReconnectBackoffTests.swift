import Testing

@testable import BoothCore

@Suite("Reconnect backoff")
struct ReconnectBackoffTests {
    @Test("Failed attempts wait 0.5 s doubling to 10 s; an attempt that worked starts over")
    func pauses() {
        var backoff = ReconnectBackoff()
        let failing = (0..<7).map { _ in backoff.afterAttempt(worked: false) }
        #expect(failing == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(backoff.afterAttempt(worked: true) == .milliseconds(500))
        #expect(backoff.afterAttempt(worked: false) == .seconds(1))
    }
}
