import Foundation
import Testing

@testable import BoothCore

extension [BoothEffect] {
    /// The effects but the speaker's: for tests of what the screens show.
    var withoutSounds: [BoothEffect] {
        filter {
            switch $0 {
            case .play, .silence: false
            default: true
            }
        }
    }

    /// The speaker's effects alone.
    var sounds: [BoothEffect] {
        filter {
            switch $0 {
            case .play, .silence: true
            default: false
            }
        }
    }
}

/// A booth on a manual timeline, `t` in milliseconds since the start, with an animation key.
private struct Timeline {
    var machine: BoothMachine
    let start = MonotonicInstant(nanoseconds: 2_000_000_000)

    init(countdown: Duration = .seconds(3), voice: VoiceMode = .off, modes: PictureModes = PictureModes()) {
        var keys = KeyBindings()
        keys.modeKeys = ["a": .animation, "c": .collage]
        let ids = Mint()
        machine = BoothMachine(settings: BoothSettings(countdown: countdown, keys: keys, modes: modes, voice: voice), newPhotoID: { ids.next() })
        _ = machine.handle(.cameraReady, at: start)
    }

    func at(_ ms: Int) -> MonotonicInstant { start + .milliseconds(ms) }

    mutating func sounds(_ event: BoothEvent, at ms: Int) -> [BoothEffect] {
        machine.handle(event, at: at(ms)).sounds
    }
}

private final class Mint: @unchecked Sendable {
    private var count = 0
    func next() -> UUID {
        count += 1
        return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", count))!
    }
}

@Suite("The booth's sounds, asked for at the instants they mean")
struct SoundCueTests {
    @Test("A press schedules a beep for each second, the first at once, and the shutter at the shutter instant")
    func countdownBeepsAndShutter() {
        var booth = Timeline()
        let sounds = booth.sounds(.shutterPressed(at: booth.at(100)), at: 100)
        #expect(
            sounds == [
                .play(.beep, at: booth.at(100)), .play(.beep, at: booth.at(1100)), .play(.beep, at: booth.at(2100)),
                .play(.shutter, at: booth.at(3100)),
            ])
        // The countdown's ticks and the shot itself ask for nothing more: all was scheduled.
        #expect(booth.sounds(.tick, at: 1100) == [])
        #expect(booth.sounds(.tick, at: 3100) == [])
    }

    @Test("A press that waited in the queue counts from the press: seconds already gone are not beeped late")
    func lateHandledPress() {
        var booth = Timeline()
        let sounds = booth.sounds(.shutterPressed(at: booth.at(0)), at: 1200)
        #expect(sounds == [.play(.beep, at: booth.at(1200)), .play(.beep, at: booth.at(2000)), .play(.shutter, at: booth.at(3000))])
    }

    @Test("Prompts: \"Get ready\" as the countdown starts, \"Smile!\" for its last second, beeps between")
    func prompts() {
        var booth = Timeline(countdown: .seconds(4), voice: .prompts)
        let sounds = booth.sounds(.shutterPressed(at: booth.at(0)), at: 0)
        #expect(
            sounds == [
                .play(.spoken(.getReady), at: booth.at(0)), .play(.beep, at: booth.at(1000)), .play(.beep, at: booth.at(2000)),
                .play(.spoken(.smile), at: booth.at(3000)), .play(.shutter, at: booth.at(4000)),
            ])
    }

    @Test("Countdown: the last three seconds counted aloud, \"Get ready\" before them")
    func countdownAloud() {
        var booth = Timeline(countdown: .seconds(5), voice: .countdown)
        let sounds = booth.sounds(.shutterPressed(at: booth.at(0)), at: 0)
        #expect(
            sounds == [
                .play(.spoken(.getReady), at: booth.at(0)), .play(.beep, at: booth.at(1000)), .play(.spoken(.three), at: booth.at(2000)),
                .play(.spoken(.two), at: booth.at(3000)), .play(.spoken(.one), at: booth.at(4000)), .play(.shutter, at: booth.at(5000)),
            ])
    }

    @Test("Without a countdown the shutter sounds at the press")
    func noCountdown() {
        var booth = Timeline(countdown: .zero)
        #expect(booth.sounds(.shutterPressed(at: booth.at(500)), at: 501) == [.play(.shutter, at: booth.at(500))])
    }

    @Test("An animation's shutter sounds at every frame's instant")
    func animationFrames() {
        var booth = Timeline(modes: PictureModes(animationFrames: 4, animationInterval: .milliseconds(250)))
        let sounds = booth.sounds(.key(.character("a")), at: 0)
        #expect(sounds.suffix(4) == [0, 250, 500, 750].map { .play(.shutter, at: booth.at(3000 + $0)) })
        #expect(sounds.count == 3 + 4)
    }

    @Test("A collage's next shot has its own countdown, with its own beeps and shutter")
    func collageShots() throws {
        var booth = Timeline(modes: PictureModes(collageShots: 2, nextCountdown: .seconds(2), shotReview: .seconds(1)))
        _ = booth.sounds(.key(.character("c")), at: 0)
        let effects = booth.machine.handle(.tick, at: booth.at(3000))
        let request = try #require(effects.compactMap { if case .takeShot(let request) = $0 { request } else { nil } }.first)
        let shot = TakenPhoto(id: request.photo, placeholder: .placeholder(number: 1))
        let review = booth.sounds(.shotTaken(shot, shutterAt: request.exposedAt), at: 3100)
        #expect(review == [])
        let next = booth.sounds(.tick, at: 4100)
        #expect(next == [.play(.beep, at: booth.at(4100)), .play(.beep, at: booth.at(5100)), .play(.shutter, at: booth.at(6100))])
    }

    @Test("A countdown cut short by a fault silences what it had scheduled")
    func faultSilences() {
        var booth = Timeline()
        _ = booth.sounds(.shutterPressed(at: booth.at(0)), at: 0)
        #expect(booth.sounds(.cameraLost, at: 1500) == [.silence])
    }

    @Test("The name prompt is spoken with a voice, and the saved sound plays as the picture is saved")
    func namingAndSaved() throws {
        for voice in [VoiceMode.off, .prompts] {
            var booth = Timeline(countdown: .seconds(1), voice: voice)
            _ = booth.sounds(.shutterPressed(at: booth.at(0)), at: 0)
            let effects = booth.machine.handle(.tick, at: booth.at(1000))
            let request = try #require(effects.compactMap { if case .takeShot(let request) = $0 { request } else { nil } }.first)
            let photo = TakenPhoto(id: request.photo, placeholder: .placeholder(number: 1))
            let naming = booth.sounds(.shotTaken(photo, shutterAt: request.exposedAt), at: 1050)
            #expect(naming == (voice == .off ? [] : [.play(.spoken(.typeName), at: booth.at(1050))]))
            #expect(booth.sounds(.key(.character("A")), at: 1500) == [], "typing says nothing")
            _ = booth.sounds(.key(.enter), at: 2000)
            let saved = booth.sounds(.photoSaved(id: photo.id, caption: photo.placeholder), at: 2100)
            #expect(saved == [.play(voice == .off ? .saved : .spoken(.saved), at: booth.at(2100))])
        }
    }
}

