import BoothCore
import Foundation
import Testing

@testable import BoothScreen

@Suite("The printer's notice on the booth's screens")
struct PrinterNoticeScreenTests {
    /// The pixels of `canvas` that differ from `other`'s, counted in rows from the top.
    static func changedRows(_ canvas: Canvas, _ other: Canvas) -> [Int] {
        (0..<canvas.height).filter { y in (0..<canvas.width).contains { x in canvas[x, y] != other[x, y] } }
    }

    @Test("The main and saved screens say it on a band at the top; the countdown and a fault of the booth keep the screen")
    func band() throws {
        let painter = try ScreenPainter()
        for content in [ScreenContent.ready, .saving] {
            var plain = Canvas(width: 800, height: 480)
            try painter.paint(content, preview: nil, into: &plain)
            var told = Canvas(width: 800, height: 480)
            try painter.paint(content, preview: nil, notice: .mediaEmpty, into: &told)
            let rows = Self.changedRows(told, plain)
            #expect(!rows.isEmpty, "\(content)")
            #expect(rows.allSatisfy { $0 < 480 / 4 }, "\(content): the notice keeps to the top quarter, rows ...\(rows.last ?? 0)")
        }
        for content in [ScreenContent.countdown(secondsLeft: 3), .fault(.storageFull)] {
            var plain = Canvas(width: 800, height: 480)
            try painter.paint(content, preview: nil, into: &plain)
            var told = Canvas(width: 800, height: 480)
            try painter.paint(content, preview: nil, notice: .mediaEmpty, into: &told)
            #expect(Self.changedRows(told, plain).isEmpty, "\(content)")
        }
    }

    @Test("A notice redraws a still screen once; the same notice again does not")
    func schedule() {
        var schedule = RenderSchedule(previewInterval: .milliseconds(66))
        let now = MonotonicInstant(nanoseconds: 1_000_000_000)
        _ = schedule.show(.saving)
        _ = schedule.next(at: now)
        let idle = schedule.next(at: now)
        #expect(Self.sleeps(idle))
        let changed = schedule.show(notice: .mediaJam)
        #expect(changed)
        guard case .render(.saving, nil) = schedule.next(at: now) else {
            Issue.record("the notice is drawn at once")
            return
        }
        #expect(schedule.notice == .mediaJam)
        let again = schedule.show(notice: .mediaJam)
        #expect(!again)
        let after = schedule.next(at: now)
        #expect(Self.sleeps(after))
    }

    static func sleeps(_ step: RenderSchedule.Step) -> Bool {
        if case .sleep = step { true } else { false }
    }

    @Test("A text screen says the notice and its end on lines of their own, in its language")
    func text() {
        var screen = TextScreen(form: .lines(drawsQRCodes: false), texts: BoothLanguage.french.texts)
        let told = screen.text(forNotice: .mediaEmpty)
        #expect(told.hasPrefix("L’imprimante n’a plus de papier."))
        let ended = screen.text(forNotice: nil)
        #expect(ended == "L’imprimante imprime de nouveau.\n")
        var display = TextScreen(form: .display(ansi: false))
        let paused = display.text(forNotice: .paused)
        #expect(paused == "\r\nThe printer is paused. Your photo will print as soon as the staff fix it; it is already in the gallery.\r\n")
    }
}
