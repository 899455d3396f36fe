"""The real photobooth binary on real drivers: v4l2loopback (MJPEG, Bayer), vivid (YUYV), gpio-sim
(button and light), the second UART (keypad) and the bochs framebuffer (screen).

Every assertion is about behaviour: which frame was saved, what the catalog holds, what the
screen showed, what the log says happened. Nothing is timed.

The booth is read through its interfaces where it has one: its state from the log's
transition lines (`A -> B (`) and `/api/status`, its saves and names from the `saved ID
"CAPTION"` and `named ID "NAME"` lines, its library from `photobooth list --json`. Prose is
matched only where the booth says a thing nowhere else (see vmtest/README.md)."""
import io
import json
import re
import shlex
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from harness.booth import NAMED, SAVED, STATE, unquote
from photobooth_vm import VM, VMTimeout, scenario

DATA = "/tmp/booth"


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Booth:
    """One `photobooth run` in the guest, with its log followed line by line."""

    def __init__(self, vm: VM, name: str, camera: str, extra: str = "", fresh: bool = True, countdown: int = 2,
                 screen: str = "/dev/fb0", env: dict[str, str] | None = None):
        self.vm = vm
        self.log = f"booth/{name}.log"
        self.offset = 0
        if fresh:
            vm.sh_ok(f"rm -rf {DATA}")
        chip = vm.gpio["chip"]
        self.command = (
            f"photobooth run --data-dir {DATA} --camera {camera} --camera-size 640x480 --camera-fps 10 "
            f"--gpio-chip {chip} --shutter-line 0 --shutter-polarity active-high --shutter-bias pull-down "
            f"--led-line led --keypad /dev/ttyS1 --keypad-baud 9600 --screen {screen} --preview-fps 5 "
            f"--countdown {countdown} --name-timeout 60 --log-level debug {extra}")
        # What the keypad shows is read from here on: earlier scenarios wrote to it too.
        self.keypad_offset = len(vm.keypad_output())
        vm.sh_ok("ip link set lo up")  # /api/status, on the booth's default port 8080
        self.pid = vm.spawn(self.command, self.log, env=env)
        self.wait(r"Keypad /dev/ttyS1 is listening", timeout=60)

    def keypad_shows(self, regex: bytes, timeout: float = 30):
        """Waits for the keypad's echo to show `regex` after what it showed before."""
        match, self.keypad_offset = self.vm.keypad_wait_for(regex, timeout=timeout, after=self.keypad_offset)
        return match

    def logged(self, regex: str, timeout: float = 60):
        """Waits for a line anywhere in this booth's log (lines written while starting up)."""
        return self.vm.wait_for_log(self.log, regex, timeout=timeout)[0]

    def wait(self, regex: str, timeout: float = 60):
        match, self.offset = self.vm.wait_for_log(self.log, regex, timeout=timeout, after=self.offset)
        return match

    def moved(self, source: str | None, target: str, timeout: float = 60):
        """Waits for the log's transition line `SOURCE -> TARGET (` (None: from any state)."""
        return self.wait(transition(source, target), timeout=timeout)

    def status(self) -> dict:
        """`/api/status`, fetched in the guest (with `timeout`: busybox's wget -T crashes)."""
        return json.loads(self.vm.sh_ok("timeout 10 wget -q -O- http://127.0.0.1:8080/api/status", timeout=20))

    def ready(self):
        """Waits until the booth shows the main screen with a working camera: its log's move
        to idle, then `/api/status` saying so."""
        self.moved(None, "idle", timeout=90)
        status = self.status()
        check(status["state"] == "idle" and status["camera_connected"], f"not ready after moving to idle: {status}")

    def saved(self, timeout: float = 60) -> tuple[str, str]:
        """Waits for the next `saved ID "CAPTION"` line; returns (id, default caption)."""
        match = self.wait(SAVED.pattern, timeout=timeout)
        return match.group(1), unquote(match.group(2))

    def named(self, photo: str, timeout: float = 60) -> str:
        """Waits for the `named ID "NAME"` line of `photo`; returns the name."""
        while True:
            match = self.wait(NAMED.pattern, timeout=timeout)
            if match.group(1) == photo:
                return unquote(match.group(2))

    def press(self):
        """A clean push of the button: the line goes high, then low again."""
        self.vm.gpio_set_pull(0, "pull-up")
        self.vm.gpio_set_pull(0, "pull-down")

    def take_photo(self, keys: bytes, out: Path | None = None, shots: str = "") -> str:
        """Press, wait for the name prompt, type `keys`; returns the saved photo's id."""
        self.press()
        self.moved("idle", "countdown")
        if out is not None:
            self.vm.screendump(out / f"{shots}countdown.png")
        self.moved(None, "naming")
        self.vm.keypad_send(keys)
        return self.saved()[0]

    def stop(self):
        self.vm.kill_pid(self.pid, "TERM")
        status = self.vm.wait_exit(self.log, timeout=60)
        check(status == 0, f"photobooth exited with {status}\n{self.vm.read_log(self.log)[-2000:]}")

    def presses(self) -> int:
        return len(re.findall(r"Shutter pressed at", self.vm.read_log(self.log)))


