import Foundation
import Testing

@testable import BoothCore

/// The keys of the simulated booth's terminal, which come a line at a time, on a manual
/// timeline: `t` is seconds since the start. A class, so that `#expect` can call the mutating
/// methods it wraps.
private final class Terminal {
    var machine: BoothMachine
    let start = MonotonicInstant(nanoseconds: 3_000_000_000)
    static let photo = TakenPhoto(id: UUID(), placeholder: .placeholder(number: 4))

    /// A booth whose keys are the terminal's (the button too, unless `pressesShutter` is
    /// false), its camera ready, at the main screen.
    init(pressesShutter: Bool = true) {
        let settings = BoothSettings(countdown: .zero, keys: .terminal(pressesShutter: pressesShutter))
        machine = BoothMachine(settings: settings, newPhotoID: { Terminal.photo.id })
        _ = machine.handle(.cameraReady, at: start)
    }

    func instant(_ t: Double) -> MonotonicInstant { start + .seconds(t) }

    @discardableResult
    func send(_ event: BoothEvent, at t: Double) -> [BoothEffect] {
        machine.handle(event, at: instant(t))
    }

    /// Types `keys` and then Enter, as a terminal sends a line, at `t`; returns what each key did.
    @discardableResult
    func line(_ keys: [KeypadKey], at t: Double) -> [[BoothEffect]] {
        (keys + [.enter]).map { send(.key($0), at: t) }
    }

    /// Types `text` and then Enter.
    @discardableResult
    func line(_ text: String, at t: Double) -> [[BoothEffect]] {
        line(text.map { .character($0) }, at: t)
    }

    /// What the line's Enter did: the keys before it only wait in the line.
    func enter(_ text: String, at t: Double) -> [BoothEffect] {
        let effects = line(text, at: t)
        #expect(effects.dropLast().allSatisfy { $0.isEmpty }, "the keys before Enter wait: \(effects)")
        return effects.last ?? []
    }

    /// Opens the gallery of `count` photos from the main screen.
    func openGallery(of count: Int, at t: Double) {
        #expect(enter("v", at: t) == [.countPhotos])
        send(.photosCounted(count), at: t)
    }
}

/// The list of `count` photos with photo `index` selected.
private func list(_ index: Int, of count: Int, search: NameSearch? = nil) -> BoothEffect {
    .show(.gallery(GalleryList(position: GalleryPosition(index: index, count: count), search: search)))
}

@Suite("The terminal's keys, a line at a time")
struct LineKeysTests {
    @Test("On the main screen Enter presses the shutter, and the view key alone, in either case, opens the gallery")
    func mainScreen() {
        let terminal = Terminal()
        #expect(terminal.enter("V", at: 1) == [.countPhotos])
        #expect(terminal.send(.photosCounted(2), at: 1.5) == [list(0, of: 2)])
        #expect(terminal.enter("b", at: 2) == [.show(.ready)])
        let shot = terminal.enter("", at: 3)
        #expect(shot.contains { if case .takeShot = $0 { true } else { false } }, "Enter shoots: \(shot)")
        #expect(terminal.machine.state.kind == .capturing)
    }

    @Test("Any other line on the main screen is its Enter: the shutter when the terminal is the button, nothing when a button is real")
    func otherLines() {
        let button = Terminal()
        #expect(button.enter("vv", at: 1).contains { if case .takeShot = $0 { true } else { false } })
        let keypad = Terminal(pressesShutter: false)
        #expect(keypad.enter("", at: 1) == [.ignored(.key(.enter))])
        #expect(keypad.enter("x", at: 2) == [.ignored(.key(.enter))])
        #expect(keypad.enter("v", at: 3) == [.countPhotos], "the view key still opens the gallery")
    }

