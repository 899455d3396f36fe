import ArgumentParser
import BoothCore
import BoothImaging
import BoothScreen
import BoothService
import Foundation

struct ScreensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screens",
        abstract: "Paint every screen the booth shows into JPEG screendumps, and check their words.",
        discussion: """
            Paints each screen (the main screen, the countdown and the shot over a black, a \
            white, a yellow, a grey and a test-pattern preview, each printer notice, naming, \
            saved with one code and with two, each fault, the gallery, a photo, the slideshow) \
            in the booth's language, screen.contrast and screen.text_size, with every key a \
            booth can have, into DIR/WIDTHxHEIGHT/NAME.jpg, and prints a line for each: the \
            lowest contrast of its words against the pixels right around their letters (WCAG's \
            ratio, 1 to 21), and any text cut short, past the screen's edge or overlapping \
            another.

            EXIT STATUS
              0  Every text is whole, on the screen and clear of the others (and at 7:1 or more \
            with screen.contrast: high).
              1  Some text is not: the lines marked FAIL say which.
            """)

    @OptionGroup var library: LibraryOptions
    @OptionGroup var hardware: HardwareOptions

    @Option(help: ArgumentHelp("Where the screendumps go.", valueName: "directory"))
    var out = "screens"

    @Option(
        name: .customLong("size"),
        help: ArgumentHelp("A screen size to paint, WxH; repeat for several. Default: 800x480, 1280x800 and 1920x1080.", valueName: "WxH"))
    var sizes: [FrameSize] = [FrameSize(width: 800, height: 480), FrameSize(width: 1280, height: 800), FrameSize(width: 1920, height: 1080)]

    func run() throws {
        let configuration = try hardware.configuration(
            dataDirectory: library.directory, explicitDataDirectory: library.dataDirectory != nil, simulate: true)
        let screen = configuration.hardware.screen
        let texts = configuration.language.texts
        let painter = try ScreenPainter(
            fonts: screen.fonts, keys: ScreenCatalogue.keysOfAFullBooth(in: texts), texts: texts, theme: screen.theme)
        let required = screen.theme.contrast == .high ? 7.0 : nil
        let encoder = try JPEGEncoder()
        var failed = 0
        print(
            "Screens in \(configuration.language), contrast \(screen.theme.contrast.rawValue), text size \(screen.theme.textSize.rawValue):")
        for size in sizes {
            let folder = URL(fileURLWithPath: out).appendingPathComponent("\(size.width)x\(size.height)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for entry in try ScreenCatalogue.screens(width: size.width, height: size.height) {
                var canvas = Canvas(width: size.width, height: size.height)
                canvas.drawnText = []
                try painter.paint(entry.content, preview: entry.preview, notice: entry.notice, into: &canvas)
                try encoder.encode(canvas.bitmap, quality: 92).write(to: folder.appendingPathComponent("\(entry.name).jpg"))
                var problems = canvas.textProblems()
                let contrasts = canvas.textContrasts()
                let lowest = contrasts.compactMap(\.ratio).min()
                if let required {
                    for measured in contrasts where (measured.ratio ?? 0) < required {
                        let around = measured.background?.description ?? "nothing"
                        problems.append("\(measured.text) stands at \(Self.ratio(measured.ratio)) against \(around)")
                    }
                }
                let name = "\(size.width)x\(size.height)/\(entry.name)".padding(toLength: 40, withPad: " ", startingAt: 0)
                print("\(problems.isEmpty ? "ok  " : "FAIL") \(name) lowest contrast \(Self.ratio(lowest))")
                for problem in problems { print("       \(problem)") }
                if !problems.isEmpty { failed += 1 }
            }
        }
        print("Screendumps in \(out)/.")
        if failed > 0 {
            print("\(failed) screens have words that do not read well.")
            throw ExitCode(1)
        }
    }

    private static func ratio(_ ratio: Double?) -> String {
        ratio.map { String(format: "%.1f:1", $0) } ?? "unmeasured"
    }
}
