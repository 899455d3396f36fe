import BoothImaging
import Foundation
import GRDB
import StoreFixture
import Testing

// swift-format-ignore: AlwaysUseLowerCamelCase
// The properties are the JSON keys of `list --json`.
/// A photo as `photobooth list --json` prints it.
struct ListedPhoto: Decodable, Equatable {
    let id: String
    let caption: String
    let created_at: String
    let width: Int
    let height: Int
    let byte_count: Int
    let file: String
    let favourite: Bool
}

/// `photobooth list --json` for a library, parsed; records an issue when it fails.
func listed(_ directory: DataDirectory) async throws -> [ListedPhoto] {
    let result = try await BoothProcess.run(["list", "--json", "--data-dir", directory.path])
    #expect(result.status == 0, "list failed: \(result.stderr)")
    return try JSONDecoder().decode([ListedPhoto].self, from: Data(result.stdout.utf8))
}

/// Runs the simulated booth on a script, to the end; the session must succeed.
@discardableResult
func session(_ script: String, in directory: DataDirectory, options: [String] = ["--countdown", "0"]) async throws -> Finished {
    let result = try await BoothProcess.run(["run", "--simulate", "--no-http", "--data-dir", directory.path] + options, input: script)
    #expect(result.status == 0 && !result.signaled, "the booth failed: \(result.stderr)")
    return result
}

