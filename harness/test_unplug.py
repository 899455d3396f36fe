"""Unplug campaign (issue 15): the release binary on real drivers in QEMU loses its camera and
its keypad at random moments of its cycle, and must neither crash nor get stuck.

    harness/run --binary .build/release/photobooth -m campaign harness/test_unplug.py [--quick] [--seed N]

The camera is vivid; it is unplugged the way a USB camera goes, by unbinding its driver while the
booth holds the node open, and plugged back by binding it (as vmtest's camera_unplug scenario
does). The keypad is a USB serial adapter (QEMU's usb-serial, the guest's ftdi_sio driver)
pulled out and put back with QMP device_del / device_add, so /dev/ttyUSB0 goes away under the
booth and comes back.

Each disconnect comes at a state chosen by the `rng` fixture: idle, countdown, capturing (aimed
at the countdown's end), naming or the gallery. After each:

- no crash: the booth's process still runs, the one started at the beginning;
- no stuck state: with the device back it returns to idle with its camera (`/api/status`), and
  takes a photo, named on the keypad (after a keypad disconnect, that name proves the keypad
  works again);
- for the camera, the time from its return (the driver bound again) to ready, `/api/status`
  saying idle with camera_connected, polled in the guest.

At the end every photo the booth acknowledged (its log's `saved` and `named` lines) is listed
by `photobooth list --json` with the caption it acknowledged. The figures go to
<out>/test_unplug/unplug.json and are printed. Full: 30 camera cycles and 10 keypad
disconnects; --quick: 5 and 2.
"""
from __future__ import annotations

import json
import statistics
import time

import pytest

from harness.booth import Acknowledgements, HarnessError
from harness.vm_fixtures import (  # noqa: F401  (fixtures)
    GuestBooth, make_pool, vm_binary, vm_env, vm_initramfs)

import photobooth_vm as pv

STATES = ("idle", "countdown", "capturing", "naming", "gallery")
COUNTDOWN = 2
KEYPAD = "/dev/ttyUSB0"
UNBIND = "echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind"
BIND = "echo vivid.0 > /sys/bus/platform/drivers/vivid/bind"
ESCAPE = b"\x1b"


@pytest.fixture(scope="module")
def unplug_pool(request, vm_env, vm_initramfs, vm_binary, artifacts):
    """A guest of its own, with the USB keypad."""
    yield from make_pool(request, vm_env, vm_initramfs, vm_binary, artifacts, usb_keypad=True)


class Stuck(Exception):
    """The booth runs but did not get back to work."""


