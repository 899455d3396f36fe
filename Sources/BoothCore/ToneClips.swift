import Foundation

/// The booth's own sounds, made here from their description rather than recorded: a beep, a
/// shutter, a "saved" chime. Their source is this file, under the project's licence; they are
/// made once as the speaker starts.
public enum ToneClips {
    /// A second of the countdown: 120 ms of 1 kHz, faded in and out over 5 ms so it does not
    /// click.
    public static func beep() -> SoundClip {
        tone(hertz: 1000, duration: 0.12, amplitude: 0.5)
    }

    /// A shutter: two bursts of noise 60 ms apart (the blades opening and closing), each
    /// dying away in a few milliseconds. Its first sample is its loudest, so the instant it is
    /// heard is the instant it was asked for.
    public static func shutter() -> SoundClip {
        var noise = NoiseGenerator(seed: 0x5EED)
        let count = samples(0.12)
        let second = samples(0.06)
        var out = [Int16](repeating: 0, count: count)
        for i in 0..<count {
            let first = exp(-Double(i) / Double(samples(0.008)))
            let later = i >= second ? 0.6 * exp(-Double(i - second) / Double(samples(0.012))) : 0
            out[i] = Int16((noise.next() * 0.8 * (first + later)).clamped(to: -1...1) * 32_767)
        }
        return SoundClip(samples: out)
    }

    /// Saved: a rising pair of tones, 660 Hz then 990 Hz.
    public static func saved() -> SoundClip {
        SoundClip(samples: tone(hertz: 660, duration: 0.1, amplitude: 0.4).samples + tone(hertz: 990, duration: 0.16, amplitude: 0.4).samples)
    }

    /// A sine of `hertz` for `duration` seconds, faded in and out over 5 ms.
    static func tone(hertz: Double, duration: Double, amplitude: Double) -> SoundClip {
        let count = samples(duration)
        let fade = samples(0.005)
        let step = 2 * Double.pi * hertz / Double(SoundClip.rate)
        return SoundClip(
            samples: (0..<count).map { i in
                let envelope = min(1, Double(i) / Double(fade), Double(count - 1 - i) / Double(fade))
                return Int16(sin(step * Double(i)) * amplitude * envelope * 32_767)
            })
    }

    private static func samples(_ seconds: Double) -> Int { Int(seconds * Double(SoundClip.rate)) }
}

/// White noise from a fixed seed (xorshift), in -1...1: the same shutter every time.
private struct NoiseGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state % 2_000_001) / 1_000_000 - 1
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