def transition(source: str | None, target: str) -> str:
    """The regular expression of the log's line for a change of state (harness.booth.STATE)."""
    any_state = STATE.pattern.split(" -> ")[0].removeprefix(r"\] ")
    return rf"\] {re.escape(source) if source else any_state} -> {re.escape(target)} \("


def photos(vm: VM) -> list[dict]:
    return json.loads(vm.sh_ok(f"photobooth list --json --data-dir {DATA} 2>/dev/null"))


def fetch(vm: VM, photo: dict, name: str) -> bytes:
    """The photo's original, copied through the share."""
    host, guest = vm.share_path(f"booth/{name}")
    vm.sh_ok(f"cp {shlex.quote(photo['file'])} {guest}")
    return host.read_bytes()


def difference(a: Image.Image, b: Image.Image, box) -> float:
    """Mean absolute difference of two screendumps inside box (x0, y0, x1, y1), 0-255."""
    diff = ImageChops.difference(a.convert("RGB").crop(box), b.convert("RGB").crop(box))
    return sum(ImageStat.Stat(diff).mean) / 3


def centre(image: Image.Image, fraction: float = 0.5):
    w, h = image.size
    return (int(w * (1 - fraction) / 2), int(h * (1 - fraction) / 2), int(w * (1 + fraction) / 2), int(h * (1 + fraction) / 2))


def mean_colour(image: Image.Image, box) -> tuple:
    return tuple(round(c) for c in ImageStat.Stat(image.convert("RGB").crop(box)).mean)


def screen_shows(vm: VM, path: Path, condition, settled: bool = False, timeout: float = 30) -> Image.Image:
    """Screendumps until `condition(image)` holds (and, with `settled`, the screen has stopped
    changing: two screendumps in a row are the same, since the screen draws every key as it
    arrives, after the keypad's echo) or the timeout passes; returns the last one, which the
    caller checks."""
    deadline = time.monotonic() + timeout
    previous = None
    while True:
        image = vm.screendump(path).convert("RGB")
        still = not settled or (previous is not None and difference(previous, image, (0, 0) + image.size) < 0.5)
        if (condition(image) and still) or time.monotonic() > deadline:
            return image
        previous = image
        time.sleep(0.2)


ACCENT = (255, 184, 28)

# The naming screen's text field at 1280x800 (ScreenPainter's layout), inside its border, and a
# point on its accent border.
NAME_BOX = (80, 580, 1200, 690)
NAME_BORDER = (65, 632)
# Where the naming screen shows the photo just taken at 1280x800: its top three fifths.
NAMING_PHOTO = (64, 16, 1216, 472)


def white_pixels(image: Image.Image, box) -> int:
    """How many pixels in box are white: typed text (the placeholder is grey)."""
    # A channel's plane at a time, not getdata() (deprecated in Pillow 12, gone in 14).
    red, green, blue = (channel.tobytes() for channel in image.convert("RGB").crop(box).split())
    return sum(1 for r, g, b in zip(red, green, blue) if min(r, g, b) > 235)


def reddish(pixel) -> bool:
    """The fixture frame's red signature (220, 30, 30), give or take JPEG and scaling."""
    red, green, blue = pixel[:3]
    return red > 170 and green < 80 and blue < 80


def red_quarter(image: Image.Image, box):
    """The bounds (x0, y0, x1, y1) of the reddish pixels inside box, in screen coordinates:
    where the screen shows the fixture frame's red top-left quarter. None when there are none."""
    red, green, blue = image.convert("RGB").crop(box).split()
    mask = ImageChops.multiply(ImageChops.multiply(red.point(lambda v: 255 if v > 170 else 0),
                                                   green.point(lambda v: 255 if v < 80 else 0)),
                               blue.point(lambda v: 255 if v < 80 else 0))
    bounds = mask.getbbox()
    return None if bounds is None else (bounds[0] + box[0], bounds[1] + box[1], bounds[2] + box[0], bounds[3] + box[1])


