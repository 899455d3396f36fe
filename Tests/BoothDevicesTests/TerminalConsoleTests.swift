import BoothCore
import Foundation
import Logging
import SystemPackage
import Testing

@testable import BoothDevices

/// A console wired to pipes: the test writes its input and reads what it prints.
private final class ConsoleHarness {
    let console: TerminalConsole
    let input: FileHandle
    let screen: FileHandle
    private let inputPipe = Pipe()
    private let outputPipe = Pipe()

    init(patient: Bool, reading: TerminalConsole.Reading? = .keys) throws {
        // The console may still print after a test has closed its end of the screen pipe; as in
        // the photobooth command, that must be an error on write, not a fatal SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        console = try TerminalConsole(
            input: FileDescriptor(rawValue: inputPipe.fileHandleForReading.fileDescriptor),
            output: FileDescriptor(rawValue: outputPipe.fileHandleForWriting.fileDescriptor),
            patient: patient, reading: reading, logger: Logger(label: "test"))
        // The console keeps its own copies; the test's ends can go at any time.
        try inputPipe.fileHandleForReading.close()
        try outputPipe.fileHandleForWriting.close()
        input = inputPipe.fileHandleForWriting
        screen = outputPipe.fileHandleForReading
        console.start()
    }

    func type(_ bytes: [UInt8]) throws {
        try input.write(contentsOf: bytes)
    }

    func type(_ text: String) throws {
        try type(Array(text.utf8))
    }

    func endInput() throws {
        try input.close()
    }

    /// What was printed so far.
    func printed() async -> String {
        await console.flush()
        return String(decoding: screen.availableData, as: UTF8.self)
    }
}

/// What the booth says it waits for, having handled `keys` keys and `presses` presses.
private func waiting(
    for awaited: AwaitedInput, atRest: Bool = true, keys: Int = 0, presses: Int = 0
) -> InputReadiness {
    InputReadiness(awaited: awaited, atRest: atRest, keysHandled: keys, pressesHandled: presses)
}

/// The keys of `text` typed on a line, with its Enter.
private func line(_ text: String) -> [KeypadKey] {
    text.map { .character($0) } + [.enter]
}

