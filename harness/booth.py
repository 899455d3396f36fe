"""The real photobooth binary as the harness drives it: a booth process on simulated hardware,
its command line, and what it tells through its interfaces (`/api/status`, `/api/events`,
`photobooth list --json`, `photobooth check`, and the log lines it writes for every state, save
and rename).

Nothing here reads the booth's prose: a state is `/api/status`'s `state`, a saved photo is the
log's `saved ID "CAPTION"` line, a rename its `named ID "NAME"` line (the lines operators grep
for too, so that they change only with a reason).
"""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

SAVED = re.compile(r'\] saved ([0-9a-f-]{36}) "((?:[^"\\]|\\.)*)"')
NAMED = re.compile(r'\] named ([0-9a-f-]{36}) "((?:[^"\\]|\\.)*)"')
STATE = re.compile(r"\] (\w+(?:\(\w+\))?) -> (\w+(?:\(\w+\))?) \(")


class HarnessError(Exception):
    """Something the harness waited for did not happen; the message says what, with the log's tail."""


def wait_for(condition, timeout: float, what: str, poll: float = 0.05):
    """Polls `condition` until it returns a true value; raises HarnessError after `timeout` seconds.
    Waiting on a condition, never on a fixed time, keeps the tests independent of the machine's speed."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise HarnessError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(poll)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unquote(caption: str) -> str:
    """A caption as the log quotes it (Swift's string escapes for \\ and \")."""
    return caption.replace('\\"', '"').replace("\\\\", "\\")


@dataclass
class Acknowledgements:
    """What the booth told its guests it had kept: every photo whose save it logged, with the
    caption it last confirmed (the default one, then the typed name)."""
    captions: dict[str, str] = field(default_factory=dict)

    def read(self, log: str) -> None:
        for line in log.splitlines():
            if match := SAVED.search(line):
                self.captions.setdefault(match.group(1), unquote(match.group(2)))
            elif match := NAMED.search(line):
                self.captions[match.group(1)] = unquote(match.group(2))


class Command:
    """`photobooth COMMAND --data-dir DIR ...` on a library, as an operator runs it."""

    def __init__(self, binary: Path, data: Path):
        self.binary, self.data = binary, data

    def run(self, *args: str, timeout: float = 120, check: bool = False, env: dict | None = None) -> subprocess.CompletedProcess:
        command = [str(self.binary), *args, "--data-dir", str(self.data)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                env={**os.environ, **(env or {})})
        if check and result.returncode != 0:
            raise HarnessError(f"{' '.join(command)} exited {result.returncode}: {result.stdout}{result.stderr}")
        return result

    def photos(self, hidden: bool = False) -> list[dict]:
        """`photobooth list --json` (and `--hidden`): the photos guests see, or those hidden from them."""
        args = ["list", "--json"] + (["--hidden"] if hidden else [])
        return json.loads(self.run(*args, check=True).stdout)

    def all_photos(self) -> list[dict]:
        return self.photos() + self.photos(hidden=True)

    def check(self, repair: bool = False) -> subprocess.CompletedProcess:
        return self.run("check", *(["--repair"] if repair else []))


class Booth:
    """`photobooth run --simulate` with its web server on loopback, fed by a pipe that stays
    open (the terminal console: an empty line presses the button, a line names the photo)."""

    def __init__(self, binary: Path, data: Path, out: Path, *, args: tuple[str, ...] = (), config: str = "",
                 http: bool = True, label: str = "booth", env: dict | None = None):
        self.binary, self.data, self.out = Path(binary), Path(data), Path(out)
        self.port = free_port() if http else None
        self.base = f"http://127.0.0.1:{self.port}" if http else None
        self.log_path = self.out / f"{label}.log"
        self.screen_path = self.out / f"{label}-screen.txt"
        command = [str(binary), "run", "--simulate", "--data-dir", str(data), "--countdown", "0"]
        if config:
            path = self.out / f"{label}.yaml"
            path.write_text(config)
            command += ["--config", str(path)]
        command += ["--http-address", "127.0.0.1", "--http-port", str(self.port)] if http else ["--no-http"]
        command += list(args)
        self.out.mkdir(parents=True, exist_ok=True)
        self.log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=open(self.screen_path, "ab"),
                                        stderr=open(self.log_path, "ab"), env={**os.environ, **(env or {})})
        self.command = Command(binary, data)

    # What the booth says

    def log(self) -> str:
        """This run's log (a label's file keeps the runs before it, for people)."""
        with open(self.log_path, "rb") as log:
            log.seek(self.log_offset)
            return log.read().decode(errors="replace")

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def saved(self) -> list[tuple[str, str]]:
        return [(m.group(1), unquote(m.group(2))) for m in SAVED.finditer(self.log())]

    def states(self) -> list[str]:
        return [m.group(2) for m in STATE.finditer(self.log())]

    def status(self) -> dict | None:
        """`/api/status`, or None while the booth does not answer."""
        try:
            with urllib.request.urlopen(self.base + "/api/status", timeout=5) as answer:
                return json.load(answer)
        except (OSError, urllib.error.URLError, ValueError):
            return None

    def get(self, path: str, timeout: float = 10, headers: dict | None = None) -> tuple[int, dict, bytes]:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post(self, path: str, body: bytes = b"", headers: dict | None = None) -> int:
        """The status of a POST; 0 when no answer came (the booth went away mid-request)."""
        return self.send("POST", path, body, headers)

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> int:
        """The status of a request; 0 when no answer came (the booth went away mid-request)."""
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
        except (OSError, http.client.HTTPException):
            return 0

    # Waiting for it

    def running(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self, timeout: float = 60) -> None:
        """Until the booth is idle and its camera delivers (through /api/status, else its log)."""
        def ready():
            if not self.running():
                raise HarnessError(f"the booth exited with {self.process.returncode}:\n{self.tail()}")
            if self.base:
                status = self.status()
                return status and status["state"] == "idle" and status["camera_connected"]
            return "idle" in self.states()
        try:
            wait_for(ready, timeout, "the booth to be ready")
        except HarnessError as error:
            raise HarnessError(f"{error}\n{self.tail()}") from None

    def wait_state(self, state: str, timeout: float = 30) -> None:
        def reached():
            if not self.running():
                raise HarnessError(f"the booth exited with {self.process.returncode}:\n{self.tail()}")
            return (self.status() or {}).get("state") == state
        wait_for(reached, timeout, f"the state {state}")

    # Acting on it

    def type(self, line: str) -> None:
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def take_photo(self, name: str, timeout: float = 30) -> str:
        """Presses the button, types `name` and waits until the rename is logged; returns the id."""
        before = len(self.saved())
        self.type("")
        self.type(name)
        wait_for(lambda: len(self.saved()) > before or not self.running(), timeout, f"the photo {name!r} to be saved")
        photo = self.saved()[before][0]
        if name:
            wait_for(lambda: any(m.group(1) == photo for m in NAMED.finditer(self.log())) or not self.running(),
                     timeout, f"the name {name!r} to be kept")
        return photo

    def kill(self) -> None:
        """SIGKILL: nothing of the booth runs after it, as after a crash."""
        if self.running():
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 60) -> int:
        """Ends the booth's input, which finishes the photo under way and stops it; SIGKILL after `timeout`."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9
