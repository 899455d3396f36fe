import BoothCore
import Foundation
import Glibc
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import StoreFixture
import Synchronization
import Testing

@testable import BoothWeb

/// The web's limits on connections (``ConnectionLimits``, ``ConnectionTable``), on channels
/// without sockets: who is let in, which idle connection is closed for a newcomer, when a
/// newcomer is refused.
@Suite("Connection limits")
struct ConnectionLimitTests {
    @Test("The limits fit the process's open files: 256 kept for the booth, three per connection, at most 4,096")
    func fitting() throws {
        #expect(ConnectionLimits.fitting(descriptors: 1024) == ConnectionLimits(total: 256, perClient: 64))
        #expect(ConnectionLimits.fitting(descriptors: 16384) == ConnectionLimits(total: 4096, perClient: 64))
        #expect(ConnectionLimits.fitting(descriptors: 400).total == 48)
        #expect(ConnectionLimits.fitting(descriptors: 100) == ConnectionLimits(total: 8, perClient: 8))
        #expect(ConnectionLimits.descriptorsWanted <= 16384, "deploy/photobooth.service's LimitNOFILE")
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(ConnectionLimits.forThisProcess() == ConnectionLimits.fitting(descriptors: Int(clamping: limit.rlim_cur)))
    }

    @Test("A client is an IPv4 address or an IPv6 /64; loopback is the booth itself")
    func clients() throws {
        func client(_ text: String) throws -> ClientAddress { ClientAddress(try SocketAddress(ipAddress: text, port: 1234)) }
        #expect(try client("10.0.0.7") == client("::ffff:10.0.0.7"))
        #expect(try client("10.0.0.7") != client("10.0.0.8"))
        #expect(try client("2001:db8:1:2::5") == client("2001:db8:1:2:ffff:ffff:ffff:1"))
        #expect(try client("2001:db8:1:2::5") != client("2001:db8:1:3::5"))
        for loopback in ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"] { #expect(try client(loopback).isLoopback, "\(loopback)") }
        for other in ["10.0.0.7", "192.168.1.1", "::2", "2001:db8::1", "::ffff:10.0.0.1"] { #expect(try !client(other).isLoopback, "\(other)") }
        #expect(try client("192.168.1.20").description == "192.168.1.20")
        #expect(try client("2001:db8:1:2::5").description == "2001:db8:1:2::/64")
        #expect(try client("::1").description == "::1")
        #expect(ClientAddress(nil).description == "an unknown address")
    }

    /// A table of `limits` with a log and metrics the test reads.
    struct Table {
        let table: ConnectionTable
        let metrics = WebMetrics()
        let log = RecordedLog()
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

        init(_ limits: ConnectionLimits) {
            table = ConnectionTable(limits: limits, metrics: metrics, logger: log.logger)
        }

        /// A connection from `address`, active, as an accepted one is.
        func channel(from address: String) throws -> EmbeddedChannel {
            let channel = EmbeddedChannel()
            try channel.connect(to: SocketAddress(ipAddress: "10.9.9.9", port: 80)).wait()
            channel.remoteAddress = try SocketAddress(ipAddress: address, port: 40000)
            return channel
        }

        /// Lets in a connection from `address` at `second` of the test, idle from then on.
        func admit(from address: String, at second: Int64) throws -> (EmbeddedChannel, ConnectionSlot?) {
            let channel = try channel(from: address)
            return (channel, table.admit(channel, now: start + .seconds(second)))
        }

        /// What `/metrics` says of the connections: open now, closed for a newcomer, refused.
        var counts: (open: Int, evicted: Int, refused: Int) {
            var text = PrometheusText()
            metrics.write(into: &text)
            func value(_ prefix: String) -> Int {
                let line = text.description.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
                return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
            }
            return (
                value("photobooth_web_connections"), value("photobooth_web_connections_closed_total{reason=\"evicted\"}"),
                value("photobooth_web_connections_closed_total{reason=\"refused\"}")
            )
        }
    }

    @Test("Over its 64, a client's idle connection is closed for its new one, the longest idle first; with none idle, the new one")
    func perClient() throws {
        let table = Table(ConnectionLimits(total: 100, perClient: 3))
        let (first, firstSlot) = try table.admit(from: "10.0.0.1", at: 1)
        let (second, secondSlot) = try table.admit(from: "10.0.0.1", at: 2)
        let (third, thirdSlot) = try table.admit(from: "10.0.0.1", at: 3)
        #expect(firstSlot != nil && secondSlot != nil && thirdSlot != nil)
        // The first is busy (a request in progress): the second is the one idle longest.
        firstSlot?.markBusy()
        let (fourth, fourthSlot) = try table.admit(from: "10.0.0.1", at: 4)
        #expect(fourthSlot != nil)
        #expect(!second.isActive, "the longest idle was closed")
        #expect(first.isActive && third.isActive && fourth.isActive)
        #expect(table.table.count(from: ClientAddress(second.remoteAddress)) == 3)

        // Another client is not held to this one's limit.
        let (other, otherSlot) = try table.admit(from: "10.0.0.2", at: 5)
        #expect(otherSlot != nil && other.isActive)

        thirdSlot?.markBusy()
        fourthSlot?.markBusy()
        let (fifth, fifthSlot) = try table.admit(from: "10.0.0.1", at: 6)
        #expect(fifthSlot == nil, "every connection of the client is busy: the new one is refused")
        #expect(first.isActive && third.isActive && fourth.isActive && other.isActive)
        _ = fifth

        // A request ends: that connection is idle, and the next newcomer takes its place.
        fourthSlot?.markIdle(at: table.start + .seconds(7))
        let (_, sixthSlot) = try table.admit(from: "10.0.0.1", at: 8)
        #expect(sixthSlot != nil)
        #expect(!fourth.isActive)
        #expect(table.table.count() == 4)
        #expect(table.counts == (open: 4, evicted: 2, refused: 1))
    }

    @Test("At the total, the longest idle connection of the client that holds the most is closed for a newcomer")
    func total() throws {
        let table = Table(ConnectionLimits(total: 4, perClient: 64))
        let (guest, _) = try table.admit(from: "192.168.1.50", at: 0)
        let (_, floodSlot1) = try table.admit(from: "10.0.0.1", at: 1)
        let (flood2, _) = try table.admit(from: "10.0.0.1", at: 2)
        let (flood3, _) = try table.admit(from: "10.0.0.1", at: 3)
        floodSlot1?.markBusy()
        let (newcomer, newcomerSlot) = try table.admit(from: "192.168.1.51", at: 4)
        #expect(newcomerSlot != nil && newcomer.isActive)
        #expect(guest.isActive, "the guest's connection, idle longest, is not the flood's")
        #expect(!flood2.isActive, "the flood's idle longest")
        #expect(flood3.isActive)
        #expect(table.table.count() == 4)
        #expect(table.counts == (open: 4, evicted: 1, refused: 0))
    }

    @Test("With every connection busy, a newcomer is closed at once; a connection that closes makes room")
    func allBusy() throws {
        let table = Table(ConnectionLimits(total: 2, perClient: 64))
        let (first, firstSlot) = try table.admit(from: "10.0.0.1", at: 1)
        let (_, secondSlot) = try table.admit(from: "10.0.0.2", at: 2)
        firstSlot?.markBusy()
        secondSlot?.markBusy()
        let (_, refused) = try table.admit(from: "10.0.0.3", at: 3)
        #expect(refused == nil)
        #expect(first.isActive)
        table.table.remove(try #require(firstSlot))
        let (_, admitted) = try table.admit(from: "10.0.0.3", at: 4)
        #expect(admitted != nil)
        #expect(table.counts == (open: 2, evicted: 0, refused: 1))
    }

    @Test("Loopback is held to the total only: a proxy in front of `serve` brings every guest through it")
    func loopback() throws {
        let table = Table(ConnectionLimits(total: 10, perClient: 2))
        for second in 0..<6 {
            let (_, slot) = try table.admit(from: "127.0.0.1", at: Int64(second))
            #expect(slot != nil)
        }
        #expect(table.table.count() == 6)
        #expect(table.counts == (open: 6, evicted: 0, refused: 0))
    }

    @Test("The log says what the limits closed, at once and then at most once a minute, with the counts")
    func report() throws {
        let table = Table(ConnectionLimits(total: 1, perClient: 64))
        _ = try table.admit(from: "10.0.0.1", at: 0)
        for second in 1...30 { _ = try table.admit(from: "10.0.0.2", at: Int64(second)) }
        #expect(table.log.messages().count == 1)
        #expect(table.log.messages().first?.contains("closed 1 idle connection to let new ones in, and refused 0") == true, "\(table.log.messages())")
        #expect(table.log.messages().first?.contains("10.0.0.2") == true)
        _ = try table.admit(from: "10.0.0.3", at: 61)
        #expect(table.log.messages().count == 2)
        #expect(table.log.messages().last?.contains("closed 30 idle connections") == true, "\(table.log.messages())")
        #expect(table.log.messages().last?.contains("in the last 60 s") == true, "\(table.log.messages())")
        #expect(table.log.levels.allSatisfy { $0 == .notice })
    }

    @Test("A connection is busy from a request's head until its answer's end is written out")
    func activity() throws {
        let channel = EmbeddedChannel()
        let slot = ConnectionSlot(channel: channel, client: ClientAddress(nil), now: .uptimeNanoseconds(5))
        let timing = ConnectionRules.Timing(idleTimeout: .seconds(30), stallLimit: .seconds(30))
        try channel.pipeline.syncOperations.addHandler(ConnectionRules(timing: timing, metrics: WebMetrics(), slot: slot))
        #expect(slot.idleSince == .uptimeNanoseconds(5))
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        #expect(slot.idleSince == nil)
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        // Pipelined: a second request before the first is answered.
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        let answer = HTTPResponseHead(version: .http1_1, status: .ok)
        try channel.writeOutbound(HTTPServerResponsePart.head(answer))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(slot.idleSince == nil, "the second request is in progress")
        channel.write(HTTPServerResponsePart.head(answer), promise: nil)
        channel.write(HTTPServerResponsePart.end(nil), promise: nil)
        #expect(slot.idleSince == nil, "the answer is not written out yet")
        channel.flush()
        #expect(slot.idleSince != nil)
        _ = try channel.finish()
    }
}