@Suite("Terminal input, paced by the booth")
struct TerminalInputTests {
    @Test("Piped lines wait until the booth has handled the ones before and waits for keys, so none is lost")
    func patientLines() {
        var input = TerminalInput(reading: .keys, patient: true)
        for key in line("") + line("Alice") + line("") { #expect(input.received(key) == [], "the booth has said nothing yet") }
        #expect(input.follow(waiting(for: [.keys, .press])) == [.keys([.enter])])
        #expect(input.follow(waiting(for: [.keys, .press])) == [], "the Enter is not handled yet")
        #expect(input.follow(waiting(for: [], atRest: false, keys: 1)) == [], "the countdown, the shot: busy")
        #expect(input.follow(waiting(for: .keys, keys: 1)) == [.keys(line("Alice"))], "naming")
        #expect(input.follow(waiting(for: .keys, keys: 3)) == [], "the booth is still typing the name")
        #expect(input.follow(waiting(for: [], atRest: false, keys: 7)) == [], "saving")
        #expect(input.follow(waiting(for: [.keys, .press], keys: 7)) == [.keys([.enter])], "the saved screen")
        #expect(input.endOfInput() == [])
        #expect(input.follow(waiting(for: .keys, keys: 8)) == [.end], "input ended and the booth waits, at rest: the end")
        #expect(input.isEnded)
        #expect(input.follow(waiting(for: .keys, keys: 8)) == [], "the end is said once")
    }

    @Test("The end waits for the booth to be at rest and to have handled every key")
    func endWaitsForRest() {
        var input = TerminalInput(reading: .keys, patient: true)
        _ = input.received(.enter)
        #expect(input.endOfInput() == [])
        #expect(input.follow(waiting(for: [.keys, .press])) == [.keys([.enter])])
        #expect(input.follow(waiting(for: [], atRest: false, keys: 1)) == [], "counting down")
        #expect(input.follow(waiting(for: [], atRest: true, keys: 0)) == [], "not handled yet")
        #expect(input.follow(waiting(for: [], atRest: true, keys: 1)) == [.end], "a camera fault: at rest, waiting for nothing")
    }

    @Test("A last line without its Enter gets one when input ends")
    func lastLine() {
        var input = TerminalInput(reading: .keys, patient: true)
        _ = input.follow(waiting(for: .keys))
        #expect(input.received(.character("J")) == [] && input.received(.character("o")) == [])
        #expect(input.endOfInput() == [.keys(line("Jo"))])
    }

    @Test("As the button, each piped line is one press, which waits for a booth that waits for one")
    func presses() {
        var input = TerminalInput(reading: .presses, patient: true)
        for key in line("") + line("Alice") { _ = input.received(key) }
        #expect(input.follow(waiting(for: .keys)) == [], "naming, on the real keypad: no press is heard")
        #expect(input.follow(waiting(for: [.keys, .press], keys: 5)) == [.press], "the keypad's keys do not count")
        #expect(input.follow(waiting(for: [.keys, .press], keys: 5)) == [])
        #expect(input.follow(waiting(for: [.keys, .press], presses: 1)) == [.press], "the line's words do not matter")
    }

    @Test("A person's keys and presses go at once, whatever the booth waits for; the end still waits for rest")
    func interactive() {
        var keys = TerminalInput(reading: .keys, patient: false)
        #expect(keys.received(.character("v")) == [.keys([.character("v")])])
        #expect(keys.received(.enter) == [.keys([.enter])])
        #expect(keys.endOfInput() == [])
        #expect(keys.follow(waiting(for: [], atRest: true, keys: 2)) == [.end])
        var button = TerminalInput(reading: .presses, patient: false)
        #expect(button.received(.character("x")) == [])
        #expect(button.received(.enter) == [.press])
    }
}

@Suite("Terminal console", .timeLimit(.minutes(1)))
struct TerminalConsoleTests {
    @Test("Piped bytes arrive as raw keys, a line at a time as the booth waits: Escape, Delete and Backspace, arrows, CR and invalid UTF-8 dropped")
    func pipedKeys() async throws {
        let harness = try ConsoleHarness(patient: true)
        try harness.type(Array("Ab\u{7F}c\u{8}d\r\n".utf8) + [0x45, 0xFF, 0x76, 0x0A] + Array("Zed\u{1B}more\n\u{1B}[B\u{1B}OA\n".utf8))
        try harness.endInput()
        var keys = harness.console.keys.makeAsyncIterator()
        var received: [KeypadKey] = []
        var handled = 0
        for _ in 0..<4 {
            harness.console.follow(waiting(for: .keys, keys: handled))
            while let key = await keys.next() {
                received.append(key)
                handled += 1
                if key == .enter { break }
            }
        }
        let expected: [KeypadKey] =
            [.character("A"), .character("b"), .backspace, .character("c"), .backspace, .character("d"), .enter]
            + [.character("E"), .character("v"), .enter]
            + [.character("Z"), .character("e"), .character("d"), .escape] + "more".map { .character($0) } + [.enter]
            + [.down, .up, .enter]
        #expect(received == expected)
        harness.console.follow(waiting(for: .keys, keys: handled))
        #expect(await keys.next() == nil, "input has ended, and the booth is at rest")
    }

    @Test("Terminal input acts at once, like a real button, even while the booth is busy")
    func impatientPresses() async throws {
        let harness = try ConsoleHarness(patient: false, reading: .presses)
        var presses = harness.console.presses.makeAsyncIterator()
        harness.console.follow(waiting(for: [], atRest: false))
        try harness.type("\n")
        #expect(await presses.next() != nil)
        try harness.endInput()
        harness.console.follow(waiting(for: [.keys, .press], presses: 1))
        #expect(await presses.next() == nil)
    }

    @Test("What it is given is printed in order, byte for byte")
    func prints() async throws {
        let harness = try ConsoleHarness(patient: true, reading: nil)
        harness.console.write(Array("Press Enter to take a photo\n".utf8))
        harness.console.write(Array("3\n".utf8))
        #expect(await harness.printed() == "Press Enter to take a photo\n3\n")
        #expect(!harness.console.printsToTerminal && !harness.console.isInteractive, "pipes")
    }
}
