import BoothImaging
import BoothScreen
import Foundation
import Testing

@testable import BoothPictures

/// A folder of its own for one test's layout files, removed when the test ends.
final class LayoutFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("layouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `contents` to the file `name` in the folder, and gives its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        try write(name, Data(contents.utf8))
    }

    @discardableResult
    func write(_ name: String, _ contents: Data) throws -> String {
        let path = url.appendingPathComponent(name).path
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A PNG of `width` x `height` pixels, each `pixel(x, y)` (blue, green, red, alpha; straight).
    @discardableResult
    func png(_ name: String, width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (blue, green, red, alpha) = pixel(x, y)
                let premultiplied = [blue, green, red].map { UInt8((UInt32($0) * UInt32(alpha) + 127) / 255) }
                bytes += premultiplied + [alpha]
            }
        }
        let picture = TranslucentPicture(premultiplied: Bitmap(width: width, height: height, format: .bgrx, pixels: bytes))
        return try write(name, try picture.png())
    }
}

/// The layout in `text`, read as the file `name` of `folder`.
private func parse(_ text: String, in folder: LayoutFolder, name: String = "party.yaml") throws -> Layout {
    try LayoutFile.read(folder.write(name, text))
}

/// The error reading `text` gives, with its message's place (`party.yaml:LINE`).
private func refusal(_ text: String, in folder: LayoutFolder) throws -> (error: LayoutError, line: Int) {
    let path = try folder.write("party.yaml", text)
    do {
        _ = try LayoutFile.read(path)
    } catch {
        let place = error.description.dropFirst(path.count + 1).prefix { $0.isNumber }
        #expect(error.description.hasPrefix(path + ":"), "the message names the file: \(error)")
        return (error, Int(place) ?? 0)
    }
    Issue.record("the layout was accepted")
    return (LayoutError(.notAllowed, ""), 0)
}

