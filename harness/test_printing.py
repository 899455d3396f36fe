"""Printing through a real CUPS: the simulated booth prints on a private cupsd whose queue sends to
ippeveprinter, CUPS's IPP Everywhere printer simulator, which keeps every document it receives
(harness/printing.py).

    harness/run --binary .build/release/photobooth -k printing

- every picture printed once with print.auto, each page the picture on a 4x6 sheet at the
  printer's resolution (read back from what the printer received: size, resolution, margin,
  the picture's pixels in place);
- a printer out of paper and a queue stopped in CUPS are in the booth's log within 5 s while
  photos are still taken, and the held prints come out once each when the fault clears;
- SIGKILL at random instants while pictures are saved and printed never loses or doubles a print.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image, ImageStat

import webcheck as web
from harness.booth import free_port
from harness.printing import TEST_QUEUE, PrintLab, missing_tools

CONFIG = """print:
  printer: Booth
  server: {server}
  media: 4x6
  auto: true
"""


@pytest.fixture(scope="module")
def printing_out(artifacts) -> Path:
    path = artifacts / "printing"
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@pytest.fixture
def lab(printing_out, request):
    missing = missing_tools()
    if missing:
        pytest.fail(f"the printing tests need {', '.join(missing)}: sudo apt-get install -y cups cups-ipp-utils dbus-daemon",
                    pytrace=False)
    folder = Path(tempfile.mkdtemp(prefix="photobooth-cups-"))
    with PrintLab(folder) as lab:
        yield lab
        (printing_out / f"{request.node.name}-cups.log").write_text(lab.log())
    shutil.rmtree(folder, ignore_errors=True)


class Booth:
    """The simulated booth with a pipe for its keys: a line is a press, then a name."""

    def __init__(self, binary: Path, data: Path, config: Path, log: Path, port: int | None = None):
        self.binary, self.data, self.log = binary, data, log
        self.base = f"http://127.0.0.1:{port}" if port else None
        web_options = ["--http-address", "127.0.0.1", "--http-port", str(port)] if port else ["--no-http"]
        self.process = subprocess.Popen(
            [str(binary), "run", "--simulate", *web_options, "--data-dir", str(data), "--config", str(config), "--countdown", "0",
             "--camera-size", "1280x720"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=open(log, "ab"))

    def send(self, text: str) -> None:
        self.process.stdin.write(text.encode())
        self.process.stdin.flush()

    def take(self, name: str) -> None:
        self.process.stdin.write(f"\n{name}\n".encode())
        self.process.stdin.flush()

    def finish(self, timeout: float = 60) -> None:
        self.process.stdin.close()
        assert self.process.wait(timeout=timeout) == 0, self.log.read_text(errors="replace")[-3000:]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def logged(self) -> str:
        return self.log.read_text(errors="replace")


def status(binary: Path, data: Path) -> dict:
    """`photobooth print status --json`; no counts before the booth has made its library."""
    result = subprocess.run([str(binary), "print", "status", "--json", "--data-dir", str(data)], capture_output=True, text=True,
                            timeout=30)
    if not result.stdout.strip():
        return {"counts": {state: 0 for state in ["pending", "sending", "printing", "done", "failed", "canceled"]}}
    return json.loads(result.stdout)


def photos(binary: Path, data: Path) -> list[dict]:
    result = subprocess.run([str(binary), "list", "--json", "--data-dir", str(data)], capture_output=True, text=True, timeout=30)
    return json.loads(result.stdout) if result.stdout.strip() else []


def wait_for(condition, what: str, seconds: float) -> float:
    """Waits for `condition`, and returns how long it took."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if condition():
            return time.monotonic() - start
        time.sleep(0.1)
    pytest.fail(f"{what}: not within {seconds} s", pytrace=False)


def setup(lab: PrintLab, printing_out: Path, name: str) -> tuple[Path, Path, Path]:
    data = Path(tempfile.mkdtemp(prefix="photobooth-printing-"))
    config = printing_out / f"{name}.yaml"
    config.write_text(CONFIG.format(server=lab.server))
    log = printing_out / f"{name}.log"
    log.unlink(missing_ok=True)
    return data, config, log


