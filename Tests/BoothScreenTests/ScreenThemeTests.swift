import BoothCore
import Testing

@testable import BoothScreen

@Suite("Screen themes: high contrast and large text")
struct ScreenThemeTests {
    /// The screens a booth is built with: a 7" panel, a 10" tablet panel, a TV.
    static let sizes = [(800, 480), (1280, 800), (1920, 1080)]

    /// Every screen of the catalogue in `language` and `theme` at each size, painted with what
    /// its text was recorded.
    static func paintEverything(
        in language: BoothLanguage, theme: ScreenTheme, _ check: (_ screen: String, _ canvas: Canvas) -> Void
    ) throws {
        let texts = language.texts
        let painter = try ScreenPainter(keys: ScreenCatalogue.keysOfAFullBooth(in: texts), texts: texts, theme: theme)
        for (width, height) in sizes {
            for screen in try ScreenCatalogue.screens(width: width, height: height) {
                var canvas = Canvas(width: width, height: height)
                canvas.drawnText = []
                try painter.paint(screen.content, preview: screen.preview, notice: screen.notice, into: &canvas)
                check("\(language.code) \(width)x\(height) \(screen.name)", canvas)
            }
        }
    }

    @Test(
        "High contrast, in every language, at every size, in both text sizes: every screen's words are whole, on the screen, clear of each other, and at 7:1 or more against the pixels right around their letters, over any preview",
        arguments: BoothLanguage.all, ScreenTextSize.allCases)
    func highContrastScreens(language: BoothLanguage, textSize: ScreenTextSize) throws {
        var painted = 0
        try Self.paintEverything(in: language, theme: ScreenTheme(contrast: .high, textSize: textSize)) { screen, canvas in
            #expect(canvas.textProblems() == [], "\(screen)")
            #expect(canvas.drawnText?.isEmpty == false, "\(screen) has words")
            for measured in canvas.textContrasts() {
                let ratio = measured.ratio ?? 0
                #expect(ratio >= 7, "\(screen): \(measured.text) at \(ratio):1 against \(measured.background.map(\.description) ?? "nothing")")
            }
            painted += 1
        }
        #expect(painted > 150)
    }

    @Test(
        "The measure can fail: the normal theme's amber over the main screen's band on a white preview falls short of 7:1; both contrasts lay the words out alike"
    )
    func normalContrastFallsShort() throws {
        let texts = BoothLanguage.english.texts
        let ready = try #require(try ScreenCatalogue.screens(width: 1280, height: 800).first { $0.name == "ready-over-white" })
        var worst: [ScreenContrast: Double] = [:]
        var layouts: [ScreenContrast: [String]] = [:]
        for contrast in ScreenContrast.allCases {
            var canvas = Canvas(width: 1280, height: 800)
            canvas.drawnText = []
            try ScreenPainter(keys: ScreenCatalogue.keysOfAFullBooth(in: texts), texts: texts, theme: ScreenTheme(contrast: contrast))
                .paint(ready.content, preview: ready.preview, into: &canvas)
            worst[contrast] = canvas.textContrasts().compactMap(\.ratio).min()
            layouts[contrast] = (canvas.drawnText ?? []).map(\.description)
        }
        #expect(try #require(worst[.normal]) < 7)
        #expect(try #require(worst[.high]) >= 7)
        // What fits in high contrast fits in the normal one: the colours change, not the words' places.
        #expect(layouts[.normal] == layouts[.high] && (layouts[.high]?.count ?? 0) > 5)
    }

    @Test("Large text is a third larger: the headlines and explanations; the options as large as the screen's width allows")
    func larger() throws {
        let texts = BoothLanguage.english.texts
        func sizes(_ content: ScreenContent, _ textSize: ScreenTextSize) throws -> [String: Int] {
            var canvas = Canvas(width: 1920, height: 1080)
            canvas.drawnText = []
            try ScreenPainter(texts: texts, theme: ScreenTheme(textSize: textSize)).paint(content, preview: nil, into: &canvas)
            return Dictionary((canvas.drawnText ?? []).map { ($0.text, $0.size) }, uniquingKeysWith: max)
        }
        for (content, percent) in [(ScreenContent.fault(.storageFull), 130), (.saving, 130), (.ready, 110)] {
            let normal = try sizes(content, .normal)
            let large = try sizes(content, .large)
            #expect(normal.keys == large.keys)
            for (text, size) in normal {
                #expect(try #require(large[text]) * 100 >= size * percent, "\"\(text)\": \(size) px, then \(large[text] ?? 0) px")
            }
        }
    }

    @Test("A text cut short, one past the edge and two overlapping are each reported")
    func problemsFound() throws {
        let face = try FontFace(path: ScreenFonts.dejaVu.bold)
        var canvas = Canvas(width: 200, height: 100)
        canvas.drawnText = []
        canvas.draw(try face.line("A name far too long for this", size: 20, minimumSize: 20, maxWidth: 150), atX: 10, baseline: 30, color: .white)
        canvas.draw(try face.line("Edge", size: 20), atX: 180, baseline: 60, color: .white)
        canvas.draw(try face.line("One", size: 20), atX: 10, baseline: 90, color: .white)
        canvas.draw(try face.line("Two", size: 20), atX: 30, baseline: 90, color: .white)
        let problems = canvas.textProblems()
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("cut short") } && problems.contains { $0.contains("edge") })
        #expect(problems.contains { $0.contains("\"One\"") && $0.contains("\"Two\"") && $0.hasSuffix("overlap") })
    }
}
