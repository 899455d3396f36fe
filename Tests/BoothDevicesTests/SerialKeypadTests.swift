import BoothCore
import BoothSystem
import CPseudoTerminal
import Foundation
import Logging
import Testing

@testable import BoothDevices

/// A pseudo-terminal: the keypad opens its device end like a serial port, the test types on the
/// other end and reads what the keypad echoes.
final class PseudoTerminal {
    let controller: Int32
    let devicePath: String

    init() throws {
        var path = [CChar](repeating: 0, count: 128)
        controller = cpseudoterminal_open(&path, path.count)
        guard controller >= 0 else {
            throw DeviceError.unavailable.detailed("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        devicePath = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { close(controller) }

    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// Reads what the keypad wrote until `expected` has arrived (or 10 s passed).
    func read(until expected: String) -> String {
        var received = [UInt8]()
        let deadline = MonotonicClock().now + .seconds(10)
        while MonotonicClock().now < deadline, !String(decoding: received, as: UTF8.self).contains(expected) {
            var probe = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&probe, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = Glibc.read(controller, &buffer, buffer.count)
            if count > 0 { received += buffer.prefix(count) }
        }
        return String(decoding: received, as: UTF8.self)
    }
}

@Suite("Serial keypad on a pseudo-terminal", .timeLimit(.minutes(1)))
struct SerialKeypadTests {
    @Test("Typed bytes arrive as keys, garbage is skipped, and the bytes written reach the port's display")
    func typingAndWriting() async throws {
        let terminal = try PseudoTerminal()
        let keypad = try SerialKeypad(
            settings: .init(device: terminal.devicePath, baud: 9600), logger: Logger(label: "test"))
        keypad.write(Array("\r\nName your photo\r\nName: ".utf8))
        #expect(terminal.read(until: "Name: ").contains("Name your photo"))
        terminal.type([0x00, 0xFF] + Array("Jo\r".utf8))
        var keys: [KeypadKey] = []
        for await key in keypad.keys {
            keys.append(key)
            if key == .enter { break }
        }
        #expect(keys == [.character("J"), .character("o"), .enter])
        keypad.write(Array("\rName: Jo".utf8))
        #expect(terminal.read(until: "Name: Jo").contains("Name: Jo"))
    }

    @Test("A keypad that goes away is waited for, and works again when it is back")
    func reconnects() async throws {
        // The keypad is opened through a symlink, as udev names it (/dev/photobooth/keypad);
        // the pseudo-terminal behind it is closed and a new one takes its place.
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("keypad-\(UUID())").path
        defer { unlink(link) }
        var terminal = try PseudoTerminal()
        #expect(symlink(terminal.devicePath, link) == 0)
        let keypad = try SerialKeypad(settings: .init(device: link), logger: Logger(label: "test"))
        var keys = keypad.keys.makeAsyncIterator()
        terminal.type(Array("a".utf8))
        #expect(await keys.next() == .character("a"))

        terminal = try PseudoTerminal()  // the old one is closed: the keypad's port hangs up
        unlink(link)
        #expect(symlink(terminal.devicePath, link) == 0)
        // Until the keypad has reopened the port, what is typed there is not read; keep typing
        // until a key comes through (the keypad retries after 0.5 s, then 1 s).
        let typist = Task {
            while !Task.isCancelled {
                terminal.type(Array("b".utf8))
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { typist.cancel() }
        #expect(await keys.next() == .character("b"))
    }

    @Test("A keypad that is not there yet is waited for instead of stopping the booth")
    func missingAtStart() throws {
        let keypad = try SerialKeypad(
            settings: .init(device: "/dev/photobooth-test-no-such-keypad"), logger: Logger(label: "test"))
        keypad.write(Array("Press the button".utf8))  // no port: the bytes go nowhere, and nothing crashes
    }

    @Test("A device that is not a serial port stops the booth with a message naming it")
    func notATerminal() {
        #expect {
            try SerialKeypad(settings: .init(device: "/dev/null"), logger: Logger(label: "test"))
        } throws: { error in
            "\(error)".contains("/dev/null") && "\(error)".contains("serial port")
        }
    }
}
