#!/usr/bin/python3
"""Drive real Linux kernel drivers in a QEMU guest for the Photobooth hardware tests.

The guest is Debian's kernel with a tiny initramfs (busybox, a handful of modules, the booth
binary, the helpers from vmtest/tools and the fixture frames). Its devices:

    ttyS0   console           -> <run dir>/console.log
    ttyS1   keypad            <-> unix socket, VM.keypad_send / VM.keypad_read_available
    ttyS2   control shell     <-> unix socket, VM.sh / VM.spawn
    /dev/fb0  bochs-display   -> QMP screendump, VM.screendump
    /share  9p                <-> <run dir>/share on the host (logs, copied libraries...)
    /dev/video0 vivid, /dev/video10 v4l2loopback, gpio-sim chips: loaded on demand.

Python 3.11 standard library plus PIL only. `vmtest/run` is the entry point; this module is also
usable on its own:

    python3 vmtest/photobooth_vm.py initramfs [--binary PATH] --out FILE
    python3 vmtest/photobooth_vm.py shell [--binary PATH] [--out DIR]   # boot, then type commands
"""
from __future__ import annotations

import argparse
import base64
import fcntl
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

KIT_DIR = Path(__file__).resolve().parent

# Modules every boot needs, plus those the device helpers load on demand. Their dependencies
# come from modules.dep. configfs is a module in Debian's kernel (=m) but may be built in elsewhere.
BOOT_MODULES = ["configfs", "virtio_pci", "9pnet_virtio", "9p", "bochs"]
DEVICE_MODULES = ["vivid", "v4l2loopback", "gpio-sim", "vkms", "vimc"]

FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
]
GUEST_FIXTURES = "/fixtures"
GUEST_BINARY = "/usr/local/bin/photobooth"

FB_WIDTH, FB_HEIGHT, FB_BPP = 1280, 800, 32


class VMError(Exception):
    """Something in the guest or QEMU did not behave; the message carries the evidence."""


class VMTimeout(VMError):
    """A wait on the guest ran out of time."""


class VMSilent(VMTimeout):
    """The guest wrote nothing on its console: it never reached its initramfs's /init."""


