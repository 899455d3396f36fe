"""Fixtures for the tests that run the booth on real kernel drivers in QEMU (vmtest's kit:
vmtest/photobooth_vm.py), and a booth in the guest read through its interfaces.

A test module imports the fixtures it uses (`from harness.vm_fixtures import vm, vm_pool`, with
`vm_env`, `vm_binary` and `vm_initramfs`, which they depend on): pytest finds fixtures in the
module's namespace. The initramfs is built once per session; each module boots its guest once,
the first time a test asks for it, and powers it off at the module's end, so that two guests do
not share the two cores.

    vm_pool   the module's guests: `shared()` boots once, `fresh()` boots one of its own
    vm        the shared guest for one test, put back to a fresh boot's state after it
    GuestBooth  `photobooth run` in the guest: its state transitions, saves and names from the
              log, `/api/status` and `photobooth list --json` through the guest's shell
"""
from __future__ import annotations

import atexit
import importlib.util
import json
import signal
import shutil
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.booth import NAMED, SAVED, STATE, HarnessError, unquote, wait_for

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "vmtest"
if str(KIT) not in sys.path:
    sys.path.insert(0, str(KIT))

import photobooth_vm as pv  # noqa: E402

# Every guest started, so that none outlives the session: pytest runs no fixture teardown when
# killed, and a CI timeout sends SIGTERM, which becomes a KeyboardInterrupt that does run it.
_GUESTS: list[pv.VM] = []
atexit.register(lambda: [guest.kill() for guest in _GUESTS])


def _interrupt(*_):
    raise KeyboardInterrupt("SIGTERM")


signal.signal(signal.SIGTERM, _interrupt)

# Kernel modules for a keypad on a USB serial adapter (QEMU's usb-serial is an FTDI chip),
# added to every initramfs so that the session builds one.
USB_KEYPAD_MODULES = ("xhci_pci", "ftdi_sio")


# --------------------------------------------------------------------------------------------------
# the scenarios of vmtest/scenarios
# --------------------------------------------------------------------------------------------------

@dataclass
class BrokenFile:
    """A scenario file that could not be loaded: it becomes a failing test of its own."""
    name: str
    error: str


_LOADED: list | None = None