def test_printing_every_picture_once_on_the_right_page(binary, lab, printing_out):
    data, config, log = setup(lab, printing_out, "auto")
    booth = Booth(binary, data, config, log)
    for name in ["Ada", "Ben", "Cleo"]:
        booth.take(name)
    took = wait_for(lambda: status(binary, data)["counts"]["done"] == 3, "three prints done", 90)
    booth.finish()
    print(f"three pictures taken and printed in {took:.1f} s")
    saved = photos(binary, data)
    assert len(saved) == 3
    assert lab.printed_per_photo() == {photo["id"][:8]: 1 for photo in saved}
    accepted = [float(m) for m in re.findall(r"page made and accepted in (\d+) ms", booth.logged())]
    print("page made and accepted by CUPS (ms): " + ", ".join(f"{m:.0f}" for m in accepted))
    for document, photo in zip(lab.documents(), sorted(saved, key=lambda p: p["created_at"])):
        page = Image.open(document)
        dpi = page.info.get("dpi", (0, 0))[0]
        # A 4x6 in sheet at the printer's resolution, turned as the 16:9 picture is.
        assert dpi in (300, 600), f"{document.name}: {page.info}"
        assert page.size == (6 * dpi, 4 * dpi), f"{document.name}: {page.size} at {dpi} dpi"
        original = Image.open(photo["file"]).convert("RGB")
        # The picture fills the sheet's width within 3 mm margins; above and below it, white.
        margin = round(3 / 25.4 * dpi)
        width = page.size[0] - 2 * margin
        height = round(width * original.size[1] / original.size[0])
        top = (page.size[1] - height) // 2
        inside = page.convert("RGB").crop((margin, top, margin + width, top + height)).resize(original.size)
        assert ImageStat.Stat(page.convert("L").crop((0, 0, page.size[0], max(1, top - 4)))).mean[0] > 250, "the margin is white"
        errors = [abs(a - b) for a, b in zip(ImageStat.Stat(inside).mean, ImageStat.Stat(original).mean)]
        assert max(errors) < 4, f"{document.name}: the picture in place differs from the original by {errors}"
    shutil.rmtree(data, ignore_errors=True)


