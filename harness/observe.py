"""Watching a booth over a long run, for the soak and the storage campaign: its log read as it
grows (not read whole at every photo, which over 10,000 photos would cost more than the booth),
its resources from /proc, a client of `/api/events`, and wrk's load on the web gallery.
"""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.booth import NAMED, SAVED, Acknowledgements, Booth, HarnessError, wait_for

SAVE_TIMES = re.compile(r"decode ([0-9.]+) ms, write ([0-9.]+) ms, commit ([0-9.]+) ms")
TRANSITION = re.compile(r"\] (\w+(?:\(\w+\))?) -> (\w+(?:\(\w+\))?) \(\w+(?:\(\w+\))? lasted ([0-9.]+) s\)")
IGNORED_PRESS = re.compile(r"\] Shutter press ignored: the booth is in (\w+(?:\(\w+\))?)")


class LogFollower:
    """A booth's log from where this run of it started, read as it grows: each call reads only
    the bytes written since the last one. Keeps the acknowledgements, the order of saves, the
    states entered and the presses the booth ignored (in a fault)."""

    def __init__(self, booth: Booth):
        self.booth = booth
        self.file = open(booth.log_path, "rb")
        self.file.seek(booth.log_offset)
        self.partial = b""
        self.acknowledged = Acknowledgements()
        self.saved: list[str] = []
        self.named: set[str] = set()
        self.save_ms: list[float] = []
        self.states: list[str] = []
        self.transitions: list[tuple[str, str, float]] = []
        self.ignored = 0
        self.lines: list[str] = []

    def poll(self) -> None:
        chunk = self.file.read()
        if not chunk:
            return
        data = self.partial + chunk
        complete, _, self.partial = data.rpartition(b"\n")
        if not complete:
            return
        text = complete.decode(errors="replace")
        self.acknowledged.read(text)
        for line in text.splitlines():
            if match := SAVED.search(line):
                self.saved.append(match.group(1))
                if times := SAVE_TIMES.search(line):
                    self.save_ms.append(sum(float(part) for part in times.groups()))
            elif match := NAMED.search(line):
                self.named.add(match.group(1))
            elif match := TRANSITION.search(line):
                self.states.append(match.group(2))
                self.transitions.append((match.group(1), match.group(2), float(match.group(3))))
            elif IGNORED_PRESS.search(line):
                self.ignored += 1
            self.lines.append(line)
        # Only the last lines are kept for messages: the acknowledgements hold what matters.
        del self.lines[:-200]

    def tail(self, lines: int = 30) -> str:
        self.poll()
        return "\n".join(self.lines[-lines:])

    def wait(self, condition, timeout: float, what: str):
        def reached():
            self.poll()
            value = condition()
            if not value and not self.booth.running():
                self.poll()
                value = condition()
                if not value:
                    raise HarnessError(f"the booth exited with {self.booth.process.returncode} "
                                       f"while waiting for {what}:\n{self.tail()}")
            return value
        try:
            return wait_for(reached, timeout, what, poll=0.01)
        except HarnessError as error:
            raise HarnessError(f"{error}\n{self.tail()}") from None

    def attempt(self, name: str, timeout: float = 60) -> dict:
        """A guest's try at a photo on a booth that may not be able to save it: presses, types
        `name` once the booth asks for one, and waits for the end of the try. Returns its
        `outcome`: "saved" (the save logged, and the name, or the name kept for later: then
        `name_waits`), "refused" (the press answered with a fault: nobody posed), "stopped" (a
        fault came before the shot) or "not saved" (the guest posed, then the booth said the
        photo could not be saved); with `photo` and the `states` entered."""
        self.poll()
        states, ignored, saved = len(self.states), self.ignored, len(self.saved)

        def posing_stopped():
            new = self.states[states:]
            posing = [i for i, state in enumerate(new) if state in ("countdown", "capturing")]
            return bool(posing) and any(state.startswith("fault") for state in new[posing[0]:])

        def press_showed_fault():
            # A press on the saved screen with the storage known to be unfit shows the fault at
            # once; nothing else leaves that screen for a fault before its 5 s are over.
            first = self.transitions[states:states + 1]
            return bool(first) and first[0][0] == "saved" and first[0][1].startswith("fault") and first[0][2] < 4.5
        self.booth.type("")
        self.wait(lambda: self.ignored > ignored or "naming" in self.states[states:] or posing_stopped() or press_showed_fault(),
                  timeout, "the press's answer")
        result = {"outcome": "", "photo": None, "name_waits": False}
        if "naming" not in self.states[states:]:
            result["outcome"] = "stopped" if posing_stopped() else "refused"
        else:
            self.booth.type(name)
            naming = states + self.states[states:].index("naming")
            # The try ends with the saved screen or a fault; a fault while naming leaves the name's
            # line to the fault, which reads it as a press: wait for it, so that it does not fall on
            # the next try.
            self.wait(lambda: any(s == "saved" or s.startswith("fault") for s in self.states[naming + 1:]), timeout,
                      f"the end of the try at {name!r}")
            after = self.states[naming + 1:]
            if len(self.saved) > saved:
                result.update(outcome="saved", photo=self.saved[saved])
                result["name_waits"] = bool(name) and result["photo"] not in self.named
            else:
                result["outcome"] = "not saved"
                if after and after[0].startswith("fault"):
                    self.wait(lambda: self.ignored > ignored, timeout, "the name's line, read as a press in the fault")
        result["states"] = self.states[states:]
        return result

    def close(self) -> None:
        self.file.close()


