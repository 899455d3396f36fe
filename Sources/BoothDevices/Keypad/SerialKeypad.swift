import BoothCore
import BoothScreen
import BoothSystem
import Foundation
import Logging
import Synchronization
import SystemPackage

/// A keypad on a serial port (a USB-serial keypad, or one wired to the Pi's UART).
///
/// It reports the keys pressed; what they mean is the booth's decision. It is also a ``Screen``:
/// it echoes the prompts and the typed name back to the port for keypads with a character
/// display. A port that disappears is waited for and reopened.
public final class SerialKeypad: Keypad, Screen {
    /// Which port and how to read it.
    public struct Settings: Sendable, Hashable {
        public var device: String
        public var baud: Int
        /// Echo with ANSI codes (a terminal) instead of plain text (a character display).
        public var ansi: Bool

        /// The speeds a serial port can run at, in bits per second.
        public static var speeds: [Int] { SerialPort.speeds.keys.sorted() }

        public init(device: String = "/dev/photobooth/keypad", baud: Int = 9600, ansi: Bool = false) {
            self.device = device
            self.baud = baud
            self.ansi = ansi
        }
    }

    public let keys: AsyncStream<KeypadKey>
    private let port: Port
    private let echo: Mutex<KeypadEcho>
    private let thread: DedicatedThread

    /// Opens the port at once, so a wrong device or speed stops the booth before it starts.
    ///
    /// - Parameters:
    ///   - keys: what the keypad's keys are called, for the prompts it echoes.
    ///   - texts: the prompts' words, in the booth's language.
    ///   - photoOnScreen: whether the booth's screen shows the photo just taken, which the
    ///     naming prompt then says.
    public init(
        settings: Settings, keys: KeyLabels = .keyboard, texts: BoothTexts = .english, photoOnScreen: Bool = false, logger: Logger
    ) throws(DeviceError) {
        echo = Mutex(KeypadEcho(ansi: settings.ansi, keys: keys, photoOnScreen: photoOnScreen, texts: texts))
        let (keys, sink) = AsyncStream.makeStream(of: KeypadKey.self)
        self.keys = keys
        // A keypad that is not plugged in yet is waited for; one that cannot work (not a serial
        // port, a speed it lacks) stops the booth before it starts.
        var first: SerialPort?
        do {
            first = try SerialPort(path: settings.device, baud: settings.baud)
        } catch  where error == .disconnected {
            logger.error("Keypad: \(error) Waiting for it.")
        }
        let port = Port(settings: settings, logger: logger, open: first)
        self.port = port
        thread = .device(name: "keypad \(settings.device)", watching: settings.device, logger: logger) { wakeup, worked in
            try port.serve(until: wakeup, worked: &worked) { sink.yield($0) }
        }
    }

    deinit { thread.requestStop() }

    /// The keypad's own display, at the booth.
    public var audience: ScreenAudience { .guest }

    public func show(_ content: ScreenContent) {
        let text = echo.withLock { $0.text(for: content) }
        guard !text.isEmpty else { return }
        port.open.withLock { $0?.write(Array(text.utf8)) }
    }
}

/// What the keypad's reading thread and its echo share.
private final class Port: Sendable {
    let settings: SerialKeypad.Settings
    let logger: Logger
    /// The open port, nil while it is away.
    let open: Mutex<SerialPort?>

    init(settings: SerialKeypad.Settings, logger: Logger, open port: sending SerialPort?) {
        self.settings = settings
        self.logger = logger
        open = Mutex(port)
    }

    /// Reads the port until stopped; reopens it first if it went away.
    func serve(until wakeup: Wakeup, worked: inout Bool, deliver: (KeypadKey) -> Void) throws {
        let descriptor = try open.withLock { port throws(DeviceError) -> FileDescriptor in
            if port == nil { port = try SerialPort(path: settings.device, baud: settings.baud) }
            return port!.descriptor
        }
        worked = true
        logger.info("Keypad \(settings.device) is listening (\(settings.baud) baud).")
        var decoder = KeypadDecoder()
        let clock = MonotonicClock()
        do {
            while true {
                let deadline = decoder.deadline ?? clock.now + .seconds(60)
                switch try wakeup.wait(for: descriptor, until: deadline, device: settings.device) {
                case .woken:
                    return
                case .timedOut:
                    decoder.expire(at: clock.now).forEach(deliver)
                case .ready:
                    let bytes = try open.withLock { port throws(DeviceError) in try port?.read() ?? [] }
                    let now = clock.now
                    // An Escape whose deadline passed while the thread was busy stands alone.
                    decoder.expire(at: now).forEach(deliver)
                    let garbageBefore = decoder.garbage
                    for byte in bytes { decoder.feed(byte, at: now).forEach(deliver) }
                    if decoder.garbage > garbageBefore {
                        logger.warning(
                            "Keypad \(settings.device) sent \(decoder.garbage - garbageBefore) bytes that are no key; ignored (\(decoder.garbage) so far)."
                        )
                    }
                }
            }
        } catch {
            open.withLock { $0 = nil }
            throw error
        }
    }
}

extension SerialKeypad {
    /// Opens the port at the configured speed and closes it (for `photobooth doctor`).
    public static func check(_ settings: Settings) throws(DeviceError) {
        _ = try SerialPort(path: settings.device, baud: settings.baud)
    }
}
