import BoothCore
import BoothImaging
import BoothSync
import BoothWeb
import Foundation
import StoreFixture
import Testing

/// One booth process of an event: `photobooth run --simulate` with its own library and name,
/// syncing with the test's SeaweedFS, kept running while its standard input is open.
struct SyncingBooth {
    let directory = DataDirectory()
    let name: String
    let config: URL

    init(_ name: String, event: String, server: SeaweedFS) throws {
        self.name = name
        config = directory.url.appendingPathComponent("photobooth.yaml")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try Data(
            """
            booth: {name: "\(name)", countdown_seconds: 0}
            sync: {endpoint: "\(server.endpoint.absoluteString)", bucket: \(SeaweedFS.bucket), event: "\(event)", path_style: true,
                   interval_seconds: 1}
            """.utf8
        ).write(to: config)
    }

    static let environment = ["AWS_ACCESS_KEY_ID": SeaweedFS.accessKey, "AWS_SECRET_ACCESS_KEY": SeaweedFS.secretKey]

    func start() throws -> BoothProcess {
        try BoothProcess(
            ["run", "--simulate", "--no-http", "--config", config.path, "--data-dir", directory.path], environment: Self.environment)
    }

    /// The booth with its web gallery on `port` (on the loopback), its QR codes linking to
    /// `publicURL`.
    func start(httpPort port: Int, publicURL: String) throws -> BoothProcess {
        try BoothProcess(
            [
                "run", "--simulate", "--config", config.path, "--data-dir", directory.path, "--http-address", "127.0.0.1", "--http-port",
                "\(port)", "--public-url", publicURL,
            ], environment: Self.environment)
    }

    /// The library's photos; none while the booth has not made its library yet.
    func listed() async throws -> [ListedPhoto] {
        guard FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("photobooth.sqlite").path) else { return [] }
        return try await PhotoboothEndToEndTests.listed(directory)
    }

    func syncStatus() async throws -> (status: Int32, pending: Int?) {
        let result = try await BoothProcess.run(["sync", "status", "--json", "--data-dir", directory.path])
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (result.status, object?["pending"] as? Int)
    }
}

/// Polls `condition` every 200 ms until it holds, for at most `limit`: the booths converge in
/// their own time (a listing a second), and the test waits for that state, not for a duration.
func eventually(within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(200))
    }
    return try await condition()
}

@Suite(
    "Booth processes of one event converge through a real bucket", .fullLane, .enabled(if: SeaweedFS.available, Comment(rawValue: SeaweedFS.missing)),
    .timeLimit(.minutes(3)))
