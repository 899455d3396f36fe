"""The booth on the kernel's virtual KMS driver, vkms (built from Debian's kernel source by
vmtest/prepare), with its overlay planes and its writeback connector.

The writeback connector captures what the display composed from the booth's planes, exactly as
it was scanned out: the booth attaches a writeback job to its commits when the file `count` in
PHOTOBOOTH_SCREEN_CAPTURE asks for more captures (vkms is the only display here that can say what
it showed; QEMU's screendump reads bochs, not vkms). The camera films solid frames of four
colours, so every part of the preview tells which frame it shows: a capture whose preview mixes
two frames is a torn frame.

    harness/run --binary .build/release/photobooth -k kms
"""
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from photobooth_vm import VM, scenario

kit = sys.modules["pbvm_scenarios_photobooth"]
Booth, check = kit.Booth, kit.check

# The fixture frames solid-N.jpg: the signature colours of vmtest/make_fixtures.py.
SOLID = {1: (220, 30, 30), 2: (30, 180, 60), 3: (40, 60, 220), 4: (240, 220, 40)}


def solid_frame(pixel) -> int | None:
    """Which solid fixture frame `pixel` shows (JPEG and YUV round trips move colours a little);
    None when it is something else (the booth's words, a band, a bar)."""
    for number, colour in SOLID.items():
        if sum(abs(a - b) for a, b in zip(pixel, colour)) <= 60:
            return number
    return None


def frames_shown(image: Image.Image, column: int) -> set[int]:
    """The solid frames seen down one column of a capture, every 4 rows."""
    return {n for y in range(0, image.height, 4) if (n := solid_frame(image.getpixel((column, y)))) is not None}


class Captures:
    """What the display showed, captured by the booth through vkms's writeback connector on
    request, into the 9p share."""

    def __init__(self, vm: VM):
        self.host, self.guest = vm.share_path("screen-captures")
        self.host.mkdir(parents=True, exist_ok=True)
        self.asked = 0
        (self.host / "count").write_text("0\n")

    def ask(self, count: int) -> int:
        """Asks for the next `count` commits' pictures; returns the number of the first."""
        first = self.asked
        self.asked += count
        (self.host / "count").write_text(f"{self.asked}\n")
        return first

    def since(self, first: int, least: int, timeout: float = 180) -> list[Image.Image]:
        """The pictures captured from number `first` on, once there are at least `least`."""
        deadline = time.monotonic() + timeout
        while True:
            files = sorted(self.host.glob("*.xrgb"))[first:]
            if len(files) >= least:
                return [self.image(path) for path in files]
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(files)} of {least} screen captures after {timeout} s")
            time.sleep(0.2)

    def find(self, first: int, matches, what: str, timeout: float = 180) -> tuple[int, Image.Image]:
        """The first picture captured from number `first` on for which `matches` holds, as it
        comes (a capture asked for goes to the next commit, whichever screen that shows)."""
        deadline = time.monotonic() + timeout
        looked = first
        while True:
            files = sorted(self.host.glob("*.xrgb"))
            for number in range(looked, len(files)):
                image = self.image(files[number])
                if matches(image):
                    return number, image
            looked = max(looked, len(files))
            if time.monotonic() > deadline:
                raise AssertionError(f"none of captures {first + 1}..{looked} shows {what} after {timeout} s")
            time.sleep(0.2)

    def take(self, count: int, timeout: float = 180) -> list[Image.Image]:
        """Asks for the next `count` commits' pictures and returns them once written."""
        return self.since(self.ask(count), count, timeout)[:count]

    @staticmethod
    def image(path: Path) -> Image.Image:
        width, height = map(int, re.search(r"-(\d+)x(\d+)\.xrgb$", path.name).groups())
        return Image.frombuffer("RGB", (width, height), path.read_bytes(), "raw", "BGRX", 0, 1)


def white_pixels(image: Image.Image, box) -> int:
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1, 2) for x in range(x0, x1, 2) if min(image.getpixel((x, y))) > 230)