def shows_photo(image: Image.Image, box, width: int, height: int) -> bool:
    """Whether the screen shows the fixture photo inside box, its red quarter at least width x
    height pixels: the photo, large, not a blank place nor a thumbnail."""
    bounds = red_quarter(image, box)
    return bounds is not None and bounds[2] - bounds[0] >= width and bounds[3] - bounds[1] >= height


def is_accent(pixel) -> bool:
    return all(abs(c - a) < 10 for c, a in zip(pixel[:3], ACCENT))


def naming_with_photo(image: Image.Image) -> bool:
    """The naming screen, with the photo just taken above the name field (608x456 for a 4:3
    photo at 1280x800: its red quarter about 304x228)."""
    return is_accent(image.getpixel(NAME_BORDER)) and shows_photo(image, NAMING_PHOTO, 280, 210)


def saved_frame(vm: VM, photo: dict, fed: list[str], out: Path, strict: bool = False) -> str:
    """Which fed frame the photo is: byte for byte, or (unless strict) for a frame without
    Huffman tables, repaired when saved, the same pixels."""
    saved = fetch(vm, photo, f"{photo['id']}.jpg")
    (out / f"mjpeg-{photo['caption']}.jpg").write_bytes(saved)
    originals = {name: (vm.fixtures / name).read_bytes() for name in fed}
    same = [name for name, data in originals.items() if data == saved]
    if not same and not strict:
        pixels = Image.open(io.BytesIO(saved)).convert("RGB").tobytes()
        same = [name for name, data in originals.items()
                if Image.open(io.BytesIO(data)).convert("RGB").tobytes() == pixels]
    check(same, f"the photo {photo['caption']} is none of the frames fed to the camera ({fed})")
    return same[0]