struct SyncEndToEndTests {
    @Test("Two booths taking and naming photos end with the same photos and captions; nothing pending; each copy carries its name and time")
    func twoBooths() async throws {
        let server = try await SeaweedFS()
        let event = "Anna & Ben \(UUID().uuidString.prefix(6))"
        let east = try SyncingBooth("Booth East", event: event, server: server)
        let west = try SyncingBooth("Booth West", event: event, server: server)
        let eastProcess = try east.start()
        let westProcess = try west.start()
        try eastProcess.type("\nZo\u{00EB} & \u{674E}\n\nAlice\n")
        try westProcess.type("\nBob\n")

        let converged = try await eventually {
            let (a, b) = (try await east.listed(), try await west.listed())
            return a.count == 3 && Set(a.map { "\($0.id) \($0.caption)" }) == Set(b.map { "\($0.id) \($0.caption)" })
        }
        let (eastList, westList) = (try await east.listed(), try await west.listed())
        #expect(converged, "east: \(eastList.map(\.caption)), west: \(westList.map(\.caption))")
        #expect(Set(try await west.listed().map(\.caption)) == ["Zo\u{00EB} & \u{674E}", "Alice", "Bob"])
        let settled = try await eventually {
            let (a, b) = (try await east.syncStatus(), try await west.syncStatus())
            return a.pending == 0 && b.pending == 0
        }
        #expect(settled)
        #expect(try await east.syncStatus().status == 0)

        // The original in the bucket, and an export of the imported copy at the other booth,
        // both show the photo's name and time to exiftool.
        let zoe = try #require(try await east.listed().first { $0.caption == "Zo\u{00EB} & \u{674E}" })
        let key = BucketLayout(event: event, booth: "Booth East").key(.photo, of: try #require(UUID(uuidString: zoe.id)))
        let fromBucket = try #require(try await server.store().get(key))
        let bucketCopy = east.directory.url.appendingPathComponent("from-bucket.jpg")
        try fromBucket.write(to: bucketCopy)
        let exported = west.directory.url.appendingPathComponent("usb")
        let export = try await BoothProcess.run(["export", zoe.id, "--to", exported.path, "--data-dir", west.directory.path])
        #expect(export.status == 0, "\(export.stderr)")
        for file in [bucketCopy.path, exported.appendingPathComponent("Zo\u{00EB} & \u{674E}.jpg").path] {
            let exiftool = try BoothProcess(["-json", "-G", file], executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
            let result = await exiftool.finished()
            let tags = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
            #expect(tags["XMP:Title"] as? String == "Zo\u{00EB} & \u{674E}", "\(file): \(tags)")
            #expect(tags["EXIF:DateTimeOriginal"] as? String != nil && tags["EXIF:OffsetTimeOriginal"] as? String != nil, "\(tags)")
            #expect(tags["XMP:Booth"] as? String == "Booth East" && tags["XMP:Event"] as? String == event, "\(tags)")
        }

        try eastProcess.endInput()
        try westProcess.endInput()
        #expect(await eastProcess.finished().status == 0)
        #expect(await westProcess.finished().status == 0)
    }

    @Test("A booth killed while it uploads resumes after a restart: everything arrives, nothing twice")
    func killedDuringUpload() async throws {
        let server = try await SeaweedFS()
        let event = "Crash \(UUID().uuidString.prefix(6))"
        let east = try SyncingBooth("East", event: event, server: server)
        let first = try east.start()
        try first.type("\nOne\n\nTwo\n\nThree\n")
        #expect(await first.stdout.wait { $0.contains("Saved as Three") })
        first.kill()
        _ = await first.finished()
        let saved = try await east.listed()
        #expect(saved.count == 3)

        let second = try east.start()
        let uploaded = try await eventually { try await east.syncStatus().pending == 0 }
        #expect(uploaded)
        let records = try await server.store().listAll(prefix: BucketLayout(event: event, booth: "East").ownPrefix + "records/")
        #expect(Set(records.map(\.key)) == Set(saved.map { BucketLayout(event: event, booth: "East").key(.record, of: UUID(uuidString: $0.id)!) }))
        try second.endInput()
        #expect(await second.finished().status == 0)
    }

    @Test(
        "doctor checks the event's bucket for real: PASS with the booth's keys, FAIL and what to fix with a wrong secret, and leaves nothing behind")
    func doctorChecksTheBucket() async throws {
        let server = try await SeaweedFS()
        let booth = try SyncingBooth("East", event: "Doctor", server: server)
        let arguments = ["doctor", "--config", booth.config.path, "--data-dir", booth.directory.path]
        func doctor(secret: String) async throws -> String {
            let process = try BoothProcess(
                arguments, environment: ["AWS_ACCESS_KEY_ID": SeaweedFS.accessKey, "AWS_SECRET_ACCESS_KEY": secret])
            try process.endInput()
            return await process.finished().stdout
        }
        let good = try await doctor(secret: SeaweedFS.secretKey)
        #expect(
            good.contains(
                "PASS event bucket: \(server.endpoint.absoluteString) bucket \(SeaweedFS.bucket): wrote, listed and deleted under doctor/east/"),
            "\(good)")
        let bad = try await doctor(secret: "not-the-secret")
        let line = bad.split(separator: "\n").first { $0.hasPrefix("FAIL event bucket:") }
        #expect(line?.contains("Fix: check sync.endpoint") == true, "\(bad)")
        #expect(try await server.store().listAll(prefix: "doctor/").isEmpty)
        // Doctor made no library: the booth's own user makes it at its first start.
        #expect(!FileManager.default.fileExists(atPath: booth.directory.url.appendingPathComponent("photobooth.sqlite").path))
    }

    @Test("Without credentials the booth still takes photos, says why it does not sync, and keeps them for later")
    func noCredentials() async throws {
        let server = try await SeaweedFS()
        let booth = try SyncingBooth("East", event: "Nokeys", server: server)
        let process = try BoothProcess(
            ["run", "--simulate", "--no-http", "--config", booth.config.path, "--data-dir", booth.directory.path],
            environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "CREDENTIALS_DIRECTORY": ""])
        try process.type("\nKept\n")
        try process.endInput()
        let finished = await process.finished()
        #expect(finished.status == 0)
        #expect(finished.stderr.contains("does not sync with the event's bucket: no credentials"), "\(finished.stderr)")
        #expect(try await booth.listed().map(\.caption) == ["Kept"])
        let status = try await booth.syncStatus()
        #expect(status.status == 1 && status.pending == 1)
    }
}

