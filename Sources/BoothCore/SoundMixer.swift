import Foundation

/// A short sound as the speaker plays it: 16-bit mono samples at ``rate``.
public struct SoundClip: Sendable, Hashable {
    /// The rate every clip is played at: what a Pi's outputs and USB speakers take as they are.
    public static let rate = 48_000

    public var samples: [Int16]

    public init(samples: [Int16]) {
        self.samples = samples
    }

    /// The samples played in `duration`, rounded to the nearest.
    static func samples(in duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(((Double(seconds) + Double(attoseconds) / 1e18) * Double(rate)).rounded())
    }

    /// How long `samples` samples play.
    public static func duration(ofSamples samples: Int) -> Duration {
        .nanoseconds(Int64(samples) * 1_000_000_000 / Int64(rate))
    }
}

/// The sounds the speaker mixes: each one asked for at an instant, started at the sample heard
/// at that instant, then played sample after sample until it ends. Sounds that overlap (a beep
/// under a spoken prompt) add up, clipped to 16 bits, at the volume set.
///
/// Pure: the speaker's thread says, for each block it is about to write, when the block's
/// first sample will be heard (the device's delay added to the time now), and the mixer fills
/// it. A sound's start is placed by that instant; once started, it goes on from where the last
/// block left it, so a block's estimate off by a sample never repeats or skips one.
public struct SoundMixer: Sendable {
    private struct Scheduled: Sendable {
        var clip: SoundClip
        var sound: BoothSound
        var at: MonotonicInstant
        /// How many of its samples were written; `nil` before it starts.
        var played: Int?
    }

    /// How late a sound may start: later than this, it no longer means what it meant (the
    /// countdown's beep for a second already gone) and is dropped.
    public static let lateness: Duration = .milliseconds(500)

    private var scheduled: [Scheduled] = []
    /// The gain applied to every sample, 0 to 1 (`sound.volume`).
    private let gain: Float

    /// - Parameter volume: `sound.volume`, 0 (silent) to 100 (the clips as made).
    public init(volume: Int = 100) {
        gain = Float(min(max(volume, 0), 100)) / 100
    }

    /// Whether nothing is playing or waiting to.
    public var isIdle: Bool { scheduled.isEmpty }

    /// Whether a sound has started and not ended.
    public var isPlaying: Bool { scheduled.contains { $0.played != nil } }

    /// When the next sound that has not started is due; `nil` when none waits.
    public var nextStart: MonotonicInstant? {
        scheduled.filter { $0.played == nil }.map(\.at).min()
    }

    /// Asks for `clip` (which is `sound`) to be heard from `instant` on.
    public mutating func play(_ clip: SoundClip, as sound: BoothSound, at instant: MonotonicInstant) {
        scheduled.append(Scheduled(clip: clip, sound: sound, at: instant))
    }

    /// Drops every sound that has not started; those playing end as they are.
    public mutating func silence() {
        scheduled.removeAll { $0.played == nil }
    }

    /// What a block of the stream plays, and which sounds started in it, at which sample.
    public struct Block: Sendable {
        public var samples: [Int16]
        public var started: [(sound: BoothSound, sample: Int)]
        /// The sounds dropped because their instant had passed by more than ``lateness``.
        public var dropped: [BoothSound]
    }

    /// Mixes the next `count` samples of the stream, whose first is heard at `firstHeardAt`.
    public mutating func mix(count: Int, firstHeardAt: MonotonicInstant) -> Block {
        var sums = [Int32](repeating: 0, count: count)
        var started: [(sound: BoothSound, sample: Int)] = []
        var dropped: [BoothSound] = []
        for index in scheduled.indices {
            var item = scheduled[index]
            let offset: Int
            if let played = item.played {
                offset = -played
            } else {
                let early = firstHeardAt.duration(to: item.at)
                if early < .zero - Self.lateness {
                    dropped.append(item.sound)
                    item.played = item.clip.samples.count
                    scheduled[index] = item
                    continue
                }
                let samples = SoundClip.samples(in: early)
                guard samples < count else { continue }
                offset = max(samples, 0)
                started.append((item.sound, offset))
            }
            // The clip's samples from `from` go into the block from `into`.
            let from = max(-offset, 0)
            let into = max(offset, 0)
            let length = min(count - into, item.clip.samples.count - from)
            if length > 0 {
                item.clip.samples.withUnsafeBufferPointer { clip in
                    for i in 0..<length { sums[into + i] += Int32(clip[from + i]) }
                }
            }
            item.played = from + max(length, 0)
            scheduled[index] = item
        }
        scheduled.removeAll { item in item.played.map { $0 >= item.clip.samples.count } ?? false }
        let gain = self.gain
        let samples = sums.map { sum in
            Int16(clamping: Int32((Float(sum) * gain).rounded()))
        }
        return Block(samples: samples, started: started, dropped: dropped)
    }
}