class Campaign:
    def __init__(self, guest, booth: GuestBooth, rng, out):
        self.guest, self.booth, self.rng, self.out = guest, booth, rng, out
        self.pid = booth.pid
        self.records: list[dict] = []
        self.crashes = self.stuck = 0
        self.ready_ms: list[int] = []
        self.keypad_back_ms: list[int] = []
        self.photos = 0

    # The guest's part

    def type(self, data: bytes) -> None:
        self.guest.usb_keypad_send(data)

    def status(self) -> dict:
        status = self.booth.status()
        if status is None:
            raise Stuck(f"/api/status does not answer\n{self.booth.tail()}")
        return status

    def photo(self, name: str) -> None:
        """Press, wait for the name prompt, type `name` on the keypad; until the name is kept and
        the booth is ready again."""
        start = self.booth.offset()
        self.booth.press()
        self.booth.wait_transition(None, "naming", after=start, timeout=60)
        self.type(name.encode() + b"\r")
        self.booth.wait_named(name, after=start)
        self.booth.wait_ready()
        self.photos += 1

    def drive(self, target: str) -> None:
        """Brings the booth from ready to `target`."""
        start = self.booth.offset()
        if target in ("countdown", "capturing", "naming"):
            self.booth.press()
            self.booth.wait_transition("idle", "countdown", after=start, timeout=30)
            if target == "capturing":
                # The shot is due COUNTDOWN s after the press; capturing lasts a few tens of ms,
                # so the unplug is aimed around the countdown's end.
                time.sleep(self.rng.uniform(COUNTDOWN - 0.6, COUNTDOWN))
            elif target == "naming":
                self.booth.wait_transition(None, "naming", after=start, timeout=60)
        elif target == "gallery":
            self.type(b"v")
            self.booth.wait_transition("idle", "gallery", after=start, timeout=30)

    def leave(self, name: str, keypad_back: bool = True) -> None:
        """Whatever a guest was doing when the device went, finished as a guest would: a name
        typed, the gallery left; then until the booth waits for the camera or is ready."""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            state = self.status()["state"]
            if state == "idle" or state.startswith("fault"):
                return
            if state == "naming" and keypad_back:
                start = self.booth.offset()
                self.type(name.encode() + b"\r")
                self.booth.wait_named(name, after=start)
                self.photos += 1
            elif state in ("gallery", "photo") and keypad_back:
                self.type(ESCAPE)
            time.sleep(0.3)
        raise Stuck(f"still {self.status()['state']} 90 s after the disconnect\n{self.booth.tail()}")

    # The cycles

    def camera_cycle(self, n: int, record: dict) -> None:
        record["state_at_unplug"] = self.booth.state()
        start = self.booth.offset()
        self.guest.sh_ok(UNBIND)
        self.booth.wait_status(lambda s: not s["camera_connected"], 60, "the camera to be missed")
        record["transitions"] = [f"{a} -> {b}" for a, b in self.booth.transitions(after=start)]
        self.leave(f"U{n}")
        record["while_away"] = self.status()["state"]
        # In the guest: bind, then /api/status until idle with the camera, timed with its clock.
        output = self.guest.sh_ok(
            f"t0=$(cut -d' ' -f1 /proc/uptime); {BIND}; i=0; "
            f"while [ $i -lt 600 ]; do j=$(timeout 5 wget -q -O- http://127.0.0.1:{self.booth.port}/api/status 2>/dev/null); "
            "case \"$j\" in *'\"state\":\"idle\"'*) case \"$j\" in *'\"camera_connected\":true'*) break ;; esac ;; esac; "
            "usleep 20000; i=$((i+1)); done; "
            "echo \"$t0 $(cut -d' ' -f1 /proc/uptime)\"; echo \"$j\"", timeout=120)
        times, answer = output.strip().split("\n", 1)
        status = json.loads(answer) if answer.strip().startswith("{") else {}
        if status.get("state") != "idle" or not status.get("camera_connected"):
            raise Stuck(f"not ready after the camera came back: {answer.strip()!r}\n{self.booth.tail()}")
        t0, t1 = (float(t) for t in times.split())
        record["ready_after_return_ms"] = round((t1 - t0) * 1000)
        self.ready_ms.append(record["ready_after_return_ms"])

    def keypad_cycle(self, n: int, record: dict) -> None:
        record["state_at_unplug"] = self.booth.state()
        start = self.booth.offset()
        self.guest.usb_keypad_unplug()
        # The booth lets go of the port (it reopens it when it comes back).
        self.guest.sh_ok(f"i=0; while ls -l /proc/{self.pid}/fd 2>/dev/null | grep -q ' -> {KEYPAD}'; do "
                         "[ $i -ge 600 ] && exit 1; usleep 50000; i=$((i+1)); done", timeout=60)
        time.sleep(self.rng.uniform(0.2, 3.0))  # away for a moment
        record["transitions"] = [f"{a} -> {b}" for a, b in self.booth.transitions(after=start)]
        record["while_away"] = self.status()["state"]
        back = time.monotonic()
        self.guest.usb_keypad_plug()
        self.guest.wait_fd_open(self.pid, KEYPAD, timeout=60)
        record["keypad_back_ms"] = round((time.monotonic() - back) * 1000)
        self.keypad_back_ms.append(record["keypad_back_ms"])
        self.leave(f"K{n}")

    def run(self, n: int, device: str, target: str) -> dict:
        record = {"n": n, "device": device, "target": target}
        started = time.monotonic()
        try:
            self.booth.wait_ready()
            self.drive(target)
            (self.camera_cycle if device == "camera" else self.keypad_cycle)(n, record)
            self.booth.wait_ready()
            # Back to work: a photo, its name typed on the keypad.
            self.photo(f"{'C' if device == 'camera' else 'P'}{n}")
            record["result"] = "ok"
        except (Stuck, HarnessError, pv.VMError) as error:
            if not self.guest.alive():
                raise
            crashed = not self.booth.running()
            record["result"] = "crash" if crashed else "stuck"
            record["error"] = str(error)[-3000:]
            record["exit_status"] = self.booth.exit_status()
            if crashed:
                self.crashes += 1
            else:
                self.stuck += 1
            self.recover()
        if self.booth.pid != self.pid or not self.booth.running():
            if record["result"] == "ok":
                record["result"] = "crash"
                self.crashes += 1
                self.recover()
        record["seconds"] = round(time.monotonic() - started, 1)
        self.records.append(record)
        print(json.dumps(record), flush=True)
        return record

    def recover(self) -> None:
        """Devices back, booth started again, so that the campaign goes on and counts the rest."""
        (self.out / f"booth-run-{len(self.records) + 1}.log").write_text(self.booth.log())
        self.booth.kill()
        self.guest.sh(f"[ -e /dev/video0 ] || {BIND}")
        if self.guest.sh(f"[ -e {KEYPAD} ]")[0] != 0:
            self.guest.usb_keypad_plug()
        self.booth.start()
        self.pid = self.booth.pid
        self.booth.wait_ready(timeout=120)

    def acknowledged(self) -> dict[str, str]:
        """Every photo the booth's runs acknowledged, with the caption it last confirmed."""
        acks = Acknowledgements()
        logs = sorted((self.guest.share / "booth").glob("unplug.log.*")) + [self.guest.share / self.booth.log_name]
        for path in logs:
            if not path.name.endswith(".exit"):
                acks.read(path.read_text(errors="replace"))
        return acks.captions


