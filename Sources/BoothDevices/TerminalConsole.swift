import BoothCore
import BoothSystem
import Foundation
import Logging
import Synchronization
import SystemPackage

/// The terminal of the simulated booth: a keyboard (or the shutter button) on standard input,
/// and a device that prints the bytes it is given on standard output.
///
/// What it reads is raw: as a keyboard it sends the keys typed (characters, Enter, Escape,
/// Backspace, the arrows from their escape sequences) and the booth gives them their meaning
/// (``KeyBindings/terminal(pressesShutter:)``: a terminal sends a line once Enter is pressed,
/// so a line is one command); as the button alone (the keypad is real) every line is a press.
/// What it prints is the booth's business (BoothScreen's text screens).
///
/// Input from a terminal acts at once, like a real keyboard and button: the booth ignores what
/// it cannot use. Input from a pipe is *patient*: it is paced by the booth (``follow(_:)``), a
/// line at a time, each once the booth has handled the one before and waits for input of its
/// kind (see ``BoothMachine/awaitedInput``), so that a scripted session never loses a line to a
/// busy moment, a question to the library, or the camera's absence. When input ends, the key and
/// press streams end once the booth has handled every line and is at rest (a screen that waits
/// for a guest, or a fault), and the booth finishes and stops.
package final class TerminalConsole: ShutterButton, Keypad, ByteSink {
    /// What the terminal's lines are.
    package enum Reading: Sendable {
        /// A keyboard's keys: the booth's key bindings say what they mean, pressing the shutter
        /// included when the terminal is the button too.
        case keys
        /// The shutter button's presses, one a line: the keypad is real.
        case presses
    }

    package let presses: AsyncStream<MonotonicInstant>
    public let keys: AsyncStream<KeypadKey>
    /// Whether input is a person at a terminal (it acts at once), rather than a pipe (patient).
    package let isInteractive: Bool
    /// Whether output is a terminal, where the guest at the booth reads it, rather than a file
    /// or the journal.
    package let printsToTerminal: Bool

    private let pressSink: AsyncStream<MonotonicInstant>.Continuation
    private let keySink: AsyncStream<KeypadKey>.Continuation
    /// Duplicates of the descriptors given at creation, owned by the console, so that input is
    /// never read from (nor output written to) a descriptor number that was closed and reused.
    /// The reader thread closes `input` when input ends; `deinit` closes `output` after the
    /// last write, since pending writes keep the console alive.
    private let input: FileDescriptor
    private let output: FileDescriptor
    private let logger: Logger
    /// Writes to the terminal happen here, in order, off the caller's thread.
    private let printer = SerialWorker(name: "terminal screen")
    /// Whether the console reads input at all: a terminal that only prints does not.
    private let reads: Bool
    /// What the input becomes for the booth.
    private let reader: Mutex<TerminalInput>

    /// A console reading `input` and printing to `output`. The caller keeps its descriptors; the
    /// console works on duplicates of them.
    ///
    /// - Parameters:
    ///   - patient: whether lines wait for the booth; by default, when `input` is not a
    ///     terminal.
    ///   - reading: what the lines are; `nil` for a terminal that only prints (every part of
    ///     the booth but the camera is real).
    package init(
        input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput, patient: Bool? = nil, reading: Reading?,
        logger: Logger
    ) throws(DeviceError) {
        self.input = try Self.duplicate(input, name: "standard input")
        do {
            self.output = try Self.duplicate(output, name: "standard output")
        } catch {
            try? self.input.close()
            throw error
        }
        let patient = patient ?? (isatty(input.rawValue) == 0)
        isInteractive = !patient
        printsToTerminal = isatty(output.rawValue) != 0
        reads = reading != nil
        reader = Mutex(TerminalInput(reading: reading ?? .keys, patient: patient))
        self.logger = logger
        (presses, pressSink) = AsyncStream.makeStream(of: MonotonicInstant.self)
        (keys, keySink) = AsyncStream.makeStream(of: KeypadKey.self)
    }

    deinit {
        try? output.close()
    }

    /// The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)`.
    private static func duplicate(_ descriptor: FileDescriptor, name: String) throws(DeviceError) -> FileDescriptor {
        do {
            return FileDescriptor(rawValue: try SystemCall.retrying { fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0) })
        } catch {
            throw DeviceError.systemCall("fcntl(F_DUPFD_CLOEXEC)", on: name, errno: error)
        }
    }

    /// Starts reading input on a thread of its own (reads block); a console that only prints
    /// reads nothing.
    package func start() {
        guard reads else { return }
        // Reads block until input ends: the thread ends then, never before.
        _ = DedicatedThread(name: "terminal input") { [self] _ in readInput() }
    }

    /// Prints `bytes` after everything printed before, off the caller's thread.
    package func write(_ bytes: [UInt8]) {
        // A terminal that cannot take the bytes loses them; the booth never waits for one.
        printer.submit { [self] in _ = try? output.writeAll(bytes) }
    }

    /// Returns once everything written so far is on the terminal.
    package func flush() async {
        await printer.drain()
    }

    /// Paces patient input by what the booth waits for, which the booth says after every event
    /// it handled: the next line goes to the booth once it has handled the lines before and
    /// waits for one (see ``TerminalInput``).
    package func follow(_ readiness: InputReadiness) {
        update { $0.follow(readiness) }
    }

    // MARK: Input

    /// Reads input to its end, as keys.
    private func readInput() {
        defer { try? input.close() }
        // The decoder's time only ends an Escape that nothing follows: a terminal sends a whole
        // line at once, and a pipe the rest of the sequence in its next read.
        let never = MonotonicInstant(nanoseconds: 0)
        var decoder = KeypadDecoder()
        var chunk = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            } catch {
                logger.error("Cannot read the terminal: \(error). Input ends here.")
                break reading
            }
            guard count > 0 else { break reading }
            let garbage = decoder.garbage
            for byte in chunk[0..<count] {
                for key in decoder.feed(byte, at: never) { update { $0.received(key) } }
            }
            if decoder.garbage > garbage {
                logger.warning("Input had \(decoder.garbage - garbage) bytes that are no key (not UTF-8, or control characters); they were dropped.")
            }
        }
        for key in decoder.expire(at: never + .seconds(1)) { update { $0.received(key) } }
        update { $0.endOfInput() }
    }

    /// Changes what the input is as `change` says, and hands the booth what it answers.
    private func update(_ change: (inout TerminalInput) -> [TerminalInput.Output]) {
        reader.withLock { reader in
            // Under the lock, so that the booth gets the keys in the order they were read.
            for output in change(&reader) {
                switch output {
                case .keys(let keys): for key in keys { keySink.yield(key) }
                case .press: pressSink.yield(MonotonicClock().now)
                case .end:
                    keySink.finish()
                    pressSink.finish()
                }
            }
        }
    }
}
