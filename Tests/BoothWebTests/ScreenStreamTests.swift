import BoothCore
import Foundation
import Hummingbird
import Logging
import Testing

@testable import BoothWeb

@Suite("The screen's stream on a still screen")
struct ScreenStreamTests {
    /// A gallery whose booth screen is `screen`, fed as the booth's mirror feeds it.
    func server(_ fixture: WebFixture, screen: LatestValue<Data>) -> ServedGallery {
        let live = BoothFeeds(screen: screen, status: { BoothStatus(state: "naming", cameraConnected: true, since: Date()) })
        return ServedGallery(
            library: fixture.library, live: live, settings: WebSettings(boothName: "Test Booth"), eventKeepAlive: .seconds(15),
            logger: Logger(label: "test"))
    }

    @Test("Every client of a screen that stays still gets its picture whole, also one that comes right after another left")
    func stillScreen() async throws {
        let fixture = try WebFixture()
        // The mirror's picture of a screen, larger than a socket's first window and NIO's
        // high-water mark, so that it is written in several turns.
        let picture = try WebFixture.jpeg(frame: 3, width: 1280, height: 720)
        #expect(picture.count > 100_000)
        let screen = LatestValue<Data>(staleness: .whenWithdrawn)
        screen.publish(picture)
        try await server(fixture, screen: screen).test { client in
            let port = try #require(client.port)
            for round in 0..<6 {
                // A reload (the next client comes before the server saw the last one go), then
                // a return once nobody watches.
                if round % 2 == 0 { try await waitUntil { !screen.isWatched } }
                try await RawConnection.with(port: port) { session in
                    try await session.send("GET /screen.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    try await session.read { !LiveStreamTests.parts($0.response?.body ?? []).isEmpty }
                    let parts = LiveStreamTests.parts(session.response?.body ?? [])
                    #expect(parts[0].jpeg == Array(picture), "round \(round)")
                    #expect(parts[0].headers.contains("Content-Length: \(picture.count)"))
                }
            }
        }
    }

    @Test("The screen's first picture comes twice at once, which tells a browser it is whole; the pictures after it once each")
    func firstPictureTwice() async throws {
        let fixture = try WebFixture()
        let still = try WebFixture.jpeg(frame: 1, width: 640, height: 360)
        let next = try WebFixture.jpeg(frame: 2, width: 640, height: 360)
        let screen = LatestValue<Data>(staleness: .whenWithdrawn)
        screen.publish(still)
        try await server(fixture, screen: screen).test { client in
            try await RawConnection.with(port: try #require(client.port)) { session in
                try await session.send("GET /screen.mjpg HTTP/1.1\r\nHost: localhost\r\n\r\n")
                // A browser shows a part once the next one's headers arrive.
                try await session.read { LiveStreamTests.parts($0.response?.body ?? []).count >= 2 }
                #expect(LiveStreamTests.parts(session.response?.body ?? []).map(\.jpeg) == [Array(still), Array(still)])
                screen.publish(next)
                try await session.read { LiveStreamTests.parts($0.response?.body ?? []).count == 3 }
                #expect(LiveStreamTests.parts(session.response?.body ?? []).last?.jpeg == Array(next))
            }
        }
    }
}