    @Test("While a name is asked for each key types at once, Enter saves it")
    func naming() {
        let terminal = Terminal()
        terminal.line("", at: 0)
        terminal.send(.shotTaken(Terminal.photo, shutterAt: terminal.instant(0)), at: 0.1)
        let typed = terminal.line([.character("A"), .character("l"), .backspace, .character("b")], at: 1)
        #expect(typed[0] == [.show(.naming(typed: "A", placeholder: Terminal.photo.placeholder, photo: Terminal.photo.id))])
        #expect(typed[1] == [.show(.naming(typed: "Al", placeholder: Terminal.photo.placeholder, photo: Terminal.photo.id))])
        #expect(typed.last?.contains(.finishPhoto(Terminal.photo, caption: Caption(sanitizing: "Ab")!)) == true, "\(typed)")
    }

    @Test("Escape keeps the placeholder, and the rest of its line is dropped up to its Enter, even once the photo is saved")
    func escapeDropsTheRest() {
        let terminal = Terminal()
        terminal.line("", at: 0)
        terminal.send(.shotTaken(Terminal.photo, shutterAt: terminal.instant(0)), at: 0.1)
        for character in "Zed" { terminal.send(.key(.character(character)), at: 1) }
        #expect(terminal.send(.key(.escape), at: 1).contains(.finishPhoto(Terminal.photo, caption: Terminal.photo.placeholder)))
        terminal.send(.photoSaved(id: Terminal.photo.id, caption: Terminal.photo.placeholder), at: 1)
        let rest = "more".map { KeypadKey.character($0) } + [.enter]
        #expect(rest.map { terminal.send(.key($0), at: 1) } == rest.map { [.ignored(.key($0))] })
        #expect(terminal.machine.state.kind == .saved, "the dropped line's Enter did not shoot again")
        #expect(terminal.enter("", at: 2).contains { if case .takeShot = $0 { true } else { false } }, "the next line does")
    }

    @Test("In the gallery: u, d and the arrows move, an empty line opens and closes a photo, b and Escape go back")
    func gallery() {
        let terminal = Terminal()
        terminal.openGallery(of: 3, at: 0)
        #expect(terminal.enter("d", at: 1) == [list(1, of: 3)])
        #expect(terminal.line([.down], at: 2).last == [list(2, of: 3)])
        #expect(terminal.enter("uU", at: 3) == [list(1, of: 3), list(0, of: 3)], "each move of a line shows its screen")
        #expect(terminal.enter("", at: 4) == [.show(.photo(GalleryPhoto(position: GalleryPosition(index: 0, count: 3))))])
        #expect(terminal.enter("", at: 5) == [list(0, of: 3)])
        #expect(terminal.enter("xyz", at: 6) == [.ignored(.key(.enter))], "a line without a key of the gallery means nothing")
        #expect(terminal.line([.escape], at: 7).last == [.show(.ready)])
    }

    @Test("In the gallery p alone presses the shutter; /name finds a name, where p types")
    func galleryShutterAndFind() {
        let terminal = Terminal()
        terminal.openGallery(of: 3, at: 0)
        #expect(terminal.enter("/pa", at: 1) == [.findName(startingWith: "p"), .findName(startingWith: "pa")])
        #expect(terminal.send(.nameFound(prefix: "p", at: 2), at: 1.1) == [list(0, of: 3, search: NameSearch(prefix: "pa"))])
        #expect(terminal.send(.nameFound(prefix: "pa", at: 2), at: 1.2) == [list(2, of: 3, search: NameSearch(prefix: "pa"))])
        #expect(terminal.enter("b", at: 2) == [list(2, of: 3)], "b ends the search where it led")
        #expect(terminal.enter("P", at: 3).contains { if case .takeShot = $0 { true } else { false } })
        let keypad = Terminal(pressesShutter: false)
        keypad.openGallery(of: 3, at: 0)
        #expect(keypad.enter("p", at: 1) == [.ignored(.key(.enter))], "p means nothing when the button is real")
    }