@scenario(timeout=900)
def mjpeg_camera(vm: VM, out: Path) -> None:
    """MJPEG webcam: the saved original is the frame fed (byte for byte; for a frame without
    Huffman tables, the same pixels), with the name typed on the keypad; the light follows the
    booth; screendumps of the main screen, countdown and naming show each state."""
    vm.gpio_sim_setup()
    camera = vm.load_loopback()
    # One frame over and over: the preview holds still, so screendumps differ only by what the
    # booth draws over it.
    vm.start_feeder("MJPG", 640, 480, 10, ["frame-1.jpg"])
    # A long countdown: the screendumps are slow under emulation.
    booth = Booth(vm, "mjpeg", camera, countdown=6)
    booth.ready()
    main = screen_shows(vm, out / "screen-main.png", lambda image: reddish(image.getpixel((373, 200))))
    check(reddish(main.getpixel((373, 200))), "the main screen does not show the camera's red frame")
    check(vm.gpio_read_value(1) == 1, "the light is off on the main screen")

    booth.press()
    booth.moved("idle", "countdown")
    # The light blinks during the countdown: sampled a few times, it is seen both on and off.
    samples = set()
    deadline = time.monotonic() + 3  # well inside the 6 s countdown
    while samples != {0, 1} and time.monotonic() < deadline:
        samples.add(vm.gpio_read_value(1))
    check(samples == {0, 1}, f"the light read {samples} during the countdown, expected blinking")
    countdown = screen_shows(
        vm, out / "screen-countdown.png",
        lambda image: reddish(image.getpixel((373, 200))) and difference(main, image, centre(main, 0.4)) > 8)
    booth.moved(None, "naming")
    check(vm.gpio_read_value(1) == 0, "the light is on while a name is typed")
    booth.keypad_shows(rb"Your photo is on the screen\.\r\nName your photo")
    # The naming screen shows the photo just taken, large, once its one decode is done.
    naming_empty = screen_shows(vm, out / "screen-naming-empty.png", naming_with_photo, settled=True)
    vm.keypad_send(b"Anna")
    booth.keypad_shows(rb"Name: Anna")
    naming = screen_shows(vm, out / "screen-naming-anna.png", lambda image: difference(naming_empty, image, centre(main, 0.8)) > 1, settled=True)
    vm.keypad_send(b"\r")
    photo_id, _ = booth.saved()
    check(booth.named(photo_id) == "Anna", "the typed name was not kept")
    booth.moved(None, "saved")
    booth.keypad_shows(rb"Saved as Anna")
    saved = screen_shows(vm, out / "screen-saved.png",
                         lambda image: difference(naming, image, centre(main)) > 8 and shows_photo(image, (0, 0, 1280, 480), 240, 180),
                         settled=True)
    booth.stop()

    check(reddish(countdown.getpixel((373, 200))) and difference(main, countdown, centre(main, 0.4)) > 8,
          "the countdown digit does not show over the live preview")
    check(difference(main, naming_empty, centre(main)) > 8, "the naming screen looks like the main screen")
    check(naming_with_photo(naming_empty), "the naming screen does not show the photo just taken above the name field")
    check(naming_with_photo(naming), "the photo went from the naming screen while the name was typed")
    check(difference(naming_empty, naming, centre(naming, 0.8)) > 1, "the typed name does not show on the screen")
    check(white_pixels(naming, NAME_BOX) > 2000 > white_pixels(naming_empty, NAME_BOX),
          "the name box does not show the typed name in white (the placeholder is grey)")
    check(difference(naming, saved, centre(main)) > 8, "the saved screen looks like the naming screen")
    # Without a link, the photo (512x384) stands centred over "Saved as Anna".
    quarter = red_quarter(saved, (0, 0, 1280, 480))
    check(shows_photo(saved, (0, 0, 1280, 480), 240, 180) and quarter[0] > 320,
          f"the saved screen does not show the photo centred over its name (red quarter {quarter})")

    [photo] = photos(vm)
    check(photo["id"] == photo_id and photo["caption"] == "Anna", f"catalog row: {photo}")
    check((photo["width"], photo["height"]) == (640, 480), f"size {photo['width']}x{photo['height']}")
    saved_frame(vm, photo, ["frame-1.jpg"], out, strict=True)  # it has its tables: byte for byte

    # A camera that leaves the Huffman tables out, as most MJPEG webcams do.
    vm.stop_feeders()
    vm.start_feeder("MJPG", 640, 480, 10, ["frame-5-nodht.jpg"], log_name="loopback-feed-2.log")
    booth = Booth(vm, "mjpeg-nodht", camera, fresh=False)
    booth.ready()
    booth.take_photo(b"NoDHT\r")
    booth.stop()
    photo = next(p for p in photos(vm) if p["caption"] == "NoDHT")
    saved_frame(vm, photo, ["frame-5-nodht.jpg"], out)


@scenario(timeout=400)
def yuyv_camera(vm: VM, out: Path) -> None:
    """Raw webcam (vivid offers YUYV, no MJPEG): the shot is encoded once as a valid JPEG of the
    camera's size; Escape keeps the default name."""
    vm.gpio_sim_setup()
    camera = vm.load_vivid()
    booth = Booth(vm, "yuyv", camera)
    booth.logged(r"Camera /dev/video0 .*: YUYV 640x480")
    booth.ready()
    booth.take_photo(b"\x1b")
    booth.stop()
    [photo] = photos(vm)
    check(photo["caption"] == "Photo 1", f"Escape should keep the default name: {photo}")
    image = Image.open(io.BytesIO(fetch(vm, photo, "yuyv-photo.jpg")))
    image.load()
    check(image.format == "JPEG" and image.size == (640, 480), f"saved {image.format} {image.size}")
    image.save(out / "yuyv-photo.png")