@Suite(
    "photobooth serve publishes the event from its bucket", .fullLane, .enabled(if: SeaweedFS.available, Comment(rawValue: SeaweedFS.missing)),
    .timeLimit(.minutes(3)))
struct ServeTests {
    /// GET `path` on the gallery at `port` (a POST of `form`, when given): status, body and
    /// `Refresh` header; `nil` while nothing listens.
    static func get(_ path: String, port: Int, form: String? = nil) async -> (status: Int, body: String, refresh: String?)? {
        guard SeaweedFS.isListening(port) else { return nil }
        let post = form.map { ["--data", $0] } ?? []
        guard
            let curl = try? BoothProcess(
                ["-s", "-D", "-"] + post + ["http://127.0.0.1:\(port)\(path)"], executable: URL(fileURLWithPath: "/usr/bin/curl"))
        else { return nil }
        let text = await curl.finished().stdout
        guard let head = text.components(separatedBy: "\r\n\r\n").first else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let refresh = lines.first { $0.lowercased().hasPrefix("refresh:") }.map {
            String($0.dropFirst("refresh:".count)).trimmingCharacters(in: .whitespaces)
        }
        return (status, String(text.dropFirst(head.count + 4)), refresh)
    }

    @Test("With no hardware it shows the photos of both booths; a photo not there yet has a page that says so and fills in")
    func publishes() async throws {
        let server = try await SeaweedFS()
        let event = "Public \(UUID().uuidString.prefix(6))"
        let east = try SyncingBooth("Booth East", event: event, server: server)
        let west = try SyncingBooth("Booth West", event: event, server: server)
        let eastProcess = try east.start()
        let westProcess = try west.start()
        try eastProcess.type("\nAnna\n")
        try westProcess.type("\nBen\n")

        let gallery = DataDirectory()
        let port = try SeaweedFS.freePorts(1)[0]
        let serve = try BoothProcess(
            [
                "serve", "--config", east.config.path, "--booth-name", "Anna & Ben", "--http-address", "127.0.0.1",
                "--http-port", "\(port)", "--data-dir", gallery.path,
            ], environment: SyncingBooth.environment)
        let both = try await eventually {
            guard let answer = await Self.get("/api/photos", port: port), answer.status == 200 else { return false }
            return answer.body.contains("\"Anna\"") && answer.body.contains("\"Ben\"")
        }
        let api = await Self.get("/api/photos", port: port)?.body ?? ""
        #expect(both, "\(api)")
        #expect(api.contains("\"author\":\"Booth East\"") && api.contains("\"author\":\"Booth West\""), "\(api)")

        // A page for a photo the gallery does not have yet says so and looks again.
        let waiting = await Self.get("/photos/\(UUID().lowercased)", port: port)
        #expect(waiting?.status == 404 && waiting?.refresh == "5" && waiting?.body.contains("not in the gallery yet") == true)
        // A photo taken now fills its page in once it has arrived.
        try eastProcess.type("\nCarla\n")
        #expect(await eastProcess.stdout.wait { $0.contains("Saved as Carla") })
        let carla = try #require(try await east.listed().first { $0.caption == "Carla" })
        let arrived = try await eventually {
            await Self.get("/photos/\(carla.id)", port: port)?.status == 200
        }
        #expect(arrived)

        serve.terminate()
        #expect(await serve.finished().status == 0)
        try eastProcess.endInput()
        try westProcess.endInput()
        _ = await eastProcess.finished()
        _ = await westProcess.finished()
    }

