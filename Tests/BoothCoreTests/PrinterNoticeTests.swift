import Foundation
import Testing

@testable import BoothCore

@Suite("The printer's faults reach the screens without stopping photos")
struct PrinterNoticeTests {
    @Test("A fault is told once, its end once; photos are still taken meanwhile")
    func noticeFollowsTheFault() {
        var machine = BoothMachine(newPhotoID: UUID.init)
        let start = MonotonicInstant(nanoseconds: 0)
        _ = machine.handle(.cameraReady, at: start)
        #expect(machine.handle(.printerChanged(.mediaEmpty), at: start) == [.showPrinterNotice(.mediaEmpty)])
        #expect(machine.handle(.printerChanged(.mediaEmpty), at: start) == [], "the same fault again says nothing")
        #expect(machine.state == .idle)
        let effects = machine.handle(.shutterPressed(at: start), at: start)
        #expect(effects.contains { if case .show(.countdown) = $0 { true } else { false } }, "a press still counts down: \(effects)")
        #expect(machine.handle(.printerChanged(.mediaJam), at: start) == [.showPrinterNotice(.mediaJam)])
        #expect(machine.handle(.printerChanged(nil), at: start) == [.showPrinterNotice(nil)])
        #expect(machine.printerFault == nil)
    }

    @Test("Every fault has its words in every language, and the operator's fix")
    func texts() {
        for language in BoothLanguage.all {
            for fault in PrinterFault.allCases {
                let notice = fault.notice(in: language.texts)
                #expect(!notice.contains("{") && notice.count > 20, "\(language.code) \(fault): \(notice)")
            }
        }
        #expect(
            PrinterFault.mediaEmpty.notice()
                == "The printer is out of paper. Your photo will print as soon as the staff fix it; it is already in the gallery.")
        #expect(PrinterFault.allCases.allSatisfy { !$0.fix.isEmpty })
    }
}