@dataclass
class Resources:
    """What a process holds, from /proc/PID: resident memory (anonymous and file-backed), open
    descriptors (sockets apart, since clients come and go) and threads (by name, so that
    libdispatch's workers, which come and go with the work, can be told from the booth's own)."""
    rss_kb: int
    rss_anon_kb: int
    rss_file_kb: int
    fds: int
    sockets: int
    threads: int
    descriptors: dict[str, int] = field(default_factory=dict)
    thread_names: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, pid: int) -> Resources:
        status = {}
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            status[key] = value.split()[0] if value.split() else ""
        kinds: dict[str, int] = {}
        for entry in os.scandir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(entry.path)
            except FileNotFoundError:  # closed while listed
                continue
            kind = target.split(":")[0] if ":" in target and not target.startswith("/") else "file"
            kinds[kind] = kinds.get(kind, 0) + 1
        names: dict[str, int] = {}
        for task in os.scandir(f"/proc/{pid}/task"):
            try:
                name = Path(task.path, "comm").read_text().strip()
            except FileNotFoundError:  # ended while listed
                continue
            names[name] = names.get(name, 0) + 1
        return cls(rss_kb=int(status["VmRSS"]), rss_anon_kb=int(status["RssAnon"]), rss_file_kb=int(status["RssFile"]),
                   fds=sum(kinds.values()), sockets=kinds.get("socket", 0), threads=int(status["Threads"]),
                   descriptors=dict(sorted(kinds.items())), thread_names=dict(sorted(names.items())))


def connections(port: int) -> int:
    """TCP connections whose server end on `port` is still open (established, or closed by the
    client and not yet by the server), from /proc/net/tcp and tcp6."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            local, state = fields[1], fields[3]
            if int(local.rsplit(":", 1)[1], 16) == port and state in ("01", "08"):
                count += 1
    return count


class EventClient:
    """A client following `/api/events` on its own thread, as a gallery page does: the ids of the
    `photo` events in order, and how often the stream ended and it connected again."""

    def __init__(self, base: str):
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.ids: list[str] = []
        self.reconnects = 0
        self.connected = threading.Event()
        self.stopping = False
        self.connection: http.client.HTTPConnection | None = None
        self.thread = threading.Thread(target=self.follow, name="events", daemon=True)
        self.thread.start()
        if not self.connected.wait(30):
            raise HarnessError("/api/events did not answer within 30 s")

    def follow(self) -> None:
        while not self.stopping:
            try:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
                self.connection.request("GET", "/api/events")
                answer = self.connection.getresponse()
                self.connected.set()
                event = None
                while not self.stopping:
                    line = answer.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "photo":
                        self.ids.append(json.loads(line[6:])["id"])
                    elif not line:
                        event = None
            except (OSError, http.client.HTTPException, ValueError):
                pass
            if not self.stopping:
                self.reconnects += 1
                time.sleep(1)  # a browser waits too, the stream's `retry`, before it connects again

    def close(self) -> None:
        self.stopping = True
        if self.connection and self.connection.sock:
            try:
                self.connection.sock.shutdown(2)
            except OSError:
                pass
        self.thread.join(10)


@dataclass
class LoadReport:
    url: str
    requests: int
    seconds: float
    errors: dict[str, int]
    non_2xx: int
    output: str


class WebLoad:
    """wrk on each of `urls`, as long as the load is on: `stop()` interrupts wrk, which then
    prints what it did, and returns each one's report."""

    def __init__(self, urls: list[str], connections_each: int = 8, timeout_s: int = 10):
        self.urls = urls
        self.processes = [subprocess.Popen(
            ["wrk", "-c", str(connections_each), "-t", "1", "-d", "24h", "--timeout", f"{timeout_s}s", url],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for url in urls]

    def stop(self) -> list[LoadReport]:
        reports = []
        for process in self.processes:
            process.send_signal(signal.SIGINT)
        for url, process in zip(self.urls, self.processes):
            try:
                output = process.communicate(timeout=30)[0].decode(errors="replace")
            except subprocess.TimeoutExpired:
                process.kill()
                output = process.communicate()[0].decode(errors="replace")
            done = re.search(r"(\d+) requests in ([0-9.]+)(m?s|m)", output)
            seconds = 0.0
            if done:
                value, unit = float(done.group(2)), done.group(3)
                seconds = value / 1000 if unit == "ms" else value * 60 if unit == "m" else value
            errors = {}
            if socket_errors := re.search(r"Socket errors: (.*)", output):
                errors = {name: int(count) for name, count in (part.split() for part in socket_errors.group(1).split(","))}
            non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
            reports.append(LoadReport(url, int(done.group(1)) if done else 0, seconds, errors,
                                      int(non_2xx.group(1)) if non_2xx else 0, output))
        return reports