@scenario(timeout=1200, fresh_vm=True, modules=["vkms"])
def kms_screen(vm: VM, out: Path) -> None:
    """vkms with overlay planes: the booth draws the preview on the primary plane and its words
    on an overlay plane above it, tear-free: every captured frame's preview is one camera frame,
    and the preview moves. The countdown, the review of the shot with the name typed, and the
    saved screen with its QR code (read back by zbarimg) are what the display shows. A connector
    that goes away (forced off through sysfs) is waited for; when it comes back the booth draws
    on it again by itself."""
    vm.sh_ok("modprobe vkms enable_overlay=1 enable_writeback=1")
    card = vm.sh_ok(
        "for c in /sys/class/drm/card[0-9]; do case $(readlink -f $c/device) in */vkms) echo /dev/dri/${c##*/};; esac; done"
    ).strip()
    check(re.fullmatch(r"/dev/dri/card\d", card) is not None, f"no vkms card after modprobe: {card!r}")
    # Its display connector (Virtual-N: bochs's display took a number first).
    connector = vm.sh_ok(f"ls -d /sys/class/drm/{card.rsplit('/', 1)[1]}-Virtual-*").split()[0] + "/status"
    vm.gpio_sim_setup()
    camera = vm.load_loopback()
    # Five frames a round: the preview, at half the camera's rate, shows every other frame, so
    # with four it could lock onto two of them (1, 3, 1, 3 in one CI run) and look still.
    vm.start_feeder("MJPG", 640, 480, 10, [f"solid-{n}.jpg" for n in [1, 2, 3, 4, 2]])
    captures = Captures(vm)
    booth = Booth(vm, "kms", camera, screen=card, countdown=6, extra="--public-url http://booth.test:8080",
                  env={"PHOTOBOOTH_SCREEN_CAPTURE": captures.guest})
    booth.ready()
    drawing = booth.logged(r"Drawing on (/dev/dri/card\d: Virtual-\d+ (\d+)x(\d+) at \d+ Hz, [^.\n]+)")
    (out / "display.txt").write_text(drawing.group(1) + "\n")
    check("a preview plane under an overlay plane" in drawing.group(1), f"the booth does not use vkms's overlay: {drawing.group(1)}")
    width, height = int(drawing.group(2)), int(drawing.group(3))

    # The main screen: 40 commits in a row, each a whole camera frame, and the preview moves.
    main = captures.take(40)
    seen = []
    for index, image in enumerate(main):
        frames = frames_shown(image, 16) | frames_shown(image, width - 16)
        check(len(frames) == 1, f"capture {index} of the main screen shows parts of frames {sorted(frames)}: a torn frame")
        seen.append(frames.pop())
    main[0].save(out / "kms-main.png")
    check(len(set(seen)) >= 3, f"the preview does not move: the captures show frames {seen}")
    (out / "frames-shown.txt").write_text(" ".join(map(str, seen)) + "\n")

    # The countdown: its digit in the middle, white over the moving preview.
    booth.press()
    booth.moved("idle", "countdown")
    countdown = captures.take(3)
    centre = (width * 3 // 8, height // 4, width * 5 // 8, height * 3 // 4)
    digit = max(countdown, key=lambda image: white_pixels(image, centre))
    digit.save(out / "kms-countdown.png")
    check(white_pixels(digit, centre) > 1000, "no countdown digit in the middle of the screen")
    check(len(frames_shown(digit, 16)) == 1, "the countdown does not show the camera around its digit")

    # The review of the shot: the photo just taken, and the name as it is typed. Captures go
    # to the commits as they come; the one sought is found among them.
    booth.moved(None, "naming")
    booth.keypad_shows(rb"Name your photo")
    first = captures.ask(8)
    vm.keypad_send(b"Anna")
    booth.keypad_shows(rb"Name: Anna")
    name_box = (width * 6 // 100, height * 72 // 100, width * 94 // 100, height * 86 // 100)

    def shot_shown(image: Image.Image) -> list[int]:
        return [n for n in SOLID if sum(solid_frame(image.getpixel((x, y))) == n
                                        for y in range(0, height // 2, 8) for x in range(0, width, 8)) > 200]

    def naming_screen(image: Image.Image) -> bool:
        # The screen's dark background at the corner (the camera is gone), the shot (one solid
        # frame) above, the name in white below.
        return max(image.getpixel((4, 4))) < 60 and white_pixels(image, name_box) > 300 and len(shot_shown(image)) == 1

    _, naming = captures.find(first, naming_screen, what="the naming screen with the shot above the name typed")
    naming.save(out / "kms-naming.png")

    # The saved screen, with its QR code, read back by zbarimg.
    vm.keypad_send(b"\r")
    photo_id, _ = booth.saved()
    booth.moved(None, "saved")
    link = booth.wait(r"Saved screen of [0-9a-f-]{36}: photo page (\S+)$").group(1)
    if shutil.which("zbarimg") is None:
        check(False, "zbarimg is not installed on the host (apt-get install zbar-tools): the QR code was not scanned")
    expected = re.compile(re.escape(link) + r"\?key=[A-Za-z0-9_-]{22}")
    scans = out / "kms-scan.png"

    def shows_code(image: Image.Image) -> bool:
        image.save(scans)
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(scans)], capture_output=True, text=True).stdout.split()
        return any(expected.fullmatch(code) for code in read)

    number, saved = captures.find(first, shows_code, what=f"a QR code of {link} with the guest's key", timeout=240)
    saved.save(out / "kms-saved.png")
    (out / "qr.txt").write_text(f"capture {number + 1}: {link} with the guest's key\n")
    check(link == f"http://booth.test:8080/photos/{photo_id}", f"the saved screen's link is {link}")
    booth.moved("saved", "idle", timeout=90)

    # The display goes away (the connector forced off) and comes back.
    vm.sh_ok(f"echo off > {connector}")
    booth.wait(r"the display was unplugged\. Waiting for the display to come back", timeout=60)
    vm.sh_ok(f"echo on > {connector}")
    booth.wait(r"Screen: the display is back", timeout=60)
    back = captures.take(3)
    back[-1].save(out / "kms-back.png")
    check(all(len(frames_shown(image, 16)) == 1 for image in back), "after the display came back the preview is not shown")
    booth.stop()
    check("cannot be shown" not in vm.read_log(booth.log), "the booth could not show some preview frames")
