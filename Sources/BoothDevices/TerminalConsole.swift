import BoothCore
import Foundation
import Logging
import Synchronization

/// The terminal as the simulated booth's shutter button, keypad and screen.
///
/// Enter on the main or saved screen presses the shutter; while a name is asked for, the typed
/// line is the name (Escape in it cancels, Backspace/Delete erase). The screen is printed as
/// short lines ("3", "2", "1", "Name your photo:", "Saved as Alice").
///
/// Input from a terminal acts at once, like a real button: a press during the countdown is
/// ignored by the booth. Input from a pipe is *patient*: each line waits until the booth waits
/// for one (main screen, naming, saved screen), so a scripted session never loses a line to a
/// busy moment. When input ends, the key and press streams end once the booth is at rest (a
/// screen that waits for a guest, or a fault), and the booth finishes and stops.
public final class TerminalConsole: ShutterButton, Keypad, Screen {
    public let presses: AsyncStream<MonotonicInstant>
    public let keys: AsyncStream<KeypadKey>

    private let pressSink: AsyncStream<MonotonicInstant>.Continuation
    private let keySink: AsyncStream<KeypadKey>.Continuation
    /// Duplicates of the descriptors given at creation, owned by the console, so that input is
    /// never read from (nor output written to) a descriptor number that was closed and reused.
    /// The reader thread closes `input` when input ends; `deinit` closes `output` after the
    /// last write, since pending writes keep the console alive.
    private let input: Int32
    private let output: Int32
    private let patient: Bool
    private let logger: Logger
    /// Writes to the terminal happen here, in order, off the caller's thread.
    private let printer = DispatchQueue(label: "photobooth.terminal-screen")
    private let state = Mutex(State())

    private struct State {
        /// Lines read but not yet taken (patient input only).
        var pending: [String] = []
        /// What the screen is waiting for, `nil` while the booth is busy.
        var prompt: Prompt?
        /// The booth waits and no line has been taken since it started waiting.
        var armed = false
        /// The booth is between cycles (waiting for a guest, or in a fault): input may end here.
        var atRest = false
        var inputEnded = false
        var streamsEnded = false
        /// The last line printed, so that only changes are printed.
        var lastPrinted: String?
    }

    private enum Prompt {
        case shutter, name
    }

    /// A console reading `input` and printing to `output`. The caller keeps its descriptors; the
    /// console works on duplicates of them.
    ///
    /// - Parameter patient: whether lines wait for the booth; by default, when `input` is not
    ///   a terminal.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, patient: Bool? = nil, logger: Logger) throws(DeviceError) {
        self.input = try Self.duplicate(input, name: "standard input")
        do {
            self.output = try Self.duplicate(output, name: "standard output")
        } catch {
            close(self.input)
            throw error
        }
        self.patient = patient ?? (isatty(input) == 0)
        self.logger = logger
        (presses, pressSink) = AsyncStream.makeStream(of: MonotonicInstant.self)
        (keys, keySink) = AsyncStream.makeStream(of: KeypadKey.self)
    }

    deinit {
        close(output)
    }

    /// The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)`.
    private static func duplicate(_ descriptor: Int32, name: String) throws(DeviceError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            let code = errno
            throw DeviceError.systemCall("fcntl(F_DUPFD_CLOEXEC)", on: name, errno: code)
        }
        return copy
    }

    /// Starts reading input on a thread of its own (reads block).
    public func start() {
        if !patient {
            write("Simulated booth: Enter takes a photo; type a name and Enter to name it (Esc, Enter keeps the default); Ctrl-D stops.")
        }
        let thread = Thread { [self] in readLines() }
        thread.name = "terminal input"
        thread.start()
    }

    public func show(_ content: ScreenContent) {
        state.withLock { state in
            let prompt = Self.prompt(for: content)
            if prompt != state.prompt {
                state.prompt = prompt
                state.armed = prompt != nil
            }
            state.atRest = Self.isAtRest(content)
            let line = Self.line(for: content)
            if line != state.lastPrinted {
                state.lastPrinted = line
                write(line)
            }
            takeLine(&state)
        }
    }

    /// Returns once everything shown so far is written to the terminal.
    public func flush() async {
        await withCheckedContinuation { continuation in printer.async { continuation.resume() } }
    }

    // MARK: Input

    private func readLines() {
        defer { close(input) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            switch count {
            case 0:
                break reading
            case ..<0:
                if errno == EINTR { continue }
                logger.error("Cannot read the terminal: \(String(cString: strerror(errno))). Input ends here.")
                break reading
            default:
                buffer += chunk[0..<count]
                while let newline = buffer.firstIndex(of: 0x0A) {
                    received(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                }
            }
        }
        if !buffer.isEmpty { received(buffer[...]) }
        state.withLock { state in
            state.inputEnded = true
            takeLine(&state)
        }
    }

    private func received(_ bytes: ArraySlice<UInt8>) {
        var line = String(droppingInvalidUTF8: bytes)
        if line.utf8.count != bytes.count {
            logger.warning("Input line had bytes that are not UTF-8; they were dropped.")
        }
        if line.hasSuffix("\r") { line.removeLast() }
        state.withLock { state in
            if patient {
                state.pending.append(line)
                takeLine(&state)
            } else {
                // Like a real button and keypad: act now; the booth ignores what it cannot use.
                deliver(line, to: state.prompt ?? .shutter)
            }
        }
    }

    /// Hands the next pending line to the booth if it waits for one; once every line is taken
    /// and input has ended, ends the streams when the booth is at rest.
    private func takeLine(_ state: inout State) {
        if state.armed, let prompt = state.prompt, !state.pending.isEmpty {
            state.armed = false
            deliver(state.pending.removeFirst(), to: prompt)
        } else if state.inputEnded, state.pending.isEmpty, state.atRest, !state.streamsEnded {
            state.streamsEnded = true
            keySink.finish()
            pressSink.finish()
        }
    }

    private func deliver(_ line: String, to prompt: Prompt) {
        switch prompt {
        case .shutter:
            pressSink.yield(MonotonicClock().now)
        case .name:
            for character in line {
                switch character {
                case "\u{1B}":
                    keySink.yield(.cancel)
                    return
                case "\u{7F}", "\u{08}":
                    keySink.yield(.backspace)
                default:
                    keySink.yield(.character(character))
                }
            }
            keySink.yield(.enter)
        }
    }

    // MARK: Screen

    private static func prompt(for content: ScreenContent) -> Prompt? {
        switch content {
        case .ready, .saved: .shutter
        case .naming: .name
        case .starting, .countdown, .smile, .saving, .fault: nil
        }
    }

    private static func isAtRest(_ content: ScreenContent) -> Bool {
        switch content {
        case .ready, .naming, .saved, .fault: true
        case .starting, .countdown, .smile, .saving: false
        }
    }

    private static func line(for content: ScreenContent) -> String {
        switch content {
        case .starting: "Starting the camera..."
        case .ready: "Ready. Press Enter to take a photo."
        case .countdown(let secondsLeft): "\(secondsLeft)"
        case .smile: "Smile!"
        case .naming: "Name your photo:"
        case .saving: "Saving..."
        case .saved(let caption, _): "Saved as \(caption)"
        case .fault(let fault): fault.message
        }
    }

    private func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        printer.async { [self] in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