def dark_top(picture: bytes) -> float:
    """The share of nearly black pixels in the top 4% of a screen's picture: the printer's
    notice is a dark band across the top of the screen, the live preview is not."""
    import io
    image = Image.open(io.BytesIO(picture)).convert("RGB")
    band = image.crop((0, 0, image.size[0], max(1, image.size[1] * 4 // 100)))
    pixels = list(band.get_flattened_data()) if hasattr(band, "get_flattened_data") else list(band.getdata())
    return sum(1 for p in pixels if max(p) <= 70) / len(pixels)


def print_thread_ticks(booth: Booth) -> int:
    """The processor time of the booth's print thread so far, in clock ticks (utime + stime)."""
    for task in Path(f"/proc/{booth.process.pid}/task").iterdir():
        if (task / "comm").read_text().strip() == "print":
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
    pytest.fail("the booth has no print thread", pytrace=False)


def told_everywhere(booth: Booth, fault: str, out: Path, name: str) -> float:
    """Waits until the booth's screen, /healthz and /metrics say `fault`; returns how long the
    screen took, and keeps its picture."""
    seen = {}

    def screen_says() -> bool:
        picture = web.screen_frame(booth.base)
        if picture and dark_top(picture) > 0.8:
            (out / f"{name}-screen.jpg").write_bytes(picture)
            return True
        return False

    took = wait_for(screen_says, f"the booth's screen telling {fault}", 5)
    health = web.curl(booth.base + "/healthz")
    assert health.status == 503 and f"printer: {fault}" in health.body.decode(), health.body.decode()
    seen["healthz"] = health.body.decode().strip()
    metrics = web.curl(booth.base + "/metrics").body.decode()
    assert f'photobooth_printer_fault{{fault="{fault}"}} 1' in metrics, [line for line in metrics.splitlines() if "printer" in line]
    assert 'photobooth_printer_state{state="stopped"} 1' in metrics
    status = json.loads(web.curl(booth.base + "/api/status").body)
    assert fault in status["printer"]["faults"] and status["printer"]["fix"], status
    print(f"{fault}: on the screen in {took:.1f} s; /healthz: {seen['healthz']}")
    return took


def cleared_everywhere(booth: Booth, out: Path, name: str) -> None:
    def screen_clear() -> bool:
        picture = web.screen_frame(booth.base)
        if picture and dark_top(picture) < 0.5:
            (out / f"{name}-screen.jpg").write_bytes(picture)
            return True
        return False

    wait_for(screen_clear, "the booth's screen without the notice", 10)
    wait_for(lambda: web.curl(booth.base + "/healthz").status == 200, "/healthz ok again", 10)


def test_printing_faults_are_told_and_held_prints_come_out_once(binary, lab, printing_out):
    data, config, log = setup(lab, printing_out, "faults")
    booth = Booth(binary, data, config, log, port=free_port())
    wait_for(lambda: "The printer is idle" in booth.logged(), "the booth watching the printer", 30)
    wait_for(lambda: web.curl(booth.base + "/healthz").status == 200, "/healthz ok", 30)
    # What watching the printer costs while nothing prints: the print thread's processor time
    # over 20 s of asking the queue and the printer every second.
    idle_seconds = 20
    start_ticks = print_thread_ticks(booth)
    time.sleep(idle_seconds)
    used = (print_thread_ticks(booth) - start_ticks) / os.sysconf("SC_CLK_TCK")
    print(f"watching an idle printer: {used * 1000:.0f} ms of processor in {idle_seconds} s = {used / idle_seconds * 100:.2f}% of a core")
    before = web.screen_frame(booth.base)
    (printing_out / "before-screen.jpg").write_bytes(before)
    assert dark_top(before) < 0.5, "the main screen has no dark band before a fault"

    lab.media_empty()
    told_everywhere(booth, "media-empty", printing_out, "media-empty")
    doctor = subprocess.run([str(binary), "doctor", "--config", str(config), "--data-dir", str(data)], capture_output=True, text=True,
                            timeout=120)
    line = next((line for line in doctor.stdout.splitlines() if line.startswith(("PASS printer", "FAIL printer"))), "")
    print(f"doctor: {line}")
    assert line.startswith("FAIL printer") and "media-empty" in line and "Fix: Load paper" in line, doctor.stdout
    booth.take("Held")
    wait_for(lambda: len(photos(binary, data)) == 1, "a photo taken while the printer is out of paper", 30)
    wait_for(lambda: status(binary, data)["counts"]["printing"] == 1, "the held print sent to CUPS", 30)
    assert status(binary, data)["counts"]["done"] == 0, "printed while the printer said it had no paper"
    lab.media_loaded()
    cleared_everywhere(booth, printing_out, "media-loaded")
    wait_for(lambda: status(binary, data)["counts"]["done"] == 1, "the held print done once the paper is back", 60)

    lab.stop_queue()
    told_everywhere(booth, "paused", printing_out, "paused")
    booth.take("Paused")
    wait_for(lambda: len(photos(binary, data)) == 2, "a photo taken while the queue is stopped", 30)
    lab.start_queue()
    cleared_everywhere(booth, printing_out, "resumed")
    wait_for(lambda: status(binary, data)["counts"]["done"] == 2, "the held print done once the queue runs", 60)
    booth.finish()
    saved = photos(binary, data)
    assert lab.printed_per_photo() == {photo["id"][:8]: 1 for photo in saved}
    shutil.rmtree(data, ignore_errors=True)


def test_printing_every_other_fault_is_told_and_clears(binary, lab, printing_out):
    """The faults the first test leaves: ink run out and the printer switched off (the
    printer's own state), then a paper jam and an open cover as a printer's backend reports
    them while it prints (the tests' backend: the job stops, and CUPS stops the queue). Each is
    on the screen, /healthz, /metrics and /api/status within 5 s, and clears; the held prints
    come out once each."""
    data, config, log = setup(lab, printing_out, "more-faults")
    booth = Booth(binary, data, config, log, port=free_port())
    wait_for(lambda: "The printer is idle" in booth.logged(), "the booth watching the printer", 30)
    cleared_everywhere(booth, printing_out, "more-faults-before")
    figures = {}
    lab.set_supply(0)
    figures["marker-supply-empty"] = told_everywhere(booth, "marker-supply-empty", printing_out, "ink-empty")
    lab.set_supply(100)
    cleared_everywhere(booth, printing_out, "ink-full")
    lab.stop_printer()
    figures["offline"] = told_everywhere(booth, "offline", printing_out, "offline")
    lab.start_printer()
    cleared_everywhere(booth, printing_out, "online")
    booth.finish()

    # The tests' printer, on a queue of its own.
    lab.add_test_queue()
    config.write_text(CONFIG.format(server=lab.server).replace("printer: Booth", f"printer: {TEST_QUEUE}"))
    booth = Booth(binary, data, config, log, port=free_port())
    wait_for(lambda: web.curl(booth.base + "/healthz").status == 200, "/healthz ok", 30)
    for number, (word, fault) in enumerate([("jam", "media-jam"), ("door", "door-open")], start=1):
        lab.test_printer_says(word)
        booth.take(f"Held {word}")
        figures[fault] = told_everywhere(booth, fault, printing_out, word)
        wait_for(lambda: len(photos(binary, data)) == number, f"the photo taken while the printer says {fault}", 30)
        assert not lab.test_documents()[number - 1:], "printed through a fault"
        # The operator clears it and starts the queue: the held print comes out, once.
        lab.test_printer_says("ok")
        lab.start_queue(TEST_QUEUE)
        cleared_everywhere(booth, printing_out, f"{word}-cleared")
        wait_for(lambda: len(lab.test_documents()) == number, f"the print held by {fault}", 60)
    wait_for(lambda: status(binary, data)["counts"]["done"] == 2, "both held prints done", 60)
    booth.finish()
    assert len(lab.test_documents()) == 2, lab.test_documents()
    print("fault to screen: " + ", ".join(f"{fault} {seconds:.1f} s" for fault, seconds in figures.items()))
    shutil.rmtree(data, ignore_errors=True)


def test_printing_sigkill_never_loses_or_doubles_a_print(binary, lab, printing_out):
    data, config, log = setup(lab, printing_out, "kills")
    rng = random.Random(28)
    kills = 8
    for round in range(kills):
        booth = Booth(binary, data, config, log)
        booth.take(f"Kill {round}")
        time.sleep(rng.uniform(0.5, 4.0))
        booth.kill()
    booth = Booth(binary, data, config, log)
    saved = photos(binary, data)
    wait_for(lambda: status(binary, data)["counts"]["done"] == len(saved), "every saved picture printed", 120)
    booth.finish()
    counts = lab.printed_per_photo()
    print(f"{kills} kills; {len(saved)} pictures saved; documents per picture: {sorted(counts.values())}")
    assert counts == {photo["id"][:8]: 1 for photo in saved}
    resent = booth.logged().count("is sent again")
    print(f"requests found half-sent after a kill and sent again: {resent}")
    shutil.rmtree(data, ignore_errors=True)


ON_REQUEST = """print:
  printer: Booth
  server: {server}
  media: 2x6
keypad:
  print_key: p
"""


def test_printing_on_request_from_the_saved_screen_and_the_command_line(binary, lab, printing_out):
    data, config, log = setup(lab, printing_out, "on-request")
    config.write_text(ON_REQUEST.format(server=lab.server))
    booth = Booth(binary, data, config, log)
    wait_for(lambda: "The printer is idle" in booth.logged(), "the booth watching the printer", 30)
    booth.send("\n")
    wait_for(lambda: "-> naming" in booth.logged(), "the naming screen", 30)
    booth.send("Ada\n")
    wait_for(lambda: "-> saved" in booth.logged(), "the saved screen", 30)
    # The print key, on the saved screen.
    booth.send("p\n")
    wait_for(lambda: status(binary, data)["counts"]["done"] == 1, "the print asked for with the print key", 60)
    saved = photos(binary, data)
    assert len(saved) == 1
    requests = status(binary, data)["requests"]
    assert [(r["reason"], r["copies"]) for r in requests] == [("booth", 1)], requests
    # And from the command line, while the booth runs.
    queued = subprocess.run([str(binary), "print", saved[0]["id"][:8], "--copies", "2", "--data-dir", str(data)], capture_output=True,
                            text=True, timeout=30)
    assert queued.returncode == 0 and "queued as print 2 (2 copies)" in queued.stdout, queued.stdout + queued.stderr
    wait_for(lambda: status(binary, data)["counts"]["done"] == 2, "the print asked for with photobooth print", 60)
    booth.finish()
    assert lab.printed_per_photo() == {saved[0]["id"][:8]: 2}
    # 2x6: the strip twice, side by side, on a 4x6 sheet (portrait).
    page = Image.open(lab.documents()[0])
    dpi = page.info["dpi"][0]
    assert page.size == (4 * dpi, 6 * dpi), page.size
    text = subprocess.run([str(binary), "print", "status", "--data-dir", str(data)], capture_output=True, text=True).stdout
    print(text)
    assert text.startswith("2 done.")
    shutil.rmtree(data, ignore_errors=True)


def test_printing_a_request_cut_off_while_sending_is_printed_once(binary, lab, printing_out):
    """The two halves of a crash between 'sending' and CUPS's answer, made on purpose: one
    request whose job CUPS has (the booth stopped after CUPS took it), one whose job it never got.
    The next start follows the first and sends the second: one document each."""
    import sqlite3
    data, config, log = setup(lab, printing_out, "cut-off")
    config.write_text(CONFIG.format(server=lab.server).replace("auto: true", "auto: false"))
    booth = Booth(binary, data, config, log)
    booth.take("One")
    booth.take("Two")
    booth.finish()
    saved = sorted(photos(binary, data), key=lambda p: p["created_at"])
    assert len(saved) == 2
    for photo in saved:
        queued = subprocess.run([str(binary), "print", photo["id"], "--data-dir", str(data)], capture_output=True, text=True)
        assert queued.returncode == 0, queued.stderr
    catalog = sqlite3.connect(data / "photobooth.sqlite")
    rows = catalog.execute("SELECT number, uuid, photo_id FROM print_job ORDER BY number").fetchall()
    with catalog:
        catalog.execute("UPDATE print_job SET state = 'sending'")
    catalog.close()
    # The first one's job reached CUPS before the booth stopped: as the booth sends it, with its
    # request's UUID, as the booth's user.
    first = rows[0]
    document = lab.folder / "taken-before-the-stop.jpg"
    shutil.copyfile(saved[0]["file"], document)
    document.chmod(0o644)
    lab.run(["lp", "-U", "photobooth", "-d", "Booth", "-t", f"Photobooth {first[2][:8]} #{first[0]}",
             "-o", f"job-uuid=urn:uuid:{first[1]}", str(document)])
    wait_for(lambda: len(lab.documents()) == 1, "the job CUPS took before the stop printed", 60)
    booth = Booth(binary, data, config, log)
    wait_for(lambda: status(binary, data)["counts"]["done"] == 2, "both requests done", 90)
    booth.finish()
    assert lab.printed_per_photo() == {saved[0]["id"][:8]: 1, saved[1]["id"][:8]: 1}
    logged = booth.logged()
    resent = [line for line in logged.splitlines() if "is sent again" in line]
    assert len(resent) == 1 and "Print 2 (photo" in resent[0] and "CUPS never got it" in resent[0], resent
    shutil.rmtree(data, ignore_errors=True)


GUESTS = """print:
  printer: Booth
  server: {server}
  media: 4x6
  guests: true
  max_per_picture: 1
http:
  admin_token: {token}
"""


def test_printing_from_a_phone_and_the_admin_page_in_chromium(binary, lab, printing_out):
    """A guest prints their photo from its page in a real Chromium, once: the limit of one print
    a photo holds and the page says so; the operator prints it again from the admin page, whose
    print queue lists both."""
    if not shutil.which("chromium"):
        pytest.fail("this test needs chromium", pytrace=False)
    token = "printing-admin-token-0123456789"
    data, config, log = setup(lab, printing_out, "guests")
    config.write_text(GUESTS.format(server=lab.server, token=token))
    booth = Booth(binary, data, config, log, port=free_port())
    wait_for(lambda: "The printer is idle" in booth.logged(), "the booth watching the printer", 30)
    booth.take("Ada")
    wait_for(lambda: len(photos(binary, data)) == 1, "the photo saved", 30)
    photo = photos(binary, data)[0]
    browser = web.Browser(printing_out)
    try:
        browser.size(390, 844, True)
        browser.open(f"{booth.base}/photos/{photo['id']}")
        assert browser.evaluate("document.querySelector('a.print') !== null"), "the photo page offers printing"
        browser.events.clear()
        browser.evaluate("document.querySelector('a.print').click()")
        browser.wait_event("Page.loadEventFired")
        question = browser.evaluate("document.body.innerText")
        assert "Prints left of this photo: 1." in question, question
        browser.screenshot(printing_out / "guest-print-question.png")
        browser.events.clear()
        browser.evaluate("document.querySelector('form button.confirm').click()")
        browser.wait_event("Page.loadEventFired")
        answer = browser.evaluate("document.body.innerText")
        assert "collect it at the booth" in answer, answer
        wait_for(lambda: len(lab.documents()) == 1, "the guest's print", 60)
        # The limit: a second print of the photo is refused, and the page says why.
        browser.open(f"{booth.base}/photos/{photo['id']}/print")
        refused = browser.evaluate("document.body.innerText")
        assert "the booth allows 1 per photo" in refused, refused
        assert web.curl(f"{booth.base}/photos/{photo['id']}/print", "-X", "POST").status == 409

        # The operator is not limited: the admin page prints it, and lists both prints.
        browser.size(1280, 900, False)
        browser.open(f"{booth.base}/admin")
        browser.evaluate(f"document.querySelector('#token').value = '{token}'")
        browser.evaluate("document.querySelector('form.token button').click()")
        wait_for(lambda: browser.evaluate("document.querySelectorAll('.photos button.print').length") == 1,
                 "the admin page's print button", 30)
        browser.evaluate("document.querySelector('.photos button.print').click()")
        wait_for(lambda: len(lab.documents()) == 2, "the operator's print", 60)
        wait_for(lambda: "is queued" in browser.evaluate("document.querySelector('main.admin .status').textContent"),
                 "the admin page saying the print is queued", 10)
        rows = browser.evaluate("[...document.querySelectorAll('section.prints tr')].map(r => r.cells[2].textContent)")
        assert rows == ["admin", "guest"], rows
        browser.screenshot(printing_out / "admin-prints.png")
    finally:
        browser.close()
    booth.finish()
    assert lab.printed_per_photo() == {photo["id"][:8]: 2}
    requests = status(binary, data)["requests"]
    assert sorted(r["reason"] for r in requests) == ["admin", "guest"], requests
    shutil.rmtree(data, ignore_errors=True)


def test_printing_to_a_printer_named_by_its_address(binary, lab, printing_out):
    """print.printer as an IPP Everywhere printer's address: the booth sets up a CUPS queue of its
    own for it (as lpadmin -m everywhere does) and prints there, once."""
    data, config, log = setup(lab, printing_out, "address")
    config.write_text(CONFIG.format(server=lab.server).replace("printer: Booth", f"printer: {lab.device_uri}"))
    booth = Booth(binary, data, config, log)
    wait_for(lambda: "is set up for the IPP Everywhere printer" in booth.logged(), "the booth's queue set up", 30)
    queues = lab.run(["lpstat", "-h", lab.server, "-v"])
    assert f"Photobooth: {lab.device_uri}" in queues, queues
    booth.take("Ada")
    wait_for(lambda: status(binary, data)["counts"]["done"] == 1, "the picture printed on the booth's queue", 60)
    booth.finish()
    saved = photos(binary, data)
    assert lab.printed_per_photo() == {saved[0]["id"][:8]: 1}
    assert booth.logged().count("is set up for the IPP Everywhere printer") == 1, "set up once"
    shutil.rmtree(data, ignore_errors=True)
