import BoothCore
import Synchronization

/// The wrong admin tokens each client sent: how long it must wait before its next try, and
/// the log's lines about them.
///
/// A client may be wrong ``freeTries`` times (an operator who mistypes is not slowed); from then
/// on each wrong token makes it wait, 1 s doubling to ``longestWait``, and its requests meanwhile
/// are answered 429 without their token being looked at, so guessing goes at a few tries an
/// hour instead of hundreds a second. Nothing sleeps: the wait is a time to compare with. The
/// right token forgets the client's past.
///
/// The log gets one line per client and ``reportInterval`` at most, with the counts since the
/// last. Memory is bounded: ``mostClients`` are remembered, and a client quiet for
/// ``forgetAfter`` is forgotten.
final class WrongTokens: Sendable {
    static let freeTries = 10
    static let firstWait = Duration.seconds(1)
    static let longestWait = Duration.seconds(15 * 60)
    static let forgetAfter = Duration.seconds(60 * 60)
    static let reportInterval = Duration.seconds(60)
    static let mostClients = 1024

    private struct Client {
        /// Wrong tokens since the client was last forgiven.
        var failures = 0
        var lastFailure: MonotonicInstant
        /// Until when its requests are refused.
        var waitUntil: MonotonicInstant?
        /// Counts since the last log line about it.
        var unreportedFailures = 0
        var unreportedRefusals = 0
        var lastReport: MonotonicInstant?

        /// When it can be forgotten: long after its last failure and its wait.
        var forgettableAt: MonotonicInstant {
            max(lastFailure, waitUntil ?? lastFailure) + WrongTokens.forgetAfter
        }
    }

    private let clients = Mutex<[ClientAddress: Client]>([:])

    /// How long `client` must still wait before its next try at `now`; `nil` when it may try.
    /// A request refused for the wait counts for the log; the line due, if any, comes with it.
    func wait(for client: ClientAddress, at now: MonotonicInstant) -> (wait: Duration, report: String?)? {
        clients.withLock { clients in
            guard var entry = clients[client], let until = entry.waitUntil, now < until else { return nil }
            entry.unreportedRefusals += 1
            let report = Self.report(&entry, client, now: now)
            clients[client] = entry
            return (now.duration(to: until), report)
        }
    }

    /// Counts a wrong token from `client` at `now`; returns the wait it earned (`nil` while it
    /// has tries left) and the log line due, if any.
    func failed(_ client: ClientAddress, at now: MonotonicInstant) -> (wait: Duration?, report: String?) {
        clients.withLock { clients in
            if clients[client] == nil { Self.makeRoom(in: &clients, at: now) }
            var entry = clients[client] ?? Client(lastFailure: now)
            if entry.forgettableAt <= now { entry = Client(lastFailure: now) }
            entry.failures += 1
            entry.unreportedFailures += 1
            entry.lastFailure = now
            var wait: Duration?
            let over = entry.failures - Self.freeTries
            if over > 0 {
                // 1 s, 2 s, 4 s ...: the shift stops long before it could overflow.
                let doubled = Self.firstWait * (1 << min(over - 1, 20))
                wait = min(doubled, Self.longestWait)
                entry.waitUntil = now + wait!
            }
            let report = Self.report(&entry, client, now: now)
            clients[client] = entry
            return (wait, report)
        }
    }

    /// `client` sent the right token: its wrong ones are forgiven.
    func succeeded(_ client: ClientAddress) {
        _ = clients.withLock { $0.removeValue(forKey: client) }
    }

    /// How many clients are remembered.
    var count: Int { clients.withLock { $0.count } }

    /// Forgets the clients quiet long enough, and when that is not enough for one more, the one
    /// quiet longest.
    private static func makeRoom(in clients: inout [ClientAddress: Client], at now: MonotonicInstant) {
        guard clients.count >= mostClients else { return }
        clients = clients.filter { $0.value.forgettableAt > now }
        if clients.count >= mostClients, let quietest = clients.min(by: { $0.value.forgettableAt < $1.value.forgettableAt }) {
            clients[quietest.key] = nil
        }
    }

    /// The log line about `client` when one is due (its first wrong token, then at most one per
    /// ``reportInterval``), with the counts since the last; the counts start again.
    private static func report(_ entry: inout Client, _ client: ClientAddress, now: MonotonicInstant) -> String? {
        if let last = entry.lastReport, last + reportInterval > now { return nil }
        defer {
            entry.lastReport = now
            entry.unreportedFailures = 0
            entry.unreportedRefusals = 0
        }
        let since = entry.lastReport.map { " in the last \(Int($0.duration(to: now).inSeconds)) s" } ?? ""
        let failures = entry.unreportedFailures
        var line = "Web admin: \(failures) wrong admin token\(failures == 1 ? "" : "s") from \(client)\(since) (\(entry.failures) in a row)"
        if entry.unreportedRefusals > 0 {
            line += ", and \(entry.unreportedRefusals) request\(entry.unreportedRefusals == 1 ? "" : "s") refused (429) while it had to wait"
        }
        if let until = entry.waitUntil, until > now {
            line += "; its next try is in \(Int(now.duration(to: until).inSeconds.rounded(.up))) s"
        } else if entry.failures >= freeTries {
            line += "; the next wrong one makes it wait"
        } else {
            line += "; it has to wait after \(freeTries - entry.failures) more"
        }
        return line + "."
    }
}
