import BoothCore
import BoothImaging
import BoothScreen
import BoothSystem
import Foundation
import Logging
import Synchronization
import SystemPackage

/// The terminal as the simulated booth's shutter button, keypad and screen.
///
/// Enter on the main or saved screen presses the shutter and `v` opens the gallery; while a
/// name is asked for, the typed line is the name (Escape in it cancels, Backspace/Delete
/// erase). In the gallery each line holds keys: `u` or the up arrow moves up, `d` or the down
/// arrow moves down, an empty line (Enter) opens the selected photo and closes it again, `b`
/// or Escape goes back (or ends a search), a line `/` and the start of a name jumps to the
/// newest photo whose name starts so, and a line `p` presses the shutter. The screen is printed as short
/// lines ("3", "2", "1", "Name your photo:", "Saved as Alice"), the gallery as a numbered page
/// with the selected photo marked, and a full-screen photo as its name, time and file.
///
/// Input from a terminal acts at once, like a real button: a press during the countdown is
/// ignored by the booth. Input from a pipe is *patient*: each line waits until the booth waits
/// for one (main screen, naming, saved screen, gallery, a storage fault), so a scripted session
/// never loses a line to a busy moment or to the camera's absence; in the gallery, a line waits
/// until the screens of the keys before it are shown (each gallery key shows exactly one, see
/// ``BoothMachine``), and on a storage fault until the booth has answered the line before (it
/// answers a press by showing the fault again). When input ends, the key and
/// press streams end once the booth is at rest (a screen that waits for a guest, or a fault),
/// and the booth finishes and stops.
public final class TerminalConsole: ShutterButton, Keypad, Screen {
    /// What the terminal's lines stand for besides the screen, which it always prints: the
    /// shutter button, the keypad, or both. A simulated booth with a real keypad (or button)
    /// leaves that part to the device.
    public struct Roles: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A line presses the shutter.
        public static let button = Roles(rawValue: 1)
        /// Lines type names, open the gallery and move in it.
        public static let keypad = Roles(rawValue: 2)
    }

    /// The key that opens the gallery from the main screen, a line of its own, which the screen
    /// names (the booth's ``KeyBindings`` must say so).
    public static let viewKey: Character = "v"
    /// What the terminal's keys are called in `texts`' language, for the screens' hints: each
    /// is a line of its own.
    public static func keyLabels(in texts: BoothTexts = .english) -> KeyLabels {
        KeyLabels(
            view: String(viewKey), up: "u", down: "d", open: texts(.keyEnter), back: "b", confirm: texts(.keyEnter),
            cancel: texts(.keyEscape), erase: texts(.keyBackspace), find: String(findLinePrefix), endFind: "b")
    }

    /// The line that presses the shutter in the gallery (elsewhere, any line does).
    static let galleryShutterLine = "p"
    /// What starts a gallery line whose rest is the start of a name to find.
    static let findLinePrefix: Character = "/"
    /// The words the terminal prints.
    private let texts: BoothTexts
    /// What the terminal's keys are called, in the words it prints.
    private let keyLabels: KeyLabels

    public let presses: AsyncStream<MonotonicInstant>
    public let keys: AsyncStream<KeypadKey>

    private let pressSink: AsyncStream<MonotonicInstant>.Continuation
    private let keySink: AsyncStream<KeypadKey>.Continuation
    /// Duplicates of the descriptors given at creation, owned by the console, so that input is
    /// never read from (nor output written to) a descriptor number that was closed and reused.
    /// The reader thread closes `input` when input ends; `deinit` closes `output` after the
    /// last write, since pending writes keep the console alive.
    private let input: FileDescriptor
    private let output: FileDescriptor
    private let patient: Bool
    private let roles: Roles
    /// Whether a photo page's link is also drawn as a QR code.
    private let drawsQRCodes: Bool
    /// Who reads the lines: the saved screen's link carries the guest's key only for the guest.
    public let audience: ScreenAudience
    /// Whether a screen shows the photo just taken.
    private let photoOnScreen: Bool
    private let logger: Logger
    /// Writes to the terminal happen here, in order, off the caller's thread.
    private let printer = SerialWorker(name: "terminal screen")
    private let state = Mutex(State())

    private struct State {
        /// Lines read but not yet taken (patient input only).
        var pending: [String] = []
        /// What the screen is waiting for, `nil` while the booth is busy.
        var prompt: Prompt?
        /// The booth waits and no line has been taken since it started waiting.
        var armed = false
        /// Screens still to come for the gallery keys of the last line taken (patient input).
        var unansweredKeys = 0
        /// The booth is between cycles (waiting for a guest, or in a fault): input may end here.
        var atRest = false
        var inputEnded = false
        var streamsEnded = false
        /// The last line printed, so that only changes are printed.
        var lastPrinted: String?
    }

    private enum Prompt {
        case shutter, name, gallery
        /// A storage fault: a line is a press (or the view key), which the booth answers by
        /// showing the fault again, so a script goes on through a fault that lasts until someone
        /// frees the disk. Lines wait through the others, which pass by themselves (the camera
        /// returns, a missed shot is retried).
        case fault
    }

    /// A console reading `input` and printing to `output`. The caller keeps its descriptors; the
    /// console works on duplicates of them.
    ///
    /// - Parameters:
    ///   - patient: whether lines wait for the booth; by default, when `input` is not a
    ///     terminal.
    ///   - drawsQRCodes: whether the saved screen draws its link as a QR code in half-block
    ///     characters; by default, when `output` is a terminal.
    ///   - audience: who reads what it prints, which decides whether the saved screen's link
    ///     carries the guest's deletion key; by default the guest when `output` is a terminal (the
    ///     simulated booth's screen), and anyone otherwise (a file, the journal).
    ///   - roles: what the lines stand for; both the button and the keypad by default.
    ///   - texts: the words it prints, in the booth's language.
    ///   - photoOnScreen: whether a screen shows the photo just taken (the framebuffer, the
    ///     web's mirror of the screen), which the naming prompt then says.
    public init(
        input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput, patient: Bool? = nil,
        drawsQRCodes: Bool? = nil, audience: ScreenAudience? = nil,
        roles: Roles = [.button, .keypad], texts: BoothTexts = .english, photoOnScreen: Bool = false, logger: Logger
    ) throws(DeviceError) {
        self.input = try Self.duplicate(input, name: "standard input")
        do {
            self.output = try Self.duplicate(output, name: "standard output")
        } catch {
            try? self.input.close()
            throw error
        }
        self.patient = patient ?? (isatty(input.rawValue) == 0)
        self.drawsQRCodes = drawsQRCodes ?? (isatty(output.rawValue) != 0)
        self.audience = audience ?? (isatty(output.rawValue) != 0 ? .guest : .anyone)
        self.roles = roles
        self.texts = texts
        self.keyLabels = Self.keyLabels(in: texts)
        self.photoOnScreen = photoOnScreen
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

    /// Starts reading input on a thread of its own (reads block); a console that is neither
    /// button nor keypad reads nothing.
    public func start() {
        guard !roles.isEmpty else { return }
        if !patient {
            switch roles {
            case [.button, .keypad]: write(texts(.consoleHelp))
            case .button: write(texts(.consoleHelpButton))
            default: write(texts(.consoleHelpKeypad))
            }
        }
        // Reads block until input ends: the thread ends then, never before.
        _ = DedicatedThread(name: "terminal input") { [self] _ in readLines() }
    }

    public func show(_ content: ScreenContent) {
        state.withLock { state in
            let prompt = prompt(for: content)
            if prompt != state.prompt {
                state.prompt = prompt
                state.armed = prompt != nil
                state.unansweredKeys = 0
            } else if prompt == .gallery, state.unansweredKeys > 0 {
                state.unansweredKeys -= 1
                state.armed = state.unansweredKeys == 0
            } else if prompt == .fault {
                state.armed = true
            }
            state.atRest = Self.isAtRest(content)
            let text = lines(for: content)
            // A fault shown again answers a press: it is printed again, or the press would seem lost.
            if text != state.lastPrinted || Self.isFault(content) {
                state.lastPrinted = text
                write(text)
            }
            takeLine(&state)
        }
    }

    /// Returns once everything shown so far is written to the terminal.
    public func flush() async {
        await printer.drain()
    }

    // MARK: Input

    private func readLines() {
        defer { try? input.close() }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            } catch {
                logger.error("Cannot read the terminal: \(error). Input ends here.")
                break reading
            }
            switch count {
            case 0:
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
            var screens = 0
            // A gallery line without a key the gallery knows changes nothing: take the next.
            while screens == 0, !state.pending.isEmpty {
                screens = deliver(state.pending.removeFirst(), to: prompt)
            }
            state.armed = screens == 0
            state.unansweredKeys = prompt == .gallery ? screens : 0
        } else if state.inputEnded, state.pending.isEmpty, state.atRest, !state.streamsEnded {
            state.streamsEnded = true
            keySink.finish()
            pressSink.finish()
        }
    }

    /// Hands `line` to the booth as what it means at `prompt`; returns how many screens the
    /// booth shows in answer (at least one, except for a gallery line without a key it knows).
    @discardableResult
    private func deliver(_ line: String, to prompt: Prompt) -> Int {
        switch prompt {
        case .shutter, .fault:
            if roles.contains(.keypad) && line.lowercased() == String(Self.viewKey) {
                keySink.yield(.character(Self.viewKey))
            } else if roles.contains(.button) {
                pressSink.yield(MonotonicClock().now)
            } else {
                logger.info(
                    "\(line.debugDescription) means nothing here: the button is real, and the terminal types names and opens the gallery (v).")
                return 0
            }
            return 1
        case .name:
            for character in line {
                switch character {
                case "\u{1B}":
                    keySink.yield(.escape)
                    return 1
                case "\u{7F}", "\u{08}":
                    keySink.yield(.backspace)
                default:
                    keySink.yield(.character(character))
                }
            }
            keySink.yield(.enter)
            return 1
        case .gallery:
            // The button and the keys are separate streams that the booth may take in any
            // order, so the button is a line of its own.
            if line.lowercased() == Self.galleryShutterLine && roles.contains(.button) {
                pressSink.yield(MonotonicClock().now)
                return 1
            }
            let keys = Self.galleryKeys(in: line)
            if keys.isEmpty { logger.info("\(line.debugDescription) means nothing in the gallery: u, d, b, p, /name or an empty line.") }
            for key in keys { keySink.yield(key) }
            return keys.count
        }
    }

    /// The gallery keys a line holds: an empty line is Enter; `u`, `d` and the arrow keys' escape
    /// sequences move; `b` and a lone Escape go back. Anything else is ignored. A line that
    /// starts with `/` types the rest (Backspace and Delete erase), which finds a name.
    static func galleryKeys(in line: String) -> [KeypadKey] {
        guard !line.isEmpty else { return [.enter] }
        if line.first == findLinePrefix {
            return line.dropFirst().map { $0 == "\u{7F}" || $0 == "\u{08}" ? .backspace : .character($0) }
        }
        var keys: [KeypadKey] = []
        var scalars = line.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "u", "U": keys.append(.up)
            case "d", "D": keys.append(.down)
            case "b", "B": keys.append(.escape)
            case "\u{1B}":
                // ESC [ A and ESC O A are the up arrow, B the down arrow; a lone Escape is Back.
                let sequence = Array(scalars.prefix(2))
                if sequence.count == 2, sequence[0] == "[" || sequence[0] == "O", sequence[1] == "A" || sequence[1] == "B" {
                    keys.append(sequence[1] == "A" ? .up : .down)
                    scalars = scalars.dropFirst(2)
                } else {
                    keys.append(.escape)
                }
            default:
                break
            }
        }
        return keys
    }

    // MARK: Screen

    /// What a line means on `content`'s screen, for this console's roles; `nil` when lines wait.
    private func prompt(for content: ScreenContent) -> Prompt? {
        switch content {
        case .ready, .saved, .attract: .shutter
        case .naming: roles.contains(.keypad) ? .name : nil
        // Without the keypad's role, only the button works in the gallery.
        case .gallery, .photo: roles.contains(.keypad) ? .gallery : .shutter
        case .fault(let fault): fault.isStorage ? .fault : nil
        case .starting, .countdown, .smile, .saving: nil
        }
    }

    private static func isFault(_ content: ScreenContent) -> Bool {
        if case .fault = content { true } else { false }
    }

    private static func isAtRest(_ content: ScreenContent) -> Bool {
        switch content {
        case .ready, .naming, .saved, .fault, .gallery, .photo, .attract: true
        case .starting, .countdown, .smile, .saving: false
        }
    }

    /// What the terminal prints for `content`: one line, or a few for the main screen, the
    /// gallery's page and a QR code.
    private func lines(for content: ScreenContent) -> String {
        switch content {
        case .starting: texts(.starting)
        // The slideshow is the main screen to a terminal: its lines, printed once.
        case .ready, .attract: readyLines()
        case .countdown(let secondsLeft): "\(secondsLeft)"
        case .smile: texts(.smile)
        // A prompt: what the next line is.
        case .naming: (photoOnScreen ? "\(texts(.photoOnScreen))\n" : "") + texts(.consoleNamingPrompt)
        case .saving: texts(.saving)
        case .saved(let caption, _, let link, let pendingName): savedLines(caption, link: link, pendingName: pendingName)
        case .fault(let fault): fault.sentence(in: texts)
        case .gallery(let list): galleryLines(list)
        case .photo(let photo): photoLines(photo)
        }
    }

    /// The main screen's options, with this terminal's keys for the parts it plays.
    private func readyLines() -> String {
        var lines = [texts(.readyToShoot, ["button": roles.contains(.button) ? texts(.keyEnter) : texts(.theButton)])]
        if roles.contains(.keypad) { lines.append(texts(.readyToBrowse, ["key": keyLabels.view])) }
        return lines.joined(separator: "\n")
    }

    private func savedLines(_ caption: Caption, link: PhotoLink?, pendingName: Caption?) -> String {
        var lines = [texts(.savedAs, ["name": caption.text])]
        if let pendingName { lines.append(texts(.savedPendingName, ["name": pendingName.text])) }
        if let link = link?.address(for: audience) {
            lines.append(texts(.scanLink, ["link": link]))
            if drawsQRCodes, let code = try? QRCode(encoding: link) { lines += Self.halfBlocks(code) }
        }
        return lines.joined(separator: "\n")
    }

    /// The page of the list, numbered from the newest photo, the selected one marked with `>`,
    /// and the keys under it.
    func galleryLines(_ list: GalleryList) -> String {
        let keys = keyLabels
        let shutter = texts(.readyToShoot, ["button": Self.galleryShutterLine])
        let position = list.position
        guard position.count > 0 else {
            return [
                texts(.galleryEmpty), texts(.galleryEmptyHint, ["button": Self.galleryShutterLine]), texts(.galleryEmptyBack, ["back": keys.back]),
            ]
            .joined(separator: "\n")
        }
        var lines = [texts(.galleryHeading, ["index": "\(position.index + 1)", "count": "\(position.count)"])]
        if list.rows.isEmpty { lines.append("  \(texts(.galleryUnreadable))") }
        for (offset, row) in list.rows.enumerated() {
            let index = list.page.lowerBound + offset
            let marker = index == position.index ? ">" : " "
            let text = texts(.galleryRow, ["number": "\(index + 1)", "name": row.entry.caption.text, "time": row.entry.takenOn])
            lines.append("\(marker) \(text)")
        }
        lines.append(list.search.map { keys.findingLine($0, in: texts).map(\.text).joined() } ?? keys.galleryHint(in: texts))
        if roles.contains(.button) { lines.append(shutter) }
        return lines.joined(separator: "\n")
    }

    /// A full-screen photo: its position, name and time, where its original is, and the keys.
    func photoLines(_ photo: GalleryPhoto) -> String {
        let index = "\(photo.position.index + 1)"
        let count = "\(photo.position.count)"
        guard let entry = photo.entry, let originals = photo.originals else {
            return texts(.photoUnreadableAt, ["index": index, "count": count])
        }
        let keys = keyLabels
        return [
            texts(.photoHeading, ["index": index, "count": count, "name": entry.caption.text, "time": entry.takenOn]),
            "  \(originals.location(of: entry.id))",
            texts(.photoHint, ["up": keys.up, "down": keys.down, "back": keys.back]),
        ].joined(separator: "\n")
    }

    /// `code` in Unicode half blocks, two modules per character cell, quiet zone included. A
    /// terminal draws text light on dark, so the light modules are the blocks and the dark ones
    /// the terminal's own background.
    static func halfBlocks(_ code: QRCode) -> [String] {
        let span = -QRCode.quietZone..<(code.size + QRCode.quietZone)
        let light = { (x: Int, y: Int) in span.contains(y) && !code[x, y] }
        return stride(from: span.lowerBound, to: span.upperBound, by: 2).map { y in
            String(
                span.map { x -> Character in
                    switch (light(x, y), light(x, y + 1)) {
                    case (true, true): "\u{2588}"
                    case (true, false): "\u{2580}"
                    case (false, true): "\u{2584}"
                    case (false, false): " "
                    }
                })
        }
    }

    private func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        // A terminal that cannot take the line loses it; the booth never waits for one.
        printer.submit { [self] in _ = try? output.writeAll(bytes) }
    }
}