@scenario(timeout=400)
def bayer_camera(vm: VM, out: Path) -> None:
    """A Bayer-only camera (BA81 is the only format offered) is read through libv4l2's
    conversion; the photo's quadrants have the colours of the fed pattern."""
    manifest = json.loads((vm.fixtures / "manifest.json").read_text())
    bayer = manifest["bayer"][0]
    vm.gpio_sim_setup()
    camera = vm.load_loopback()
    vm.start_feeder("BA81", 640, 480, 10, [bayer["file"]])
    booth = Booth(vm, "bayer", camera)
    booth.logged(r"through libv4l2")
    booth.ready()
    booth.take_photo(b"Bayer\r")
    booth.stop()
    [photo] = photos(vm)
    image = Image.open(io.BytesIO(fetch(vm, photo, "bayer-photo.jpg"))).convert("RGB")
    image.save(out / "bayer-photo.png")
    check(image.size == (640, 480), f"size {image.size}")
    for quadrant, expected in bayer["quadrants"].items():
        x0, y0, x1, y1 = manifest["quadrants"][quadrant]
        inset = ((x1 - x0) // 4, (y1 - y0) // 4)
        got = mean_colour(image, (x0 + inset[0], y0 + inset[1], x1 - inset[0], y1 - inset[1]))
        check(all(abs(g - e) < 60 for g, e in zip(got, expected)), f"{quadrant}: expected {expected}, got {got}")


@scenario(timeout=400)
def button_chatter(vm: VM, out: Path) -> None:
    """Ten edges within a few milliseconds are one press; a button held through the countdown
    does not press again."""
    vm.gpio_sim_setup()
    camera = vm.load_vivid()
    booth = Booth(vm, "chatter", camera)
    booth.ready()
    elapsed = vm.gpio_chatter(0, 10)
    (out / "chatter.txt").write_text(f"10 edges took {elapsed} us in the guest\n")
    booth.moved("idle", "countdown")
    booth.moved(None, "naming")
    check(booth.presses() == 1, f"{booth.presses()} presses from one bouncing push ({elapsed} us)")
    vm.keypad_send(b"\r")
    booth.moved(None, "saved")
    booth.moved("saved", "idle", timeout=60)
    vm.gpio_set_pull(0, "pull-up")  # pressed and held
    booth.moved("idle", "countdown")
    booth.moved(None, "naming")
    vm.keypad_send(b"\r")
    booth.moved("saved", "idle", timeout=60)
    # Still held, back on the main screen: no new countdown may start.
    try:
        booth.moved("idle", "countdown", timeout=5)
        raise AssertionError("a held button started a second countdown")
    except VMTimeout:
        pass
    vm.gpio_set_pull(0, "pull-down")
    check(booth.presses() == 2, f"a held button pressed {booth.presses() - 1} times")
    countdowns = [m for m in STATE.finditer(vm.read_log(booth.log)) if m.group(2) == "countdown"]
    check(len(countdowns) == 2, f"{len(countdowns)} countdowns from two pushes")
    booth.stop()


@scenario(timeout=400)
def mode_button(vm: VM, out: Path) -> None:
    """A boomerang's own button on a gpio-sim line (shutter.boomerang_line): one push, one
    countdown, a burst of frames, and a looping GIF named on the keypad, listed as a boomerang;
    the shutter button still takes a photo; `doctor` checks the button's line."""
    vm.gpio_sim_setup(names={0: "shutter", 1: "led", 2: "bounce"})
    camera = vm.load_vivid()
    vm.sh_ok("printf 'shutter:\\n  boomerang_line: bounce\\nbooth:\\n  animation_frames: 4\\n' > /tmp/modes.yaml")
    booth = Booth(vm, "modes", camera, extra="--config /tmp/modes.yaml")
    booth.logged(r"Boomerang button on ")
    booth.ready()
    vm.gpio_set_pull(2, "pull-up")
    vm.gpio_set_pull(2, "pull-down")
    booth.moved("idle", "countdown")
    booth.moved(None, "naming")
    vm.keypad_send(b"Bo\r")
    photo, _ = booth.saved()
    check(booth.named(photo) == "Bo", "the boomerang was not named")
    booth.moved("saved", "idle", timeout=60)
    booth.take_photo(b"Al\r")
    booth.stop()
    listed = {p["caption"]: p for p in photos(vm)}
    bounce = listed.get("Bo", {})
    check(bounce.get("kind") == "boomerang" and bounce.get("file", "").endswith(".gif") and len(bounce.get("parts", [])) == 4,
          f"the boomerang button made {bounce}")
    check(listed.get("Al", {}).get("kind") == "photo", f"the shutter made {listed.get('Al')}")
    gif = fetch(vm, bounce, "bounce.gif")
    (out / "bounce.gif").write_bytes(gif)
    check(gif.startswith(b"GIF89a") and b"NETSCAPE2.0" in gif, "the boomerang is not a looping GIF")
    # `doctor` checks the mode's button as it checks the shutter's.
    doctor = booth.command.replace("photobooth run", "photobooth doctor", 1).replace("--log-level debug", "")
    status, report = vm.sh(doctor, timeout=120)
    (out / "doctor-modes.txt").write_text(report)
    check(status == 0 and re.search(r"^PASS boomerang button: .*bounce", report, re.M), f"doctor on the boomerang's button:\n{report}")


@scenario(timeout=600)
def camera_unplug(vm: VM, out: Path) -> None:
    """The camera goes away during the preview and during a countdown: the booth shows the
    fault, comes back by itself when the camera returns, and the next press saves a photo."""
    vm.gpio_sim_setup()
    camera = vm.load_vivid()
    # A long countdown: the unplug must land inside it, however slow the emulated guest is.
    booth = Booth(vm, "unplug", camera, countdown=10)
    booth.ready()
    fault = Image.new("RGB", (1280, 800))
    for moment in ("preview", "countdown"):
        if moment == "countdown":
            booth.press()
            booth.moved("idle", "countdown")
        # The screen draws a moment after the state changes: wait until the last fault is gone.
        before = screen_shows(vm, out / f"screen-before-unplug-{moment}.png",
                              lambda image: difference(fault, image, centre(image)) > 8)
        # Unbinding the driver is what unplugging a USB camera does: the node goes away while
        # the booth holds it open (rmmod would refuse, the module being in use).
        vm.sh_ok("echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind")
        booth.moved("idle" if moment == "preview" else "countdown", "fault(cameraMissing)")
        fault = screen_shows(vm, out / f"screen-unplugged-{moment}.png",
                             lambda image: difference(before, image, centre(before)) > 8)
        check(difference(before, fault, centre(before)) > 8, f"the screen did not change when unplugged during the {moment}")
        check(vm.gpio_read_value(1) == 0, "the light is on in a fault")
        status = booth.status()
        check(status["state"] == "fault(cameraMissing)" and not status["camera_connected"],
              f"/api/status without the camera: {status}")
        vm.sh_ok("echo vivid.0 > /sys/bus/platform/drivers/vivid/bind")
        booth.moved("fault(cameraMissing)", "idle", timeout=90)
        status = booth.status()
        check(status["state"] == "idle" and status["camera_connected"], f"/api/status with the camera back: {status}")
    booth.take_photo(b"Back\r")
    booth.stop()
    check([p["caption"] for p in photos(vm)] == ["Back"], "the photo after the unplugs was not saved")


@scenario(timeout=400)
def phone_keypad(vm: VM, out: Path) -> None:
    """A 12-key keypad: multi-tap letters make the name, # saves; garbage bytes and broken UTF-8
    on the line are logged and do not crash the booth."""
    vm.gpio_sim_setup()
    camera = vm.load_vivid()
    booth = Booth(vm, "phone", camera, extra="--keypad-layout phone")
    booth.ready()
    vm.keypad_send(b"\x00\xff\xfe\x07garbage\xc3")
    booth.wait(r"bytes that are no key")
    booth.press()
    booth.moved(None, "naming")
    # A phone keypad's digits mean letters only once the keypad shows the name prompt (before it,
    # 2 is "up"); a person types after seeing it, and so does this test.
    booth.keypad_shows(rb"Name: ")
    # One tap at a time, as a person types: each read is a separate batch of bytes.
    for tap, shown in [(b"2", b"a"), (b"2", b"b"), (b"3", b"bd"), (b"3", b"be"), (b"6", b"bem"), (b"6", b"ben")]:
        vm.keypad_send(tap)
        booth.keypad_shows(rb"Name: " + shown + rb"[ \r]")
    vm.keypad_send(b"#")
    photo_id, _ = booth.saved()
    check(booth.named(photo_id) == "ben", "the name typed with multi-tap was not kept")
    booth.stop()
    check([p["caption"] for p in photos(vm)] == ["ben"], f"phone keypad typed {[p['caption'] for p in photos(vm)]}")


@scenario(timeout=300)
def doctor(vm: VM, out: Path) -> None:
    """`photobooth doctor` passes with every part present and fails, naming the camera and its
    fix, without it."""
    vm.gpio_sim_setup()
    camera = vm.load_vivid()
    chip = vm.gpio["chip"]
    command = (f"photobooth doctor --data-dir {DATA} --camera {camera} --camera-size 640x480 --gpio-chip {chip} "
               f"--shutter-line shutter --shutter-bias pull-down --shutter-polarity active-high --led-line led "
               f"--keypad /dev/ttyS1 --screen /dev/fb0")
    status, report = vm.sh(command, timeout=120)
    (out / "doctor-all.txt").write_text(report)
    check(status == 0, f"doctor failed with every part present:\n{report}")
    check(report.count("PASS") >= 6 and "FAIL" not in report, report)
    vm.unload_vivid()
    status, report = vm.sh(command, timeout=120)
    (out / "doctor-no-camera.txt").write_text(report)
    check(status == 1, f"doctor exited {status} without a camera:\n{report}")
    check(re.search(r"^FAIL camera: .*Fix: ", report, re.M), f"no FAIL line for the camera:\n{report}")


# The gallery's list at 1280x800 (ScreenPainter's layout): the first row's frame, its accent bar
# and its thumbnail box.
ROW_0 = (64, 112, 1216, 218)
ROW_0_BAR = (64, 112, 70, 218)
ROW_0_THUMBNAIL = (84, 122, 213, 208)


def qr_square(image: Image.Image):
    """The bounds (x0, y0, x1, y1) of the pure white pixels, None when there are none: on the
    saved screen only the QR code (with its quiet zone) is pure white."""
    channels = [channel.point(lambda v: 255 if v == 255 else 0) for channel in image.convert("RGB").split()]
    return ImageChops.multiply(ImageChops.multiply(channels[0], channels[1]), channels[2]).getbbox()


def qr_modules(image: Image.Image, box) -> tuple[int, list[list[bool]], int]:
    """Reads the QR code in box back as modules: (module size in pixels, the dark modules row by
    row, how many pixels differ from their module's colour)."""
    x0, y0, x1, _ = box
    rgb = image.convert("RGB")
    # The top left finder's dark ring starts 4 modules (the quiet zone) in, on the diagonal.
    first_dark = next(i for i in range(x1 - x0) if rgb.getpixel((x0 + i, y0 + i)) == (0, 0, 0))
    module = first_dark // 4
    count = (x1 - x0) // module
    dark, stray = [], 0
    for my in range(count):
        line = []
        for mx in range(count):
            colour = rgb.getpixel((x0 + mx * module + module // 2, y0 + my * module + module // 2))
            line.append(colour == (0, 0, 0))
            stray += sum(1 for y in range(y0 + my * module, y0 + (my + 1) * module)
                         for x in range(x0 + mx * module, x0 + (mx + 1) * module) if rgb.getpixel((x, y)) != colour)
        dark.append(line)
    return module, dark, stray


@scenario(timeout=900)
def gallery(vm: VM, out: Path) -> None:
    """The view key on the serial keypad opens the gallery on the framebuffer: the list with the
    photo's thumbnail and the selection, Enter the photo full screen (letterboxed), Escape back to
    the list and to the main screen. The "Saved as" screen shows a QR code of the photo page's
    link when the booth has one to give (pixel-exact modules, and zbarimg reads it when the host
    has it), and no code when it has none."""
    import shutil
    import subprocess

    vm.gpio_sim_setup()
    camera = vm.load_loopback()
    vm.start_feeder("MJPG", 640, 480, 10, ["frame-1.jpg"])
    # The guest has no network address of its own: the QR code's link comes from --public-url.
    booth = Booth(vm, "gallery", camera, extra="--public-url http://booth.test:8080")
    booth.ready()
    main = screen_shows(vm, out / "screen-main.png", lambda image: reddish(image.getpixel((373, 200))))
    check(reddish(main.getpixel((373, 200))), "the main screen does not show the camera's red frame")

    photo_id = booth.take_photo(b"Anna\r")
    booth.moved(None, "saved")
    link = booth.wait(r"Saved screen of [0-9a-f-]{36}: photo page (\S+)$").group(1)
    has_link = link != "none"
    # The log names the photo's page, never the guest's key to delete it.
    check(link == f"http://booth.test:8080/photos/{photo_id}", f"the log names {link}, not the photo's page alone")

    def shows_saved(image: Image.Image) -> bool:
        # Every other screen the booth shows around it has pure white (text, the camera's frame);
        # the saved screen has none but its QR code, a square about 40% of the height.
        square = qr_square(image)
        if not has_link:
            return square is None and shows_photo(image, (0, 0, 1280, 480), 240, 180)
        return (square is not None and square[2] - square[0] == square[3] - square[1] > 800 * 0.33
                and shows_photo(image, (0, 0, square[0], 480), 240, 180))

    saved = screen_shows(vm, out / "screen-saved.png", shows_saved, settled=True)
    square = qr_square(saved)
    if has_link:
        check(square is not None, f"the saved screen shows no QR code for {link}")
        x0, y0, x1, y1 = square
        check(x1 - x0 == y1 - y0 and 800 * 0.33 < y1 - y0 <= 800 * 0.40,
              f"the QR code's square {square} is not about 40% of the screen's height")
        check(x0 > 640, f"the QR code {square} is not on the right of the caption")
        check(shows_photo(saved, (0, 0, x0, 480), 240, 180), "the saved screen does not show the photo left of the QR code")
        module, dark, stray = qr_modules(saved, square)
        check(stray == 0, f"{stray} pixels of the QR code differ from their module: modules are not whole pixels")
        check(all(not any(line) for line in dark[:4] + dark[-4:]), "no white quiet zone of 4 modules above and below")
        (out / "qr.txt").write_text(f"{link}\nmodule {module} px, {len(dark)} modules with the quiet zone\n")
        if shutil.which("zbarimg"):
            scanned = subprocess.run(["zbarimg", "--quiet", "--raw", str(out / "screen-saved.png")],
                                     capture_output=True, text=True)
            # The booth's own screen is the guest's: its code carries the key to delete the
            # photo (128 bits: 22 characters of base64url).
            check(re.fullmatch(re.escape(link) + r"\?key=[A-Za-z0-9_-]{22}", scanned.stdout.strip()) is not None,
                  f"zbarimg read {scanned.stdout.strip()!r}, expected {link!r} with the guest's key")
        else:
            check(False, "zbarimg is not installed on the host (apt-get install zbar-tools): the QR code was not scanned")
    else:
        check(square is None, "a QR code on the saved screen of a booth without a link")
        (out / "qr.txt").write_text("The booth has no photo link configured: the saved screen shows no QR code.\n")

    booth.moved("saved", "idle", timeout=60)
    vm.keypad_send(b"v")
    booth.moved("idle", "gallery")
    booth.keypad_shows(rb"1/1 Anna")
    check(vm.gpio_read_value(1) == 1, "the light is off in the gallery, where the button takes a photo")
    listed = screen_shows(vm, out / "screen-gallery.png",
                          lambda image: reddish(image.getpixel((120, 143))) and not reddish(image.getpixel((373, 200))),
                          settled=True)
    check(reddish(listed.getpixel((120, 143))), "the first row does not show the photo's thumbnail (red quarter)")
    check(not reddish(listed.getpixel((373, 200))), "the list still shows the live preview")
    bar = mean_colour(listed, ROW_0_BAR)
    check(is_accent(bar), f"the selected row has no accent bar: {bar}")
    check(white_pixels(listed, (ROW_0_THUMBNAIL[2], ROW_0[1], ROW_0[2], ROW_0[3])) == 0,
          "the selected row's caption is drawn in the accent colour, not white")

    vm.keypad_send(b"\r")
    booth.moved("gallery", "photo")
    booth.keypad_shows(rb"View 1/1 Anna")
    full = screen_shows(vm, out / "screen-photo.png",
                        lambda image: reddish(image.getpixel((373, 200))) and difference(listed, image, centre(image)) > 8,
                        settled=True)
    # 640x480 on 1280x800: 1067x800, black bars of 106 px left and right.
    check(reddish(full.getpixel((373, 200))), "the full-screen photo does not show the red quarter where expected")
    check(mean_colour(full, (0, 0, 100, 680)) == (0, 0, 0), "no black bar left of the 4:3 photo")
    check(mean_colour(full, (1180, 0, 1280, 680)) == (0, 0, 0), "no black bar right of the 4:3 photo")

    vm.keypad_send(b"\x1b")
    booth.moved("photo", "gallery")
    back = screen_shows(vm, out / "screen-gallery-again.png",
                        lambda image: difference(listed, image, (0, 0) + image.size) < 0.5, settled=True)
    check(difference(listed, back, (0, 0) + back.size) < 0.5, "Back from the photo does not show the same list")

    vm.keypad_send(b"\x1b")
    booth.moved("gallery", "idle")
    again = screen_shows(vm, out / "screen-main-again.png", lambda image: reddish(image.getpixel((373, 200))))
    check(reddish(again.getpixel((373, 200))), "Back from the list does not show the main screen's live preview")
    booth.stop()
    [photo] = photos(vm)
    check(photo["id"] == photo_id and photo["caption"] == "Anna", f"catalog row: {photo}")
