import BoothCore
import Foundation
import Testing

@testable import BoothDevices

@Suite("Keypad echo")
struct KeypadEchoTests {
    let placeholder = Caption.placeholder(number: 7)

    @Test("Prompts end with CR/LF; the typed name is redrawn in place, erasing what was deleted")
    func plain() {
        var echo = KeypadEcho(ansi: false)
        #expect(echo.text(for: .ready) == "\r\nReady! Press the button for a photo.\r\n")
        #expect(echo.text(for: .ready) == "", "nothing new, nothing sent")
        let prompt = echo.text(for: .naming(typed: "", placeholder: placeholder))
        #expect(prompt.contains("Name your photo") && prompt.contains("Photo 7") && prompt.hasSuffix("Name: "))
        #expect(echo.text(for: .naming(typed: "Ann", placeholder: placeholder)) == "\rName: Ann\rName: Ann")
        #expect(echo.text(for: .naming(typed: "An", placeholder: placeholder)) == "\rName: An \rName: An")
        #expect(echo.text(for: .saved(Caption(sanitizing: "Anna")!, photo: UUID())) == "\r\nSaved as Anna\r\n")
    }

    @Test("ANSI echo erases the line with an escape code")
    func ansi() {
        var echo = KeypadEcho(ansi: true)
        _ = echo.text(for: .naming(typed: "", placeholder: placeholder))
        #expect(echo.text(for: .naming(typed: "A", placeholder: placeholder)) == "\r\u{1B}[KName: A")
    }
}