    @Test("Any line ends the slideshow and does nothing else")
    func attract() {
        var settings = BoothSettings(countdown: .zero, attractAfter: .seconds(10), keys: .terminal(pressesShutter: true))
        settings.attractSlide = .seconds(5)
        var machine = BoothMachine(settings: settings, newPhotoID: UUID.init)
        let start = MonotonicInstant(nanoseconds: 0)
        _ = machine.handle(.cameraReady, at: start)
        _ = machine.handle(.tick, at: start + .seconds(10))
        #expect(machine.state.kind == .attract)
        #expect(machine.handle(.key(.character("v")), at: start + .seconds(11)) == [])
        #expect(machine.handle(.key(.enter), at: start + .seconds(11)) == [.show(.ready)])
    }

    @Test("A line longer than a line holds keeps its first keys")
    func longLine() {
        let terminal = Terminal()
        terminal.openGallery(of: 2, at: 0)
        let effects = terminal.enter(String(repeating: "x", count: LineKeys.maximumKeys) + "d", at: 1)
        #expect(effects == [.ignored(.key(.enter))], "the d came after the line was full")
    }
}

@Suite("What the booth waits for")
struct AwaitedInputTests {
    @Test("Keys and the button where the booth waits for a guest; keys alone while naming; nothing while busy")
    func cycle() {
        let terminal = Terminal()
        #expect(terminal.machine.awaitedInput == [.keys, .press] && terminal.machine.isAtRest)
        terminal.line("", at: 0)
        #expect(terminal.machine.awaitedInput == [] && !terminal.machine.isAtRest, "capturing")
        terminal.send(.shotTaken(Terminal.photo, shutterAt: terminal.instant(0)), at: 0.1)
        #expect(terminal.machine.awaitedInput == .keys && terminal.machine.isAtRest, "naming")
        terminal.line("Ann", at: 1)
        #expect(terminal.machine.awaitedInput == [] && !terminal.machine.isAtRest, "saving")
        terminal.send(.photoSaved(id: Terminal.photo.id, caption: Caption(sanitizing: "Ann")!), at: 1.1)
        #expect(terminal.machine.awaitedInput == [.keys, .press] && terminal.machine.isAtRest, "saved")
    }

    @Test("A key that asks the library waits for its answer: the booth is busy until it comes")
    func pendingAnswers() {
        let terminal = Terminal()
        terminal.line("v", at: 0)
        #expect(terminal.machine.pendingAnswers == 1)
        #expect(terminal.machine.awaitedInput == [] && !terminal.machine.isAtRest)
        terminal.send(.photosCounted(4), at: 0.1)
        #expect(terminal.machine.awaitedInput == [.keys, .press])
        terminal.line("/an", at: 1)
        #expect(terminal.machine.pendingAnswers == 2)
        terminal.send(.nameFound(prefix: "a", at: 1), at: 1.1)
        #expect(terminal.machine.awaitedInput == [])
        terminal.send(.nameFound(prefix: "an", at: 1), at: 1.2)
        #expect(terminal.machine.awaitedInput == [.keys, .press] && terminal.machine.pendingAnswers == 0)
        terminal.send(.photosCounted(4), at: 2)
        #expect(terminal.machine.pendingAnswers == 0, "an answer nobody asked for counts nothing")
    }

    @Test("A fault that waits for the storage takes a press, which it answers; the camera's and a missed shot's wait")
    func faults() {
        let terminal = Terminal()
        terminal.send(.storageChecked(.storageFull), at: 0)
        #expect(terminal.machine.awaitedInput == [.keys, .press] && terminal.machine.isAtRest)
        #expect(terminal.enter("", at: 1) == [.show(.fault(.storageFull)), .ignored(.shutterPressed(at: terminal.instant(1)))])
        terminal.send(.storageChecked(nil), at: 2)
        terminal.send(.cameraLost, at: 3)
        #expect(terminal.machine.awaitedInput == [] && terminal.machine.isAtRest, "the camera's absence: input waits for it")
    }
}