@Suite("A scripted session of the simulated booth", .fullLane, .timeLimit(.minutes(2)))
struct ScriptedSessionTests {
    @Test("Two named photos: on the screen, in the list newest first, as files, thumbnails and WAL catalog")
    func twoPhotos() async throws {
        let directory = DataDirectory()
        let result = try await session("\nAlice\n\nBob\n", in: directory)
        #expect(result.lines.filter { $0.hasPrefix("Saved as") } == ["Saved as Alice", "Saved as Bob"])
        #expect(result.lines.filter { $0 == "Name your photo:" }.count == 2)

        let raw = try await BoothProcess.run(["list", "--json", "--data-dir", directory.path])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [[String: Any]])
        #expect(
            objects.allSatisfy {
                Set($0.keys) == ["id", "caption", "created_at", "width", "height", "byte_count", "file", "favourite", "kind", "parts"]
            })
        #expect(objects.allSatisfy { $0["kind"] as? String == "photo" && ($0["parts"] as? [Any])?.isEmpty == true })

        let photos = try await listed(directory)
        #expect(photos.map(\.caption) == ["Bob", "Alice"])
        #expect(photos[0].created_at > photos[1].created_at)
        for photo in photos {
            #expect(photo.file.hasPrefix("/"))
            #expect(photo.file.hasSuffix("/\(photo.id).jpg"))
            #expect(photo.created_at.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil)
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: photo.file))
            #expect(jpeg.count == photo.byte_count)
            let decoded = try JPEGDecoder().decode(jpeg)
            #expect(decoded.width == photo.width && decoded.height == photo.height)
            #expect(try JPEGSegments(jpeg).hasHuffmanTables, "the camera's frame was repaired into a standard JPEG")
        }

        var readOnly = Configuration()
        readOnly.readonly = true
        let catalog = try DatabaseQueue(path: directory.url.appendingPathComponent("photobooth.sqlite").path, configuration: readOnly)
        let (journalMode, thumbnails) = try await catalog.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Data.fetchAll(db, sql: "SELECT thumbnail FROM photo"))
        }
        #expect(journalMode == "wal")
        #expect(thumbnails.count == 2)
        for thumbnail in thumbnails {
            let header = try JPEGHeader(thumbnail)
            #expect(max(header.width, header.height) <= 320)
        }

        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test("Names are kept as typed, cleaned of control characters and cut to 64 characters")
    func namesAreSanitized() async throws {
        let directory = DataDirectory()
        let long = String(repeating: "x", count: 200)
        try await session("\nAnn\u{1}\u{7}e\tMarie \n\n\(long)\n\nZoë 👩‍👩‍👧 李\n", in: directory)
        let captions = try await listed(directory).map(\.caption)
        #expect(captions.count == 3)
        #expect(captions[0].unicodeScalars.elementsEqual("Zoë 👩‍👩‍👧 李".unicodeScalars))
        #expect(captions[1] == String(repeating: "x", count: 64))
        #expect(captions[2] == "Anne Marie")
    }

    @Test("The log's saved and named lines quote a name with quotes and backslashes so that it reads back as typed")
    func namesQuotedInTheLog() async throws {
        let directory = DataDirectory()
        let result = try await session("\n\(#"Mia "M" \o/"#)\n", in: directory)
        let id = try #require(try await listed(directory).first?.id)
        #expect(result.stderr.contains("] saved \(id) \"Photo 1\" "), "\(result.stderr)")
        #expect(result.stderr.contains(#"] named \#(id) "Mia \"M\" \\o/""# + "\n"), "\(result.stderr)")
    }

    @Test("Bytes that are not UTF-8 are dropped from a name, the rest is kept")
    func invalidUTF8Name() async throws {
        let directory = DataDirectory()
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--data-dir", directory.path])
        try booth.type([0x0A, 0x45, 0x76, 0xFF, 0xFE, 0x61, 0x0A])
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0)
        #expect(result.lines.contains("Saved as Eva"))
        #expect(try await listed(directory).map(\.caption) == ["Eva"])
    }

    @Test("A photo nobody names keeps its default caption when naming times out")
    func namingTimesOut() async throws {
        let directory = DataDirectory()
        let booth = try BoothProcess(["run", "--simulate", "--no-http", "--countdown", "0", "--name-timeout", "0.3", "--data-dir", directory.path])
        try booth.type("\n")
        // The guest walks away: input stays open, nothing more is typed.
        #expect(await booth.stdout.wait { $0.contains("Saved as Photo 1\n") })
        try booth.endInput()
        let result = await booth.finished()
        #expect(result.status == 0)
        #expect(try await listed(directory).map(\.caption) == ["Photo 1"])
    }

    @Test("Escape cancels naming: the photo is kept under its default caption")
    func escapeCancels() async throws {
        let directory = DataDirectory()
        let result = try await session("\nMallory\u{1B}\n", in: directory)
        #expect(result.lines.contains("Saved as Photo 1"))
        #expect(try await listed(directory).map(\.caption) == ["Photo 1"])
    }

    @Test("Input that ends while a name is asked for keeps the photo with its default caption")
    func inputEndsWhileNaming() async throws {
        let directory = DataDirectory()
        try await session("\n", in: directory)
        #expect(try await listed(directory).map(\.caption) == ["Photo 1"])
    }

    @Test("With a countdown the screen counts 3, 2, 1 before the shot")
    func countdown() async throws {
        let directory = DataDirectory()
        let result = try await session("\nCarol\n", in: directory, options: ["--countdown", "3"])
        let shown = result.lines.drop { $0 != "3" }.prefix(4)
        #expect(Array(shown) == ["3", "2", "1", "Smile!"])
        #expect(result.stderr.contains("countdown -> capturing"))
    }

    @Test("The gallery from a script: v opens the list newest first, d moves, Enter shows a photo's file, b goes back twice")
    func gallery() async throws {
        let directory = DataDirectory()
        let result = try await session("\nAlice\n\nBob\nv\nd\n\nb\nb\n", in: directory)
        let photos = try await listed(directory)
        #expect(photos.map(\.caption) == ["Bob", "Alice"])
        let lines = result.lines
        #expect(lines.contains { $0.hasPrefix("Photos, 1 of 2") })
        #expect(lines.contains { $0.hasPrefix("> 1. Bob \u{00B7} Taken on ") })
        #expect(lines.contains { $0.hasPrefix("> 2. Alice \u{00B7} Taken on ") })
        #expect(lines.contains { $0.hasPrefix("Photo 2 of 2: Alice \u{00B7} Taken on ") })
        #expect(lines.contains("  \(photos[1].file)"), "the full-screen photo's original")
        #expect(lines.suffix(2) == ["Press Enter to take a photo", "Press v to see the photos"], "back twice: the main screen")
        #expect(result.stderr.contains("saved -> gallery") && result.stderr.contains("gallery -> photo"), "v on the saved screen")
    }

    @Test("--language fr: the terminal asks, confirms and lists in French, with French dates")
    func french() async throws {
        let directory = DataDirectory()
        let result = try await session("\nAnna\nv\n\nb\nb\n", in: directory, options: ["--countdown", "0", "--language", "fr"])
        let lines = result.lines
        #expect(lines.contains("Donnez un nom à votre photo\u{00A0}:"), "\(lines)")
        #expect(lines.contains("Enregistrée sous Anna"))
        #expect(lines.contains { $0.hasPrefix("Photos, 1 sur 1") })
        #expect(lines.contains { $0.hasPrefix("> 1. Anna \u{00B7} Prise le ") && $0.contains(" à ") })
        #expect(lines.contains { $0.hasPrefix("Photo 1 sur 1\u{00A0}: Anna \u{00B7} Prise le ") })
        #expect(lines.suffix(2) == ["Appuyez sur Entrée pour prendre une photo", "Appuyez sur v pour voir les photos"])
        #expect(try await listed(directory).map(\.caption) == ["Anna"])
    }

    @Test("The gallery from a script: / and the start of a name jumps to its photo, Enter opens it")
    func findByName() async throws {
        let directory = DataDirectory()
        let result = try await session("\nZoë\n\nBen\nv\n/zo\n\nb\nb\n", in: directory)
        let lines = result.lines
        #expect(lines.contains("Find: zo \u{00B7} Backspace erases \u{00B7} b ends"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("> 2. Zoë \u{00B7} Taken on ") }, "the list moved to the older photo, Zoë")
        #expect(lines.contains { $0.hasPrefix("Photo 2 of 2: Zoë \u{00B7} Taken on ") }, "Enter opened it")
        #expect(lines.suffix(2) == ["Press Enter to take a photo", "Press v to see the photos"], "back twice: the main screen")
    }

    @Test("An empty library's gallery says so, and the button there takes the first photo")
    func emptyGallery() async throws {
        let directory = DataDirectory()
        let result = try await session("v\np\nFirst\n", in: directory)
        #expect(result.lines.contains { $0.hasPrefix("No photos yet") })
        #expect(try await listed(directory).map(\.caption) == ["First"])
    }
}