@Suite("Mixing the sounds into the speaker's stream")
struct SoundMixerTests {
    let start = MonotonicInstant(nanoseconds: 10_000_000_000)
    let clip = SoundClip(samples: (1...100).map { Int16($0) })

    @Test("A sound starts at the sample heard at its instant, and goes on across blocks without a gap or a repeat")
    func startsAtItsSample() {
        var mixer = SoundMixer()
        // 1 ms is 48 samples: the sound starts 48 samples into the first block.
        mixer.play(clip, as: .beep, at: start + .milliseconds(1))
        let first = mixer.mix(count: 64, firstHeardAt: start)
        #expect(first.started.map(\.sample) == [48])
        #expect(Array(first.samples[..<48]) == Array(repeating: 0, count: 48))
        #expect(Array(first.samples[48...]) == (1...16).map { Int16($0) })
        // The next block's instant is a little off, as the device's delay is: the sound goes on
        // from its 17th sample all the same.
        let second = mixer.mix(count: 64, firstHeardAt: start + .microseconds(1_300))
        #expect(second.started.isEmpty)
        #expect(Array(second.samples) == (17...80).map { Int16($0) })
        let third = mixer.mix(count: 64, firstHeardAt: start + .microseconds(2_700))
        #expect(Array(third.samples[..<20]) == (81...100).map { Int16($0) })
        #expect(third.samples[20...].allSatisfy { $0 == 0 })
        #expect(mixer.isIdle)
    }

