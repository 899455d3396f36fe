/// Where the booth's sounds go: a sound device (ALSA) in the booth, nothing when it has none,
/// a recording in tests. Calls return at once: the speaker plays on a thread of its own.
public protocol Speaker: Sendable {
    /// Plays `sound` so that it is heard from `instant` on, or as soon as it can.
    func play(_ sound: BoothSound, at instant: MonotonicInstant)
    /// Drops the sounds asked for that have not started.
    func silence()
}

/// The speaker of a booth without sound (`sound.device: none`, or none found).
public struct NoSpeaker: Speaker {
    public init() {}
    public func play(_ sound: BoothSound, at instant: MonotonicInstant) {}
    public func silence() {}
}

/// The clip each sound plays: the booth's own tones, and the spoken prompts of its language
/// as the package rendered them. A prompt without its clip plays the sound it stands in for
/// (a countdown's second beeps), so a booth whose voice clips are missing still counts down.
public struct SoundClips: Sendable {
    public var beep: SoundClip
    public var shutter: SoundClip
    public var saved: SoundClip
    public var spoken: [SpokenPrompt: SoundClip]

    public init(spoken: [SpokenPrompt: SoundClip] = [:]) {
        beep = ToneClips.beep()
        shutter = ToneClips.shutter()
        saved = ToneClips.saved()
        self.spoken = spoken
    }

    /// What `sound` plays; `nil` for a prompt that has no clip and no sound in its place.
    public func clip(for sound: BoothSound) -> SoundClip? {
        switch sound {
        case .beep: beep
        case .shutter: shutter
        case .saved: saved
        case .spoken(let prompt): spoken[prompt] ?? standIn(for: prompt)
        }
    }

    /// What plays for a prompt without its clip: the countdown's prompts beep, "Saved" chimes.
    private func standIn(for prompt: SpokenPrompt) -> SoundClip? {
        switch prompt {
        case .getReady, .three, .two, .one, .smile: beep
        case .saved: saved
        case .typeName: nil
        }
    }
}