def log(msg: str) -> None:
    print(f"photobooth-vm: {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------
# prepare and the cache
# --------------------------------------------------------------------------------------------------

def cache_dir() -> Path:
    if os.environ.get("PHOTOBOOTH_VM_CACHE"):
        return Path(os.environ["PHOTOBOOTH_VM_CACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "photobooth-vm"


def prepare(run: bool = True) -> dict[str, str]:
    """Run vmtest/prepare (unless run=False) and return its environment: KVER, VMLINUZ, ..."""
    if run:
        proc = subprocess.run([str(KIT_DIR / "prepare")], stdout=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise VMError(f"vmtest/prepare failed with status {proc.returncode}")
        env_file = Path(proc.stdout.strip().splitlines()[-1])
    else:
        env_file = cache_dir() / "current.env"
    env = {}
    for line in env_file.read_text().splitlines():
        key, _, value = line.partition("=")
        env[key] = value
    return env


# --------------------------------------------------------------------------------------------------
# initramfs
# --------------------------------------------------------------------------------------------------

INIT_SCRIPT = r"""#!/bin/sh
# photobooth-vm guest init: mount, load the boot modules, then serve the host's control shell.
export PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
say() { echo "photobooth-vm: $*"; }
mkdir -p /dev/pts /dev/shm /tmp /run /share
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
hostname photobooth-vm
grep -qw configfs /proc/filesystems || modprobe configfs || say "cannot load configfs"
mount -t configfs configfs /sys/kernel/config || say "cannot mount configfs"
modprobe virtio_pci && modprobe 9pnet_virtio && modprobe 9p || say "cannot load the 9p modules"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share /share || say "cannot mount the 9p share"
modprobe bochs || say "cannot load bochs"
i=0
while [ ! -e /dev/fb0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
[ -e /dev/fb0 ] || say "no /dev/fb0 after loading bochs"
# Detach the framebuffer console so that only the program under test draws on /dev/fb0.
for v in /sys/class/vtconsole/vtcon*; do
    grep -q 'frame buffer' "$v/name" 2>/dev/null && echo 0 > "$v/bind"
done
[ -e /dev/fb0 ] && cat /dev/zero > /dev/fb0 2>/dev/null
stty -F /dev/ttyS2 raw -echo -echoe -echok -echoctl -echoke 115200
say "init done in $(cut -d' ' -f1 /proc/uptime) s; control shell on ttyS2"
while :; do
    setsid sh /etc/photobooth-vm/control.sh </dev/ttyS2 >/dev/ttyS2 2>&1
    say "control shell exited; restarting it"
    sleep 1
done
"""

# One request per line: "__run ID TIMEOUT BASE64". The command runs under `timeout` in its own
# sh with stdin from /dev/null, so a hung command is killed in the guest and the shell survives.
CONTROL_SCRIPT = r"""# photobooth-vm control shell (see photobooth_vm.py, VM.sh)
__run() {
    printf '__BEGIN_%s\n' "$1"
    timeout -s KILL "$2" sh -c "$(printf '%s' "$3" | base64 -d)" </dev/null 2>&1
    printf '\n__END_%s_%s\n' "$1" "$?"
}
printf '__READY__\n'
while IFS= read -r __line; do
    case "$__line" in
        "__run "*) set -- $__line; __run "$2" "$3" "$4" ;;
        *) printf '__IGNORED__\n' ;;
    esac
done
"""


class ModuleIndex:
    """modules.dep of an extracted kernel, by module name (dashes and underscores alike)."""

    def __init__(self, modules_root: Path, kver: str):
        self.base = Path(modules_root) / "lib/modules" / kver
        self.deps: dict[str, tuple[str, list[str]]] = {}
        for line in (self.base / "modules.dep").read_text().splitlines():
            path, _, deps = line.partition(":")
            self.deps[self.name_of(path)] = (path, deps.split())
        self.builtin = set()
        builtin = self.base / "modules.builtin"
        if builtin.exists():
            self.builtin = {self.name_of(p) for p in builtin.read_text().split()}

    @staticmethod
    def name_of(path: str) -> str:
        name = os.path.basename(path)
        name = re.sub(r"\.ko(\.(xz|zst|gz))?$", "", name)
        return name.replace("-", "_")

    def closure(self, names) -> list[str]:
        """Relative paths of the modules named and everything they depend on."""
        paths: list[str] = []
        for name in names:
            key = name.replace("-", "_")
            if key not in self.deps:
                if key in self.builtin:
                    continue
                raise VMError(f"module {name} is neither in modules.dep nor built in")
            path, deps = self.deps[key]
            for p in [path] + deps:
                if p not in paths:
                    paths.append(p)
        return paths


def _run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def _write_cpio(staging: Path, out: Path) -> None:
    """An uncompressed newc archive of staging (uncompressed: fastest to unpack under TCG)."""
    entries = sorted(str(p.relative_to(staging)) for p in staging.rglob("*"))
    tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        subprocess.run(["cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet"], cwd=staging,
                       input="\n".join(entries).encode() + b"\n", stdout=f, check=True)
    tmp.replace(out)


def _merged_usr_links(staging: Path) -> None:
    """Mirror the host's top-level symlinks (/lib -> usr/lib ...) so that copied paths agree."""
    for top in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]:
        host = Path("/") / top
        if host.is_symlink():
            target = os.readlink(host)
            (staging / target.lstrip("/")).mkdir(parents=True, exist_ok=True)
            (staging / top).symlink_to(target)
        elif host.is_dir():
            (staging / top).mkdir(exist_ok=True)


def _copy_into(staging: Path, src: str, dest: str | None = None) -> Path:
    """Copy a host file (following symlinks) to the same path (or dest) under staging."""
    target = staging / (dest or src).lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() or target.is_symlink():
        target.unlink()
    shutil.copy2(src, target, follow_symlinks=True)
    return target


def ldd_libraries(path: str) -> list[str]:
    """Every library ldd lists for an ELF file (empty for static ones), with the loader."""
    proc = subprocess.run(["ldd", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if "not a dynamic executable" in proc.stdout or "statically linked" in proc.stdout:
        return []
    if proc.returncode != 0:
        raise VMError(f"ldd {path} failed:\n{proc.stdout}")
    libs = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if "=> not found" in line:
            raise VMError(f"ldd {path}: {line}")
        m = re.match(r"\S+ => (/\S+) \(0x", line) or re.match(r"(/\S+) \(0x", line)
        if m:
            libs.append(m.group(1))
    return libs


def install_busybox(staging: Path, busybox: str) -> None:
    """busybox at /usr/bin/busybox in staging, with a link for each of its applets."""
    _copy_into(staging, busybox, "/usr/bin/busybox")
    applets = subprocess.run([busybox, "--list-full"], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.split()
    for applet in applets:
        link = staging / applet
        if applet.endswith("/busybox") or link.exists() or link.is_symlink():
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to("/usr/bin/busybox")


def install_modules(staging: Path, env: dict[str, str], modules) -> None:
    """The named kernel modules with their dependencies (decompressed), then a modules.dep for
    exactly those, so that modprobe works in staging."""
    kver = env["KVER"]
    index = ModuleIndex(Path(env["MODULES_ROOT"]), kver)
    src_base = index.base
    dst_base = staging / "lib/modules" / kver
    for rel in index.closure(modules):
        src = src_base / rel
        dst = dst_base / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".xz"):
            dst = dst.with_suffix("")
            _run(["sh", "-c", f"xz -dc {shlex.quote(str(src))} > {shlex.quote(str(dst))}"])
        elif rel.endswith(".zst"):
            dst = dst.with_suffix("")
            _run(["zstd", "-q", "-d", "-o", str(dst), str(src)])
        else:
            shutil.copy2(src, dst)
    for f in ["modules.builtin", "modules.builtin.modinfo", "modules.order"]:
        if (src_base / f).exists():
            shutil.copy2(src_base / f, dst_base / f)
    _run(["depmod", "-b", str(staging), kver])


def base_layer(env: dict[str, str], extra_modules=()) -> Path:
    """The cached part of the initramfs: busybox, modules, fonts, helpers, fixtures, /init."""
    kver = env["KVER"]
    modules = BOOT_MODULES + DEVICE_MODULES + list(extra_modules)
    busybox = shutil.which("busybox") or "/bin/busybox"
    # Rebuilt modules re-run depmod, whose stamp's time then changes; this file holds the
    # layer's recipe.
    depmod_stamp = Path(env["MODULES_ROOT"]) / "lib" / "modules" / kver / ".depmod-done"
    key = hashlib.sha256(json.dumps([
        kver, env["MODULES_ROOT"], env["TOOLS"], env["FIXTURES"], modules, INIT_SCRIPT,
        CONTROL_SCRIPT, os.stat(busybox).st_mtime, FONTS,
        depmod_stamp.stat().st_mtime if depmod_stamp.exists() else 0,
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
    ]).encode()).hexdigest()[:16]
    layers = Path(env["CACHE"]) / "initramfs"
    out = layers / f"base-{key}.cpio"
    if out.exists():
        return out
    layers.mkdir(parents=True, exist_ok=True)
    with open(layers / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)     # another run may be building it right now
        if not out.exists():
            _build_base_layer(env, modules, busybox, layers, out)
    return out


def _build_base_layer(env, modules, busybox, layers: Path, out: Path) -> None:
    for old in layers.glob("base-*.cpio"):
        if time.time() - old.stat().st_mtime > 3600:    # superseded, and no run is copying it
            old.unlink()
    log("building the initramfs base layer")
    with tempfile.TemporaryDirectory(prefix="base-", dir=layers) as tmp:
        st = Path(tmp)
        _merged_usr_links(st)
        for d in ["proc", "sys", "dev", "tmp", "run", "share", "root", "etc/photobooth-vm",
                  "usr/local/bin", "usr/bin", "usr/sbin", "mnt"]:
            (st / d).mkdir(parents=True, exist_ok=True)
        install_busybox(st, busybox)
        # /init and the control shell
        init = st / "init"
        init.write_text(INIT_SCRIPT)
        init.chmod(0o755)
        (st / "etc/photobooth-vm/control.sh").write_text(CONTROL_SCRIPT)
        (st / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/sh\n")
        (st / "etc/group").write_text("root:x:0:\n")
        (st / "etc/hostname").write_text("photobooth-vm\n")
        install_modules(st, env, modules)
        # fonts, helpers, fixtures
        for font in FONTS:
            _copy_into(st, font)
        for tool in sorted(Path(env["TOOLS"]).iterdir()):
            if tool.is_file() and os.access(tool, os.X_OK):
                _copy_into(st, str(tool), f"/usr/local/bin/{tool.name}")
        shutil.copytree(env["FIXTURES"], st / GUEST_FIXTURES.lstrip("/"),
                        ignore=shutil.ignore_patterns(".done"))
        _write_cpio(st, out)


def binary_layer(binary: str, staging: Path, out: Path) -> None:
    """The photobooth binary and every library it needs, at their host paths."""
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    _merged_usr_links(staging)
    (staging / "etc").mkdir()
    _copy_into(staging, binary, GUEST_BINARY).chmod(0o755)
    done: set[str] = set()
    pending = [binary]
    lib_dirs: list[str] = []
    while pending:
        elf = pending.pop()
        for lib in ldd_libraries(elf):
            real = os.path.realpath(lib)
            if lib in done:
                continue
            done.add(lib)
            _copy_into(staging, lib)
            if os.path.dirname(lib) not in lib_dirs:
                lib_dirs.append(os.path.dirname(lib))
            pending.append(real)
            # Plugins loaded from a directory at run time: libv4l2's (libv4l-mplane ...),
            # libcamera's image processing modules with their signatures, proxies and tuning
            # files, and libasound's configuration (alsa.conf, which every device name needs).
            plugin_dirs = {("libv4l2.so", "libv4lconvert.so"): ["libv4l"],
                           ("libcamera.so",): ["libcamera", "/usr/share/libcamera"],
                           ("libasound.so",): ["alsa-lib", "/usr/share/alsa"]}
            for prefixes, folders in plugin_dirs.items():
                if not os.path.basename(lib).startswith(prefixes):
                    continue
                for folder in folders:
                    plugin_dir = os.path.join(os.path.dirname(lib), folder)
                    if not os.path.isdir(plugin_dir) or plugin_dir in done:
                        continue
                    done.add(plugin_dir)
                    for root, _dirs, files in os.walk(plugin_dir):
                        for name in files:
                            path = os.path.join(root, name)
                            _copy_into(staging, path)
                            if name.endswith(".so") or ".so." in name or name.endswith("_proxy"):
                                pending.append(path)
    # An ld.so.cache for the copied directories: the binary may have found some of them through
    # the host's ld.so.conf (the Swift runtime, for one), which the guest does not have.
    (staging / "etc/ld.so.conf").write_text("".join(d + "\n" for d in lib_dirs))
    _run(["ldconfig", "-r", str(staging)], stderr=subprocess.DEVNULL)
    _write_cpio(staging, out)


def build_initramfs(env: dict[str, str], out: Path, binary: str | None = None,
                    extra_modules=()) -> Path:
    """The base layer plus, with a binary, a second cpio archive appended (the kernel unpacks
    concatenated archives in order). The binary's staging tree stays next to `out`."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    base = base_layer(env, extra_modules)
    layers = [base]
    if binary:
        staging = out.parent / "photobooth-root"
        layer = out.parent / "photobooth-layer.cpio"
        binary_layer(binary, staging, layer)
        layers.append(layer)
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "wb") as f:
        for layer in layers:
            with open(layer, "rb") as src:
                shutil.copyfileobj(src, f, 1 << 20)
    tmp.replace(out)
    if binary:
        (out.parent / "photobooth-layer.cpio").unlink()
    return out


# --------------------------------------------------------------------------------------------------
# the VM
# --------------------------------------------------------------------------------------------------

class _SocketReader:
    """A connected unix socket whose incoming bytes a thread collects into a buffer."""

    def __init__(self, path: Path, transcript: Path | None = None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.buf = bytearray()
        self.cond = threading.Condition()
        self.closed = False
        self.transcript = open(transcript, "ab") if transcript else None
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            with self.cond:
                if not data:
                    self.closed = True
                    if self.transcript:
                        self.transcript.close()
                    self.cond.notify_all()
                    return
                self.buf += data
                if self.transcript:
                    self.transcript.write(data)
                    self.transcript.flush()
                self.cond.notify_all()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def wait_for(self, pattern: re.Pattern, timeout: float, start: int = 0):
        """Wait until pattern matches the buffer from start; return the match (on the buffer)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                m = pattern.search(self.buf, start)
                if m:
                    return m
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return None
                self.cond.wait(min(left, 0.5))

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        # The reader thread sees the end of the socket and closes the transcript itself.
        self.thread.join(timeout=5)


class QMP:
    """A minimal QMP client: one command at a time, events are skipped."""

    def __init__(self, path: Path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rwb")
        greeting = json.loads(self.file.readline())
        if "QMP" not in greeting:
            raise VMError(f"unexpected QMP greeting {greeting}")
        self.execute("qmp_capabilities")

    def execute(self, command: str, **arguments):
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg).encode() + b"\n")
        self.file.flush()
        while True:
            line = self.file.readline()
            if not line:
                raise VMError(f"QMP connection closed during {command}")
            reply = json.loads(line)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VMError(f"QMP {command}: {reply['error'].get('desc', reply['error'])}")

    def close(self):
        try:
            self.file.close()
            self.sock.close()
        except OSError:
            pass


class VM:
    """One QEMU guest. Use as a context manager; QEMU is always killed at the end.

    run_dir receives console.log, control.log (the control-shell transcript), keypad.log and
    share/ (the guest's /share).
    """

    def __init__(self, env: dict[str, str], initramfs: Path, run_dir: Path,
                 memory_mb: int = 1024, cpus: int = 2, boot_timeout: float = 90,
                 kernel_args: str = "console=ttyS0 loglevel=4 panic=-1 rdinit=/init",
                 extra_qemu_args: tuple[str, ...] = (), silent_timeout: float | None = None):
        self.env = env
        self.initramfs = Path(initramfs)
        # Another root (vmtest/boot's Debian disk) changes these; the devices stay the same.
        self.kernel_args = kernel_args
        self.extra_qemu_args = tuple(extra_qemu_args)
        self.run_dir = Path(run_dir)
        self.share = self.run_dir / "share"
        self.console_log = self.run_dir / "console.log"
        self.memory_mb = memory_mb
        self.cpus = cpus
        self.boot_timeout = boot_timeout
        # With an /init that writes a line first, a console still empty after this long means
        # the kernel never got there (VMSilent), which waiting out boot_timeout would not change.
        self.silent_timeout = silent_timeout
        self.fixtures = Path(env["FIXTURES"])          # the same files are at /fixtures in the guest
        self.guest_fixtures = GUEST_FIXTURES
        self.proc: subprocess.Popen | None = None
        self.qmp: QMP | None = None
        self.control: _SocketReader | None = None
        self.keypad: _SocketReader | None = None
        self._keypad_read = 0
        self._seq = 0
        self._spawned: list[int] = []
        self._feeders: list[int] = []
        self.gpio: dict | None = None
        self.boot_seconds: float | None = None
        self.started_at: float | None = None    # time.monotonic() when QEMU was started
        self.binary: str | None = None    # GUEST_BINARY when the initramfs has photobooth
        self.host_binary: Path | None = None    # the binary put into the initramfs, on the host

    def share_path(self, name: str) -> tuple[Path, str]:
        """(host path, guest path) of a file or directory in the 9p share; creates parents."""
        host = self.share / name
        host.parent.mkdir(parents=True, exist_ok=True)
        return host, f"/share/{name}"

    # -- lifecycle -------------------------------------------------------------------------------

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        try:
            if self.proc and self.proc.poll() is None:
                self.shutdown()
        finally:
            self.kill()
        return False

    def qemu_command(self) -> list[str]:
        accel = os.environ.get("PHOTOBOOTH_VM_ACCEL", "tcg")
        if accel == "kvm":
            accel_args = ["-accel", "kvm", "-cpu", "host"]
        else:
            accel_args = ["-accel", "tcg,thread=multi", "-cpu", "max"]
        s = self.sock_dir
        return [
            "qemu-system-x86_64", *accel_args,
            "-m", str(self.memory_mb), "-smp", str(self.cpus),
            "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot", "-S",
            "-kernel", self.env.get("KERNEL_IMAGE") or self.env["VMLINUZ"], "-initrd", str(self.initramfs),
            "-append", self.kernel_args,
            "-chardev", f"file,id=con,path={self.console_log}",
            "-chardev", f"socket,id=kp,path={s}/keypad.sock,server=on,wait=off",
            "-chardev", f"socket,id=ctl,path={s}/control.sock,server=on,wait=off",
            "-serial", "chardev:con", "-serial", "chardev:kp", "-serial", "chardev:ctl",
            "-qmp", f"unix:{s}/qmp.sock,server=on,wait=off",
            "-device", "bochs-display",
            "-virtfs", f"local,path={self.share},mount_tag=share,security_model=none",
            *self.extra_qemu_args,
        ]

    def start(self) -> None:
        """Boot the guest and wait for its control shell; QEMU is killed if that fails."""
        try:
            self._start()
        except BaseException:
            self.kill()
            raise

    def _start(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.share.mkdir(parents=True, exist_ok=True)
        # unix socket paths are limited to 108 bytes: keep them in a short temporary directory
        self.sock_dir = Path(tempfile.mkdtemp(prefix="pbvm-"))
        cmd = self.qemu_command()
        (self.run_dir / "qemu-command.txt").write_text(shlex.join(cmd) + "\n")
        t0 = self.started_at = time.monotonic()
        self.qemu_stderr = open(self.run_dir / "qemu.stderr", "wb")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.qemu_stderr,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not all((self.sock_dir / n).exists() for n in ["keypad.sock", "control.sock", "qmp.sock"]):
            if self.proc.poll() is not None:
                raise VMError(f"QEMU exited with {self.proc.returncode}: {self._qemu_stderr_tail()}")
            if time.monotonic() > deadline:
                raise VMTimeout("QEMU did not create its sockets within 30 s")
            time.sleep(0.02)
        try:
            self.qmp = QMP(self.sock_dir / "qmp.sock")
            self.control = _SocketReader(self.sock_dir / "control.sock", self.run_dir / "control.log")
            self.keypad = _SocketReader(self.sock_dir / "keypad.sock", self.run_dir / "keypad.log")
            # The guest was started paused (-S): every socket is connected before it runs.
            self.qmp.execute("cont")
        except (OSError, VMError) as e:
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
            raise VMError(f"QEMU failed to start ({e}): {self._qemu_stderr_tail().strip()}") from e
        ready = re.compile(rb"__READY__\n")
        if self.silent_timeout is not None and not self.control.wait_for(ready, self.silent_timeout):
            if not self.console_log.exists() or self.console_log.stat().st_size == 0:
                registers = self._guest_registers()
                raise VMSilent(f"the guest wrote nothing on its console within {self.silent_timeout:.0f} s "
                               f"(its registers: {registers})\n{self._evidence()}")
        if not self.control.wait_for(ready, self.boot_timeout - (self.silent_timeout or 0)):
            raise VMTimeout(f"no control shell within {self.boot_timeout} s\n{self._evidence()}")
        self._ctl_pos = len(self.control.buf)
        self.boot_seconds = time.monotonic() - t0
        log(f"guest ready in {self.boot_seconds:.1f} s")

    def shutdown(self, timeout: float = 30) -> None:
        """Stop spawned processes, power the guest off and wait for QEMU to exit."""
        if not self.proc or self.proc.poll() is not None:
            return
        try:
            if self._spawned:
                self.sh(f"kill {' '.join(map(str, self._spawned))} 2>/dev/null; sleep 0.5; true", timeout=10)
            self.sh("sync", timeout=10)
            self._send_control("poweroff -f", 10)
        except (VMError, OSError) as e:
            log(f"clean shutdown failed ({e.__class__.__name__}); killing QEMU")
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            log("guest did not power off; killing QEMU")

    def kill(self) -> None:
        """Kill QEMU (if running) and close the connections. Safe from another thread."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for c in (self.control, self.keypad, self.qmp):
            if c:
                c.close()
        if getattr(self, "qemu_stderr", None):
            self.qemu_stderr.close()
        if getattr(self, "sock_dir", None):
            shutil.rmtree(self.sock_dir, ignore_errors=True)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- evidence --------------------------------------------------------------------------------

    def console_tail(self, lines: int = 30) -> str:
        try:
            text = self.console_log.read_text(errors="replace")
        except OSError:
            return "(no console log)"
        return "\n".join(text.splitlines()[-lines:])

    def _qemu_stderr_tail(self) -> str:
        try:
            return (self.run_dir / "qemu.stderr").read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def _guest_registers(self) -> str:
        """Where the guest's CPUs are, from QEMU's monitor, kept in run_dir/registers.txt: the
        evidence of a hang before the console says anything (look RIP up in the kernel's
        System.map). Returns the file's path, or why there is none."""
        try:
            text = self.qmp.execute("human-monitor-command", **{"command-line": "info registers -a"})
        except (OSError, VMError, AttributeError) as e:
            return f"not read: {e}"
        path = self.run_dir / "registers.txt"
        path.write_text(str(text))
        return str(path)

    def _evidence(self) -> str:
        parts = [f"--- console (last lines of {self.console_log}) ---", self.console_tail()]
        if self.control:
            parts += ["--- control shell (last bytes) ---",
                      bytes(self.control.buf[-1000:]).decode(errors="replace")]
        qerr = self._qemu_stderr_tail()
        if qerr:
            parts += ["--- QEMU stderr ---", qerr]
        if self.proc and self.proc.poll() is not None:
            parts.append(f"(QEMU exited with status {self.proc.returncode})")
        return "\n".join(parts)

    # -- control shell ---------------------------------------------------------------------------

    def _send_control(self, cmd: str, timeout: float) -> str:
        if not self.alive() or not self.control:
            raise VMError(f"the VM is not running\n{self._evidence()}")
        self._seq += 1
        token = f"{self._seq}x{random.getrandbits(32):08x}"
        b64 = base64.b64encode(cmd.encode()).decode()
        try:
            self.control.send(f"__run {token} {max(1, int(timeout))} {b64}\n".encode())
        except OSError as e:
            raise VMError(f"cannot send to the control shell ({e})\n{self._evidence()}") from e
        return token

    def sh(self, cmd: str, timeout: float = 30) -> tuple[int, str]:
        """Run a shell command in the guest (in its own sh, stdin /dev/null, stderr merged into
        stdout) and return (exit status, output). The guest kills it after `timeout` seconds."""
        token = self._send_control(cmd, timeout)
        pattern = re.compile(rb"__BEGIN_" + token.encode() + rb"\n(.*?)\n__END_" + token.encode()
                             + rb"_(\d+)\n", re.S)
        m = self.control.wait_for(pattern, timeout + 15, self._ctl_pos)
        if not m:
            if not self.alive():
                raise VMError(f"QEMU exited during guest command: {cmd}\n{self._evidence()}")
            raise VMTimeout(f"guest command did not finish within {timeout} s: {cmd}\n{self._evidence()}")
        self._ctl_pos = m.end()
        status = int(m.group(2))
        output = m.group(1).decode(errors="replace")
        if status == 137 and timeout >= 1:
            raise VMTimeout(f"guest command killed after {timeout} s: {cmd}\noutput: {output[-2000:]}")
        return status, output

    def sh_ok(self, cmd: str, timeout: float = 30) -> str:
        """Like sh, but raise unless the exit status is 0; return the output."""
        status, output = self.sh(cmd, timeout)
        if status != 0:
            raise VMError(f"guest command failed with status {status}: {cmd}\n{output[-3000:]}")
        return output

    def spawn(self, cmd: str, log_name: str, env: dict[str, str] | None = None) -> int:
        """Start a simple command (it is exec'd) in the background with stdout and stderr to
        /share/<log_name> (host: self.share / log_name); its exit status goes to
        /share/<log_name>.exit when it ends. Returns its pid."""
        self._seq += 1
        pidfile = f"/tmp/.spawn-{self._seq}.pid"
        log_path = f"/share/{log_name}"
        exports = "".join(f"export {k}={shlex.quote(v)}; " for k, v in (env or {}).items())
        inner = (f"{exports}( exec {cmd} ) >{shlex.quote(log_path)} 2>&1 </dev/null & "
                 f"echo $! >{pidfile}.tmp; mv {pidfile}.tmp {pidfile}; wait $!; "
                 f"echo $? >{shlex.quote(log_path + '.exit')}")
        for stale in (self.share / log_name, self.share / (log_name + ".exit")):
            if stale.exists():
                stale.unlink()
        (self.share / log_name).parent.mkdir(parents=True, exist_ok=True)
        out = self.sh_ok(
            f"setsid sh -c {shlex.quote(inner)} >/dev/null 2>&1 </dev/null &\n"
            f"i=0; while [ ! -s {pidfile} ] && [ $i -lt 500 ]; do usleep 10000; i=$((i+1)); done\n"
            f"cat {pidfile}", timeout=15)
        pid = int(out.strip().splitlines()[-1])
        self._spawned.append(pid)
        return pid

    def kill_pid(self, pid: int, signal: str = "TERM") -> None:
        self.sh(f"kill -{signal} {pid}", timeout=10)

    def pid_alive(self, pid: int) -> bool:
        return self.sh(f"[ -d /proc/{pid} ] && ! grep -q '^State:.*Z' /proc/{pid}/status", timeout=10)[0] == 0

    def wait_exit(self, log_name: str, timeout: float = 30) -> int:
        """Wait for a spawned command to end; return its exit status."""
        path = self.share / (log_name + ".exit")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if path.exists():
                text = path.read_text().strip()
                if text:
                    return int(text)
            time.sleep(0.1)
        raise VMTimeout(f"{log_name}: the command did not exit within {timeout} s\n"
                        f"--- {log_name} (tail) ---\n{self.read_log(log_name)[-2000:]}")

    def wait_fd_open(self, pid: int, device: str, timeout: float = 20) -> None:
        """Wait until process pid has device open (e.g. before typing on a serial port)."""
        self.sh_ok(f"i=0; while ! ls -l /proc/{pid}/fd 2>/dev/null | grep -q ' -> {device}$'; do "
                   f"[ -d /proc/{pid} ] || exit 2; [ $i -ge {int(timeout * 20)} ] && exit 1; "
                   f"usleep 50000; i=$((i+1)); done", timeout=timeout + 5)

    def read_log(self, log_name: str) -> str:
        try:
            return (self.share / log_name).read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def wait_for_log(self, log_name: str, regex: str, timeout: float = 30, after: int = 0):
        """Wait until /share/<log_name> has a complete line matching regex at or past byte
        offset `after`. Returns (match, offset just past that line): pass the offset back as
        `after` to wait for the next occurrence."""
        path = self.share / log_name
        pattern = re.compile(regex)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with open(path, "rb") as f:
                    f.seek(after)
                    data = f.read()
            except FileNotFoundError:
                data = b""
            pos = 0
            while True:
                nl = data.find(b"\n", pos)
                if nl < 0:
                    break
                line = data[pos:nl].decode(errors="replace")
                m = pattern.search(line)
                if m:
                    return m, after + nl + 1
                pos = nl + 1
            if time.monotonic() > deadline:
                text = self.read_log(log_name)
                raise VMTimeout(f"{log_name}: no line matching {regex!r} within {timeout} s\n"
                                f"--- {log_name} (tail) ---\n{text[-3000:]}\n{self._evidence()}")
            if not self.alive():
                raise VMError(f"QEMU exited while waiting for {regex!r} in {log_name}\n{self._evidence()}")
            time.sleep(0.05)

    # -- keypad (ttyS1) ------------------------------------------------------------------------------

    def keypad_send(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode()
        self.keypad.send(data)

    def keypad_read_available(self) -> bytes:
        """What the guest wrote to ttyS1 since the last call."""
        with self.keypad.cond:
            data = bytes(self.keypad.buf[self._keypad_read:])
            self._keypad_read = len(self.keypad.buf)
        return data

    def keypad_output(self) -> bytes:
        """Everything the guest wrote to ttyS1 since boot."""
        with self.keypad.cond:
            return bytes(self.keypad.buf)

    def keypad_wait_for(self, regex: bytes | str, timeout: float = 30, after: int = 0):
        """Wait until the keypad output from byte `after` matches; returns (match, end offset)."""
        if isinstance(regex, str):
            regex = regex.encode()
        m = self.keypad.wait_for(re.compile(regex), timeout, after)
        if not m:
            raise VMTimeout(f"keypad: nothing matching {regex!r} within {timeout} s; got "
                            f"{bytes(self.keypad.buf[after:])[-500:]!r}")
        return m, m.end()

    # -- screen ------------------------------------------------------------------------------------

    def screendump(self, path_png) -> "Image.Image":
        """What the screen shows, as a PIL image, also saved as PNG at path_png."""
        from PIL import Image
        path_png = Path(path_png)
        if not path_png.is_absolute():
            path_png = self.run_dir / path_png
        path_png.parent.mkdir(parents=True, exist_ok=True)
        ppm = path_png.with_suffix(".ppm")
        self.qmp.execute("screendump", filename=str(ppm))
        img = Image.open(ppm)
        img.load()
        img.save(path_png)
        ppm.unlink()
        return img

    # -- gpio-sim ------------------------------------------------------------------------------------

    def gpio_sim_setup(self, lines: int = 8, names: dict[int, str] | None = None,
                       chip: str = "booth") -> tuple[str, str]:
        """Create a live gpio-sim chip through configfs; return (chip_name, dev_name), e.g.
        ("gpiochip0", "gpio-sim.0"). Loads gpio-sim if needed."""
        names = {0: "shutter", 1: "led"} if names is None else names
        cfg = f"/sys/kernel/config/gpio-sim/{chip}"
        script = [f"[ -d /sys/kernel/config/gpio-sim ] || modprobe gpio-sim", f"mkdir {cfg}",
                  f"mkdir {cfg}/gpio-bank0", f"echo {lines} > {cfg}/gpio-bank0/num_lines"]
        for line, name in sorted(names.items()):
            script += [f"mkdir {cfg}/gpio-bank0/line{line}",
                       f"echo {shlex.quote(name)} > {cfg}/gpio-bank0/line{line}/name"]
        script += [f"echo 1 > {cfg}/live", f"cat {cfg}/gpio-bank0/chip_name", f"cat {cfg}/dev_name"]
        out = self.sh_ok(" && ".join(script)).split()
        chip_name, dev_name = out[-2], out[-1]
        self.gpio = {"cfg": cfg, "chip": chip_name, "dev": dev_name, "lines": names}
        self.sh_ok(f"i=0; while [ ! -e /dev/{chip_name} ] && [ $i -lt 100 ]; do usleep 20000; i=$((i+1)); done; "
                   f"[ -e /dev/{chip_name} ]")
        return chip_name, dev_name

    def gpio_sim_teardown(self) -> None:
        if not self.gpio:
            return
        cfg = self.gpio["cfg"]
        self.sh(f"echo 0 > {cfg}/live; rmdir {cfg}/gpio-bank0/line* 2>/dev/null; "
                f"rmdir {cfg}/gpio-bank0 {cfg}")
        self.gpio = None

    def gpio_line_path(self, line: int) -> str:
        if not self.gpio:
            raise VMError("gpio_sim_setup() first")
        return f"/sys/devices/platform/{self.gpio['dev']}/{self.gpio['chip']}/sim_gpio{line}"

    def gpio_set_pull(self, line: int, pull: str) -> None:
        """Pull an input line up or down, as a button would ("pull-up" or "pull-down")."""
        if pull not in ("pull-up", "pull-down"):
            raise ValueError(pull)
        self.sh_ok(f"echo {pull} > {self.gpio_line_path(line)}/pull")

    def gpio_read_value(self, line: int) -> int:
        """The line's value as the chip sees it: an output driven by the booth reads back here."""
        return int(self.sh_ok(f"cat {self.gpio_line_path(line)}/value").strip())

    def gpio_chatter(self, line: int, count: int, first: str = "pull-up") -> int:
        """count alternating pull writes as fast as possible (a bouncing contact), ending where
        it started; returns the microseconds it took in the guest."""
        out = self.sh_ok(f"gpio-chatter {self.gpio_line_path(line)}/pull {count} {first}")
        return int(re.search(r"in (\d+) us", out).group(1))

    # -- cameras -----------------------------------------------------------------------------------

    def load_vivid(self, extra: str = "") -> str:
        """A raw webcam: vivid with one capture node, webcam input. Returns "/dev/video0"."""
        self.sh_ok(f"modprobe vivid n_devs=1 node_types=0x1 input_types=0x0 {extra}")
        self._wait_node("/dev/video0")
        return "/dev/video0"

    def unload_vivid(self) -> None:
        """Unplug the raw webcam."""
        self.sh_ok("rmmod vivid")

    def load_loopback(self, video_nr: int = 10, label: str = "Loopback Webcam") -> str:
        """An MJPEG/Bayer webcam: v4l2loopback whose frames come from start_feeder()."""
        self.sh_ok(f"modprobe v4l2loopback devices=1 video_nr={video_nr} exclusive_caps=1 "
                   f"card_label={shlex.quote(label)}")
        self.loopback_device = f"/dev/video{video_nr}"
        self._wait_node(self.loopback_device)
        return self.loopback_device

    def unload_loopback(self) -> None:
        """Stop the feeders, then unplug the loopback webcam."""
        self.stop_feeders()
        self.sh_ok("i=0; while ! rmmod v4l2loopback 2>/dev/null; do [ $i -ge 50 ] && exit 1; "
                   "usleep 100000; i=$((i+1)); done")

    def start_feeder(self, fourcc: str, width: int, height: int, fps: int, files,
                     device: str | None = None, log_name: str = "loopback-feed.log") -> int:
        """Run loopback-feed on the loopback device; files are fixture names (frame-1.jpg) or
        guest paths. Returns its pid once it writes frames."""
        device = device or getattr(self, "loopback_device", "/dev/video10")
        paths = [f if f.startswith("/") else f"{GUEST_FIXTURES}/{f}" for f in files]
        pid = self.spawn(f"loopback-feed {device} {fourcc} {width} {height} {fps} "
                         + " ".join(shlex.quote(p) for p in paths), log_name)
        self._feeders.append(pid)
        self.wait_for_log(log_name, r"^loopback-feed: writing", timeout=20)
        return pid

    def stop_feeders(self) -> None:
        if self._feeders:
            pids = " ".join(map(str, self._feeders))
            self.sh(f"kill {pids} 2>/dev/null; i=0; while [ $i -lt 50 ]; do alive=0; "
                    f"for p in {pids}; do [ -d /proc/$p ] && alive=1; done; [ $alive = 0 ] && break; "
                    f"usleep 50000; i=$((i+1)); done")
            self._feeders = []

    def _wait_node(self, node: str, timeout: float = 10) -> None:
        self.sh_ok(f"i=0; while [ ! -e {node} ] && [ $i -lt {int(timeout * 20)} ]; do usleep 50000; "
                   f"i=$((i+1)); done; [ -e {node} ]", timeout=timeout + 5)

    # -- between scenarios ---------------------------------------------------------------------

    def cleanup(self) -> None:
        """Best effort back to a fresh boot's state: kill what was spawned, unload the device
        modules, remove gpio-sim chips."""
        if self._spawned:
            pids = " ".join(map(str, self._spawned))
            self.sh(f"kill -KILL {pids} 2>/dev/null; i=0; while [ $i -lt 100 ]; do alive=0; "
                    f"for p in {pids}; do [ -d /proc/$p ] && alive=1; done; [ $alive = 0 ] && break; "
                    f"usleep 50000; i=$((i+1)); done; true", timeout=15)
            self._spawned = []
            self._feeders = []
        self.sh("for c in /sys/kernel/config/gpio-sim/*/; do [ -d \"$c\" ] || continue; "
                "echo 0 > $c/live; rmdir $c/gpio-bank*/line* $c/gpio-bank* $c; done 2>/dev/null; true")
        # Modules can stay busy for a moment after their last user exits.
        status, out = self.sh("for m in vivid v4l2loopback gpio_sim; do i=0; "
                              "while grep -q \"^$m \" /proc/modules; do rmmod $m 2>/dev/null && break; "
                              "[ $i -ge 50 ] && { echo \"$m stays loaded\"; exit 1; }; "
                              "usleep 100000; i=$((i+1)); done; done", timeout=30)
        if status != 0:
            raise VMError(f"cleanup: {out.strip()}")
        self.gpio = None


# --------------------------------------------------------------------------------------------------
# scenarios
# --------------------------------------------------------------------------------------------------

@dataclass
class Scenario:
    name: str
    func: Callable[["VM", Path], None]
    needs_binary: bool
    fresh_vm: bool
    timeout: float
    modules: tuple[str, ...]
    file: str


SCENARIOS: list[Scenario] = []


def scenario(func=None, *, needs_binary: bool = True, fresh_vm: bool = False,
             timeout: float = 300, modules=()):
    """Register a scenario: a function (vm, out_dir) that raises (AssertionError, VMError...)
    when the behaviour is wrong. By default scenarios share one boot, run in file order and get
    the VM back with vm.cleanup() done between them; fresh_vm=True gives one its own boot.
    timeout bounds the whole scenario (QEMU is killed past it). modules: extra kernel modules
    (with their dependencies) to put into the initramfs."""
    def register(f):
        SCENARIOS.append(Scenario(f.__name__, f, needs_binary, fresh_vm, timeout, tuple(modules),
                                  sys.modules[f.__module__].__file__ if f.__module__ in sys.modules else ""))
        return f
    return register(func) if func is not None else register


# --------------------------------------------------------------------------------------------------
# command line (for debugging the kit itself)
# --------------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("initramfs", help="build an initramfs")
    p.add_argument("--binary")
    p.add_argument("--out", required=True)
    p = sub.add_parser("shell", help="boot and read guest commands from stdin")
    p.add_argument("--binary")
    p.add_argument("--out", default="/tmp/photobooth-vm-shell")
    args = ap.parse_args(argv)
    env = prepare()
    if args.cmd == "initramfs":
        print(build_initramfs(env, Path(args.out), args.binary))
        return 0
    out = Path(args.out)
    initrd = build_initramfs(env, out / "initramfs.cpio", args.binary)
    with VM(env, initrd, out / "vm") as vm:
        print(f"guest ready in {vm.boot_seconds:.1f} s; one command per line, EOF powers off", file=sys.stderr)
        for line in sys.stdin:
            if line.strip():
                status, output = vm.sh(line, timeout=120)
                sys.stdout.write(output + ("" if output.endswith("\n") or not output else "\n"))
                print(f"[status {status}]", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
