"""A disk of a few megabytes for one library, for the storage campaign: a tmpfs mounted in a
private user and mount namespace (`unshare -rm`, as the Swift tests' SmallDisk), so that a test
can fill it to the last byte or make its photos folder read-only without root and without
touching the machine's disks; the mount ends with the namespace, even after a SIGKILL of pytest.

A process keeps the namespace open. Everything that must see the disk runs in it: the booth and
its commands through `binary` (a script that enters the namespace and runs the real binary in
place, so a booth's process id is the booth's), the harness's own reads and writes through
`view` (the mount point as /proc/PID/root shows it from outside).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness.booth import HarnessError


def can_mount() -> bool:
    """Whether this machine lets a process mount a tmpfs in its own user and mount namespace."""
    result = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                            capture_output=True, check=False)
    return result.returncode == 0


class SmallDisk:
    def __init__(self, binary: Path, size: str = "16m"):
        self.folder = Path(tempfile.mkdtemp(prefix="harness-disk-"))
        self.path = self.folder / "library"
        self.path.mkdir()
        self.size = size
        self.holder = subprocess.Popen(
            ["unshare", "-rm", "sh", "-c", 'mount -t tmpfs -o size="$1" tmpfs "$2" || exit 97; echo mounted; exec sleep infinity',
             "small-disk", size, str(self.path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if self.holder.stdout.readline() != b"mounted\n":
            self.holder.wait()
            raise HarnessError(f"cannot mount a tmpfs in a user namespace (unshare -rm): {self.holder.stderr.read().decode()}")
        self.view = Path(f"/proc/{self.holder.pid}/root") / self.path.relative_to("/")
        self.binary = self.folder / "photobooth-on-small-disk"
        self.binary.write_text(f'#!/bin/sh\nexec {" ".join(self.enter())} "{binary}" "$@"\n')
        self.binary.chmod(0o755)

    def enter(self) -> list[str]:
        """The command that runs what follows it in the disk's namespace, in place."""
        return ["nsenter", f"--target={self.holder.pid}", "--user", "--mount", "--preserve-credentials", "--"]

    def run(self, script: str) -> None:
        """A shell script in the disk's namespace (mounts), `$D` the library's folder."""
        result = subprocess.run([*self.enter(), "sh", "-ec", script, "small-disk"], capture_output=True, text=True,
                                env={**os.environ, "D": str(self.path)}, check=False)
        if result.returncode != 0:
            raise HarnessError(f"in the small disk's namespace, {script!r} failed: {result.stderr}")

    # Space

    def free_bytes(self) -> int:
        stats = os.statvfs(self.view)
        return stats.f_bavail * stats.f_frsize

    def fill(self, size: int | None = None) -> int:
        """Takes `size` more bytes of the disk (all that is left when None) with a file of the
        harness's, one more each call; returns the bytes taken."""
        number = len(list(self.view.glob(".fill-*")))
        taken = 0
        chunk = b"\0" * 65536
        with open(self.view / f".fill-{number}", "wb", buffering=0) as file:
            try:
                while size is None or taken < size:
                    taken += file.write(chunk if size is None else chunk[:min(len(chunk), size - taken)])
            except OSError as error:
                if error.errno != 28:  # ENOSPC: the disk is full, which is what was asked
                    raise
        return taken

    def grow(self, size: str) -> None:
        """Makes the disk `size` large (tmpfs's size option), as an operator who gave it room."""
        self.run(f'mount -o remount,size={size} "$D"')
        self.size = size

    def free(self) -> None:
        """Gives back all the room the harness took."""
        for filler in self.view.glob(".fill-*"):
            filler.unlink()

    # The photos folder

    def photos_read_only(self) -> None:
        """Mounts the library's photos folder read-only over itself, as a card whose folder went
        read-only under the booth."""
        self.run('mkdir -p "$D/photos" && mount --bind "$D/photos" "$D/photos" && mount -o remount,bind,ro "$D/photos"')

    def photos_writable(self) -> None:
        self.run('umount "$D/photos"')

    def close(self) -> None:
        self.holder.kill()
        self.holder.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
