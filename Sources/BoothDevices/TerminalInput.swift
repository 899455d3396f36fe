import BoothCore

/// What the terminal's input becomes for the booth: the keys read, as keys (or as presses of the
/// button, one a line), handed over at once when a person types them, or a line at a time when
/// a pipe brings them, paced by what the booth says it waits for. Pure: the console's reading
/// thread feeds it the keys, the booth's readiness and the end of input, and carries out what
/// it answers.
///
/// A pipe's line goes to the booth once the booth has handled every key (or press) handed over
/// before it and waits for input of its kind (``BoothMachine/awaitedInput``): a scripted session
/// never loses a line to a busy moment, a question to the library, or the camera's absence.
/// When input ends, its last line gets its Enter, and the input ends for the booth once every
/// line is handed over and handled and the booth is at rest.
struct TerminalInput: Sendable, Hashable {
    /// What to hand to the booth.
    enum Output: Sendable, Hashable {
        case keys([KeypadKey])
        case press
        /// Input has ended for good: the key and press streams end.
        case end
    }

    /// What the lines are.
    let reading: TerminalConsole.Reading
    /// Whether lines wait for the booth (a pipe), rather than going at once (a person).
    let patient: Bool
    /// The keys of the line being read.
    private var line: [KeypadKey] = []
    /// Lines read but not yet handed over (patient input), each ended by its Enter.
    private(set) var pending: [[KeypadKey]] = []
    /// What the booth said last; `nil` until it says.
    private var readiness: InputReadiness?
    /// How many keys (or presses) were handed over.
    private var sent = 0
    private var inputEnded = false
    /// Whether ``Output/end`` was said.
    private(set) var isEnded = false

    init(reading: TerminalConsole.Reading, patient: Bool) {
        self.reading = reading
        self.patient = patient
    }

    /// Takes a key read.
    mutating func received(_ key: KeypadKey) -> [Output] {
        line.append(key)
        guard key == .enter else {
            // Like a real keyboard: a person's keys go at once; the booth ignores what it cannot use.
            return !patient && reading == .keys ? send([key]) : []
        }
        defer { line = [] }
        guard patient else { return reading == .keys ? send([key]) : send(line) }
        pending.append(line)
        return next()
    }

    /// Takes what the booth waits for now, and what it has handled.
    mutating func follow(_ readiness: InputReadiness) -> [Output] {
        self.readiness = readiness
        return next()
    }

    /// Input has ended: its last line gets its Enter.
    mutating func endOfInput() -> [Output] {
        let last = line.isEmpty ? [] : received(.enter)
        inputEnded = true
        return last + next()
    }

    /// The next line, when the booth waits for it; the end, once input ended and the booth has
    /// handled everything at rest.
    private mutating func next() -> [Output] {
        guard !isEnded, let readiness else { return [] }
        let handled = reading == .keys ? readiness.keysHandled : readiness.pressesHandled
        guard handled >= sent else { return [] }
        if let line = pending.first {
            guard readiness.awaited.contains(reading == .keys ? .keys : .press) else { return [] }
            pending.removeFirst()
            return send(line)
        }
        guard inputEnded, readiness.atRest else { return [] }
        isEnded = true
        return [.end]
    }

    /// Hands over `keys`: as keys, or as one press for a line.
    private mutating func send(_ keys: [KeypadKey]) -> [Output] {
        switch reading {
        case .keys:
            sent += keys.count
            return [.keys(keys)]
        case .presses:
            sent += 1
            return [.press]
        }
    }
}
