import BoothCore
import BoothStore
import Foundation
import GRDB
import HTTPTypes
import NIOCore
import Testing

@testable import BoothStore
@testable import BoothWeb

@Suite("Health and metrics")
struct OperationsTests {
    @Test("/healthz is 200 ok while the catalog answers and the camera delivers")
    func healthy() async throws {
        let fixture = try WebFixture()
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "ok\n")
            #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
        }
    }

    @Test("/healthz is 503 and names the camera when it is gone")
    func cameraGone() async throws {
        let fixture = try WebFixture()
        fixture.camera.isConnected = false
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(String(buffer: response.body) == "camera: not connected (the booth gets no frames from it)\n")
        }
    }

    @Test("/healthz is 503 and names the store when the catalog cannot be read")
    func storeBroken() async throws {
        let fixture = try WebFixture()
        try await fixture.library.catalog.database.write { db in try db.execute(sql: "ALTER TABLE photo RENAME TO broken") }
        try await fixture.server().test { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .serviceUnavailable)
            let body = String(buffer: response.body)
            #expect(body.hasPrefix("store: the catalog cannot be read: "))
            #expect(!body.contains("camera"))
        }
    }

    @Test("/metrics is Prometheus text: the booth's metrics, answers by class, streams and the library")
    func metrics() async throws {
        let fixture = try WebFixture()
        try fixture.add()
        let hidden = try fixture.add()
        try fixture.library.setHidden(true, of: hidden.id)
        try await fixture.server().test { client in
            _ = try await client.execute(uri: "/", method: .get)
            _ = try await client.execute(uri: "/api/photos", method: .get)
            _ = try await client.execute(uri: "/photos/\(UUID().lowercased)", method: .get)
            _ = try await client.execute(uri: "/", method: .post)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let text = String(buffer: response.body)
            // The test's client holds one connection, through which every request came.
            #expect(
                text == WebFixture.boothMetrics.description + """
                    # HELP photobooth_http_requests_total Requests the web gallery answered, by status class.
                    # TYPE photobooth_http_requests_total counter
                    photobooth_http_requests_total{code="1xx"} 0
                    photobooth_http_requests_total{code="2xx"} 2
                    photobooth_http_requests_total{code="3xx"} 0
                    photobooth_http_requests_total{code="4xx"} 2
                    photobooth_http_requests_total{code="5xx"} 0
                    # HELP photobooth_http_kept_answers_total Of those requests, the ones answered from memory by the connection itself, without the router.
                    # TYPE photobooth_http_kept_answers_total counter
                    photobooth_http_kept_answers_total 0
                    # HELP photobooth_web_streams Live streams open now (camera preview, booth screen, new-photo events).
                    # TYPE photobooth_web_streams gauge
                    photobooth_web_streams{stream="preview"} 0
                    photobooth_web_streams{stream="screen"} 0
                    photobooth_web_streams{stream="events"} 0
                    # HELP photobooth_web_connections Connections to the web gallery open now.
                    # TYPE photobooth_web_connections gauge
                    photobooth_web_connections 1
                    # HELP photobooth_web_connections_closed_total Connections the web gallery closed for its limits: idle ones to let new ones in (evicted), new ones when none was idle (refused).
                    # TYPE photobooth_web_connections_closed_total counter
                    photobooth_web_connections_closed_total{reason="evicted"} 0
                    photobooth_web_connections_closed_total{reason="refused"} 0
                    # HELP photobooth_library_photos Photos in the library that guests can see.
                    # TYPE photobooth_library_photos gauge
                    photobooth_library_photos 1
                    # HELP photobooth_library_hidden_photos Photos hidden from guests.
                    # TYPE photobooth_library_hidden_photos gauge
                    photobooth_library_hidden_photos 1

                    """, "\(text)")
        }
    }
}