@Suite struct LayoutFileTests {
    @Test func aFullFileReadsAsWritten() throws {
        let folder = try LayoutFolder()
        let overlay = try folder.png("frame.png", width: 60, height: 180) { _, _ in (0, 0, 0, 0) }
        let layout = try parse(
            """
            # Anna and Ben's wedding: a strip of three, tilted.
            canvas: 600x1800
            background: "#F0E0D0"
            overlay: frame.png
            slots:
              - {x: 30, y: 30, width: 540, height: 400}
              - x: 30
                y: 460
                width: 540
                height: 400
                rotation: -2.5
                fit: contain
              - {x: 30, y: 890, width: 540, height: 400}
            texts:
              - {text: "{event}", y: 1400, size: 60}
              - text: "{date} at {time}"
                x: 30
                y: 1500
                width: 400
                size: 30
                color: "#333"
                align: left
            """, in: folder)
        #expect(layout.name == "party")
        #expect(layout.width == 600 && layout.height == 1800)
        #expect(layout.background == .color(PixelColor(red: 0xF0, green: 0xE0, blue: 0xD0)))
        #expect(layout.overlay == overlay)
        #expect(layout.slots.count == 3)
        #expect(layout.slots[1] == PhotoSlot(x: 30, y: 460, width: 540, height: 400, rotation: -2.5, fit: .contain))
        #expect(layout.slots[2].fit == .cover && layout.slots[2].rotation == 0)
        // A text without x or width spans the canvas, centred.
        #expect(layout.texts[0] == TextItem(text: "{event}", x: 0, y: 1400, width: 600, size: 60))
        #expect(
            layout.texts[1]
                == TextItem(
                    text: "{date} at {time}", x: 30, y: 1500, width: 400, size: 30, color: PixelColor(red: 0x33, green: 0x33, blue: 0x33),
                    alignment: .left))
    }

    @Test func eachMistakeIsRefusedWithItsLineAndKey() throws {
        let folder = try LayoutFolder()
        let slot = "slots:\n  - {x: 0, y: 0, width: 100, height: 100}\n"
        let cases: [(text: String, code: LayoutError.Code, line: Int, key: String?, says: String)] = [
            ("canvas: 600x1800\nslot:\n  - {x: 0}\n", .unknownKey, 2, "slot", "unknown key \"slot\""),
            ("canvas: 600x1800\n\(slot)canvas: 100x100\n", .notYAML, 0, nil, "duplicated key"),
            (slot, .missingKey, 1, nil, "canvas is missing"),
            ("canvas: 600 by 1800\n\(slot)", .notAllowed, 1, "canvas", "WIDTHxHEIGHT"),
            ("canvas: 9000x100\n\(slot)", .notAllowed, 1, "canvas", "from 16 to 8000"),
            ("canvas: 600x1800\n", .missingKey, 1, nil, "slots is missing"),
            ("canvas: 600x1800\nslots: []\n", .notAllowed, 2, "slots", "1 to 9 slots"),
            ("canvas: 600x1800\nslots: {x: 1}\n", .notAllowed, 2, "slots", "give a list"),
            ("canvas: 600x1800\nslots:\n  - {x: 0, y: 0, width: 100}\n", .missingKey, 3, "slots[1]", "height is missing"),
            (
                "canvas: 600x1800\nslots:\n  - {x: 0, y: 0, width: 100, height: 100}\n  - {x: 0, y: 0, width: wide, height: 9}\n", .notAllowed, 4,
                "slots[2].width", "whole number"
            ),
            ("canvas: 600x1800\nslots:\n  - {x: 700, y: 0, width: 100, height: 100}\n", .notAllowed, 3, "slots[1]", "outside the 600x1800 canvas"),
            (
                "canvas: 600x1800\nslots:\n  - x: 0\n    y: 0\n    width: 10\n    height: 10\n    fit: stretch\n", .notAllowed, 7, "slots[1].fit",
                "cover or contain"
            ),
            (
                "canvas: 600x1800\nslots:\n  - {x: 0, y: 0, width: 10, height: 10, rotation: 400}\n", .notAllowed, 3, "slots[1].rotation",
                "-360 to 360"
            ),
            ("canvas: 600x1800\nslots:\n  - {x: 0, y: 0, width: 10, height: 10, tilt: 4}\n", .unknownKey, 3, "tilt", "it has x, y, width"),
            ("canvas: 600x1800\nbackground: \"#12345G\"\n\(slot)", .notAllowed, 2, "background", "#RRGGBB"),
            ("canvas: 600x1800\nbackground: paper.jpg\n\(slot)", .missingFile, 2, "background", "does not exist"),
            ("canvas: 600x1800\noverlay: frame.gif\n\(slot)", .notAllowed, 2, "overlay", ".png file"),
            ("canvas: 600x1800\n\(slot)texts:\n  - {text: \"{name}\", y: 10, size: 20}\n", .notAllowed, 5, "texts[1].text", "{name} is not a blank"),
            ("canvas: 600x1800\n\(slot)texts:\n  - {text: hello, size: 20}\n", .missingKey, 5, "texts[1]", "y is missing"),
            ("canvas: 600x1800\n\(slot)texts:\n  - {text: hi, y: 1800, size: 20}\n", .notAllowed, 5, "texts[1].y", "from 0 to 1799"),
            (
                "canvas: 600x1800\n\(slot)texts:\n  - {text: hi, x: 500, y: 9, width: 200, size: 20}\n", .notAllowed, 5, "texts[1].width",
                "from 1 to 100"
            ),
            (
                "canvas: 600x1800\n\(slot)texts:\n  - {text: hi, y: 9, size: 20, align: middle}\n", .notAllowed, 5, "texts[1].align",
                "left, center or right"
            ),
            ("canvas: 600x1800\n\(slot)texts:\n  - {text: hi, y: 9, size: 20, color: red}\n", .notAllowed, 5, "texts[1].color", "#RRGGBB"),
            (
                "canvas: 600x1800\n\(slot)texts:\n  - {text: hi, y: 9, size: 20, font: nowhere.ttf}\n", .missingFile, 5, "texts[1].font",
                "does not exist"
            ),
            ("- canvas: 600x1800\n", .notAMapping, 1, nil, "a mapping of keys"),
            ("canvas: [600, 1800\n", .notYAML, 0, nil, "not valid YAML"),
        ]
        for (text, code, line, key, says) in cases {
            let (error, place) = try refusal(text, in: folder)
            #expect(error.code == code, "\(text): \(error)")
            if line > 0 { #expect(place == line, "\(text): \(error)") }
            #expect(error.key == key, "\(text): \(error)")
            #expect(error.description.contains(says), "\(text): \(error)")
        }
    }

    @Test func bytesThatAreNotTextAreRefused() throws {
        let folder = try LayoutFolder()
        let path = try folder.write("party.yaml", Data([0x63, 0x61, 0xFF, 0xFE]))
        #expect(throws: LayoutError.self) { try LayoutFile.read(path) }
    }

    @Test func everyBuiltInLayoutIsUsableByName() throws {
        #expect(Layout.builtIn.map(\.name) == ["single-frame", "strip-3", "strip-4", "grid-2x2"])
        for layout in Layout.builtIn {
            let loaded = try LoadedLayout.named(layout.name)
            #expect(loaded.layout == layout)
            for slot in layout.slots {
                #expect(slot.x >= 0 && slot.y >= 0 && slot.x + slot.width <= layout.width && slot.y + slot.height <= layout.height)
            }
            for item in layout.texts {
                #expect(item.x + item.width <= layout.width && item.y + item.size <= layout.height)
            }
        }
        #expect(try LoadedLayout.named("strip-4").layout.slots.count == 4)
        #expect(try LoadedLayout.named("strip-4").layout.width == 600)
        let error = #expect(throws: LayoutError.self) { try LoadedLayout.named("strip-5") }
        #expect(error?.code == .unknownLayout)
        #expect(error?.description.contains("single-frame, strip-3, strip-4, grid-2x2") == true)
    }

    @Test func aPictureThatIsNotWhatItsNameSaysIsRefusedWithItsPath() throws {
        let folder = try LayoutFolder()
        try folder.write("frame.png", "not a picture")
        let layout = try parse("canvas: 600x1800\noverlay: frame.png\nslots:\n  - {x: 0, y: 0, width: 100, height: 100}\n", in: folder)
        let error = #expect(throws: LayoutError.self) { try LoadedLayout(layout) }
        #expect(error?.code == .badFile)
        #expect(error?.description.contains(folder.url.appendingPathComponent("frame.png").path) == true)
    }

    @Test func blanksAreFilledAndOtherBracesKept() {
        let values: [TextBlank: String] = [.event: "Anna & Ben", .date: "28 November 2026"]
        #expect(TextBlank.fill("{event}, {date}", with: values) == "Anna & Ben, 28 November 2026")
        #expect(TextBlank.fill("{caption}!", with: values) == "!")
        #expect(TextBlank.fill("{ {x} {event", with: values) == "{ {x} {event")
    }
}
