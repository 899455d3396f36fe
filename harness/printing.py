"""A real CUPS for the printing tests: a private cupsd on loopback with one IPP Everywhere queue
on ippeveprinter, CUPS's own IPP Everywhere printer simulator, which keeps every document it
receives (`-k`). Nothing of the system's CUPS is touched: every file is under one folder.

    with PrintLab(folder) as lab:
        lab.server        # "127.0.0.1:PORT", for print.server
        lab.documents()   # what the printer received, oldest first
        lab.media_empty() / lab.media_loaded()   # the printer says it is out of paper, or not
        lab.stop_queue() / lab.start_queue()     # the queue stopped as CUPS stops it (paused)

ippeveprinter needs a D-Bus system bus even with DNS-SD off (Debian builds it with Avahi): it gets
a private dbus-daemon. cupsd refuses to run as root without its sandbox: as root it runs as
`nobody`, which then owns the folder.
"""
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from harness.booth import free_port

QUEUE = "Booth"

CUPSD_CONF = """LogLevel info
Listen 127.0.0.1:{port}
Browsing Off
WebInterface No
DirtyCleanInterval 0
JobRetryInterval 5
<Policy default>
<Limit All>
Order Allow,Deny
</Limit>
</Policy>
"""

CUPS_FILES_CONF = """ServerRoot {d}
ServerBin {d}/bin
StateDir {d}/state
CacheDir {d}/cache
RequestRoot {d}/spool
TempDir {d}/spool/temp
AccessLog {d}/log/access_log
ErrorLog {d}/log/error_log
PageLog {d}/log/page_log
Printcap {d}/printcap
FileDevice Yes
Sandboxing Off
"""


# A printer of the tests' own, as a CUPS backend (`photobooth-test:/`): what it does with the next
# job is the word in its control file. "ok" keeps the job and clears what it said before; "jam"
# and "door" say what a jammed or open printer's backend says and stop the queue (exit 4, as
# CUPS_BACKEND_STOP), so the job waits there, as it does on a real jam.
TEST_BACKEND = """#!/bin/sh
if [ $# -eq 0 ]; then
  echo 'direct photobooth-test "Photobooth" "The test printer"'
  exit 0
fi
case "$(cat {control} 2>/dev/null)" in
  jam) echo "STATE: +media-jam-error" >&2; echo "ERROR: Paper jam" >&2; exit 4 ;;
  door) echo "STATE: +door-open-error" >&2; echo "ERROR: The cover is open" >&2; exit 4 ;;
esac
echo "STATE: -media-jam-error,door-open-error" >&2
cat "${{6:-/dev/stdin}}" > {received}/"$1".out
exit 0
"""

TEST_QUEUE = "Jam"


class PrintLabError(Exception):
    pass


def tool(name: str) -> str:
    """A CUPS program's path: on the PATH, or in /usr/sbin, where Debian puts the admin's."""
    return shutil.which(name) or f"/usr/sbin/{name}"


def missing_tools() -> list[str]:
    return [name for name in ("cupsd", "ippeveprinter", "lpadmin", "cupsenable", "cupsdisable", "lp", "dbus-daemon")
            if not Path(tool(name)).exists()]


