import BoothCore
import Foundation
import Logging
import NIOCore
import StoreFixture
import Testing

@testable import BoothWeb

@Suite("Live streams")
struct LiveStreamTests {
    @Test("/preview.mjpg sends the latest frames as JPEG parts while the client watches")
    func preview() async throws {
        let fixture = try WebFixture()
        let feed = fixture.live.preview
        let frames = try (1...3).map { try WebFixture.jpeg(frame: UInt64($0)) }
        try await fixture.server().test { client in
            let port = try #require(client.port)
            try await RawConnection.with(port: port) { session in
                try await session.send("GET /preview.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await session.read { $0.response != nil }
                let head = try #require(session.response)
                #expect(head.status == 200)
                #expect(head.header("Content-Type") == "multipart/x-mixed-replace; boundary=photobooth-frame")
                #expect(head.header("Cache-Control") == "no-store")
                try await waitUntil { feed.isWatched }
                for (index, frame) in frames.enumerated() {
                    feed.publish(frame)
                    try await session.read { Self.parts($0.response?.body ?? []).count == index + 1 }
                }
                let parts = Self.parts(session.response?.body ?? [])
                #expect(parts.map(\.jpeg) == frames.map { Array($0) })
                #expect(parts.allSatisfy { $0.headers.contains("Content-Type: image/jpeg") })
                #expect(zip(parts, frames).allSatisfy { $0.headers.contains("Content-Length: \($1.count)") })
            }
            // The client went away: the booth may stop encoding frames.
            try await waitUntil { !feed.isWatched }
        }
    }

    @Test("/screen.mjpg streams the booth's screen, starting with the latest picture")
    func screen() async throws {
        let fixture = try WebFixture()
        let picture = try WebFixture.jpeg(frame: 9, width: 160, height: 120)
        fixture.live.screen.publish(picture)
        try await fixture.server().test { client in
            try await RawConnection.with(port: try #require(client.port)) { session in
                try await session.send("GET /screen.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                // Twice: a browser shows a part once the next one begins, and a screen may stay still.
                try await session.read { Self.parts($0.response?.body ?? []).count == 2 }
                #expect(Self.parts(session.response?.body ?? []).map(\.jpeg) == [Array(picture), Array(picture)])
                // The stream opens with the boundary, and each part ends with it, at once: a
                // reader need not wait for the next picture to know this one is whole.
                let body = try #require(session.response?.body)
                #expect(body.starts(with: Array("--photobooth-frame\r\n".utf8)))
                let closing = Array("\r\n--photobooth-frame\r\n".utf8)
                #expect(Array(body.suffix(closing.count)) == closing)
            }
            try await waitUntil { !fixture.live.screen.isWatched }
        }
    }

    @Test("/api/events announces each new photo, and keeps the connection alive between them")
    func photoEvents() async throws {
        let fixture = try WebFixture()
        let before = try fixture.add(caption: "Before")
        fixture.live.photoAdded.publish(before.id)
        try await fixture.server(eventKeepAlive: .milliseconds(100)).test { client in
            try await RawConnection.with(port: try #require(client.port)) { session in
                try await session.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await session.read { $0.response?.bodyText.hasPrefix("retry: 3000\n\n") == true }
                #expect(session.response?.header("Content-Type") == "text/event-stream; charset=utf-8")
                #expect(session.response?.header("Cache-Control") == "no-store")
                try await session.read { $0.response?.bodyText.contains(": keep-alive\n\n") == true }
                #expect(session.response?.bodyText.contains("Before") == false, "only photos stored after connecting")

                let photo = try fixture.add(caption: "Fresh <one>")
                fixture.live.photoAdded.publish(photo.id)
                try await session.read { $0.response?.bodyText.contains("event: photo\n") == true }
                let text = try #require(session.response?.bodyText)
                let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") })
                let data = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.dropFirst("data: ".count).utf8)) as? [String: Any])
                #expect(data["id"] as? String == photo.id.lowercased)
                #expect(data["caption"] as? String == "Fresh <one>")
                #expect(data["page_path"] as? String == "/photos/\(photo.id.lowercased)")
                #expect(data["thumbnail_path"] as? String == "/thumbnails/\(photo.id.lowercased).jpg")
                #expect(data["created_at"] as? String == photo.createdAt.utcTimestamp)
                #expect(data["created_text"] as? String == PhotoDateFormat.standard.string(from: photo.createdAt))
            }
        }
    }

    @Test("/api/events hands every photo to every client, in order, however fast they come")
    func everyPhotoInOrder() async throws {
        let fixture = try WebFixture()
        let photos = try fixture.add(count: 20)
        try await fixture.server().test { client in
            let port = try #require(client.port)
            try await RawConnection.with(port: port) { first in
                try await RawConnection.with(port: port) { second in
                    try await first.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    try await second.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    try await waitUntil { fixture.live.photoAdded.subscriberCount == 2 }
                    // A burst, faster than any client reads: a newest-only feed would skip most.
                    for photo in photos { fixture.live.photoAdded.publish(photo.id) }
                    try await first.read { Self.eventIDs($0.response?.bodyText ?? "").count == photos.count }
                    try await second.read { Self.eventIDs($0.response?.bodyText ?? "").count == photos.count }
                    #expect(Self.eventIDs(first.response?.bodyText ?? "") == photos.map(\.id.lowercased))
                    #expect(Self.eventIDs(second.response?.bodyText ?? "") == photos.map(\.id.lowercased))
                }
            }
        }
    }

    @Test("A client of /api/events that stops reading is disconnected once its backlog is full; the others miss nothing")
    func slowEventClientIsDropped() async throws {
        let fixture = try WebFixture()
        // A cycle of distinct photos, so that a gap in what a client got shows.
        let photos = try fixture.add(count: 10)
        let feed = fixture.live.photoAdded
        let log = RecordedLog()
        var settings = WebSettings(idleTimeout: .seconds(600))
        settings.eventBacklog = 8
        let batch = settings.eventBacklog / 2
        try await fixture.server(settings, logger: log.logger).test { client in
            let port = try #require(client.port)
            // The socket buffers to the client that reads nothing take thousands of events: a
            // loaded machine needs minutes for them, which the connections' guards allow.
            try await RawConnection.with(port: port, timeout: .seconds(600), receiveBuffer: 4096) { stalled in
                try await stalled.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await waitUntil { feed.subscriberCount == 1 }
                try await RawConnection.with(port: port, timeout: .seconds(600)) { reader in
                    try await reader.send("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    try await waitUntil { feed.subscriberCount == 2 }
                    // Half a backlog of photos at a time, each batch once the reader has the one
                    // before, until the socket buffers to the client that reads nothing are full
                    // and its backlog overflows: the reader's backlog never does.
                    var published = 0
                    var counter = EventCounter()
                    while feed.subscriberCount == 2 && published < 200_000 {
                        for _ in 0..<batch {
                            feed.publish(photos[published % photos.count].id)
                            published += 1
                        }
                        try await reader.read { counter.count(in: $0) == published }
                    }
                    #expect(feed.subscriberCount == 1, "the client that reads nothing was dropped after \(published) events")
                    // The one that reads goes on, and got every event.
                    feed.publish(photos[published % photos.count].id)
                    published += 1
                    try await reader.read { counter.count(in: $0) == published }
                    let got = Self.eventIDs(reader.response?.bodyText ?? "")
                    #expect(got == (0..<published).map { photos[$0 % photos.count].id.lowercased })
                }
                // The dropped client finds the end of its stream after what it was sent: in
                // order, without a gap, far short of what was published.
                try await stalled.readUntilClosed()
                let got = Self.eventIDs(stalled.response?.bodyText ?? "")
                #expect(!got.isEmpty)
                #expect(got == (0..<got.count).map { photos[$0 % photos.count].id.lowercased })
            }
            try await waitUntil { log.messages().contains { $0.hasPrefix("Disconnected a client of the event stream") } }
            let line = try #require(log.messages().first { $0.hasPrefix("Disconnected a client of the event stream") })
            #expect(line.contains("that fell 8 events behind; its browser reconnects and loads what it missed."), "\(line)")
        }
    }

    /// The photo ids of the `photo` events in an event stream's text, in order.
    static func eventIDs(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("data: "),
                let card = try? JSONSerialization.jsonObject(with: Data(line.dropFirst("data: ".count).utf8)) as? [String: Any]
            else { return nil }
            return card["id"] as? String
        }
    }

    /// The complete JPEG parts of a Motion JPEG body.
    static func parts(_ body: [UInt8]) -> [(headers: String, jpeg: [UInt8])] {
        var parts: [(String, [UInt8])] = []
        var index = 0
        let boundary = Array("--photobooth-frame\r\n".utf8)
        while let start = body[index...].firstRange(of: boundary),
            let headEnd = body[start.upperBound...].firstRange(of: Array("\r\n\r\n".utf8))
        {
            let headers = String(decoding: body[start.upperBound..<headEnd.lowerBound], as: UTF8.self)
            guard let lengthLine = headers.split(separator: "\r\n").first(where: { $0.hasPrefix("Content-Length: ") }),
                let length = Int(lengthLine.dropFirst("Content-Length: ".count)),
                body.count >= headEnd.upperBound + length + 2
            else { break }
            parts.append((headers, Array(body[headEnd.upperBound..<(headEnd.upperBound + length)])))
            index = headEnd.upperBound + length + 2
        }
        return parts
    }
}

/// Counts the `photo` events a session received, reading each byte once however often it is
/// asked.
struct EventCounter {
    private let marker = Array("event: photo\n".utf8)
    /// Where to look next: after the last marker found, or where one may have begun.
    private var next = 0
    private var events = 0

    mutating func count(in session: RawSession) -> Int {
        let received = session.received
        while let found = received[next...].firstRange(of: marker) {
            events += 1
            next = found.upperBound
        }
        next = max(next, received.count - marker.count + 1)
        return events
    }
}

/// Waits until `condition` holds, checking every few milliseconds; fails the test after
/// `timeout`.
func waitUntil(
    timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            throw ConditionTimeout(timeout: timeout, sourceLocation: sourceLocation)
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// A condition that did not hold in time.
struct ConditionTimeout: Error, CustomStringConvertible {
    let timeout: Duration
    let sourceLocation: SourceLocation
    var description: String { "the condition of \(sourceLocation) did not hold within \(timeout)" }
}
