import BoothCore
import BoothSystem
import CALSA
import Foundation
import Logging
import Synchronization

/// The booth's sounds through ALSA, on a thread of its own: the machine asks for a sound at an
/// instant (a countdown's shutter seconds ahead), the thread mixes it into the stream so that
/// its first sample is heard at that instant, and a capture never waits for it.
///
/// The stream runs only while there is something to play: it starts a little before a sound is
/// due (``lead``), then each block written is placed by the device's delay, what is queued
/// before it (`snd_pcm_delay`), so a sound starts within a block's share of a millisecond of
/// its instant. With nothing left to play the stream drains and stops: an idle booth keeps no
/// thread awake for its speaker. A device that goes away is opened again when it comes back.
package final class ALSASpeaker: Speaker {
    /// The device's buffer: small, so that what is queued is heard soon, and large enough for
    /// a thread the scheduler runs a few milliseconds late.
    static let bufferMicroseconds: UInt32 = 40_000
    /// How long before a sound is due its stream starts.
    static let lead: Duration = .milliseconds(100)

    private let queue: SoundQueue
    private let clips: SoundClips
    private let thread: DedicatedThread

    /// Opens the ALSA device `device` (`default`, `plughw:1,0`: a name `aplay -L` lists) at
    /// `volume` percent. Throws when it cannot be opened, with the reason: the booth then runs
    /// silent and says so.
    package init(device: String, volume: Int, clips: SoundClips, logger: Logger) throws(DeviceError) {
        photobooth_alsa_quiet()
        // Opened here to say at once whether the booth has sound; its thread opens its own.
        let probe = try PCMStream(device: device)
        logger.info(
            "Sound plays on \(device) (\(SoundClip.rate) Hz, a \(probe.bufferFrames)-sample buffer of \(probe.periodFrames)-sample blocks), at \(volume)% volume."
        )
        probe.close()
        let queue = SoundQueue(volume: volume)
        self.queue = queue
        self.clips = clips
        thread = DedicatedThread.device(name: "sound", logger: logger) { wakeup, worked in
            let pcm = try PCMStream(device: device)
            defer { pcm.close() }
            try queue.serve(pcm, wakeup: wakeup, worked: &worked, logger: logger)
        }
    }

    /// What the device `device` plays, as `photobooth doctor` says it; throws when it cannot
    /// be opened.
    package static func check(device: String) throws(DeviceError) -> String {
        photobooth_alsa_quiet()
        let probe = try PCMStream(device: device)
        defer { probe.close() }
        return "\(device) opens: 16-bit mono at \(SoundClip.rate) Hz, a \(probe.bufferFrames)-sample buffer."
    }

    package func play(_ sound: BoothSound, at instant: MonotonicInstant) {
        guard let clip = clips.clip(for: sound) else { return }
        queue.mixer.withLock { $0.play(clip, as: sound, at: instant) }
        thread.wake()
    }

    package func silence() {
        queue.mixer.withLock { $0.silence() }
    }

    /// Stops the thread (what plays is cut) and closes the device.
    package func stop() async {
        await thread.stop()
    }
}

/// The sounds asked for, shared by the callers and the speaker's thread.
private final class SoundQueue: Sendable {
    let mixer: Mutex<SoundMixer>

    init(volume: Int) {
        mixer = Mutex(SoundMixer(volume: volume))
    }

    /// Plays what the mixer has, until stopped: throws when the device fails.
    func serve(_ pcm: PCMStream, wakeup: Wakeup, worked: inout Bool, logger: Logger) throws(DeviceError) {
        let lead = ALSASpeaker.lead
        let clock = MonotonicClock()
        var running = false
        while !wakeup.isStopping {
            worked = true
            if !running {
                // Idle: wait for a sound due within the lead, or for one asked for.
                guard let next = mixer.withLock({ $0.nextStart }) else {
                    _ = wakeup.wait(until: nil)
                    continue
                }
                if clock.now < next - lead {
                    _ = wakeup.wait(until: next - lead)
                    continue
                }
                try pcm.prepare()
                running = true
            }
            let queued = try pcm.delay()
            let firstHeardAt = clock.now + SoundClip.duration(ofSamples: queued)
            let block = mixer.withLock { $0.mix(count: pcm.periodFrames, firstHeardAt: firstHeardAt) }
            for (sound, sample) in block.started {
                logger.debug("Sound \(sound) starts \(sample) samples into a block heard from \(firstHeardAt) (\(queued) queued).")
            }
            for sound in block.dropped {
                logger.notice("Sound \(sound) dropped: its instant passed more than \(SoundMixer.lateness) ago.")
            }
            try pcm.write(block.samples, logger: logger)
            // Between two sounds (a countdown's seconds) the stream stops: it starts again a
            // lead before the next one, placed by the delay as the first was.
            let (playing, next) = mixer.withLock { ($0.isPlaying, $0.nextStart) }
            if !playing, next.map({ clock.now + lead * 2 < $0 }) ?? true {
                try pcm.drain()
                running = false
            }
        }
    }
}

