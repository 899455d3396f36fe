"""The kit proves itself: every simulated device works in the guest, without photobooth."""
import json
import re
from pathlib import Path

from PIL import Image

from photobooth_vm import FB_BPP, FB_HEIGHT, FB_WIDTH, VM, scenario


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def raw_webcam(vm: VM, out: Path) -> None:
    """vivid gives /dev/video0, delivers frames, and goes away when unloaded (unplug)."""
    node = vm.load_vivid()
    name = vm.sh_ok("cat /sys/class/video4linux/video0/name").strip()
    check("vivid" in name, f"/dev/video0 is '{name}', expected a vivid device")
    host_dir, guest_dir = vm.share_path("devices/vivid")
    host_dir.mkdir(exist_ok=True)
    grab = vm.sh_ok(f"v4l2-grab {node} {guest_dir}/frame 2 10000", timeout=30)
    (out / "vivid-grab.txt").write_text(grab)
    fmt = re.search(r"format (\S+) (\d+)x(\d+) bytesperline \d+ sizeimage (\d+)", grab)
    check(fmt, f"v4l2-grab printed no format:\n{grab}")
    sizeimage = int(fmt.group(4))
    frames = re.findall(r"frame \d+ sequence \d+ bytesused (\d+)", grab)
    check(len(frames) == 2 and all(int(b) == sizeimage for b in frames),
          f"expected 2 full {fmt.group(1)} frames of {sizeimage} bytes from vivid:\n{grab}")
    vm.unload_vivid()
    status, _ = vm.sh("[ -e /dev/video0 ]")
    check(status != 0, "/dev/video0 still exists after rmmod vivid")


def loopback_webcam(vm: VM, out: Path) -> None:
    """v4l2loopback + loopback-feed: MJPEG frames (one without DHT) come back byte-identical
    (the first one padded to the buffer size), then raw BA81 frames come back identical."""
    manifest = json.loads((vm.fixtures / "manifest.json").read_text())
    host_dir, guest_dir = vm.share_path("devices/loopback")
    host_dir.mkdir(exist_ok=True)

    # MJPEG
    node = vm.load_loopback(video_nr=10)
    name = vm.sh_ok("cat /sys/class/video4linux/video10/name").strip()
    check(name == "Loopback Webcam", f"/dev/video10 is '{name}'")
    jpegs = [j["file"] for j in manifest["jpeg"]]
    check(any(not j["dht"] for j in manifest["jpeg"]), "the fixtures lack a frame without DHT")
    vm.start_feeder("MJPG", 640, 480, 10, jpegs, log_name="devices/feed-mjpg.log")
    grab = vm.sh_ok(f"v4l2-grab {node} {guest_dir}/mjpg 6 10000", timeout=40)
    (out / "mjpg-grab.txt").write_text(grab)
    check(re.search(r"format MJPG 640x480", grab), f"capture format is not MJPG 640x480:\n{grab}")
    originals = {f: (vm.fixtures / f).read_bytes() for f in jpegs}
    seen = []
    for i in range(6):
        data = (host_dir / f"mjpg-{i}").read_bytes()
        # A frame may be longer than its JPEG: padded to the buffer's size (zeros in a new
        # buffer, an earlier frame's tail in a reused one), or, on a loaded host, overwritten
        # by the feeder while the grab held it (v4l2loopback lets a writer go round the
        # buffers): a shorter JPEG over the tail of the one the buffer's size belongs to.
        # Either way the fed JPEG must come back whole and byte for byte.
        match = [f for f, o in originals.items() if data[:len(o)] == o]
        check(match, f"captured frame {i} ({len(data)} bytes) is none of the fed JPEGs")
        seen.append(match[0])
    check(len(set(seen)) >= 3, f"captured frames do not advance through the sequence: {seen}")
    (out / "mjpg-frames.txt").write_text("\n".join(seen) + "\n")
    vm.unload_loopback()

    # Bayer BA81 (reloaded: the loopback keeps its format while loaded)
    node = vm.load_loopback(video_nr=10)
    bayers = [b["file"] for b in manifest["bayer"]]
    vm.start_feeder("BA81", 640, 480, 10, bayers, log_name="devices/feed-ba81.log")
    grab = vm.sh_ok(f"v4l2-grab {node} {guest_dir}/ba81 2 10000", timeout=30)
    (out / "ba81-grab.txt").write_text(grab)
    check(re.search(r"format BA81 640x480 bytesperline 640 sizeimage 307200", grab),
          f"capture format is not BA81 640x480:\n{grab}")
    originals = {f: (vm.fixtures / f).read_bytes() for f in bayers}
    for i in range(2):
        data = (host_dir / f"ba81-{i}").read_bytes()
        check(data in originals.values(), f"captured BA81 frame {i} is none of the fed frames")
    vm.unload_loopback()
    status, _ = vm.sh("[ -e /dev/video10 ]")
    check(status != 0, "/dev/video10 still exists after unloading v4l2loopback")