def load_scenarios() -> list[pv.Scenario | BrokenFile]:
    """Every scenario of vmtest/scenarios/*.py in file order, and a BrokenFile for each file
    that failed to load (one broken file does not hide the others). Loaded once per session."""
    global _LOADED
    if _LOADED is not None:
        return _LOADED
    found: list[pv.Scenario | BrokenFile] = []
    for path in sorted((KIT / "scenarios").glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"pbvm_scenarios_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        before = len(pv.SCENARIOS)
        try:
            spec.loader.exec_module(module)
        except Exception:  # noqa: BLE001 - reported as the file's own failing test
            del pv.SCENARIOS[before:]
            found.append(BrokenFile(path.stem, traceback.format_exc()))
            continue
        for s in pv.SCENARIOS[before:]:
            s.file = str(path)
            found.append(s)
    _LOADED = found
    return found


def scenario_id(item: pv.Scenario | BrokenFile) -> str:
    """`file.scenario` (`photobooth.doctor`): `-k photobooth` picks a file, `-k doctor` one."""
    if isinstance(item, BrokenFile):
        return f"{item.name}.cannot-load"
    return f"{Path(item.file).stem}.{item.name}"


# --------------------------------------------------------------------------------------------------
# the guest
# --------------------------------------------------------------------------------------------------

class HarnessVM(pv.VM):
    """vmtest's guest, optionally with a keypad on a USB serial adapter that the host can unplug
    and plug back (QMP device_del / device_add): the guest's xhci and ftdi_sio drivers see a
    real USB disconnect, /dev/ttyUSB0 goes away and comes back."""

    USB_KEYPAD_ID = "keypad-usb"

    def __init__(self, *args, usb_keypad: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        _GUESTS.append(self)
        self.usb_keypad = usb_keypad
        self.usb_keypad_link: pv._SocketReader | None = None

    def qemu_command(self) -> list[str]:
        command = super().qemu_command()
        if self.usb_keypad:
            command += ["-chardev", f"socket,id=usbkp,path={self.sock_dir}/usb-keypad.sock,server=on,wait=off",
                        "-device", "qemu-xhci,id=xhci", *self._usb_keypad_device()]
        return command

    def _usb_keypad_device(self) -> list[str]:
        return ["-device", f"usb-serial,chardev=usbkp,id={self.USB_KEYPAD_ID},bus=xhci.0"]

    def start(self) -> None:
        super().start()
        if self.usb_keypad:
            try:
                self.usb_keypad_link = pv._SocketReader(self.sock_dir / "usb-keypad.sock",
                                                        self.run_dir / "usb-keypad.log")
                self.sh_ok("modprobe xhci_pci && modprobe ftdi_sio")
                self.wait_node("/dev/ttyUSB0", present=True)
            except BaseException:
                self.kill()
                raise

    def kill(self) -> None:
        super().kill()
        if self.usb_keypad_link:
            self.usb_keypad_link.close()

    def wait_node(self, node: str, present: bool, timeout: float = 20) -> None:
        test = f"[ -e {node} ]" if present else f"[ ! -e {node} ]"
        self.sh_ok(f"i=0; until {test}; do [ $i -ge {int(timeout * 20)} ] && exit 1; usleep 50000; i=$((i+1)); done",
                   timeout=timeout + 5)

    def usb_keypad_unplug(self) -> None:
        """Pulls the USB keypad out; returns once /dev/ttyUSB0 is gone."""
        self.qmp.execute("device_del", id=self.USB_KEYPAD_ID)
        self.wait_node("/dev/ttyUSB0", present=False)

    def usb_keypad_plug(self) -> None:
        """Plugs the USB keypad back in; returns once /dev/ttyUSB0 is there."""
        self.qmp.execute("device_add", driver="usb-serial", chardev="usbkp", id=self.USB_KEYPAD_ID, bus="xhci.0")
        self.wait_node("/dev/ttyUSB0", present=True)

    def usb_keypad_send(self, data: bytes) -> None:
        self.usb_keypad_link.send(data)


class GuestPool:
    """A module's guests: one shared boot, rebooted if a test left it dead or unclean, and
    boots of their own for the tests that want one."""

    def __init__(self, env: dict, initramfs: Path, run_root: Path, binary: Path | None, **vm_options):
        self.env, self.initramfs, self.run_root, self.binary = env, initramfs, run_root, binary
        self.vm_options = vm_options
        self.boots = 0
        self.boot_seconds: list[float] = []
        self._shared: HarnessVM | None = None

    def _boot(self) -> HarnessVM:
        self.boots += 1
        guest = HarnessVM(self.env, self.initramfs, self.run_root / f"vm-{self.boots}", **self.vm_options)
        guest.binary = pv.GUEST_BINARY if self.binary else None
        # The same binary on the host, for what a scenario prepares there (the sound test's
        # spoken prompts, rendered from its texts).
        guest.host_binary = self.binary
        guest.start()
        self.boot_seconds.append(guest.boot_seconds)
        return guest

    def shared(self) -> HarnessVM:
        if self._shared is None or not self._shared.alive():
            self.stop(self._shared)
            self._shared = self._boot()
        return self._shared

    def fresh(self) -> HarnessVM:
        return self._boot()

    def after_test(self) -> None:
        """vm.cleanup() on the shared guest; one it cannot clean is powered off, and the next
        test boots another."""
        if self._shared is None or not self._shared.alive():
            return
        try:
            self._shared.cleanup()
        except Exception as error:  # noqa: BLE001
            pv.log(f"cleanup failed ({error.__class__.__name__}: {error}); the next test boots a new guest")
            self.stop(self._shared)
            self._shared = None

    @staticmethod
    def stop(guest: pv.VM | None) -> None:
        if guest:
            try:
                guest.shutdown()
            finally:
                guest.kill()

    def close(self) -> None:
        self.stop(self._shared)
        self._shared = None


class Watchdog:
    """Kills the guest's QEMU once `seconds` have passed, so that a hung test ends (vmtest's
    scenario timeouts)."""

    def __init__(self, guest: pv.VM, seconds: float, what: str):
        self.fired = threading.Event()

        def expire():
            self.fired.set()
            pv.log(f"{what} exceeded {seconds} s; killing QEMU")
            guest.kill()
        self.timer = threading.Timer(seconds, expire)
        self.timer.daemon = True

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.cancel()
        return False


# --------------------------------------------------------------------------------------------------
# fixtures
# --------------------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def vm_env() -> dict:
    """vmtest/prepare's environment (the kernel, modules, helpers and fixture frames, cached in
    ~/.cache/photobooth-vm)."""
    return pv.prepare()


@pytest.fixture(scope="session")
def vm_binary(request) -> Path | None:
    """The binary put into the guest: --binary (the `binary` fixture), or none when the default
    one is not built, in which case only the scenarios that need no booth run."""
    option = request.config.getoption("--binary")
    if option == str(ROOT / ".build/release/photobooth") and not Path(option).exists():
        return None
    return request.getfixturevalue("binary")


@pytest.fixture(scope="session")
def vm_initramfs(vm_env, vm_binary, artifacts) -> Path:
    """One initramfs for the session: the cached base layer with every module a scenario asks
    for and the USB keypad's, and the binary with its libraries (the staging tree stays in
    <out>/initramfs/photobooth-root for people)."""
    scenarios = [s for s in load_scenarios() if isinstance(s, pv.Scenario)]
    modules = sorted({m for s in scenarios for m in s.modules} | set(USB_KEYPAD_MODULES))
    folder = artifacts / "initramfs"
    shutil.rmtree(folder, ignore_errors=True)
    image = pv.build_initramfs(vm_env, folder / "initramfs.cpio", str(vm_binary) if vm_binary else None, modules)
    yield image
    image.unlink(missing_ok=True)


def make_pool(request, vm_env, vm_initramfs, vm_binary, artifacts, **vm_options):
    name = request.module.__name__.rpartition(".")[2]
    run_root = artifacts / f"{name}-vm"
    shutil.rmtree(run_root, ignore_errors=True)
    pool = GuestPool(vm_env, vm_initramfs, run_root, vm_binary, **vm_options)
    yield pool
    pool.close()
    if pool.boot_seconds:
        print(f"{name}: {pool.boots} boot(s), to the control shell in "
              + ", ".join(f"{s:.1f} s" for s in pool.boot_seconds))


@pytest.fixture(scope="module")
def vm_pool(request, vm_env, vm_initramfs, vm_binary, artifacts):
    """The module's guests (GuestPool), booted on first use, powered off at the module's end;
    their console, control-shell transcript and /share are in <out>/<module>-vm/vm-N/."""
    yield from make_pool(request, vm_env, vm_initramfs, vm_binary, artifacts)


@pytest.fixture
def vm(vm_pool) -> HarnessVM:
    """The module's shared guest (booted once), back to a fresh boot's state after the test."""
    try:
        yield vm_pool.shared()
    finally:
        vm_pool.after_test()


# --------------------------------------------------------------------------------------------------
# a booth in the guest, read through its interfaces
# --------------------------------------------------------------------------------------------------

class GuestBooth:
    """`photobooth run` in the guest on its real drivers, with its web server on the guest's
    loopback. What it does is read from its log's structured lines (`A -> B (`, `saved ID
    "CAPTION"`, `named ID "NAME"`), its `/api/status` (fetched with the guest's wget) and
    `photobooth list --json`."""

    def __init__(self, guest: HarnessVM, name: str, arguments: str, data: str = "/tmp/booth", port: int = 8080):
        self.guest, self.data, self.port = guest, data, port
        self.log_name = f"booth/{name}.log"
        self.arguments = arguments
        guest.sh_ok("ip link set lo up")
        self.pid = 0
        self.start()

    def start(self) -> None:
        """Starts (or starts again) the booth; its earlier runs' logs are kept as name.log.N."""
        path = self.guest.share / self.log_name
        if path.exists():
            runs = len(list(path.parent.glob(path.name + ".*")))
            path.rename(path.with_name(f"{path.name}.{runs + 1}"))
        self.pid = self.guest.spawn(
            f"photobooth run --data-dir {self.data} --http-address 127.0.0.1 --http-port {self.port} "
            f"--log-level debug {self.arguments}", self.log_name)

    # What the booth says

    def log(self, after: int = 0) -> str:
        return self.guest.read_log(self.log_name)[after:]

    def offset(self) -> int:
        return len(self.guest.read_log(self.log_name))

    def transitions(self, after: int = 0) -> list[tuple[str, str]]:
        return [(m.group(1), m.group(2)) for m in STATE.finditer(self.log(after))]

    def saved(self, after: int = 0) -> list[tuple[str, str]]:
        return [(m.group(1), unquote(m.group(2))) for m in SAVED.finditer(self.log(after))]

    def named(self, after: int = 0) -> list[tuple[str, str]]:
        return [(m.group(1), unquote(m.group(2))) for m in NAMED.finditer(self.log(after))]

    def state(self) -> str | None:
        """The state the log last reported."""
        moves = self.transitions()
        return moves[-1][1] if moves else None

    def running(self) -> bool:
        """The process runs and did not exit (its .exit file is written when it ends)."""
        return not (self.guest.share / (self.log_name + ".exit")).exists() and self.guest.pid_alive(self.pid)

    def exit_status(self) -> int | None:
        path = self.guest.share / (self.log_name + ".exit")
        return int(path.read_text().strip() or -1) if path.exists() else None

    def status(self) -> dict | None:
        """`/api/status`, or None while the booth does not answer."""
        # `timeout`, not wget's -T: Debian's static busybox wget crashes with -T.
        try:
            code, body = self.guest.sh(f"timeout 5 wget -q -O- http://127.0.0.1:{self.port}/api/status", timeout=15)
        except pv.VMTimeout:
            return None
        if code != 0:
            return None
        try:
            return json.loads(body)
        except ValueError:
            return None

    def photos(self, hidden: bool = False) -> list[dict]:
        return json.loads(self.guest.sh_ok(
            f"photobooth list --json {'--hidden ' if hidden else ''}--data-dir {self.data} 2>/dev/null", timeout=60))

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    # Waiting for it

    def wait_transition(self, source: str | None, target: str | None, after: int = 0, timeout: float = 60) -> int:
        """Waits for the log line `source -> target (` (either may be None: any) past byte
        offset `after`; returns the offset just past it."""
        def seen():
            self._check_running()
            position = after
            for line in self.log(after).splitlines(keepends=True):
                position += len(line)
                m = STATE.search(line)
                if m and line.endswith("\n") and source in (None, m.group(1)) and target in (None, m.group(2)):
                    return position
            return None
        return self._wait(seen, timeout, f"{source or '*'} -> {target or '*'}")

    def wait_status(self, condition, timeout: float = 60, what: str = "a status") -> dict:
        def seen():
            self._check_running()
            status = self.status()
            return status if status and condition(status) else None
        return self._wait(seen, timeout, what, poll=0.1)

    def wait_ready(self, timeout: float = 90) -> dict:
        """Until `/api/status` says idle with the camera connected: the booth can take a photo."""
        return self.wait_status(lambda s: s["state"] == "idle" and s["camera_connected"], timeout, "ready")

    def wait_named(self, caption: str, after: int = 0, timeout: float = 60) -> str:
        """Until the log says a photo was named `caption` past `after`; returns its id."""
        def seen():
            self._check_running()
            return next((photo for photo, name in self.named(after) if name == caption), None)
        return self._wait(seen, timeout, f"the name {caption!r} to be kept")

    def _check_running(self) -> None:
        status = self.exit_status()
        if status is not None:
            raise HarnessError(f"the booth exited with {status}:\n{self.tail()}")

    def _wait(self, condition, timeout: float, what: str, poll: float = 0.05):
        try:
            return wait_for(condition, timeout, what, poll)
        except HarnessError as error:
            raise HarnessError(f"{error}\n--- {self.log_name} (tail) ---\n{self.tail()}") from None

    # Acting on it

    def press(self) -> None:
        """A clean push of the gpio-sim button (line 0, active high)."""
        self.guest.gpio_set_pull(0, "pull-up")
        self.guest.gpio_set_pull(0, "pull-down")

    def stop(self, timeout: float = 60) -> int:
        self.guest.kill_pid(self.pid, "TERM")
        return self.guest.wait_exit(self.log_name, timeout=timeout)

    def kill(self) -> None:
        self.guest.sh(f"kill -KILL {self.pid} 2>/dev/null; true")


__all__ = ["vm_env", "vm_binary", "vm_initramfs", "vm_pool", "vm", "make_pool", "load_scenarios", "scenario_id",
           "BrokenFile", "HarnessVM", "GuestPool", "GuestBooth", "Watchdog", "USB_KEYPAD_MODULES"]
