import Logging
import NIOCore
import Synchronization

/// The web gallery's open connections, held within its ``ConnectionLimits``.
///
/// A new connection over a limit is let in by closing an idle one (nothing asked or being
/// answered on it): for the per-client limit, that client's own that has been idle longest;
/// for the total, the one idle longest of the client that holds the most. When none is idle,
/// the new connection is closed at once. nginx does the same when its connections run out
/// (it closes idle keep-alive connections first).
///
/// Why close an idle connection rather than the newcomer: a flood of connections that send
/// nothing would otherwise keep every guest out until the idle timeout closes them, and take
/// the places again at once; closed in turn, the flood's own connections make the room, and a
/// guest's request is answered. A connection with a request in progress (a page being made,
/// a download, a live stream) is never closed for another.
final class ConnectionTable: Sendable {
    let limits: ConnectionLimits
    private let state = Mutex(State())
    private let metrics: WebMetrics
    private let logger: Logger

    /// How often at most the log says that connections were closed for the limits.
    static let reportInterval = TimeAmount.seconds(60)

    private struct State {
        var slots: [ObjectIdentifier: ConnectionSlot] = [:]
        var clients: [ClientAddress: Int] = [:]
        /// Connections closed for the limits since the last log line: idle ones closed to let
        /// a new one in, and new ones closed because none was idle.
        var evicted = 0
        var refused = 0
        var lastReport: NIODeadline?

        mutating func insert(_ slot: ConnectionSlot) {
            slots[ObjectIdentifier(slot.channel)] = slot
            clients[slot.client, default: 0] += 1
        }

        /// Forgets `slot`; whether it was there.
        mutating func remove(_ slot: ConnectionSlot) -> Bool {
            let key = ObjectIdentifier(slot.channel)
            guard slots[key] === slot else { return false }
            slots[key] = nil
            let count = clients[slot.client, default: 1] - 1
            clients[slot.client] = count > 0 ? count : nil
            return true
        }

        /// The connection to close for one of `client`'s, or for anyone's when `client` is
        /// `nil`: idle, of the client that holds the most, idle the longest. A scan of every
        /// connection, made only when a limit is reached.
        func evictable(of client: ClientAddress?) -> ConnectionSlot? {
            var chosen: (slot: ConnectionSlot, held: Int, since: NIODeadline)?
            for slot in slots.values {
                guard client == nil || slot.client == client, let since = slot.idleSince else { continue }
                let held = clients[slot.client, default: 0]
                if let best = chosen, (best.held, since) >= (held, best.since) { continue }
                chosen = (slot, held, since)
            }
            return chosen?.slot
        }
    }

    init(limits: ConnectionLimits, metrics: WebMetrics, logger: Logger) {
        self.limits = limits
        self.metrics = metrics
        self.logger = logger
    }

    /// Lets `channel` in, or `nil` when it may not be (the caller closes it). An idle
    /// connection it closes to make room is closed here.
    func admit(_ channel: any Channel, now: NIODeadline = .now()) -> ConnectionSlot? {
        let slot = ConnectionSlot(channel: channel, client: ClientAddress(channel.remoteAddress), now: now)
        let limits = limits
        let (admitted, evicted, report) = state.withLock { state -> (Bool, ConnectionSlot?, String?) in
            var victim: ConnectionSlot?
            if !slot.client.isLoopback, state.clients[slot.client, default: 0] >= limits.perClient(for: slot.client) {
                victim = state.evictable(of: slot.client)
            } else if state.slots.count >= limits.total {
                victim = state.evictable(of: nil)
            } else {
                state.insert(slot)
                metrics.connectionsOpen(state.slots.count)
                return (true, nil, nil)
            }
            if let victim {
                _ = state.remove(victim)
                state.insert(slot)
                state.evicted += 1
            } else {
                state.refused += 1
            }
            return (victim != nil, victim, Self.report(&state, now: now, client: slot.client, limits: limits))
        }
        if let evicted { evicted.channel.close(promise: nil) }
        if evicted != nil || !admitted { metrics.countConnectionClosed(evicted: evicted != nil) }
        if let report { logger.notice("\(report)") }
        return admitted ? slot : nil
    }

    /// Forgets `slot`, whose connection has closed.
    func remove(_ slot: ConnectionSlot) {
        state.withLock { state in
            if state.remove(slot) { metrics.connectionsOpen(state.slots.count) }
        }
    }

    /// How many connections are open, in all and from `client`.
    func count(from client: ClientAddress? = nil) -> Int {
        state.withLock { state in client.map { state.clients[$0, default: 0] } ?? state.slots.count }
    }

    /// The log line about what the limits closed since the last one, when one is due.
    private static func report(_ state: inout State, now: NIODeadline, client: ClientAddress, limits: ConnectionLimits) -> String? {
        if let last = state.lastReport, now - last < reportInterval { return nil }
        defer {
            state.lastReport = now
            state.evicted = 0
            state.refused = 0
        }
        let since = state.lastReport.map { " in the last \(($0 - now).nanoseconds / -1_000_000_000) s" } ?? ""
        return """
            The web gallery holds its most connections (\(limits)): it closed \(state.evicted) idle \
            connection\(state.evicted == 1 ? "" : "s") to let new ones in, and refused \(state.refused) while none was \
            idle\(since); the last came from \(client). A client that opens connections and sends nothing is one way \
            to get there.
            """
    }
}

/// One connection the table let in: its channel, its client, and since when nothing has been
/// in progress on it.
final class ConnectionSlot: Sendable {
    let channel: any Channel
    let client: ClientAddress
    /// Uptime in nanoseconds since which nothing is in progress; -1 while a request is.
    private let idleSinceNanoseconds: Atomic<Int64>

    init(channel: any Channel, client: ClientAddress, now: NIODeadline) {
        self.channel = channel
        self.client = client
        idleSinceNanoseconds = Atomic(Int64(clamping: now.uptimeNanoseconds))
    }

    /// A request is in progress.
    func markBusy() {
        idleSinceNanoseconds.store(-1, ordering: .relaxed)
    }

    /// Nothing is in progress since `time`.
    func markIdle(at time: NIODeadline) {
        idleSinceNanoseconds.store(Int64(clamping: time.uptimeNanoseconds), ordering: .relaxed)
    }

    /// Since when nothing is in progress; `nil` while a request is.
    var idleSince: NIODeadline? {
        let nanoseconds = idleSinceNanoseconds.load(ordering: .relaxed)
        return nanoseconds < 0 ? nil : .uptimeNanoseconds(UInt64(nanoseconds))
    }
}
