import BoothCore
import BoothSystem
import Foundation
import Logging
import Testing

@testable import BoothDevices

/// The speaker through libasound itself, on the PCM devices every ALSA installation defines
/// without a sound card: `file` (the stream written to a file, through `null`). The timing
/// against a real device's clock is the QEMU sound test's (snd-aloop).
@Suite("The ALSA speaker")
struct ALSASpeakerTests {
    @Test("The sounds asked for reach the device, sample for sample, at the volume set")
    func playsThroughLibasound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alsa-speaker-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("stream.raw")
        let clips = SoundClips()
        let speaker = try ALSASpeaker(device: "file:FILE=\(file.path),FORMAT=raw", volume: 100, clips: clips, logger: Logger(label: "test"))
        speaker.play(.shutter, at: MonotonicClock().now)
        let expected = clips.shutter.samples
        var written: [Int16] = []
        // The device writes as its thread goes; wait (at most a minute, on a busy machine)
        // until the whole clip is there.
        for _ in 0..<3000 where !contains(written, expected) {
            try await Task.sleep(for: .milliseconds(20))
            written = samples(in: file)
        }
        await speaker.stop()
        #expect(contains(written, expected), "the stream (\(written.count) samples) does not hold the shutter's \(expected.count)")
    }

    @Test("A device that does not exist is refused with its name and the reason")
    func missingDevice() {
        #expect {
            _ = try ALSASpeaker(device: "hw:97,0", volume: 80, clips: SoundClips(), logger: Logger(label: "test"))
        } throws: { error in
            "\(error)".hasPrefix("The sound device hw:97,0 cannot be opened: ")
        }
        #expect(throws: DeviceError.self) { try ALSASpeaker.check(device: "nosuchdevice") }
    }

    private func samples(in file: URL) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Whether `needle` is in `haystack`, in order and without a gap.
    private func contains(_ haystack: [Int16], _ needle: [Int16]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
