"""The booth as an appliance: its Debian package on a small Debian with systemd, booted headless
in QEMU from a disk made the way a Raspberry Pi OS card is, with the emulated devices of
vmtest/run. The boot test (test_boot.py) and the power-cut campaign (test_power_cut.py) use it.

The Debian root is `debootstrap --variant=minbase` of bookworm with systemd, udev, kmod, dbus,
e2fsprogs, man-db and the package's own `Depends:`, nothing more, so that a dependency the
package forgets to declare shows; it is cached in the VM cache, keyed by that list. Each test
module copies it into a fresh ext4 image with Debian's kernel modules (and the out-of-tree
gpio-sim and v4l2loopback) and the test machine's additions from vmtest/boot-image/, none of
which is in the package: a small initramfs that mounts the disk, a root shell on the third UART
for the host, a gpio-sim chip made before the booth starts, vivid loaded at boot with a number of
the boot's own in its frames, and a local udev rule naming vivid and ttyS1 the booth's camera and
keypad. The package's unit and rules are used as shipped.

The file system is Raspberry Pi OS's: pi-gen formats the root ext4 without the 64bit and
huge_file features, its /etc/fstab mounts it `defaults,noatime` with ext4's default commit
interval (5 s), and its cmdline.txt asks for `fsck.repair=yes`.

Needs root (debootstrap, and a disk image whose files keep their owners) and the packages in
vmtest/apt-packages plus debootstrap and dpkg-dev.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import photobooth_vm as pv  # vmtest/, on sys.path through conftest.py

from harness.booth import unquote

ROOT = Path(__file__).resolve().parent.parent
IMAGE_DIR = ROOT / "vmtest" / "boot-image"

SUITE = "bookworm"
MIRROR = os.environ.get("PHOTOBOOTH_VM_MIRROR", "http://deb.debian.org/debian")
# What the image needs besides the package's own dependencies: an init with udev, module
# loading, logind's D-Bus, fsck for the root after a power cut, and man: `systemd-analyze verify`
# checks that the man page named in the unit's Documentation= is installed.
BASE_PACKAGES = ["systemd", "systemd-sysv", "udev", "kmod", "dbus", "e2fsprogs", "man-db"]
# Bump when the way the root is made changes, so that cached roots are rebuilt.
ROOT_RECIPE = 1
DISK_SIZE = "3G"
# Raspberry Pi OS's root file system (pi-gen's export-image/prerun.sh on a bookworm host).
MKFS_FEATURES = "^64bit,^huge_file"
FILE_SYSTEM = ("ext4 made as pi-gen makes Raspberry Pi OS's root (-O ^64bit,^huge_file), mounted "
               "defaults,noatime with the default commit interval (5 s), fsck.repair=yes")
# The initramfs only mounts the root; systemd does the rest. fsck.repair=yes as in Raspberry Pi
# OS's cmdline.txt: after a power cut, systemd-fsck answers yes to every repair.
KERNEL_ARGS = "console=ttyS0 loglevel=4 panic=-1 rdinit=/init fsck.repair=yes"
# ext4 needs crc32c, which modules.dep does not list (a soft dependency).
INITRAMFS_MODULES = ["virtio_pci", "virtio_blk", "crc32c_generic", "ext4"]
CONFFILE = "/etc/photobooth/photobooth.yaml"
LIBRARY = "/var/lib/photobooth"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# What the operator changes in the installed configuration for the test machine: the gpio-sim
# chip's named lines wired like the other VM scenarios' button (active-high, pulled down), a
# camera size that the emulated CPU encodes in reasonable time, a short countdown. The chip is
# added once its name is known. Everything else (camera and keypad at /dev/photobooth/...) is
# the shipped default.
OPERATOR_EDITS = {
    ("camera", "size"): "640x480",
    ("camera", "fps"): "10",
    ("shutter", "line"): "shutter",
    ("shutter", "polarity"): "active-high",
    ("shutter", "bias"): "pull-down",
    ("led", "line"): "led",
    ("screen", "preview_fps"): "5",
    ("booth", "countdown_seconds"): "2",
    ("booth", "naming_timeout_seconds"): "60",
}

# The booth's lines as the journal and the serial console carry them ("photobooth[PID]: ...");
# the same lines harness/booth.py reads from a booth's own log.
SAVED = re.compile(rf'photobooth\[\d+\]: saved ({UUID}) "((?:[^"\\]|\\.)*)"')
NAMED = re.compile(rf'photobooth\[\d+\]: named ({UUID}) "((?:[^"\\]|\\.)*)"')
STATE = re.compile(r"photobooth\[\d+\]: (\w+(?:\(\w+\))?) -> (\w+(?:\(\w+\))?) \(")
READY = r"photobooth\[\d+\]: \S+ -> idle \("
# The least time a guest command gets before the guest kills it (Machine.sh).
COMMAND_TIMEOUT = 120
# The initramfs's /init writes its first line a few seconds after QEMU starts (under TCG, on a
# busy machine): a console still empty after this long is a kernel that never got there.
SILENT_BOOT = 120


class ApplianceError(Exception):
    """The appliance could not be made or booted; the message carries the evidence."""


def log(msg: str) -> None:
    pv.log(f"appliance: {msg}")


def run(cmd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, **kw)


def check(condition, message: str) -> None:
    """An assertion that stays in force under `python -O`, with the message to read."""
    if not condition:
        raise AssertionError(message)


def unavailable() -> str | None:
    """Why the appliance cannot be made on this machine (not root, a tool missing), or None."""
    if os.geteuid() != 0:
        return "needs root (debootstrap, and a disk image whose files keep their owners)"
    missing = [tool for tool in ["debootstrap", "mkfs.ext4", "e2fsck", "dpkg-deb", "qemu-system-x86_64",
                                 "busybox", "setpriv"] if not shutil.which(tool)]
    if missing:
        return (f"missing {', '.join(missing)}: install debootstrap, dpkg-dev and the packages in "
                "vmtest/apt-packages")
    return None


def fresh_folder(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


# --------------------------------------------------------------------------------------------------
# the package
# --------------------------------------------------------------------------------------------------

def deb_fields(deb: Path) -> dict[str, str]:
    out = run(["dpkg-deb", "-f", str(deb), "Package", "Version", "Architecture", "Depends"],
              stdout=subprocess.PIPE, text=True).stdout
    fields = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


def dependency_names(depends: str) -> list[str]:
    """The packages a Depends: field names: the first of each alternative, without versions."""
    names = []
    for group in depends.split(","):
        first = group.split("|")[0].strip()
        name = re.split(r"[\s(:]", first, maxsplit=1)[0]
        if name:
            names.append(name)
    return names


def repack(deb: Path, dest: Path, version: str) -> Path:
    """The same package with another Version:, as a newer release would be."""
    fields = deb_fields(deb)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="repack-") as tmp:
        tree = Path(tmp) / "pkg"
        run(["dpkg-deb", "-R", str(deb), str(tree)])
        control = tree / "DEBIAN" / "control"
        text, n = re.subn(r"^Version: .*$", f"Version: {version}", control.read_text(), flags=re.M)
        check(n == 1, f"{deb}: no Version: line in its control file")
        control.write_text(text)
        out = dest / f"{fields['Package']}_{version.split(':', 1)[-1]}_{fields['Architecture']}.deb"
        run(["dpkg-deb", "--root-owner-group", "-b", str(tree), str(out)], stdout=subprocess.DEVNULL)
    return out


def edit_config(text: str, edits: dict[tuple[str, str], str]) -> str:
    """Sets section.key values as an operator edits the file: each key's line keeps its place
    and its comment. Every key must be there exactly once, uncommented, or else commented out
    (`# key: value`), which is then uncommented."""
    lines = text.splitlines(keepends=True)
    section = None
    hits = {key: 0 for key in edits}
    for i, line in enumerate(lines):
        top = re.match(r"^([A-Za-z_]+):\s*(#.*)?$", line)
        if top:
            section = top.group(1)
            continue
        m = re.match(r"^(\s+)([A-Za-z_]+):[ \t]*(.*?)([ \t]+#.*)?(\r?\n)?$", line)
        if m and (section, m.group(2)) in edits:
            lines[i] = f"{m.group(1)}{m.group(2)}: {edits[(section, m.group(2))]}{m.group(4) or ''}{m.group(5) or ''}"
            hits[(section, m.group(2))] += 1
    # A key the file has only commented out is uncommented, as an operator does.
    section = None
    for i, line in enumerate(lines):
        top = re.match(r"^([A-Za-z_]+):\s*(#.*)?$", line)
        if top:
            section = top.group(1)
            continue
        m = re.match(r"^(\s+)# ([A-Za-z_]+):[ \t]*(.*?)(\r?\n)?$", line)
        if m and hits.get((section, m.group(2))) == 0:
            lines[i] = f"{m.group(1)}{m.group(2)}: {edits[(section, m.group(2))]}{m.group(4) or ''}"
            hits[(section, m.group(2))] += 1
    wrong = [f"{s}.{k} ({n} times)" for (s, k), n in hits.items() if n != 1]
    check(not wrong, f"the configuration file does not have these keys exactly once: {', '.join(wrong)}")
    return "".join(lines)


# --------------------------------------------------------------------------------------------------
# the Debian root, the disk image and the initramfs
# --------------------------------------------------------------------------------------------------

def debian_root(cache: Path, packages: list[str], label: str = "") -> tuple[Path, bool]:
    """A debootstrapped root with the packages, cached by the package list; returns (tree,
    whether it was built now). The tree is never modified after it is built. Roots of another
    `label` (a test's own packages) are kept beside it; an older one of the same label goes."""
    packages = sorted(set(packages))
    key = hashlib.sha256(json.dumps([SUITE, MIRROR, "minbase", packages, ROOT_RECIPE]).encode()).hexdigest()[:16]
    prefix = f"debian-root-{label}-" if label else "debian-root-"
    home = cache / f"{prefix}{key}"
    tree = home / "tree"
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".debian-root.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)       # another run may be building it right now
        if (home / ".done").exists():
            return tree, False
        for old in cache.glob(f"{prefix}*"):
            if re.fullmatch(re.escape(prefix) + r"[0-9a-f]{16}(\.tmp)?", old.name):
                log(f"removing {old.name}: the package list changed")
                shutil.rmtree(old)
        tmp = cache / f"{prefix}{key}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        log(f"debootstrap {SUITE} from {MIRROR} with {' '.join(packages)} (takes about 2 minutes)")
        with open(tmp / "debootstrap.log", "w") as out:
            status = subprocess.run(
                ["debootstrap", "--variant=minbase", f"--include={','.join(packages)}", SUITE,
                 str(tmp / "tree"), MIRROR], stdout=out, stderr=subprocess.STDOUT).returncode
        if status != 0:
            tail = (tmp / "debootstrap.log").read_text(errors="replace")[-3000:]
            raise ApplianceError(f"debootstrap failed with status {status}:\n{tail}")
        # What apt downloaded and its lists: the guest has no network and installs from files.
        for junk in ["var/cache/apt/archives", "var/lib/apt/lists"]:
            for f in (tmp / "tree" / junk).glob("*"):
                if f.is_file():
                    f.unlink()
        for f in (tmp / "tree/var/cache/apt").glob("*.bin"):
            f.unlink()
        tmp.rename(home)
        (home / ".done").write_text(" ".join(packages) + "\n")
        return tree, True


def _put(staging: Path, path: str, text: str | None = None, source: Path | None = None,
         mode: int = 0o644) -> None:
    """A new file in staging. Existing files are hard links into the cached root: replace them,
    never write through them."""
    target = staging / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() or target.is_symlink():
        target.unlink()
    if source is not None:
        shutil.copyfile(source, target)
    else:
        target.write_text(text)
    target.chmod(mode)


def _enable(staging: Path, unit: str, target: str) -> None:
    wants = staging / "etc/systemd/system" / f"{target}.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / unit).symlink_to(f"/etc/systemd/system/{unit}")


def build_disk(env: dict[str, str], tree: Path, disk: Path, extra_files: dict[str, str] | None = None) -> None:
    """A fresh ext4 disk image as Raspberry Pi OS formats its root: the cached root, Debian's
    kernel modules (with the out-of-tree gpio-sim and v4l2loopback), the test machine's
    additions from boot-image/ and a test's own `extra_files` (path: text)."""
    cache = Path(env["CACHE"])
    staging = cache / f"boot-staging-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        # Hard links: fast, and the cache's files are only read (see _put).
        run(["cp", "-al", str(tree), str(staging)])
        modules = staging / "lib/modules"
        modules.mkdir(parents=True, exist_ok=True)
        run(["cp", "-al", str(Path(env["MODULES_ROOT"]) / "lib/modules" / env["KVER"]), str(modules)])
        _put(staging, "/etc/fstab", source=IMAGE_DIR / "fstab")
        _put(staging, "/etc/hostname", "photobooth-vm\n")
        _put(staging, "/etc/hosts", "127.0.0.1 localhost\n127.0.1.1 photobooth-vm\n::1 localhost ip6-localhost ip6-loopback\n")
        _put(staging, "/etc/photobooth-vm/control.sh", pv.CONTROL_SCRIPT)
        _put(staging, "/usr/local/bin/usleep", source=IMAGE_DIR / "usleep", mode=0o755)
        _put(staging, "/usr/local/sbin/photobooth-vm-gpio-sim", source=IMAGE_DIR / "photobooth-vm-gpio-sim", mode=0o755)
        _put(staging, "/usr/local/bin/v4l2-control", source=Path(env["TOOLS"]) / "v4l2-control", mode=0o755)
        for unit, target in [("photobooth-vm-control.service", "sysinit.target"),
                             ("photobooth-vm-gpio-sim.service", "multi-user.target"),
                             ("photobooth-vm-camera-mark.service", "multi-user.target")]:
            _put(staging, f"/etc/systemd/system/{unit}", source=IMAGE_DIR / unit)
            _enable(staging, unit, target)
        _put(staging, "/etc/udev/rules.d/71-photobooth-local.rules", source=IMAGE_DIR / "71-photobooth-local.rules")
        _put(staging, "/etc/modules-load.d/photobooth-vm.conf", source=IMAGE_DIR / "modules-load.conf")
        _put(staging, "/etc/modprobe.d/photobooth-vm.conf", source=IMAGE_DIR / "modprobe.conf")
        for path, text in (extra_files or {}).items():
            _put(staging, path, text)
        # man-db's trigger rebuilds the index of every page after each dpkg -i: tens of seconds
        # under emulation, and nothing the booth needs (man still finds photobooth(1)). Without
        # this file, as after `dpkg-reconfigure man-db` answering no, the trigger does nothing.
        (staging / "var/lib/man-db/auto-update").unlink(missing_ok=True)
        disk.unlink(missing_ok=True)
        run(["mkfs.ext4", "-q", "-F", "-L", "rootfs", "-O", MKFS_FEATURES, "-d", str(staging), str(disk),
             DISK_SIZE], stdout=subprocess.DEVNULL)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def build_initramfs(env: dict[str, str], out: Path) -> Path:
    """busybox and the disk's drivers; its /init mounts the root and runs systemd."""
    with tempfile.TemporaryDirectory(prefix="boot-initramfs-") as tmp:
        st = Path(tmp)
        pv._merged_usr_links(st)
        for d in ["proc", "sys", "dev", "root", "usr/bin", "usr/sbin"]:
            (st / d).mkdir(parents=True, exist_ok=True)
        pv.install_busybox(st, shutil.which("busybox") or "/bin/busybox")
        pv.install_modules(st, env, INITRAMFS_MODULES)
        shutil.copyfile(IMAGE_DIR / "init", st / "init")
        (st / "init").chmod(0o755)
        pv._write_cpio(st, out)
    return out


class Image:
    """Everything a boot needs, made once per test module in `home`: the kernel and modules
    (vmtest/prepare), the Debian root (cached), the initramfs and a fresh disk image."""

    def __init__(self, deb: Path, home: Path, extra_packages: list[str] | None = None,
                 extra_files: dict[str, str] | None = None, label: str = ""):
        """`extra_packages` go into a root of their own (`label`), as an operator installs what
        the package recommends; `extra_files` onto the disk."""
        self.deb, self.home = Path(deb), Path(home)
        self.fields = deb_fields(self.deb)
        self.figures: list[str] = []
        t0 = time.monotonic()
        self.env = pv.prepare()
        self.figure(f"vmtest/prepare (kernel, modules): {time.monotonic() - t0:.1f} s")
        t0 = time.monotonic()
        self.tree, built = debian_root(Path(self.env["CACHE"]),
                                       BASE_PACKAGES + dependency_names(self.fields.get("Depends", "")) + (extra_packages or []),
                                       label=label)
        self.figure(f"Debian root: {'debootstrap' if built else 'cached'} {time.monotonic() - t0:.1f} s ({self.tree})")
        t0 = time.monotonic()
        self.initramfs = build_initramfs(self.env, self.home / "initramfs.cpio")
        self.disk = self.home / "disk.img"
        build_disk(self.env, self.tree, self.disk, extra_files)
        self.figure(f"disk image and initramfs: {time.monotonic() - t0:.1f} s")
        self.boots = 0

    def figure(self, text: str) -> None:
        """A measured figure: logged now, and kept for the test's summary."""
        log(text)
        self.figures.append(text)

    def boot(self, label: str, start: bool = True) -> "Machine":
        """The next boot of the disk, its output in home/boot-N-label; started unless told not to."""
        self.boots += 1
        m = Machine(self.env, self.initramfs, self.disk, self.home / f"boot-{self.boots:02d}-{label}")
        if start:
            m.start()
            self.figure(f"boot {self.boots} ({label}): QEMU start to the control shell {m.boot_seconds:.1f} s")
        return m

    def remove_disk(self) -> None:
        """The 3 GB sparse image goes unless PHOTOBOOTH_VM_KEEP_DISK is set (vmtest/boot --keep-disk)."""
        if not os.environ.get("PHOTOBOOTH_VM_KEEP_DISK"):
            self.disk.unlink(missing_ok=True)


# --------------------------------------------------------------------------------------------------
# the booted machine
# --------------------------------------------------------------------------------------------------

class ConsoleWatch(threading.Thread):
    """Notes when a line matching regex first appears in the console log (host clock)."""

    def __init__(self, path: Path, regex: str):
        super().__init__(daemon=True)
        self.path, self.pattern = path, re.compile(regex.encode())
        self.seen_at: float | None = None
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                if self.pattern.search(self.path.read_bytes()):
                    self.seen_at = time.monotonic()
                    return
            except FileNotFoundError:
                pass
            self.stop.wait(0.1)


class Machine(pv.VM):
    """The disk image booted with the devices of vmtest/run. The booth's journal (systemd's
    lines about the unit included) is followed into share/photobooth.log; the booth's own lines
    also reach the serial console (console.log), the sooner of the two."""

    def __init__(self, env, initramfs: Path, disk: Path, run_dir: Path):
        super().__init__(env, initramfs, run_dir, boot_timeout=300, kernel_args=KERNEL_ARGS,
                         extra_qemu_args=("-drive", f"file={disk},format=raw,if=virtio"),
                         silent_timeout=SILENT_BOOT)
        self.offset = 0              # how far the checks have read photobooth.log
        self.keypad_offset = 0
        self.started_watch: ConsoleWatch | None = None
        self.cut_at: float | None = None

    def sh(self, cmd: str, timeout: float = 30) -> tuple[int, str]:
        """VM.sh with at least COMMAND_TIMEOUT: a systemd guest under TCG, on cores other builds
        share, can take a minute for what takes a second on a Pi. The timeout only bounds a hung
        command; nothing waits for it to run out."""
        return super().sh(cmd, max(timeout, COMMAND_TIMEOUT))

    def qemu_command(self) -> list[str]:
        # QEMU dies with the test process, even when that is killed (a CI timeout): a guest left
        # running would hold the disk image and a core.
        return ["setpriv", "--pdeathsig", "KILL", "--", *super().qemu_command()]

    def start(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        # The booth's line when it reaches its main screen with a working camera, as ready()
        # waits for in the journal (systemd's own "Started" line does not reach the console once
        # the console's getty runs).
        self.started_watch = ConsoleWatch(self.console_log, READY)
        self.started_watch.start()
        for attempt in range(3):
            try:
                super().start()
                break
            except pv.VMError as e:
                # VM.start connects once QEMU's socket files exist; a QEMU descheduled between
                # bind() and listen() on a loaded machine refuses that connection. The guest was
                # still paused (-S): nothing ran, so starting again is the same boot.
                # A guest silent on its console never reached /init, which mounts the disk: it
                # changed nothing, and its registers are kept (registers.txt) before the retry.
                if isinstance(e, pv.VMSilent) and attempt < 2 and self.cut_at is None:
                    log(f"the guest's kernel never reached /init ({attempt + 1}); starting it again: "
                        f"{str(e).splitlines()[0]}")
                    self._keep_silent_evidence(attempt + 1)
                    continue
                if "Connection refused" not in str(e) or attempt == 2 or self.cut_at is not None:
                    raise
                log(f"QEMU refused the connection to its sockets ({attempt + 1}); starting it again")
        self.sh_ok("modprobe 9pnet_virtio && mkdir -p /share && "
                   "mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share /share")
        self.spawn("journalctl -b -f -n all -u photobooth.service -o short-monotonic --no-hostname",
                   "photobooth.log")

    def _keep_silent_evidence(self, attempt: int) -> None:
        """A silent boot's files, renamed silent-N-* so that the next attempt starts afresh."""
        for name in ["console.log", "registers.txt", "qemu.stderr", "qemu-command.txt"]:
            path = self.run_dir / name
            if path.exists():
                path.rename(self.run_dir / f"silent-{attempt}-{name}")

    def shutdown(self, timeout: float = 120) -> None:
        """systemctl poweroff, and wait for QEMU to exit (-no-reboot)."""
        if not self.alive():
            return
        try:
            self._send_control("systemctl poweroff", 10)
            self.proc.wait(timeout)
        except (pv.VMError, OSError, subprocess.TimeoutExpired) as e:
            log(f"clean power-off failed ({e.__class__.__name__}); killing QEMU")
        finally:
            if self.started_watch:
                self.started_watch.stop.set()

    def cut_power(self) -> None:
        """What a pulled plug does to the guest: SIGKILL to QEMU, so its memory is gone, page
        cache and all, with no shutdown and no sync. Writes QEMU had already passed to the host
        are in the host's page cache, which survives: a disk that completed a write keeps it.
        Safe from another thread."""
        if self.proc and self.proc.poll() is None:
            self.cut_at = time.monotonic()
        self.kill()
        if self.started_watch:
            self.started_watch.stop.set()

    def screendump(self, path_png) -> Path:
        """What the screen shows, as PNG (QEMU writes it: the harness's venv has no PIL)."""
        path_png = Path(path_png)
        path_png.parent.mkdir(parents=True, exist_ok=True)
        self.qmp.execute("screendump", filename=str(path_png), format="png")
        return path_png

    # -- the booth's log ---------------------------------------------------------------------

    def booth_wait(self, regex: str, timeout: float = 180, after: int | None = None):
        """Waits for a line of the booth's journal matching regex, from `after` (default: where
        the checks have read to); returns (match, offset past the line) and moves on to there."""
        match, pos = self.wait_for_log("photobooth.log", regex, timeout=timeout,
                                       after=self.offset if after is None else after)
        self.offset = max(self.offset, pos)
        return match, pos

    def console(self) -> str:
        try:
            return self.console_log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def console_wait(self, regex: str, after: int = 0, timeout: float = 180) -> tuple[re.Match, int]:
        """Waits for a complete console line matching regex past character `after`; returns the
        match and the offset past its line. The console is written by QEMU itself, so it is the
        host's soonest view of the booth's log."""
        pattern = re.compile(regex)
        deadline = time.monotonic() + timeout
        while True:
            text = self.console()
            pos = after
            while (nl := text.find("\n", pos)) >= 0:
                if match := pattern.search(text, pos, nl):
                    return match, nl + 1
                pos = nl + 1
            if time.monotonic() > deadline:
                raise pv.VMTimeout(f"console: no line matching {regex!r} within {timeout} s\n{self._evidence()}")
            if not self.alive():
                raise pv.VMError(f"QEMU exited while waiting for {regex!r} on the console\n{self._evidence()}")
            time.sleep(0.02)

    def booth_lines(self) -> str:
        """Everything the host has of the booth's log from this boot: the console, then the
        followed journal (a line may be in one and not yet in the other at a power cut)."""
        return self.console() + "\n" + self.read_log("photobooth.log")

    def keypad_shows(self, regex: bytes, timeout: float = 120):
        match, self.keypad_offset = self.keypad_wait_for(regex, timeout=timeout, after=self.keypad_offset)
        return match

    def unit(self, *props: str, name: str = "photobooth.service") -> dict[str, str]:
        out = self.sh_ok(f"systemctl show -p {','.join(props)} {name}")
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def as_booth(self, cmd: str, timeout: float = 60) -> tuple[int, str]:
        """A command as the booth's user, as the operator would run it (never as root on the
        library: files root creates there would be root's)."""
        return self.sh(f"runuser -u photobooth -- {cmd}", timeout=timeout)

    def photos(self, hidden: bool = False) -> list[dict]:
        """`photobooth list --json` (with --hidden: the photos hidden from guests)."""
        flag = " --hidden" if hidden else ""
        status, out = self.as_booth(f"photobooth list --json{flag} --data-dir {LIBRARY} 2>/dev/null", timeout=120)
        check(status == 0, f"photobooth list{flag} failed with {status}: {out[-1000:]}")
        return json.loads(out)

    def attach_gpio(self) -> None:
        """Finds the gpio-sim chip that photobooth-vm-gpio-sim.service made, for press()."""
        self.sh_ok("i=0; until systemctl -q is-active photobooth-vm-gpio-sim.service; do "
                   "[ $i -ge 600 ] && exit 1; sleep 0.1; i=$((i+1)); done", timeout=90)
        cfg = "/sys/kernel/config/gpio-sim/booth"
        chip, dev = self.sh_ok(f"cat {cfg}/gpio-bank0/chip_name {cfg}/dev_name").split()
        self.gpio = {"cfg": cfg, "chip": chip, "dev": dev, "lines": {0: "shutter", 1: "led"}}

    def press(self) -> None:
        self.gpio_set_pull(0, "pull-up")
        self.gpio_set_pull(0, "pull-down")

    def ready(self, timeout: float = 180, after: int | None = None) -> int:
        """Waits until the booth shows its main screen with a working camera."""
        return self.booth_wait(r"-> idle \(", timeout=timeout, after=after)[1]

    def begin_photo(self) -> tuple[int, float]:
        """Press and count down until the keypad asks for a name; returns where the photo's
        lines begin in the booth's log and how long the countdown lasted."""
        start = self.offset
        self.press()
        self.booth_wait(r"idle -> countdown", after=start)
        lasted = float(self.booth_wait(r"countdown -> capturing \(countdown lasted ([0-9.]+) s\)", after=start)[0].group(1))
        self.booth_wait(r"-> naming", after=start)
        self.keypad_shows(rb"Name your photo")
        return start, lasted

    def name_photo(self, name: str, start: int) -> str:
        """Types the name of the photo begun at `start`; returns its id once the keypad shows
        "Saved as"."""
        self.keypad_send(name.encode() + b"\r")
        photo_id = self.booth_wait(rf"saved ({UUID}) ", after=start)[0].group(1)
        self.booth_wait(rf'named {photo_id} "{re.escape(name)}"', after=start)
        self.keypad_shows(rb"Saved as " + re.escape(name.encode()))
        return photo_id

    def take_photo(self, name: str) -> dict:
        """Press, count down, name it on the keypad; returns, once the booth is back on its main
        screen, the photo's id and how long the countdown lasted."""
        start, lasted = self.begin_photo()
        photo_id = self.name_photo(name, start)
        self.booth_wait(r"saved -> idle", after=start)
        return {"id": photo_id, "countdown": lasted}

    def save_journal(self, name: str, which: str = "-b") -> None:
        """The guest's journal into share/<name>.txt and .export, when the guest still runs."""
        if not self.alive():
            return
        try:
            self.sh(f"journalctl {which} -o short-monotonic --no-pager > /share/{name}.txt; "
                    f"journalctl {which} -o export > /share/{name}.export", timeout=120)
        except pv.VMError as e:
            log(f"cannot save the journal {name}: {str(e).splitlines()[0]}")


# --------------------------------------------------------------------------------------------------
# the operator's first steps, and what the booth acknowledged
# --------------------------------------------------------------------------------------------------

def install_package(m: Machine, deb: Path) -> list[str]:
    """`dpkg -i` in the running guest, so that the maintainer scripts run with systemd and udev
    up, as on a Pi; asserts what the package promises once installed. Returns what was seen."""
    # On a Pi the GPIO chip is there from boot, before any package: the simulated one is made by
    # a service that starts with the guest, late on a busy host, and a chip that came while
    # dpkg ran could be named by udev before the rules it installs were read.
    m.attach_gpio()
    debs = m.share / "debs"
    debs.mkdir(exist_ok=True)
    shutil.copy(deb, debs / deb.name)
    status, output = m.sh(f"dpkg -i /share/debs/{shlex.quote(deb.name)}", timeout=400)
    (m.run_dir / "dpkg-install.txt").write_text(output)
    check(status == 0, f"dpkg -i exited with {status}: {output.strip()[-500:]}")
    check(m.sh("id photobooth && getent group gpio")[0] == 0,
          "the maintainer scripts did not create the photobooth user and the gpio group")
    enabled = m.sh("systemctl is-enabled photobooth.service")[1].strip()
    check(enabled == "enabled", f"photobooth.service is {enabled!r} after the install, not enabled")
    # The trigger of the package's rules has been processed.
    m.sh("udevadm settle --timeout=120", timeout=150)
    m.sh("udevadm info /dev/video0 /dev/ttyS1 > /share/udevadm-info.txt 2>&1; "
         "ls -l /dev/photobooth/ /dev/gpiochip* > /share/devices.txt 2>&1")
    links = m.sh_ok("readlink -f /dev/photobooth/camera /dev/photobooth/keypad; "
                    f"stat -c %G /dev/{m.gpio['chip']}").split()
    check(links == ["/dev/video0", "/dev/ttyS1", "gpio"],
          f"/dev/photobooth/camera, keypad and the GPIO chip's group are {links}, expected "
          "/dev/video0, /dev/ttyS1 and gpio")
    # With the shipped configuration the booth cannot find its button (GPIO17): what it says
    # then is kept for whoever reads the output.
    m.sh("systemctl status photobooth.service > /share/status-default-config.txt 2>&1")
    return [f"installed {deb.name}; gpio-sim chip {m.gpio['chip']}"]


def configure(m: Machine) -> str:
    """The operator's edits of the installed configuration, as they would make them in an
    editor (OPERATOR_EDITS and the gpio-sim chip); returns the file as left."""
    installed = m.share / "photobooth.yaml.installed"
    m.sh_ok(f"cp {CONFFILE} /share/{installed.name}")
    config = edit_config(installed.read_text(), {**OPERATOR_EDITS, ("shutter", "chip"): m.gpio["chip"]})
    (m.share / "photobooth.yaml").write_text(config)
    m.sh_ok(f"cat /share/photobooth.yaml > {CONFFILE}")
    return config


def acknowledgements(log_text: str) -> list[tuple[str, str, str]]:
    """The booth's acknowledgements in a log, in order: ("saved", id, caption) once a photo is
    on disk with its first caption, ("named", id, caption) once a name is."""
    events = []
    for line in log_text.splitlines():
        if match := SAVED.search(line):
            events.append(("saved", match.group(1), unquote(match.group(2))))
        elif match := NAMED.search(line):
            events.append(("named", match.group(1), unquote(match.group(2))))
    return events


def parse_usec(value: str) -> float:
    """systemctl show's time spans (30s, 1min 30s, 500ms, infinity) in microseconds."""
    if value in ("", "infinity"):
        return 0
    units = {"us": 1, "ms": 1e3, "s": 1e6, "min": 60e6, "h": 3600e6}
    total = 0.0
    for number, unit in re.findall(r"([0-9.]+)\s*(us|ms|min|s|h)", value):
        total += float(number) * units[unit]
    return total


def log_time(match: re.Match) -> float:
    """The guest's monotonic time of a short-monotonic journal line that a match is in."""
    text = match.string
    line_start = text.rfind("\n", 0, match.start()) + 1
    m = re.match(r"\[\s*([0-9.]+)\]", text[line_start:])
    check(m, f"no monotonic time stamp on {text[line_start:match.end()]!r}")
    return float(m.group(1))
