import BoothImaging
import Foundation
import StoreFixture
import Testing

// swift-format-ignore: AlwaysUseLowerCamelCase
// The properties are the JSON keys of `list --json`.
/// A composed picture as `photobooth list --json` prints it.
private struct ListedPicture: Decodable {
    struct Part: Decodable {
        let id: String
        let file: String
        let width: Int
        let height: Int
    }

    let id: String
    let caption: String
    let file: String
    let width: Int
    let height: Int
    let kind: String
    let layout: String?
    let parts: [Part]
}

// One session at a time: each is a debug booth composing strips and GIFs, and several at once
// would take the cores from the other suites' servers, which run at a lower priority, as the web does.
@Suite("Pictures of several shots in the simulated booth", .fullLane, .serialized, .timeLimit(.minutes(2)))
struct PictureSessionTests {
    @Test("A strip of four: each shot counted down and shown, the strip named, listed with its shots")
    func stripOfFour() async throws {
        let directory = DataDirectory()
        let config = directory.url.appendingPathExtension("yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        try "booth:\n  next_countdown_seconds: 0\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try await session(
            "\nAlice\n", in: directory, options: ["--countdown", "0", "--config", config.path, "--mode", "collage", "--layout", "strip-4"])
        #expect(result.lines.filter { $0.hasPrefix("Photo ") && $0.contains(" of 4") } == ["Photo 1 of 4", "Photo 2 of 4", "Photo 3 of 4"])
        #expect(result.lines.filter { $0.hasPrefix("Saved as") } == ["Saved as Alice"])

        let listing = try await BoothProcess.run(["list", "--json", "--data-dir", directory.path])
        let pictures = try JSONDecoder().decode([ListedPicture].self, from: Data(listing.stdout.utf8))
        let strip = try #require(pictures.first)
        #expect(pictures.count == 1, "the shots are parts of the strip, not photos of the gallery")
        #expect(strip.kind == "collage" && strip.layout == "strip-4" && strip.caption == "Alice")
        #expect(strip.width == 600 && strip.height == 1800)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: strip.file))
        let header = try JPEGHeader(jpeg)
        #expect(header.width == 600 && header.height == 1800)
        #expect(strip.parts.count == 4)
        for part in strip.parts {
            let shot = try JPEGHeader(Data(contentsOf: URL(fileURLWithPath: part.file)))
            #expect(shot.width == part.width && shot.height == part.height)
        }
        // The strip's sidecar names it as typed, and names its shots.
        let sidecar = try String(contentsOfFile: strip.file.replacingOccurrences(of: ".jpg", with: ".xmp"), encoding: .utf8)
        #expect(sidecar.contains("Alice"))
        #expect(strip.parts.allSatisfy { sidecar.contains($0.id) })

        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0, "\(check.stdout)")

        // Exported with its shots, each copy named and dated inside, as exiftool reads.
        let target = directory.url.path + "-export"
        defer { try? FileManager.default.removeItem(atPath: target) }
        let export = try await BoothProcess.run(["export", "--all", "--parts", "--to", target, "--data-dir", directory.path])
        #expect(export.stdout.hasSuffix("Exported 1 photo and 4 shots to \(target).\n"), "\(export.stdout)")
        let exported = ["Alice.jpg"] + (1...4).map { "Alice, shot \($0) of 4.jpg" }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).sorted() == exported.sorted())
        let exiftool = try BoothProcess(
            ["-json", "-G"] + exported.map { target + "/" + $0 }, executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
        let tags = try #require(try JSONSerialization.jsonObject(with: Data(await exiftool.finished().stdout.utf8)) as? [[String: Any]])
        #expect(tags.count == 5 && tags.allSatisfy { $0["XMP:Title"] as? String == "Alice" }, "\(tags)")
        #expect(tags.compactMap { $0["EXIF:DateTimeOriginal"] as? String }.count == 5)
    }

    @Test(
        "An animation and a boomerang: one countdown, ten frames, a looping GIF named and listed with its frames",
        arguments: ["animation", "boomerang"])
    func animation(mode: String) async throws {
        let directory = DataDirectory()
        let result = try await session("\nBob\n", in: directory, options: ["--countdown", "0", "--mode", mode])
        #expect(result.lines.filter { $0.hasPrefix("Saved as") } == ["Saved as Bob"])

        let listing = try await BoothProcess.run(["list", "--json", "--data-dir", directory.path])
        let pictures = try JSONDecoder().decode([ListedPicture].self, from: Data(listing.stdout.utf8))
        let animation = try #require(pictures.first)
        #expect(pictures.count == 1 && animation.kind == mode && animation.layout == nil && animation.caption == "Bob")
        #expect(animation.file.hasSuffix(".gif") && animation.parts.count == 10)
        let gif = try GIFFile(Data(contentsOf: URL(fileURLWithPath: animation.file)))
        #expect(gif.frameCount == (mode == "boomerang" ? 18 : 10), "a boomerang plays its frames back without repeating the ends")
        // At most 540 pixels on their longest side, never enlarged (the tests' camera is small).
        let shot = try #require(animation.parts.first)
        #expect(max(gif.width, gif.height) == min(540, max(shot.width, shot.height)), "frames of \(gif.width)x\(gif.height)")
        #expect(gif.width == animation.width && gif.height == animation.height)
        #expect(try Data(contentsOf: URL(fileURLWithPath: animation.file)).count <= 4_000_000)
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0, "\(check.stdout)")

        // Its copy carries the name inside, in the GIF's XMP, as exiftool reads it.
        let target = directory.url.path + "-export"
        defer { try? FileManager.default.removeItem(atPath: target) }
        let export = try await BoothProcess.run(["export", "--all", "--to", target, "--data-dir", directory.path])
        #expect(export.status == 0, "\(export.stderr)")
        let exiftool = try BoothProcess(["-json", "-G", target + "/Bob.gif"], executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
        let tags = try #require(try JSONSerialization.jsonObject(with: Data(await exiftool.finished().stdout.utf8)) as? [[String: Any]])
        #expect(tags.first?["XMP:Title"] as? String == "Bob", "\(tags)")
        #expect(tags.first?["GIF:FrameCount"] as? Int == gif.frameCount, "\(tags)")
    }

    @Test("check finds a composed picture's lost file and broken shots; check --repair makes the picture again from its shots")
    func repairFromShots() async throws {
        let directory = DataDirectory()
        let config = directory.url.appendingPathExtension("yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        try "booth:\n  next_countdown_seconds: 0\n".write(to: config, atomically: true, encoding: .utf8)
        for (mode, name) in [("collage", "Strip"), ("animation", "Wave"), ("boomerang", "Bounce")] {
            _ = try await session(
                "\n\(name)\n", in: directory, options: ["--countdown", "0", "--config", config.path, "--mode", mode, "--layout", "strip-3"])
        }
        let pictures = try JSONDecoder().decode(
            [ListedPicture].self, from: Data(try await BoothProcess.run(["list", "--json", "--data-dir", directory.path]).stdout.utf8))
        let strip = try #require(pictures.first { $0.kind == "collage" })
        let wave = try #require(pictures.first { $0.kind == "animation" })
        let bounce = try #require(pictures.first { $0.kind == "boomerang" })
        // The strip's file is lost, both animations' are garbled, and one of the animation's shots is gone.
        try FileManager.default.removeItem(atPath: strip.file)
        try Data("not a GIF".utf8).write(to: URL(fileURLWithPath: wave.file))
        try Data("not a GIF either".utf8).write(to: URL(fileURLWithPath: bounce.file))
        try FileManager.default.removeItem(atPath: wave.parts[9].file)

        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status != 0)
        #expect(check.stdout.contains("missing original: photo \(strip.id)"), "\(check.stdout)")
        #expect(
            check.stdout.contains(
                "a shot of picture \(wave.id), \(wave.parts[9].file.split(separator: "/").suffix(5).joined(separator: "/")), is missing"),
            "\(check.stdout)")

        let repair = try await BoothProcess.run(["check", "--repair", "--data-dir", directory.path])
        #expect(repair.status == 0, "\(repair.stdout)")
        #expect(repair.stdout.contains("made collage \(strip.id) \"Strip\" again from its 3 shots"), "\(repair.stdout)")
        let header = try JPEGHeader(Data(contentsOf: URL(fileURLWithPath: strip.file)))
        #expect(header.width == 600 && header.height == 1800)
        #expect(repair.stdout.contains("made boomerang \(bounce.id) \"Bounce\" again from its 10 shots"), "\(repair.stdout)")
        #expect(try GIFFile(Data(contentsOf: URL(fileURLWithPath: bounce.file))).frameCount == 18)
        #expect(repair.stdout.contains("made boomerang \(bounce.id) \"Bounce\" again from its 10 shots"), "\(repair.stdout)")
        #expect(try GIFFile(Data(contentsOf: URL(fileURLWithPath: bounce.file))).frameCount == 18)
        // Nine shots of ten are no animation to remake: it is kept as lost, its shots forgotten.
        #expect(repair.stdout.contains("forgot the shot"), "\(repair.stdout)")
        let after = try JSONDecoder().decode(
            [ListedPicture].self, from: Data(try await BoothProcess.run(["list", "--json", "--data-dir", directory.path]).stdout.utf8))
        #expect(after.map(\.id).contains(strip.id) && after.first { $0.id == strip.id }?.parts.count == 3)
    }

    @Test("A layout that prints the name: the picture is composed again once the guest has typed it")
    func nameOnThePicture() async throws {
        let directory = DataDirectory()
        let layout = directory.url.appendingPathExtension("layout.yaml")
        defer { try? FileManager.default.removeItem(at: layout) }
        try """
        canvas: 600x500
        background: "#FFFFFF"
        slots:
          - {x: 0, y: 0, width: 600, height: 340}
        texts:
          - {text: "{caption}", x: 0, y: 380, width: 600, size: 80, color: "#000000"}
        """.write(to: layout, atomically: true, encoding: .utf8)
        let booth = try BoothProcess([
            "run", "--simulate", "--no-http", "--countdown", "0", "--mode", "single", "--layout", layout.path, "--data-dir", directory.path,
        ])
        try booth.type("\n")
        #expect(await booth.stderr.wait { $0.contains("\"Photo 1\" 600x500") }, "the picture was not saved")
        // Composed with its placeholder while the guest types; its text band is not blank.
        let before = try #require(try await listed(directory).first)
        let placeholder = try textBand(of: before.file)
        try booth.type("WWW WWW\n")
        #expect(await booth.stdout.wait { $0.contains("Saved as WWW WWW") })
        try booth.endInput()
        let finished = await booth.finished()
        #expect(finished.status == 0 && finished.stderr.contains("composed \(before.id) again with its name"), "\(finished.stderr)")
        let after = try #require(try await listed(directory).first)
        #expect(after.id == before.id && after.caption == "WWW WWW")
        // The band now holds the longer, darker name: more of it is ink.
        let named = try textBand(of: after.file)
        #expect(named > placeholder * 1.2, "ink \(placeholder) before, \(named) after")
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// The share of dark pixels in the text band (below the shot) of the picture in `file`.
    private func textBand(of file: String) throws -> Double {
        let picture = try JPEGDecoder().decode(Data(contentsOf: URL(fileURLWithPath: file)), format: .bgrx)
        var dark = 0
        for y in 350..<picture.height {
            for x in 0..<picture.width where picture.pixels[(y * picture.width + x) * 4 + 1] < 128 { dark += 1 }
        }
        return Double(dark) / Double((picture.height - 350) * picture.width)
    }

    @Test("A layout file with a mistake stops the start, naming its file, line and key")
    func badLayoutFile() async throws {
        let directory = DataDirectory()
        let layout = directory.url.appendingPathExtension("layout.yaml")
        defer { try? FileManager.default.removeItem(at: layout) }
        try "canvas: 600x1800\nslots:\n  - {x: 30, y: 30, width: 540}\n".write(to: layout, atomically: true, encoding: .utf8)
        let result = try await BoothProcess.run(
            ["run", "--simulate", "--no-http", "--data-dir", directory.path, "--mode", "collage", "--layout", layout.path], input: "")
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(layout.path):3: slots[1]: height is missing"), "\(result.stderr)")
    }

    @Test("Killed with SIGKILL after the second shot of four: both shots are photos after the restart")
    func killAfterSecondShot() async throws {
        let directory = DataDirectory()
        // Killed after the second shot, or a later one on a slow machine: every shot taken by
        // then (its "saved shot" line) is kept, and no strip was made of them.
        let config = directory.url.appendingPathExtension("yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        try "booth:\n  next_countdown_seconds: 1\n".write(to: config, atomically: true, encoding: .utf8)
        let booth = try BoothProcess([
            "run", "--simulate", "--no-http", "--countdown", "0", "--config", config.path, "--mode", "collage", "--layout", "strip-4",
            "--data-dir", directory.path,
        ])
        try booth.type("\n")
        #expect(await booth.stdout.wait { $0.contains("Photo 2 of 4") }, "the booth took no second shot")
        booth.kill()
        let killed = await booth.finished()
        #expect(killed.signaled && killed.status == SIGKILL)
        let taken = killed.stderr.components(separatedBy: "] saved shot ").count - 1
        #expect(taken >= 2 && !killed.stderr.contains("photo of 4 shots") && !killed.stderr.contains("collage of 4 shots"), "\(killed.stderr)")

        let restart = try await BoothProcess.run(["run", "--simulate", "--no-http", "--data-dir", directory.path])
        #expect(restart.status == 0, "restart failed: \(restart.stderr)")
        #expect(restart.stderr.components(separatedBy: "its picture was never made").count - 1 == taken, "\(restart.stderr)")
        let photos = try await listed(directory)
        #expect(photos.count == taken, "every shot taken is a photo: \(photos)")
        let check = try await BoothProcess.run(["check", "--data-dir", directory.path])
        #expect(check.status == 0, "\(check.stdout)")
    }
}
