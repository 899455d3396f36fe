import BoothCore
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

@testable import BoothWeb

@Suite("Live streams")
struct LiveStreamTests {
    @Test("/preview.mjpg sends the latest frames as JPEG parts while the client watches")
    func preview() async throws {
        let fixture = try WebFixture()
        let feed = fixture.live.preview
        let frames = try (1...3).map { try WebFixture.jpeg(frame: UInt64($0)) }
        try await fixture.application().test(.live) { client in
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
        try await fixture.application().test(.live) { client in
            try await RawConnection.with(port: try #require(client.port)) { session in
                try await session.send("GET /screen.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await session.read { Self.parts($0.response?.body ?? []).count == 1 }
                #expect(Self.parts(session.response?.body ?? []).first?.jpeg == Array(picture))
            }
            try await waitUntil { !fixture.live.screen.isWatched }
        }
    }

    @Test("A client that stops reading is dropped instead of holding the stream")
    func stalledClient() async throws {
        let fixture = try WebFixture()
        let feed = fixture.live.preview
        // Long enough that a loaded machine sends the request in time, short enough for a test.
        let settings = WebSettings(idleTimeout: .seconds(2))
        try await fixture.application(settings).test(.live) { client in
            let port = try #require(client.port)
            try await RawConnection.with(port: port, timeout: .seconds(60)) { session in
                try await session.send("GET /preview.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await waitUntil { feed.isWatched }
                // A camera at full speed, frames of 2 MB, and a client that reads nothing more:
                // the socket buffers fill and a write stalls.
                let frame = Data(repeating: 0xAB, count: 2 << 20)
                let camera = Task {
                    while !Task.isCancelled {
                        feed.publish(frame)
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
                defer { camera.cancel() }
                try await waitUntil(timeout: .seconds(45)) { !feed.isWatched }
            }
        }
    }

    @Test("/api/events announces each new photo, and keeps the connection alive between them")
    func photoEvents() async throws {
        let fixture = try WebFixture()
        let before = try fixture.add(caption: "Before")
        fixture.live.photoAdded.publish(before.id)
        try await fixture.application(eventKeepAlive: .milliseconds(100)).test(.live) { client in
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