    @Test("A sound due after the block waits; one a little late starts at once, one long gone is dropped")
    func earlyLateAndGone() {
        var mixer = SoundMixer()
        mixer.play(clip, as: .beep, at: start + .milliseconds(10))
        mixer.play(clip, as: .shutter, at: start - .milliseconds(20))
        mixer.play(clip, as: .saved, at: start - .seconds(2))
        let block = mixer.mix(count: 48, firstHeardAt: start)
        #expect(block.started.map(\.sound) == [.shutter])
        #expect(block.started.map(\.sample) == [0])
        #expect(block.dropped == [.saved])
        #expect(Array(block.samples.prefix(3)) == [1, 2, 3])
        #expect(mixer.nextStart == start + .milliseconds(10))
    }

    @Test("Sounds that overlap add up, clipped to 16 bits, at the volume set")
    func overlapAndVolume() {
        var loud = SoundMixer()
        let high = SoundClip(samples: [30_000, -30_000, 1_000])
        loud.play(high, as: .beep, at: start)
        loud.play(high, as: .shutter, at: start)
        #expect(loud.mix(count: 3, firstHeardAt: start).samples == [32_767, -32_768, 2_000])
        var half = SoundMixer(volume: 50)
        half.play(high, as: .beep, at: start)
        #expect(half.mix(count: 3, firstHeardAt: start).samples == [15_000, -15_000, 500])
    }

    @Test("Silence drops the sounds that have not started; one playing ends as it is")
    func silence() {
        var mixer = SoundMixer()
        mixer.play(clip, as: .beep, at: start)
        mixer.play(clip, as: .shutter, at: start + .seconds(1))
        _ = mixer.mix(count: 10, firstHeardAt: start)
        mixer.silence()
        #expect(mixer.nextStart == nil)
        #expect(mixer.mix(count: 10, firstHeardAt: start + .microseconds(208)).samples == (11...20).map { Int16($0) })
    }

    @Test("The booth's tones: a shutter loudest at its first sample, a beep that does not click")
    func tones() {
        let shutter = ToneClips.shutter().samples
        #expect(abs(Int(shutter[0])) > 0)
        let peak = shutter.map { abs(Int($0)) }.max() ?? 0
        #expect(shutter.prefix(48).map { abs(Int($0)) }.max() ?? 0 > peak / 2, "the first millisecond holds the attack")
        let beep = ToneClips.beep().samples
        #expect(beep.count == 5_760)
        #expect(abs(Int(beep.first ?? 1)) < 100 && abs(Int(beep.last ?? 1)) < 100)
    }
}

@Suite("Reading a spoken prompt's WAV file")
struct WAVClipTests {
    /// A WAV file of 16-bit samples, interleaved when stereo.
    static func wav(_ samples: [Int16], channels: Int = 1, rate: Int = 48_000, extraChunk: Bool = false) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
        var format = le16(1) + le16(channels) + le32(rate) + le32(rate * 2 * channels) + le16(2 * channels) + le16(16)
        format = Array("fmt ".utf8) + le32(format.count) + format
        let list = extraChunk ? Array("LIST".utf8) + le32(3) + [1, 2, 3, 0] : []
        let body = Array("WAVE".utf8) + format + list + Array("data".utf8) + le32(data.count) + data
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    @Test("Mono at 48 kHz is read as it is, past a chunk of another kind (padded to an even size)")
    func mono() throws {
        let clip = try SoundClip(wav: Self.wav([1, -2, 300, -32_768], extraChunk: true))
        #expect(clip.samples == [1, -2, 300, -32_768])
    }

    @Test("Stereo is mixed down; 24 kHz is interpolated to 48 kHz")
    func stereoAndRate() throws {
        let stereo = try SoundClip(wav: Self.wav([100, 300, -100, -300], channels: 2))
        #expect(stereo.samples == [200, -200])
        let slow = try SoundClip(wav: Self.wav([0, 1000, 2000], rate: 24_000))
        #expect(slow.samples == [0, 500, 1000, 1500, 2000, 2000])
    }

    @Test("What is not a 16-bit PCM WAV file says what it is")
    func refused() {
        #expect(throws: WAVError(description: "not a WAV file (no RIFF/WAVE header)")) { try SoundClip(wav: Array("hello world!".utf8)) }
        var eightBit = Self.wav([1, 2])
        eightBit[34] = 8
        #expect(throws: WAVError(description: "its samples are 8-bit, not 16")) { try SoundClip(wav: eightBit) }
        #expect(throws: WAVError(description: "no data chunk")) { try SoundClip(wav: Array(Self.wav([1]).prefix(36))) }
    }
}
