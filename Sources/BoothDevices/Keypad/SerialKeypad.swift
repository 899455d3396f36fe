import BoothCore
import BoothSystem
import Foundation
import Logging
import Synchronization
import SystemPackage

/// A keypad on a serial port (a USB-serial keypad, or one wired to the Pi's UART).
///
/// It reports the keys pressed; what they mean is the booth's decision. It also carries bytes
/// back to the port (a ``ByteSink``), for keypads with a character display: what they say
/// (the prompts, the name being typed) is the booth's text screen's business. A port that
/// disappears is waited for and reopened.
public final class SerialKeypad: Keypad, ByteSink {
    /// Which port and how to read it.
    public struct Settings: Sendable, Hashable {
        public var device: String
        public var baud: Int
        /// Whether the other end of the line is a terminal, which the booth's text for it
        /// redraws with ANSI codes, rather than a character display (plain text in ASCII).
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
    private let thread: DedicatedThread

    /// Opens the port at once, so a wrong device or speed stops the booth before it starts.
    public init(settings: Settings, logger: Logger) throws(DeviceError) {
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

    /// Writes `bytes` to the port, for its display; while the port is away they are lost, as a
    /// display that is not there shows nothing.
    package func write(_ bytes: [UInt8]) {
        port.open.withLock { $0?.write(bytes) }
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
    package static func check(_ settings: Settings) throws(DeviceError) {
        _ = try SerialPort(path: settings.device, baud: settings.baud)
    }
}
