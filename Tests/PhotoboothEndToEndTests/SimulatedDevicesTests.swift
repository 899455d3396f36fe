import CPseudoTerminal
import Foundation
import StoreFixture
import Testing

/// A pseudo-terminal for a keypad: the booth opens its device (`path`) as a serial port, the test
/// types on the other side and reads what the booth echoes to the keypad's display.
private final class PseudoTerminal: Sendable {
    let path: String
    let echo = OutputCollector()
    private let controller: Int32

    init() throws {
        var name = [CChar](repeating: 0, count: 128)
        controller = cpseudoterminal_open(&name, name.count)
        guard controller >= 0 else {
            throw BoothProcess.SpawnError(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { close(controller) }

    /// Reads the booth's echo from now on, on a thread of its own, until the booth closes its side.
    func listen() {
        Thread { [controller, echo] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                echo.append(Data(chunk[0..<count]))
            }
            echo.append(Data())
        }.start()
    }

    /// Sends `bytes` as if typed on the keypad.
    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }
}

@Suite("--simulate with real devices", .fullLane, .timeLimit(.minutes(2)))
struct SimulatedDevicesTests {
    @Test("--keypad is used for real beside the simulated camera: names typed on it, its display echoed, garbage ignored")
    func realKeypad() async throws {
        let directory = DataDirectory()
        let keypad = try PseudoTerminal()
        let booth = try BoothProcess(["run", "--simulate", "--countdown", "0", "--no-http", "--keypad", keypad.path, "--data-dir", directory.path])
        #expect(await booth.stderr.wait { $0.contains("Keypad \(keypad.path) is listening") }, "\(booth.stderr.text)")
        keypad.listen()
        // Garbage first: bytes that are not UTF-8, a stray escape sequence, control characters.
        keypad.type([0xFF, 0xFE, 0x1B, 0x5B, 0x5A, 0x00, 0x07])
        // The terminal is the button; the keypad names the photo.
        try booth.type("\n")
        #expect(await booth.stdout.wait { $0.contains("Name your photo:") })
        keypad.type(Array("Zo\u{EB}\r".utf8))
        #expect(await booth.stdout.wait { $0.contains("Saved as Zo\u{EB}") }, "\(booth.stdout.text)")
        #expect(await keypad.echo.wait { $0.contains("Saved as Zo\u{EB}") }, "the keypad's display: \(keypad.echo.text)")
        booth.terminate()
        let result = await booth.finished()
        #expect(result.status == 0 && !result.signaled, "\(result.stderr)")
        #expect(try await listed(directory).map(\.caption) == ["Zo\u{EB}"])
    }

    @Test("A device's setting without the device is refused with --simulate; the camera's size and rate go to the simulated camera")
    func settingsWithoutTheirDevice() async throws {
        for (option, value, device) in [
            ("--keypad-baud", "19200", "--keypad"), ("--debounce-ms", "20", "--shutter-line"),
            ("--camera-format", "yuyv", "--camera"), ("--preview-fps", "10", "--screen"),
        ] {
            let result = try await BoothProcess.run(["run", "--simulate", option, value, "--data-dir", DataDirectory().path])
            #expect(result.status == 2, "\(option)")
            #expect(
                result.stderr.contains("\(option) sets up a real device") && result.stderr.contains("name the device with \(device)"),
                "\(result.stderr)")
        }
        let small = try await BoothProcess.run(
            [
                "run", "--simulate", "--no-http", "--countdown", "0", "--camera-size", "320x240", "--camera-fps", "10", "--data-dir",
                DataDirectory().path,
            ],
            input: "\nTiny\n")
        #expect(small.stderr.contains("simulated camera (320x240 MJPEG, 10 fps) delivers frames"))
        #expect(small.stderr.contains(#""Photo 1" 320x240"#), "the photo has the simulated camera's size: \(small.stderr)")
    }
}
