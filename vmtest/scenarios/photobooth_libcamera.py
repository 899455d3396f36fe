"""The booth filming through libcamera on the kernel's virtual camera, vimc (built from Debian's
kernel source by vmtest/prepare), which libcamera drives like a sensor with its image pipeline
(sensor, debayer, scaler), with Debian's libcamera-ipa for its pipeline module.

The guest runs no udev daemon, and libcamera finds its devices in udev's database: the scenario
writes the entries udevd would (/run/udev/data/cMAJOR:MINOR) after each bind of vimc.

    harness/run --binary .build/release/photobooth -k libcamera
"""
import io
import re
import sys
import time
from pathlib import Path

from PIL import Image, ImageStat

from photobooth_vm import VM, scenario

kit = sys.modules["pbvm_scenarios_photobooth"]
Booth, check, photos, fetch = kit.Booth, kit.check, kit.photos, kit.fetch

CAMERA = "libcamera:0"
# libcamera's warnings about vimc's sensor (no properties, no location) at every open.
QUIET = {"LIBCAMERA_LOG_LEVELS": "*:ERROR"}
SAVED_FRAME = re.compile(r'saved ([0-9a-f-]{36}) .*? (\d+)x(\d+) \d+ KiB: frame #(\d+) ([+-][\d.]+) ms from the shutter')


def announce_devices(vm: VM) -> None:
    """What udevd would record of vimc's media and video devices, once they are there."""
    vm.sh_ok("i=0; while [ ! -e /dev/media0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
             "rm -rf /run/udev/data; mkdir -p /run/udev/data; "
             "for d in /sys/bus/media/devices/* /sys/class/video4linux/*; do echo I:1 > /run/udev/data/c$(cat $d/dev); done")


def frames_delivered(vm: VM) -> int:
    metrics = vm.sh_ok("timeout 10 wget -q -O- http://127.0.0.1:8080/metrics", timeout=20)
    return int(re.search(r"^photobooth_camera_frames_total (\d+)$", metrics, re.M).group(1))


def frame_rate(vm: VM, seconds: float = 5) -> float:
    """The camera's frames a second, from the booth's count of delivered frames."""
    first, start = frames_delivered(vm), time.monotonic()
    time.sleep(seconds)
    return (frames_delivered(vm) - first) / (time.monotonic() - start)


@scenario(timeout=1200)
def libcamera_camera(vm: VM, out: Path) -> None:
    """A libcamera camera: doctor lists it with its modes and takes a frame; the booth films
    with it, each shot the frame whose sensor timestamp is nearest the countdown's end; vimc
    unbound, the booth says the camera is missing and keeps running; bound again, it films
    again without a restart."""
    vm.gpio_sim_setup()
    vm.sh_ok("modprobe vimc")
    announce_devices(vm)

    status, report = vm.sh(f"LIBCAMERA_LOG_LEVELS='*:ERROR' photobooth doctor --data-dir /tmp/lc-doctor --camera {CAMERA} "
                           f"--camera-size 320x240", timeout=180)
    (out / "doctor.txt").write_text(report)
    check(re.search(r'^PASS libcamera cameras: libcamera:0 "platform/vimc.0 Sensor B".*BGR888 \d+x\d+-\d+x\d+', report, re.M),
          f"doctor does not list vimc's camera with its modes:\n{report}")
    check(re.search(r"^PASS camera: libcamera:0 is \"platform/vimc.0 Sensor B\"", report, re.M), report)
    check(re.search(r"^PASS camera frames: delivered a 3\d\dx240 frame", report, re.M), f"doctor took no frame:\n{report}")

    booth = Booth(vm, "libcamera", CAMERA, env=QUIET)
    booth.ready()
    booth.logged(r"Camera libcamera:0 \(platform/vimc.0 Sensor B, Sensor B\): \d+x480-BGR888")
    rate = frame_rate(vm)
    check(rate > 0.5, f"the camera delivers {rate:.2f} frames a second")
    taken = []
    for number in range(5):
        taken.append(booth.take_photo(f"Cam{number}\r".encode()))
        booth.moved("saved", "idle", timeout=90)

    log = booth.vm.read_log(booth.log)
    shots = {match.group(1): match for match in SAVED_FRAME.finditer(log)}
    check(set(taken) <= set(shots), f"no saved line for {set(taken) - set(shots)}")
    offsets = [float(shots[photo].group(5)) for photo in taken]
    # The nearest frame is never more than a frame's time from the instant the countdown ended
    # (it would be with timestamps on another clock, or frames picked by arrival).
    period = 1000 / rate
    (out / "shots.txt").write_text(f"{rate:.2f} frames a second; offsets from the shutter (ms): {offsets}\n")
    check(all(abs(offset) <= period for offset in offsets),
          f"a shot is further than a frame ({period:.0f} ms) from the shutter: {offsets}")
    check(len({shots[photo].group(4) for photo in taken}) == len(taken), "two shots are the same frame")
    listed = {photo["id"]: photo for photo in photos(vm)}
    first = listed[taken[0]]
    check((first["width"], first["height"]) == (int(shots[taken[0]].group(2)), 480), f"size of {first}")
    picture = Image.open(io.BytesIO(fetch(vm, first, "libcamera.jpg"))).convert("RGB")
    picture.save(out / "libcamera-shot.png")
    # vimc's sensor films colour bars (white, yellow, cyan, green, magenta, red, blue, black):
    # the second is yellow and the sixth red, unless red and blue were swapped on the way.
    check(max(ImageStat.Stat(picture).stddev) > 20, "the shot is one flat colour")
    bar = picture.width / 8
    yellow, red = (picture.getpixel((int(bar * (n + 0.5)), picture.height * 7 // 8)) for n in (1, 5))
    check(yellow[0] > 150 and yellow[1] > 150 and yellow[2] < 80 and red[0] > 150 and red[1] < 80 and red[2] < 80,
          f"the colour bars are not in vimc's colours: second {yellow}, sixth {red}")

    # Unplugged: the camera's driver unbound, its devices gone.
    vm.sh_ok("echo vimc.0 > /sys/bus/platform/drivers/vimc/unbind")
    booth.moved("idle", "fault(cameraMissing)", timeout=60)
    check(not booth.status()["camera_connected"], "the booth says the camera is there after its driver went away")
    # The booth tries again while it is away, and is told there is no camera.
    booth.wait(r"Camera libcamera:0 failed: the camera process ended \(exit status 1\)", timeout=60)
    vm.sh_ok("echo vimc.0 > /sys/bus/platform/drivers/vimc/bind")
    announce_devices(vm)
    booth.moved("fault(cameraMissing)", "idle", timeout=120)
    again = booth.take_photo(b"Back\r")
    check(again in {photo["id"] for photo in photos(vm)}, "no photo after the camera came back")
    booth.stop()