def gpio(vm: VM, out: Path) -> None:
    """gpio-sim: a chip with named lines appears in /dev; pulls show in the line values; a
    burst of 10 edges ends where it started."""
    chip, dev = vm.gpio_sim_setup(lines=8, names={0: "shutter", 1: "led"})
    check(re.fullmatch(r"gpiochip\d+", chip), f"odd chip name {chip}")
    vm.sh_ok(f"[ -c /dev/{chip} ]")
    check(vm.gpio_read_value(0) == 0, "line 0 is not low at rest (pull-down)")
    vm.gpio_set_pull(0, "pull-up")
    check(vm.gpio_read_value(0) == 1, "line 0 did not go high on pull-up")
    vm.gpio_set_pull(0, "pull-down")
    check(vm.gpio_read_value(0) == 0, "line 0 did not go low on pull-down")
    us = vm.gpio_chatter(0, 10)
    check(vm.gpio_read_value(0) == 0, "line 0 did not end low after the chatter")
    check(vm.gpio_read_value(1) == 0, "the LED line (1) is not low while nothing drives it")
    (out / "gpio.txt").write_text(f"chip {chip} dev {dev}\n10 edges in {us} us\n")


def keypad(vm: VM, out: Path) -> None:
    """ttyS1 round trip: what the host types reaches the guest, and back."""
    vm.sh_ok("stty -F /dev/ttyS1 raw -echo 9600")
    pid = vm.spawn("cat /dev/ttyS1", "devices/keypad-cat.log")
    vm.wait_fd_open(pid, "/dev/ttyS1")
    vm.keypad_send(b"hello keypad 0123456789*#\n")
    vm.wait_for_log("devices/keypad-cat.log", r"^hello keypad 0123456789\*#$", timeout=15)
    vm.kill_pid(pid)
    vm.keypad_read_available()
    vm.sh_ok("echo 'from the guest' > /dev/ttyS1")
    vm.keypad_wait_for(rb"from the guest\n", timeout=15)
    vm.keypad_read_available()
    speed = vm.sh_ok("stty -F /dev/ttyS1 speed").strip()
    check(speed == "9600", f"/dev/ttyS1 speed is {speed}")


def screen(vm: VM, out: Path) -> None:
    """/dev/fb0 is 1280x800 at 32 bpp, and a screendump shows what was written to it."""
    size = vm.sh_ok("cat /sys/class/graphics/fb0/virtual_size").strip()
    bpp = vm.sh_ok("cat /sys/class/graphics/fb0/bits_per_pixel").strip()
    stride = vm.sh_ok("cat /sys/class/graphics/fb0/stride").strip()
    check(size == f"{FB_WIDTH},{FB_HEIGHT}", f"fb0 virtual_size is {size}")
    check(bpp == str(FB_BPP), f"fb0 bits_per_pixel is {bpp}")
    check(stride == str(FB_WIDTH * 4), f"fb0 stride is {stride}")
    first = vm.screendump(out / "screen-initial.png")
    check(first.size == (FB_WIDTH, FB_HEIGHT), f"screendump is {first.size}")
    check(first.convert("RGB").getextrema() == ((0, 0), (0, 0), (0, 0)),
          "the screen is not black after boot (is fbcon still drawing on it?)")

    # Four quadrants, written as XRGB8888 (little endian: B, G, R, X per pixel).
    colours = {"top_left": (255, 0, 0), "top_right": (0, 255, 0),
               "bottom_left": (0, 0, 255), "bottom_right": (255, 255, 255)}
    pattern = Image.new("RGB", (FB_WIDTH, FB_HEIGHT))
    for name, colour in colours.items():
        x0 = 0 if "left" in name else FB_WIDTH // 2
        y0 = 0 if "top" in name else FB_HEIGHT // 2
        pattern.paste(colour, (x0, y0, x0 + FB_WIDTH // 2, y0 + FB_HEIGHT // 2))
    host_raw, guest_raw = vm.share_path("devices/fb-pattern.xrgb")
    host_raw.write_bytes(pattern.convert("RGBA").tobytes("raw", "BGRA"))
    vm.sh_ok(f"cat {guest_raw} > /dev/fb0")
    shot = vm.screendump(out / "screen-pattern.png")
    check(shot.size == (FB_WIDTH, FB_HEIGHT), f"screendump is {shot.size}")
    for name, colour in colours.items():
        x = FB_WIDTH // 4 if "left" in name else 3 * FB_WIDTH // 4
        y = FB_HEIGHT // 4 if "top" in name else 3 * FB_HEIGHT // 4
        got = shot.convert("RGB").getpixel((x, y))
        check(got == colour, f"screen {name} shows {got}, expected {colour}")
    host_raw.unlink()


@scenario(needs_binary=False, timeout=240)
def devices(vm: VM, out: Path) -> None:
    """Each part on its own: raw webcam, MJPEG/Bayer webcam, GPIO, keypad UART, screen."""
    for part in (screen, keypad, gpio, raw_webcam, loopback_webcam):
        part(vm, out)
    (out / "modules.txt").write_text(vm.sh_ok("lsmod"))
