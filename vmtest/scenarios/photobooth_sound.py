"""The booth's sounds on a real ALSA driver: snd-aloop, the kernel's sound loopback. The booth
plays to the loop's device 0 (through ALSA's plug layer, as `sound.device: plughw:N,0` on a
booth); pcm-record (vmtest/tools) records the loop's other end, device 1, through the kernel's
PCM interface, with the kernel's CLOCK_MONOTONIC timestamps of its position. The test finds the
sounds in the recording: each second's beep, the shutter, the saved chime, and with
`--language fr --voice countdown` the French prompts (the clips deploy/render-voice renders for
the package, which the test renders too and finds in the recording).

The shutter sound's start is measured against the saved frame's exposure time, which the booth's
saved line gives on the same clock: 20 shots, p50, p95 and the worst in <out>/sound.txt.

    harness/run --binary .build/release/photobooth -k sound
"""
from __future__ import annotations

import array
import re
import statistics
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

from photobooth_vm import VM, scenario

kit = sys.modules["pbvm_scenarios_photobooth"]
Booth, check = kit.Booth, kit.check

RATE = 48_000
# Louder than this is a sound (the booth plays at 100% volume here: its tones peak near 16000).
THRESHOLD = 1500
# The booth's own sounds' lengths in samples (Sources/BoothCore/ToneClips.swift), a little short.
LENGTHS = {"beep": RATE * 115 // 1000, "shutter": RATE * 115 // 1000, "saved": RATE * 255 // 1000}
SHOTS = 20
SAVED_FRAME = re.compile(r"saved ([0-9a-f-]{36}) .*? frame #\d+ [+-][\d.]+ ms from the shutter, exposed at ([\d.]+) s;")
ROOT = Path(__file__).resolve().parents[2]


class Recording:
    """What pcm-record wrote: the samples, and when (CLOCK_MONOTONIC) each was captured."""

    def __init__(self, samples: Path, times: Path):
        self.samples = array.array("h")
        self.samples.frombytes(samples.read_bytes())
        # Sample n was captured at t - (frames - n) / RATE for each (frames, t) the kernel gave:
        # the median of those origins is the recording's start.
        origins = []
        for line in times.read_text().split("\n"):
            if line.strip():
                frames, seconds = line.split()
                origins.append(float(seconds) - int(frames) / RATE)
        check(len(origins) > 10, f"pcm-record wrote {len(origins)} timestamps")
        self.origin = statistics.median(origins)
        self.spread = max(origins) - min(origins)

    def time_of(self, sample: int) -> float:
        return self.origin + sample / RATE

    def sounds(self, threshold: int = THRESHOLD, quiet_ms: int = 60) -> list[tuple[int, str]]:
        """Each sound's first sample (the first louder than `threshold`) and its kind. A tone or
        the shutter ends with its known length, so the next sound may follow it closely (a
        saved chime right after a quick save); a spoken prompt ends after `quiet_ms` of quiet."""
        found = []
        samples, index, count = self.samples, 0, len(self.samples)
        while index < count:
            while index < count and -threshold <= samples[index] <= threshold:
                index += 1
            if index == count:
                break
            kind = self.kind(index)
            found.append((index, kind))
            # A tone's fade-out or the shutter's last ring: 5 ms of quiet after its length.
            index += LENGTHS.get(kind, 0)
            quiet, needed = 0, (5 if kind in LENGTHS else quiet_ms) * RATE // 1000
            while index < count and quiet < needed:
                quiet = quiet + 1 if -threshold <= samples[index] <= threshold else 0
                index += 1
        return found

    def kind(self, onset: int) -> str:
        """beep (1 kHz), shutter (noise), saved (660 Hz), or voice, from the sound's first 20 ms."""
        window = self.samples[onset:onset + RATE // 50]
        crossings = sum(1 for a, b in zip(window, window[1:]) if (a < 0) != (b < 0))
        hertz = crossings * 50 / 2
        if hertz > 4000:
            return "shutter"
        if 900 <= hertz <= 1100:
            return "beep"
        if 600 <= hertz <= 720:
            return "saved"
        return f"other ({hertz:.0f} Hz)"


def render_voice(binary: str) -> Path:
    """The package's spoken prompts, as deploy/render-voice renders them."""
    folder = Path(tempfile.mkdtemp(prefix="pb-voice-"))
    subprocess.run([str(ROOT / "deploy/render-voice"), binary, str(folder)], check=True, stdout=subprocess.DEVNULL)
    return folder


def resampled(path: Path) -> list[int]:
    """A prompt's clip as the booth plays it: mono, linearly interpolated to 48 kHz."""
    with wave.open(str(path)) as clip:
        rate, frames = clip.getframerate(), array.array("h", clip.readframes(clip.getnframes()))
    count = len(frames) * RATE // rate
    out = []
    for i in range(count):
        position = i * rate / RATE
        below = min(int(position), len(frames) - 1)
        above = min(below + 1, len(frames) - 1)
        t = position - below
        out.append(int(frames[below] * (1 - t) + frames[above] * t))
    return out


def similarity(recorded, clip: list[int]) -> float:
    """Normalised correlation of a clip with the recording from the sound's first loud sample:
    the clip's own leading silence (espeak-ng's) is left out, and the start searched within 2 ms
    either way."""
    start = next((i for i, value in enumerate(clip) if abs(value) > THRESHOLD), 0)
    clip = clip[start:start + RATE // 2]
    clip_energy = sum(c * c for c in clip) ** 0.5
    best = 0.0
    for shift in range(0, 193, 4):
        segment = recorded[shift:shift + len(clip)]
        if len(segment) < len(clip):
            continue
        dot = sum(a * b for a, b in zip(segment, clip))
        energy = sum(a * a for a in segment) ** 0.5
        if energy and clip_energy:
            best = max(best, dot / (energy * clip_energy))
    return best


@scenario(timeout=2400, fresh_vm=True, modules=["snd-aloop"])
def sound(vm: VM, out: Path) -> None:
    """Three beeps a second apart and the shutter at the shot's frame (20 shots, within 20 ms at
    p95), the saved chime; French prompts with --language fr --voice countdown; without a sound
    device the booth runs and says so once."""
    vm.gpio_sim_setup()
    camera = vm.load_loopback()
    vm.start_feeder("MJPG", 640, 480, 10, ["frame-1.jpg"])

    # No sound device yet: the booth runs silent, says so once, and doctor says so.
    silent = Booth(vm, "silent", camera)
    silent.ready()
    log = vm.read_log(silent.log)
    check(len(re.findall(r"No sound: ", log)) == 1, f"the booth does not say once that it has no sound:\n{log[-3000:]}")
    silent.stop()
    _, report = vm.sh("photobooth doctor --data-dir /tmp/sound-doctor", timeout=120)
    check(re.search(r"^PASS sound: no sound: The sound device default cannot be opened", report, re.M),
          f"doctor does not say the booth has no sound:\n{report}")

    vm.sh_ok("modprobe snd-aloop index=0 pcm_substreams=1")
    cards = vm.sh_ok("cat /proc/asound/cards")
    check("Loopback" in cards, f"snd-aloop made no card:\n{cards}")
    device = "plughw:0,0"
    status, report = vm.sh(f"photobooth doctor --data-dir /tmp/sound-doctor --sound {device}", timeout=120)
    (out / "doctor.txt").write_text(report)
    check(re.search(rf"^PASS sound: {re.escape(device)} opens", report, re.M), f"doctor does not open {device}:\n{report}")

    host_samples, guest_samples = vm.share_path("booth/sound.raw")
    host_times, guest_times = vm.share_path("booth/sound.times")
    recorder = vm.spawn(f"pcm-record /dev/snd/pcmC0D1c {RATE} {guest_samples} {guest_times}", "booth/pcm-record.log")
    vm.wait_for_log("booth/pcm-record.log", r"recording ", timeout=30)

    booth = Booth(vm, "sound", camera, countdown=3, extra=f"--sound {device} --sound-volume 100")
    booth.ready()
    booth.logged(rf"Sound plays on {re.escape(device)} ")
    exposures = []
    for number in range(SHOTS):
        photo = booth.take_photo(f"S{number}\r".encode())
        booth.moved("saved", "idle", timeout=90)
        line = [m for m in SAVED_FRAME.finditer(vm.read_log(booth.log)) if m.group(1) == photo]
        check(line, f"no saved line with the exposure time for {photo}")
        exposures.append(float(line[0].group(2)))
    booth.stop()

    # French, spoken: the clips the package would hold, in the guest where the package puts them.
    voices = render_voice(str(vm.host_binary))
    host_voice, guest_voice = vm.share_path("voice")
    subprocess.run(["cp", "-r", f"{voices}/.", str(host_voice)], check=True)
    vm.sh_ok(f"mkdir -p /usr/share/photobooth && rm -rf /usr/share/photobooth/voice && cp -r {guest_voice} /usr/share/photobooth/voice")
    french = Booth(vm, "sound-fr", camera, countdown=3, fresh=False,
                   extra=f"--sound {device} --sound-volume 100 --language fr --voice countdown")
    french.ready()
    photo = french.take_photo(b"Zoe\r")
    french.moved("saved", "idle", timeout=90)
    french_exposure = float([m for m in SAVED_FRAME.finditer(vm.read_log(french.log)) if m.group(1) == photo][0].group(2))
    french.stop()
    vm.kill_pid(recorder, "TERM")
    vm.wait_exit("booth/pcm-record.log", timeout=30)

    recording = Recording(host_samples, host_times)
    kinds = [(recording.time_of(onset), kind, onset) for onset, kind in recording.sounds()]
    (out / "onsets.txt").write_text("".join(f"{t:.4f} {k}\n" for t, k, _ in kinds))
    check(recording.spread < 0.05, f"the recorder's timestamps disagree by {recording.spread * 1000:.1f} ms")

    offsets, beeps_ok = [], 0
    for exposure in exposures:
        shutters = [t for t, k, _ in kinds if k == "shutter" and abs(t - exposure) < 0.5]
        check(shutters, f"no shutter sound within 0.5 s of the frame exposed at {exposure:.3f} s")
        offsets.append((shutters[0] - exposure) * 1000)
        beeps = [t for t, k, _ in kinds if k == "beep" and exposure - 3.5 < t < exposure]
        gaps = [b - a for a, b in zip(beeps, beeps[1:])]
        if len(beeps) == 3 and all(0.9 < g < 1.1 for g in gaps):
            beeps_ok += 1
    saved = sum(1 for _, k, _ in kinds if k == "saved")
    # Nothing else was heard while the booth took its 20 photos (a chunk of a sound played again
    # after its stream stopped was, before the stream zeroed what it had played).
    stray = [(round(t, 3), k) for t, k, _ in kinds if k not in ("beep", "shutter", "saved") and t < french_exposure - 4]
    magnitudes = sorted(abs(o) for o in offsets)
    p50, p95 = magnitudes[len(magnitudes) // 2], magnitudes[min(len(magnitudes) - 1, round(0.95 * len(magnitudes)) - 1)]
    figures = (f"shutter sound start - saved frame's exposure (ms), {SHOTS} shots: "
               f"{', '.join(f'{o:+.1f}' for o in offsets)}\n"
               f"|offset| p50 {p50:.1f} ms, p95 {p95:.1f} ms, worst {magnitudes[-1]:.1f} ms\n"
               f"shots with three beeps a second apart before them: {beeps_ok} of {SHOTS}; saved chimes: {saved}\n")
    (out / "sound.txt").write_text(figures)
    print(figures)
    check(not stray, f"sounds the booth did not mean to play: {stray}")
    check(beeps_ok == SHOTS, f"{SHOTS - beeps_ok} shots lack their three beeps a second apart:\n{figures}")
    check(saved >= SHOTS, f"{saved} saved chimes for {SHOTS} photos")
    check(p95 <= 20, f"the shutter sound is more than 20 ms from the frame at p95:\n{figures}")

    # The French countdown: "trois", "deux", "un" a second apart before the shot, each the
    # French clip rather than the English one (a word's sound starts after the clip's own
    # leading silence, so it is sought from its second on).
    lines = []
    for seconds, prompt, french_name in [(3, "three", "trois"), (2, "two", "deux"), (1, "one", "un")]:
        second = french_exposure - seconds
        heard = [(t, onset) for t, _, onset in kinds if second - 0.05 <= t <= second + 0.5]
        check(heard, f"nothing heard in the second {seconds} s before the French shot ({second:.3f} s): {kinds[-12:]}")
        t, onset = heard[0]
        # The recording from 2 ms before the onset, for the search either way.
        recorded = recording.samples[onset - 96:onset + RATE]
        fr = similarity(recorded, resampled(voices / "fr" / f"{prompt}.wav"))
        en = similarity(recorded, resampled(voices / "en" / f"{prompt}.wav"))
        lines.append(f"{t:.3f} s: like fr/{prompt} ({french_name}) {fr:.3f}, like en/{prompt} {en:.3f}")
        check(fr > 0.9 and fr > en, f"the prompt at {t:.3f} s is not French '{french_name}':\n" + "\n".join(lines))
    (out / "french.txt").write_text("\n".join(lines) + "\n")