class PrintLab:
    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.printer_port = free_port()
        self.server = f"127.0.0.1:{self.port}"
        self.spool = folder / "printer"
        self.control = folder / "test-printer.control"
        self.processes: list[subprocess.Popen] = []
        self.cupsd_pid: int | None = None

    # ---------------------------------------------------------------------------------------------

    def __enter__(self) -> "PrintLab":
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def as_cups_user(self) -> list[str]:
        return ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []

    def env(self) -> dict[str, str]:
        return dict(os.environ, CUPS_SERVER=self.server)

    def start(self) -> None:
        d = self.folder
        shutil.rmtree(d, ignore_errors=True)
        for sub in ["state", "cache", "spool/temp", "log", "ppd", "printer", "bin/backend", "test-printer"]:
            (d / sub).mkdir(parents=True, exist_ok=True)
        # CUPS's programs, and the tests' own backend beside its backends.
        for entry in Path("/usr/lib/cups").iterdir():
            if entry.name != "backend":
                (d / "bin" / entry.name).symlink_to(entry)
        for entry in Path("/usr/lib/cups/backend").iterdir():
            (d / "bin" / "backend" / entry.name).symlink_to(entry)
        backend = d / "bin" / "backend" / "photobooth-test"
        backend.write_text(TEST_BACKEND.format(control=self.control, received=d / "test-printer"))
        backend.chmod(0o755)
        self.control.write_text("ok")
        self.control.chmod(0o644)
        (d / "cupsd.conf").write_text(CUPSD_CONF.format(port=self.port))
        (d / "cups-files.conf").write_text(CUPS_FILES_CONF.format(d=d))
        if os.geteuid() == 0:
            subprocess.run(["chown", "-R", "nobody:nogroup", str(d)], check=True)
            os.chmod(d, 0o755)
        bus = d / "dbus.sock"
        dbus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:path={bus}"],
                                stdout=subprocess.DEVNULL, stderr=open(d / "dbus.log", "w"))
        self.processes.append(dbus)
        self.wait(lambda: bus.exists(), "the private D-Bus")
        self.start_printer()
        subprocess.run(self.as_cups_user() + [tool("cupsd"), "-c", str(d / "cupsd.conf"), "-s", str(d / "cups-files.conf")],
                       check=True)
        self.wait(lambda: (d / "cupsd.pid").exists() or self.cups_answers(), "cupsd")
        self.run(["lpadmin", "-p", QUEUE, "-E", "-v", self.device_uri, "-m", "everywhere"])
        # cupsd makes the IPP Everywhere PPD after lpadmin returns; until then the queue is raw.
        self.wait(lambda: (d / "ppd" / f"{QUEUE}.ppd").exists(), "the queue's PPD")
        self.run(["lpadmin", "-p", QUEUE, "-o", "printer-error-policy=retry-job"])

    @property
    def device_uri(self) -> str:
        return f"ipp://localhost:{self.printer_port}/ipp/print"

    def printer_answers(self) -> bool:
        try:
            urllib.request.urlopen(f"http://localhost:{self.printer_port}/", timeout=1).read()
            return True
        except Exception:
            return False

    def cups_answers(self) -> bool:
        return subprocess.run([tool("lpstat"), "-h", self.server, "-r"], capture_output=True).returncode == 0

    def run(self, command: list[str]) -> str:
        # lpadmin, cupsenable and cupsdisable live in /usr/sbin, which a user's PATH may lack.
        command = [tool(command[0])] + command[1:]
        result = subprocess.run(self.as_cups_user() + ["env", f"CUPS_SERVER={self.server}"] + command,
                                capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise PrintLabError(f"{' '.join(command)} exited with {result.returncode}: {result.stderr.strip()}")
        return result.stdout

    @staticmethod
    def wait(condition, what: str, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.05)
        raise PrintLabError(f"{what} did not start within {seconds} s")

    def close(self) -> None:
        pid_file = self.folder / "cupsd.pid"
        pid = None
        for candidate in [pid_file, self.folder / "state" / "cupsd.pid"]:
            if candidate.exists():
                pid = int(candidate.read_text().strip() or 0)
        if pid is None:
            found = subprocess.run(["pgrep", "-f", f"cupsd -c {self.folder}/cupsd.conf"], capture_output=True, text=True)
            pid = int(found.stdout.split()[0]) if found.stdout.split() else None
        if pid:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()

    # ---------------------------------------------------------------------------------------------

    def documents(self) -> list[Path]:
        """What the printer received, by its job number (ippeveprinter names each file
        `<job>-<job name>.<ext>`)."""
        files = [f for f in self.spool.iterdir() if f.suffix in (".jpg", ".pwg", ".png", ".pdf") and f.name[0].isdigit()]
        return sorted(files, key=lambda f: int(f.name.split("-", 1)[0]))

    def media_empty(self) -> None:
        """The printer's trays say empty (its web form, as a printer's sensor would)."""
        self.set_media(0)

    def media_loaded(self) -> None:
        self.set_media(100)

    def set_media(self, level: int) -> None:
        # The colour printer's sources after auto and manual: 1 main (letter), 2 photo (4x6).
        query = (f"size1=na_letter_8.5x11in&type1=stationery&level1={level}"
                 f"&size2=na_index-4x6_4x6in&type2=photographic-glossy&level2={level}")
        urllib.request.urlopen(f"http://localhost:{self.printer_port}/media?{query}", timeout=5).read()

    def printed_per_photo(self) -> dict[str, int]:
        """How many documents the printer received for each photo, by the id prefix in the job
        name."""
        counts: dict[str, int] = {}
        for document in self.documents():
            match = re.match(r"\d+-photobooth_([0-9a-f]{8})_", document.name)
            if not match:
                raise PrintLabError(f"a document the booth did not send: {document.name}")
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
        return counts

    def set_supply(self, level: int) -> None:
        """The cyan ink's level (0: empty), as the printer's sensor would say it; the others full."""
        query = f"supply0=0&supply1={level}&supply2=100&supply3=100&supply4=100"
        urllib.request.urlopen(f"http://localhost:{self.printer_port}/supplies?{query}", timeout=5).read()

    def stop_printer(self) -> None:
        """Switches the printer off: ippeveprinter stops answering."""
        printer = self.processes.pop(1)
        printer.terminate()
        printer.wait(timeout=10)

    def start_printer(self) -> None:
        """The printer: a colour IPP Everywhere printer that takes JPEG and PWG raster and keeps
        what it prints; its web forms (no -A) set its paper and supplies."""
        bus = self.folder / "dbus.sock"
        printer = subprocess.Popen(
            ["ippeveprinter", "-n", "localhost", "-p", str(self.printer_port), "-k", "-d", str(self.spool),
             "-f", "image/jpeg,image/pwg-raster", "-s", "10,10", "-r", "off", "-M", "Photobooth", "-m", "Test Printer", QUEUE],
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "ippeveprinter.log", "a"),
            env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={bus}"))
        self.processes.insert(1, printer)
        self.wait(lambda: self.printer_answers(), "ippeveprinter")

    def add_test_queue(self) -> None:
        """The queue of the tests' own backend (TEST_QUEUE), raw: the job as sent."""
        self.run(["lpadmin", "-p", TEST_QUEUE, "-E", "-v", "photobooth-test:/"])

    def test_printer_says(self, word: str) -> None:
        """What the tests' printer does with the next job: ok, jam or door."""
        self.control.write_text(word)

    def test_documents(self) -> list[Path]:
        return sorted((self.folder / "test-printer").glob("*.out"))

    def stop_queue(self) -> None:
        self.run(["cupsdisable", "-r", "stopped by the test", QUEUE])

    def start_queue(self, queue: str = QUEUE) -> None:
        self.run(["cupsenable", queue])

    def log(self) -> str:
        path = self.folder / "log" / "error_log"
        return path.read_text(errors="replace") if path.exists() else ""