    @Test(
        "A guest deletes their photo through serve with the key of the booth's QR code: hidden there at once, deleted at the booth, gone from serve; a made-up key deletes nothing"
    )
    func guestDeletes() async throws {
        let server = try await SeaweedFS()
        let event = "Delete \(UUID().uuidString.prefix(6))"
        let east = try SyncingBooth("Booth East", event: event, server: server)
        let ports = try SeaweedFS.freePorts(2)
        let gallery = DataDirectory()
        let serve = try BoothProcess(
            ["serve", "--config", east.config.path, "--http-address", "127.0.0.1", "--http-port", "\(ports[1])", "--data-dir", gallery.path],
            environment: SyncingBooth.environment)
        let booth = try east.start(httpPort: ports[0], publicURL: "http://127.0.0.1:\(ports[1])")
        try booth.type("\nAnna\n")
        try booth.type("\nBen\n")
        #expect(await booth.stdout.wait { $0.contains("Saved as Anna") && $0.contains("Saved as Ben") })
        // The booth's terminal, piped here, shows the link without the key, as anything but
        // the guest's own screen does; the key its QR code carries there is the photo's key
        // under the library's secret.
        let link = try #require(booth.stdout.text.firstMatch(of: /photos\/([0-9a-f-]{36})/))
        #expect(!booth.stdout.text.contains("key="), "a piped terminal is not the guest's screen")
        let id = String(link.output.1)
        let secret = try Data(contentsOf: east.directory.url.appendingPathComponent("guest-links.key"))
        let key = DeletionKeys(secret: secret).key(for: try #require(UUID(uuidString: id)))
        let ben = try #require(try await east.listed().first { $0.caption == "Ben" })
        let arrived = try await eventually {
            let anna = await Self.get("/photos/\(id)", port: ports[1])?.status
            let other = await Self.get("/photos/\(ben.id)", port: ports[1])?.status
            return anna == 200 && other == 200
        }
        #expect(arrived)

        let page = await Self.get("/photos/\(id)?key=\(key)", port: ports[1])
        #expect(page?.body.contains("/photos/\(id)/delete?key=\(key)") == true, "serve offers the deletion")
        #expect(await Self.get("/photos/\(ben.id)/delete", port: ports[1], form: "key=\(key)")?.status == 403, "another photo's key")
        let deleted = await Self.get("/photos/\(id)/delete", port: ports[1], form: "key=\(key)")
        #expect(deleted?.status == 200, "\(deleted?.body ?? "")")
        #expect(await Self.get("/photos/\(id)", port: ports[1])?.status == 404, "hidden on serve at once")
        #expect(await Self.get("/photos/\(id)/delete", port: ports[1], form: "key=\(key)")?.status == 410)

        let atBooth = try await eventually { try await !east.listed().contains { $0.id == id } }
        #expect(atBooth, "the booth that took it deleted it")
        let keys = try await eventually {
            let listed = try await server.store().listAll(prefix: BucketLayout.keyName(event) + "/").map(\.key)
            return !listed.contains { $0.hasSuffix("photos/\(id).jpg") || $0.contains("deletions/") }
        }
        #expect(keys, "the original left the bucket, and serve took its request back")
        #expect(try await east.listed().map(\.caption) == ["Ben"])
        #expect(await Self.get("/photos/\(ben.id)", port: ports[1])?.status == 200)

        serve.terminate()
        #expect(await serve.finished().status == 0)
        try booth.endInput()
        _ = await booth.finished()
    }
}
