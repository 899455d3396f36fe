import BoothCore
import Foundation
import NIOCore
import Testing
import Yams

@testable import BoothWeb

/// Holds `docs/openapi.yaml` to the code: the routes the server answers and the JSON it emits.
@Suite("OpenAPI description")
struct OpenAPITests {
    /// `docs/openapi.yaml`, parsed (empty when it is missing or does not parse, which fails the tests).
    static var specification: [String: Any] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/openapi.yaml")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return ((try? Yams.load(yaml: text)) as? [String: Any]) ?? [:]
    }

    static var paths: [String: [String: Any]] {
        (specification["paths"] as? [String: [String: Any]]) ?? [:]
    }

    static func schema(_ name: String) -> [String: Any] {
        let components = specification["components"] as? [String: Any]
        return ((components?["schemas"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
    }

    /// A component by its `$ref`, or the object itself.
    static func resolve(_ object: Any?) -> [String: Any] {
        guard let object = object as? [String: Any] else { return [:] }
        guard let reference = object["$ref"] as? String else { return object }
        var current: Any? = specification
        for key in reference.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(key)]
        }
        return (current as? [String: Any]) ?? [:]
    }

    static let operationMethods = ["get", "post", "put", "patch", "delete"]

    @Test("The specification is OpenAPI 3.1 and parses")
    func version() {
        #expect(Self.specification["openapi"] as? String == "3.1.0")
        #expect(!Self.paths.isEmpty)
    }

    @Test("Its paths and methods are exactly the server's routes")
    func routesMatch() throws {
        let fixture = try WebFixture()
        let gallery = WebContext(library: fixture.library, live: fixture.live, settings: WebSettings(), logger: .init(label: "test"))
        let served = Set(GalleryServer.routes(gallery).map { "\($0.method.rawValue) \($0.path)" })
        let documented = Set(
            Self.paths.flatMap { path, item in
                item.keys.filter { Self.operationMethods.contains($0) }.map { "\($0.uppercased()) \(path)" }
            })
        #expect(documented == served, "only documented: \(documented.subtracting(served)); only served: \(served.subtracting(documented))")
    }

    @Test("Every path parameter is documented, and every operation documents its errors")
    func parametersAndErrors() {
        for (path, item) in Self.paths {
            let names = path.matches(of: /\{(\w+)\}/).map { String($0.output.1) }
            for method in Self.operationMethods {
                guard let operation = item[method] as? [String: Any] else { continue }
                let parameters = ((operation["parameters"] as? [Any]) ?? []).map(Self.resolve)
                for name in names {
                    #expect(
                        parameters.contains { $0["name"] as? String == name && $0["in"] as? String == "path" && $0["required"] as? Bool == true },
                        "\(method) \(path) documents {\(name)}")
                }
                let responses = Set(((operation["responses"] as? [String: Any]) ?? [:]).keys)
                #expect(!responses.isEmpty, "\(method) \(path)")
                if !names.isEmpty {
                    #expect(responses.isSuperset(of: ["400", "404"]), "\(method) \(path) documents a bad and an unknown id")
                }
                if operation["security"] != nil {
                    #expect(responses.isSuperset(of: ["401", "403"]), "\(method) \(path) documents the token's errors")
                }
                if (operation["parameters"] as? [Any])?.map(Self.resolve).contains(where: {
                    $0["in"] as? String == "query" && $0["name"] as? String != "download"
                }) == true {
                    #expect(responses.contains("400"), "\(method) \(path) documents bad query values")
                }
            }
        }
    }

    @Test("The JSON the API emits has exactly the properties of its schemas")
    func schemasMatch() async throws {
        let fixture = try WebFixture()
        let photo = try fixture.add(caption: "Schema")
        try await fixture.server().test { client in
            let list = try APITests.items(try await client.execute(uri: "/api/photos", method: .get))
            try Self.expectKeys(of: list[0], match: "Photo")
            let one = try await client.execute(uri: "/api/photos/\(photo.id.lowercased)", method: .get)
            try Self.expectKeys(of: try Self.object(one.body), match: "Photo")
            let status = try await client.execute(uri: "/api/status", method: .get)
            try Self.expectKeys(of: try Self.object(status.body), match: "Status")
            let error = try await client.execute(uri: "/api/photos/\(UUID().lowercased)", method: .get)
            try Self.expectKeys(of: try Self.object(error.body), match: "Error")
        }
        let gallery = WebContext(library: fixture.library, live: fixture.live, settings: WebSettings(), logger: .init(label: "test"))
        let event = String(buffer: WebContext.event("photo", gallery.card(for: photo, in: .english)))
        let data = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst("data: ".count))
        try Self.expectKeys(of: try Self.object(ByteBuffer(string: String(data))), match: "PhotoEvent")
        // The booth's own Wi-Fi, as /api/status carries it when the booth runs one.
        let hotspot = HotspotReport(state: "ENABLED", clients: 2, receivedBytes: 10, sentBytes: 20, problem: "none")
        try Self.expectKeys(of: try Self.object(ByteBuffer(bytes: try JSONEncoder.booth().encode(hotspot))), match: "HotspotStatus")
    }

    static func object(_ body: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
    }

    /// The only properties the API may leave out.
    static let optionalProperties: Set<String> = ["sync", "printer", "hotspot", "problem", "cups_job", "detail", "finished_at"]

    static func expectKeys(of object: [String: Any], match schemaName: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let schema = Self.schema(schemaName)
        let properties = Set(((schema["properties"] as? [String: Any]) ?? [:]).keys)
        let required = Set((schema["required"] as? [String]) ?? [])
        #expect(!properties.isEmpty, "schema \(schemaName) exists", sourceLocation: sourceLocation)
        // Every property is always there, but those the schema leaves optional (a status's `sync`,
        // only while the booth syncs with an event's bucket; its `printer`, only while it prints; a
        // print request's CUPS job, detail and end, once it has them).
        #expect(required.isSubset(of: Set(object.keys)), "\(schemaName): emitted \(object.keys.sorted())", sourceLocation: sourceLocation)
        #expect(Set(object.keys).isSubset(of: properties), "\(schemaName): emitted \(object.keys.sorted())", sourceLocation: sourceLocation)
        #expect(
            properties.subtracting(required).isSubset(of: Self.optionalProperties), "\(schemaName): \(properties.subtracting(required))",
            sourceLocation: sourceLocation)
    }
}