/// An ALSA playback stream: 16-bit mono at ``SoundClip/rate``, converted by ALSA's plug layer
/// where the device takes something else.
private final class PCMStream {
    private var handle: OpaquePointer?
    let device: String
    let bufferFrames: Int
    let periodFrames: Int

    init(device: String) throws(DeviceError) {
        self.device = device
        var pcm: OpaquePointer?
        var status = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard status == 0, let pcm else {
            let code: DeviceError = status == -ENOENT || status == -ENODEV ? .disconnected : .unavailable
            throw code.detailed("The sound device \(device) cannot be opened: \(Self.message(status)).")
        }
        status = snd_pcm_set_params(
            pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(SoundClip.rate), 1, ALSASpeaker.bufferMicroseconds)
        guard status == 0 else {
            snd_pcm_close(pcm)
            throw DeviceError.unsupported.detailed(
                "The sound device \(device) cannot play 16-bit mono at \(SoundClip.rate) Hz: \(Self.message(status)).")
        }
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        snd_pcm_get_params(pcm, &buffer, &period)
        bufferFrames = Int(buffer)
        periodFrames = max(Int(period), 64)
        // The stream starts with its first block, so the delay read before a write is what is
        // queued ahead of it from the start (ALSA's default waits for a full buffer). What has
        // been played is zeroed at once (a silence size of the boundary): a device that reads
        // on past the end of a drained stream, as DMA does up to a period and snd-aloop did in
        // the QEMU test, plays silence rather than the buffer's last round, a chunk of the
        // sound again.
        var software: OpaquePointer?
        if snd_pcm_sw_params_malloc(&software) == 0, let software {
            snd_pcm_sw_params_current(pcm, software)
            snd_pcm_sw_params_set_start_threshold(pcm, software, 1)
            var boundary: snd_pcm_uframes_t = 0
            snd_pcm_sw_params_get_boundary(software, &boundary)
            snd_pcm_sw_params_set_silence_threshold(pcm, software, 0)
            snd_pcm_sw_params_set_silence_size(pcm, software, boundary)
            status = snd_pcm_sw_params(pcm, software)
            snd_pcm_sw_params_free(software)
            guard status == 0 else {
                snd_pcm_close(pcm)
                throw DeviceError.unsupported.detailed("The sound device \(device) refuses its start threshold: \(Self.message(status)).")
            }
        }
        handle = pcm
    }

    /// Ready to start with the next write.
    func prepare() throws(DeviceError) {
        try check(snd_pcm_prepare(handle), "cannot be prepared")
    }

    /// The samples queued and not yet heard: those written before the next one.
    func delay() throws(DeviceError) -> Int {
        var frames: snd_pcm_sframes_t = 0
        let status = snd_pcm_delay(handle, &frames)
        if status == -EPIPE { return 0 }
        try check(status, "cannot say its delay")
        return max(Int(frames), 0)
    }

    /// Writes every sample, waiting for room; an underrun (the thread ran late) starts the
    /// stream again.
    func write(_ samples: [Int16], logger: Logger) throws(DeviceError) {
        var offset = 0
        while offset < samples.count {
            let written = samples.withUnsafeBufferPointer { buffer in
                snd_pcm_writei(handle, buffer.baseAddress! + offset, snd_pcm_uframes_t(samples.count - offset))
            }
            if written >= 0 {
                offset += written
            } else if written == -Int(EPIPE) {
                logger.notice("The sound device \(device) ran out of samples (the sound thread was late); its stream restarts.")
                try prepare()
            } else if written == -Int(EAGAIN) || written == -Int(EINTR) {
                continue
            } else {
                try check(Int32(written), "stopped taking samples")
            }
        }
    }

    /// Plays what is queued, then stops.
    func drain() throws(DeviceError) {
        try check(snd_pcm_drain(handle), "cannot drain its stream")
    }

    func close() {
        if let handle { snd_pcm_close(handle) }
        handle = nil
    }

    private func check(_ status: Int32, _ what: String) throws(DeviceError) {
        guard status < 0 else { return }
        let code: DeviceError = status == -ENODEV || status == -EBADFD || status == -EIO ? .disconnected : .unavailable
        throw code.detailed("The sound device \(device) \(what): \(Self.message(status)).")
    }

    private static func message(_ status: Int32) -> String {
        String(cString: snd_strerror(status))
    }
}