def figures(values: list[int]) -> dict:
    return {"median": round(statistics.median(values)) if values else None,
            "max": max(values) if values else None, "samples": len(values)}


@pytest.mark.vm
@pytest.mark.campaign
def test_unplug(unplug_pool, out, rng, quick, request):
    if not unplug_pool.binary:
        pytest.fail("the unplug campaign runs the booth: pass --binary", pytrace=False)
    camera_cycles, keypad_disconnects = (5, 2) if quick else (30, 10)
    began = time.monotonic()
    guest = unplug_pool.shared()
    try:
        chip, _ = guest.gpio_sim_setup()
        camera = guest.load_vivid()
        booth = GuestBooth(guest, "unplug", (
            f"--camera {camera} --camera-size 640x480 --camera-fps 10 --gpio-chip {chip} --shutter-line 0 "
            f"--shutter-polarity active-high --shutter-bias pull-down --led-line led --keypad {KEYPAD} "
            f"--keypad-baud 9600 --screen /dev/fb0 --preview-fps 5 --countdown {COUNTDOWN} --name-timeout 60 "
            "--gallery-timeout 60"))
        booth.wait_ready(timeout=120)
        guest.wait_fd_open(booth.pid, KEYPAD, timeout=60)
        campaign = Campaign(guest, booth, rng, out)
        campaign.photo("Start")  # the gallery has a photo to show
        plan = ["camera"] * camera_cycles + ["keypad"] * keypad_disconnects
        rng.shuffle(plan)
        for n, device in enumerate(plan, 1):
            campaign.run(n, device, rng.choice(STATES))

        acknowledged = campaign.acknowledged()
        listed = {photo["id"]: photo["caption"] for photo in booth.photos()}
        lost = sorted(photo for photo in acknowledged if photo not in listed)
        wrong = sorted(photo for photo, caption in acknowledged.items() if photo in listed and listed[photo] != caption)
        (out / "booth.log").write_text(booth.log())
        observed: dict[str, dict[str, int]] = {}
        for record in campaign.records:
            at = observed.setdefault(f"{record['device']} at {record['target']}", {})
            at[str(record.get("state_at_unplug"))] = at.get(str(record.get("state_at_unplug")), 0) + 1
        summary = {
            "seed": rng.initial_seed,
            "quick": quick,
            "cycles": sum(1 for r in campaign.records if r["device"] == "camera"),
            "keypad_disconnects": sum(1 for r in campaign.records if r["device"] == "keypad"),
            "crashes": campaign.crashes,
            "stuck": campaign.stuck,
            "ready_after_return_ms": figures(campaign.ready_ms),
            "keypad_back_ms": figures(campaign.keypad_back_ms),
            "photos_acknowledged": len(acknowledged),
            "photos_lost": len(lost),
            "wrong_captions": len(wrong),
            "state_at_unplug": observed,
            "seconds": round(time.monotonic() - began),
            "records": campaign.records,
        }
        (out / "unplug.json").write_text(json.dumps(summary, indent=2) + "\n")
        print(json.dumps({k: v for k, v in summary.items() if k != "records"}, indent=2))
        assert campaign.crashes == 0, f"{campaign.crashes} crashes: see {out / 'unplug.json'}"
        assert campaign.stuck == 0, f"{campaign.stuck} stuck states: see {out / 'unplug.json'}"
        assert not lost and not wrong, f"acknowledged photos lost {lost}, with another caption {wrong}"
        assert booth.stop() == 0, f"the booth did not stop cleanly:\n{booth.tail()}"
    finally:
        unplug_pool.after_test()
