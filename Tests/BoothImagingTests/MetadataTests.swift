import BoothCore
import BoothImaging
import Foundation
import StoreFixture
import Testing

@Suite("A photo's name and time travel inside its JPEG")
struct MetadataTests {
    static let exiftool = FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") ? "/usr/bin/exiftool" : nil

    static let metadata = PhotoMetadata(
        id: UUID(uuidString: "6F0E5C1A-8D2B-4C3E-9A71-2B4D5E6F7081")!, title: "Zo\u{00EB} & \u{674E}",
        createdAt: Date(utcTimestamp: "2026-11-22T07:33:05.042Z")!, utcOffsetSeconds: 3600,
        camera: CameraModel(make: "Logitech", model: "HD Pro Webcam C920"), software: "photobooth 1.2.3",
        booth: "Booth <East>", event: "Anna & Ben's wedding")

    /// What exiftool reads from `jpeg`, by group and tag name ("EXIF:DateTimeOriginal").
    static func read(_ jpeg: Data, _ options: [String] = []) async throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("metadata-\(UUID().lowercased).jpg")
        try jpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ProcessLaunch.output(of: try #require(exiftool), ["-json", "-G", "-a"] + options + [file.path])
        #expect(result.status == 0)
        return try #require((try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]])?.first)
    }

    @Test(
        "exiftool, which no one here wrote, reads the name, local time, camera, software, booth and event",
        .enabled(if: exiftool != nil, "exiftool is not installed (apt-get install libimage-exiftool-perl): nothing read the metadata"))
    func exiftoolReadsIt() async throws {
        let tagged = try JPEGSegments.tagged(try Fixtures.jpeg(width: 320, height: 240), with: Self.metadata)
        let tags = try await Self.read(tagged)
        #expect(tags["EXIF:DateTimeOriginal"] as? String == "2026:11:22 08:33:05")
        #expect(tags["EXIF:SubSecTimeOriginal"] as? String == "042", "\(tags)")
        #expect(tags["EXIF:OffsetTimeOriginal"] as? String == "+01:00")
        #expect(tags["EXIF:ImageDescription"] as? String == "Zoe & li")
        #expect(tags["EXIF:Make"] as? String == "Logitech")
        #expect(tags["EXIF:Model"] as? String == "HD Pro Webcam C920")
        #expect(tags["EXIF:Software"] as? String == "photobooth 1.2.3")
        #expect(tags["XMP:Title"] as? String == "Zo\u{00EB} & \u{674E}")
        #expect(tags["XMP:Description"] as? String == "Zo\u{00EB} & \u{674E}")
        #expect(tags["XMP:Booth"] as? String == "Booth <East>", "\(tags)")
        #expect(tags["XMP:Event"] as? String == "Anna & Ben's wedding", "\(tags)")
        #expect(tags["XMP:CreateDate"] as? String == "2026:11:22 08:33:05.042+01:00", "\(tags)")
        #expect(tags["ExifTool:Warning"] == nil, "\(tags)")
        // exiftool's validation finds nothing missing or misplaced.
        #expect(try await Self.read(tagged, ["-validate", "-warning", "-a"])["ExifTool:Validate"] as? String == "OK")
    }

    @Test("The camera's image data stays byte for byte, and the photo decodes to the same pixels")
    func pixelsUntouched() throws {
        let original = try Fixtures.jpeg(width: 320, height: 240)
        let tagged = try JPEGSegments.tagged(original, with: Self.metadata)
        #expect(tagged.count > original.count)
        #expect(try JPEGSegments(tagged).imageData == JPEGSegments(original).imageData)
        #expect(try JPEGDecoder().decode(tagged).pixels == JPEGDecoder().decode(original).pixels)
    }

    @Test("Tagging again replaces the metadata rather than adding a second copy")
    func taggedTwice() throws {
        let original = try Fixtures.jpeg(width: 320, height: 240)
        var renamed = Self.metadata
        renamed.title = "Anna"
        let once = try JPEGSegments.tagged(original, with: Self.metadata)
        let twice = try JPEGSegments.tagged(once, with: renamed)
        #expect(twice == (try JPEGSegments.tagged(original, with: renamed)))
    }

    @Test(
        "A west-of-UTC booth writes a negative offset and its own date",
        arguments: [(-5 * 3600 - 1800, "2026:11:22 02:03:05", "-05:30"), (0, "2026:11:22 07:33:05", "+00:00")])
    func offsets(offset: Int, local: String, written: String) throws {
        var metadata = Self.metadata
        metadata.utcOffsetSeconds = offset
        #expect(metadata.localTime.exif == local)
        #expect(metadata.localTime.offset == written)
    }

    @Test("A JPEG without its end is refused rather than tagged")
    func truncated() throws {
        let original = try Fixtures.jpeg(width: 64, height: 48)
        #expect(throws: ImageError.truncated) { try JPEGSegments.tagged(original.prefix(original.count - 10), with: Self.metadata) }
    }
}
