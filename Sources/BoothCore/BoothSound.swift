/// What the booth's speaker plays, and when the machine asks for it: the booth's cues for a
/// guest who does not watch the screen (a group standing back, a guest who sees it badly).
public enum BoothSound: Sendable, Hashable, CustomStringConvertible {
    /// A second of the countdown.
    case beep
    /// The instant of a shot: played at the shutter instant, so a guest hears the photo being
    /// taken as it is.
    case shutter
    /// The picture is saved.
    case saved
    /// A prompt spoken in the booth's language.
    case spoken(SpokenPrompt)

    public var description: String {
        switch self {
        case .beep: "beep"
        case .shutter: "shutter"
        case .saved: "saved"
        case .spoken(let prompt): "“\(prompt.rawValue)”"
        }
    }
}

/// The prompts the booth can speak, each a text of the booth's languages (``text``), rendered
/// to a clip per language when the package is built: the booth runs no synthesizer.
public enum SpokenPrompt: String, CaseIterable, Sendable {
    case getReady = "get-ready"
    case three, two, one
    case smile
    case typeName = "type-name"
    case saved

    /// The text spoken.
    public var text: BoothText {
        switch self {
        case .getReady: .spokenGetReady
        case .three: .spokenThree
        case .two: .spokenTwo
        case .one: .spokenOne
        case .smile: .smile
        case .typeName: .namingPrompt
        case .saved: .spokenSaved
        }
    }

    /// What a synthesizer reads for this prompt in `texts`: its plain text, no-break spaces
    /// read as spaces.
    public func spokenText(in texts: BoothTexts) -> String {
        String(texts(text).map { $0 == "\u{00A0}" ? " " : $0 })
    }

    /// The spoken number of the countdown's second `secondsLeft`, for the last three.
    static func number(_ secondsLeft: Int) -> SpokenPrompt? {
        switch secondsLeft {
        case 3: .three
        case 2: .two
        case 1: .one
        default: nil
        }
    }
}

/// How much the booth says (`sound.voice`); its beeps, shutter and saved sounds play whatever
/// this is.
public enum VoiceMode: String, CaseIterable, Sendable {
    /// Sounds only.
    case off
    /// "Get ready" as the countdown starts, "Smile!" for its last second, "Type your name",
    /// "Saved"; beeps for the seconds between.
    case prompts
    /// As `prompts`, but the last three seconds are counted aloud: "three, two, one".
    case countdown
}

extension BoothMachine {
    /// The sounds of the move from `old` to `next`: a countdown's seconds and the shutter
    /// instant (every frame's, for a burst), scheduled as the countdown starts so that the
    /// shutter sounds at the instant the frame is exposed; the name prompt; the saved sound.
    /// A sequence left before its shots (a fault) silences what it had scheduled.
    func sounds(from old: BoothState, to next: BoothState, now: MonotonicInstant) -> [BoothEffect] {
        switch (old, next) {
        case (.countdown, .countdown), (.naming, .naming):
            return []
        case (_, .countdown(let shutterAt)):
            return countdownSounds(shutterAt: shutterAt, now: now) + shutterSounds(at: shutterAt)
        case (.countdown, .capturing):
            return []
        case (_, .capturing(let shutterAt, _, _)):
            return shutterSounds(at: shutterAt)
        case (_, .naming):
            return settings.voice == .off ? [] : [.play(.spoken(.typeName), at: now)]
        case (.saving, .saved):
            return [.play(settings.voice == .off ? .saved : .spoken(.saved), at: now)]
        case (.countdown, _), (.capturing, .fault):
            return [.silence]
        default:
            return []
        }
    }

    /// A sound at each whole second before the shot, the first as the countdown starts.
    private func countdownSounds(shutterAt: MonotonicInstant, now: MonotonicInstant) -> [BoothEffect] {
        let first = Self.secondsLeft(until: shutterAt, now: now)
        guard first > 0 else { return [] }
        return (1...first).reversed().map { secondsLeft in
            let at = max(now, shutterAt - .seconds(secondsLeft))
            return .play(countdownSound(secondsLeft, first: first), at: at)
        }
    }

    private func countdownSound(_ secondsLeft: Int, first: Int) -> BoothSound {
        switch settings.voice {
        case .off:
            return .beep
        case .prompts:
            if secondsLeft == 1 { return .spoken(.smile) }
            return secondsLeft == first ? .spoken(.getReady) : .beep
        case .countdown:
            if let number = SpokenPrompt.number(secondsLeft) { return .spoken(number) }
            return secondsLeft == first ? .spoken(.getReady) : .beep
        }
    }

    /// The shutter at each frame's instant: one for a photo or a collage's shot, one per frame
    /// of a burst.
    private func shutterSounds(at shutterAt: MonotonicInstant) -> [BoothEffect] {
        let frames = sequence.map { $0.mode.isBurst ? $0.count : 1 } ?? 1
        return (0..<frames).map { .play(.shutter, at: shutterAt + settings.modes.animationInterval * $0) }
    }
}
