import BoothCore
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BoothWeb

@Suite("Methods")
struct MethodTests {
    @Test("A known path with any method it does not answer is 405 with Allow; unknown paths are 404")
    func methodNotAllowed() async throws {
        let fixture = try WebFixture()
        let id = try fixture.add().id.lowercased
        try await fixture.server().test { client in
            let cases: [(String, HTTPRequest.Method, String)] = [
                ("/", .post, "GET, HEAD"),
                ("/photos/\(id)", .delete, "GET, HEAD"),
                ("/photos/\(id).jpg", .put, "GET, HEAD"),
                ("/api/photos", .post, "GET, HEAD"),
                ("/api/photos/\(id)", .put, "GET, HEAD, DELETE"),
                ("/api/photos/\(id)/hide", .get, "POST"),
                ("/api/photos/\(id)/hide", .head, "POST"),
                ("/metrics", .options, "GET, HEAD"),
                ("/healthz", .trace, "GET, HEAD"),
                ("/api/status", HTTPRequest.Method("QUERY")!, "GET, HEAD"),
                ("/", HTTPRequest.Method("PROPFIND")!, "GET, HEAD"),
                ("/thumbnails/\(id).jpg", .post, "GET, HEAD"),
            ]
            for (uri, method, allow) in cases {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == allow, "\(method) \(uri)")
            }
            let json = try await client.execute(uri: "/api/photos", method: .patch)
            #expect(try APITests.error(json).contains("does not answer PATCH"))
            for method in [HTTPRequest.Method.get, .trace, HTTPRequest.Method("PROPFIND")!] {
                #expect(try await client.execute(uri: "/nothing/here", method: method).status == .notFound, "\(method)")
            }
        }
    }

    @Test("The routes the server answers are these, and each has its 405s")
    func allowedMethods() throws {
        let fixture = try WebFixture()
        let gallery = WebContext(library: fixture.library, live: fixture.live, settings: WebSettings(), logger: .init(label: "test"))
        let allowed = Dictionary(uniqueKeysWithValues: GalleryServer.allowedMethods(GalleryServer.routes(gallery)).map { ($0.path, $0.methods) })
        #expect(allowed["/api/photos/{id}"] == [.get, .head, .delete])
        #expect(allowed["/api/photos/{id}/unhide"] == [.post])
        #expect(allowed["/preview.mjpg"] == [.get, .head])
    }
}
