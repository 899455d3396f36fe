"""Power-cut campaign: the installed package in QEMU (harness/appliance.py), its power cut at
random instants over the booth's life, each cut followed by a reboot.

The disk is made as Raspberry Pi OS makes its card's root (appliance.FILE_SYSTEM), and nothing
is changed in the guest before a cut: the kernel writes back and ext4 commits as they do on a
Pi. A cut is SIGKILL to QEMU: the guest's memory, page cache included, is gone, with no
shutdown and no sync.

Each cut comes in one of these phases, chosen with the campaign's seed, at a random delay from
the phase's start:

  boot       from QEMU's start, before the booth is ready (the kernel, fsck, systemd)
  startup    from the booth's first line: the library's opening and start-up reconciliation
  idle       the main screen
  countdown  from the press
  capture    around the countdown's end, when the frame is taken
  save       from the capture: the original, its sidecar and the catalog row being written
  naming     the save acknowledged, the guest typing a name, not yet sent
  rename     the name sent, its rename in flight (sometimes while the save still runs)
  saved      the "Saved as" screen after the rename

Before a cut the booth is checked (below) and takes 0 to 2 whole photos, named; a boot or
startup cut comes before that, so the boot after it checks two cuts at once. After each cut the
next boot must show, with nobody's help:

- the service back by itself (systemd): photobooth.service active (running) after READY=1;
- `photobooth check` exit 0;
- every photo the booth acknowledged (its `saved ID "CAPTION"` line) listed, with the caption
  it last acknowledged (`named ID "NAME"`), or with a name typed whose rename was in flight at
  the cut; no duplicate (an id listed twice, or two ids with the same original). A photo whose
  save was not acknowledged may be missing; if listed, `check` vouches for it, and from then
  on it must stay like any other.

Acknowledgements are read on the host from the serial console and the journal followed over
9p as they stream, before the cut: the guest's own journal may lose them with the power.

    harness/run harness/test_power_cut.py --deb PATH [--quick] [--seed N]     (as root)

--quick: 3 cuts (one during a save); otherwise 30, every phase at least 3 times. The summary,
power_cut.json in the test's folder, is printed; progress.txt there grows cut by cut, and
boot-NN-*/ holds each boot's console, journal, keypad and `check` report.
"""
from __future__ import annotations

import json
import re
import statistics
import subprocess
import threading
import time
from pathlib import Path

import pytest

import photobooth_vm as pv
from harness.appliance import (FILE_SYSTEM, LIBRARY, NAMED, READY, SAVED, STATE, Image, Machine, acknowledgements,
                               configure, install_package, unavailable)

pytestmark = [pytest.mark.vm, pytest.mark.root, pytest.mark.campaign]

PHASES = ["boot", "startup", "idle", "countdown", "capture", "save", "naming", "rename", "saved"]
BOOTH_LINE = r"photobooth\[\d+\]: "
COUNTDOWN = 2.0      # appliance.OPERATOR_EDITS' booth.countdown_seconds
CUTS, QUICK_CUTS = 30, 3


class Ledger:
    """What the booth told the host it kept, over the whole campaign: for each photo the
    captions it may have now. A caption is the one last acknowledged, or a name typed whose
    rename was in flight at a cut; the first boot that lists the photo settles which."""

    def __init__(self):
        self.allowed: dict[str, set[str]] = {}
        self.logged: set[str] = set()        # photos whose save the booth acknowledged
        self.named: set[str] = set()         # photos whose name it acknowledged
        self.listed: set[str] = set()        # photos listed after a restart without a logged save

    def read(self, events: list[tuple[str, str, str]]) -> None:
        for kind, photo, caption in events:
            if kind == "saved":
                self.logged.add(photo)
                self.allowed.setdefault(photo, {caption})
            else:
                self.named.add(photo)
                self.allowed[photo] = {caption}

    def typed(self, photo: str, name: str) -> None:
        """A name sent for a photo whose rename the host did not see acknowledged."""
        if photo in self.allowed:
            self.allowed[photo].add(name)

    def settle(self, photo: str, caption: str) -> None:
        self.allowed[photo] = {caption}

    def adopt(self, photo: str, caption: str) -> None:
        """A photo whose save was not acknowledged, listed after a restart: it stays from now on."""
        self.listed.add(photo)
        self.allowed[photo] = {caption}


class Campaign:
    def __init__(self, image: Image, out: Path, rng, cuts: int):
        self.image, self.out, self.rng, self.cuts = image, out, rng, cuts
        self.ledger = Ledger()
        self.cut_records: list[dict] = []
        self.checks: list[dict] = []
        self.ready_host: list[float] = []     # QEMU start to the booth's ready line, host clock
        self.ready_guest: list[float] = []    # kernel start to READY=1, guest clock
        self.startup_host: list[float] = []   # the booth's first line to its ready line, host clock
        self.lost: dict[str, str] = {}
        self.wrong: dict[str, str] = {}
        self.duplicates: set[frozenset] = set()
        self.progress = out / "progress.txt"

    def note(self, text: str) -> None:
        pv.log(f"power-cut: {text}")
        with open(self.progress, "a") as f:
            f.write(text + "\n")

    # -- the plan ---------------------------------------------------------------------------

    def plan(self) -> list[str]:
        """Which phase each cut comes in: --quick, a save and two others; otherwise every phase
        in turn, shuffled round by round."""
        if self.cuts <= len(PHASES):
            phases = ["save"] + self.rng.sample([p for p in PHASES if p != "save"], self.cuts - 1)
            self.rng.shuffle(phases)
            return phases
        phases: list[str] = []
        while len(phases) < self.cuts:
            round_ = PHASES[:]
            self.rng.shuffle(round_)
            phases += round_
        return phases[:self.cuts]

    # -- one boot -----------------------------------------------------------------------------

    def run(self) -> None:
        phases = self.plan()
        self.note(f"plan: {' '.join(phases)}")
        for n in range(1, self.cuts + 2):
            phase = phases[n - 1] if n <= self.cuts else None
            if phase in ("boot", "startup"):
                self.cut_early(n, phase)
                continue
            m = self.image.boot(f"cut-{n:02d}-{phase}" if phase else "final")
            try:
                self.verify(m, covers=[r["cut"] for r in self.cut_records if "verified_at_boot" not in r])
                if phase is None:
                    m.save_journal("journal-all-boots", which="")
                    m.shutdown()
                    return
                self.cut(m, n, phase)
            finally:
                m.kill()

    def cut_early(self, n: int, phase: str) -> None:
        """A cut before the booth is ready, timed from QEMU's start (boot) or from the booth's
        first line on the console (startup) by a thread of its own, since m.start() is still
        waiting for the control shell and the share when either comes."""
        if phase == "boot":
            horizon = 1.1 * statistics.median(self.ready_host) if self.ready_host else 60.0
        else:
            horizon = statistics.median(self.startup_host) if self.startup_host else 5.0
        delay = self.rng.uniform(0, horizon)
        m = self.image.boot(f"cut-{n:02d}-{phase}", start=False)
        stop = threading.Event()

        def cutter():
            while m.proc is None and not stop.wait(0.01):
                pass
            anchor = m.started_at
            if phase == "startup":
                while not re.search(BOOTH_LINE, m.console()):
                    if stop.wait(0.02) or not m.alive():
                        return
                anchor = time.monotonic()
            if not stop.wait(max(0.0, anchor + delay - time.monotonic())):
                m.cut_power()
        thread = threading.Thread(target=cutter, daemon=True)
        thread.start()
        try:
            m.start()
            thread.join(timeout=600)
        except Exception:  # noqa: BLE001 - the cut ends the boot wherever it was
            if m.cut_at is None:
                raise
        finally:
            stop.set()
            m.kill()
        if m.cut_at is None:
            raise pv.VMError(f"the {phase} cut did not come within 600 s of QEMU's start")
        self.after_cut(m, n, phase, delay, in_flight=None)

    def cut(self, m: Machine, n: int, phase: str) -> None:
        start = len(m.console())
        in_flight = {"name": None, "known": set(self.ledger.allowed)}
        try:
            for k in range(self.rng.randint(0, 2)):
                m.take_photo(f"Cut{n:02d} Guest{k + 1}")
            start = len(m.console())
            in_flight["known"] |= {photo for _, photo, _ in acknowledgements(m.booth_lines())}
            delay = self.drive(m, phase, f"Cut{n:02d} Last", in_flight, start)
            error = None
        except (pv.VMError, AssertionError) as e:
            # The booth did not do what a guest asked: a finding of its own. The cut comes now.
            delay, error = 0.0, f"{e.__class__.__name__}: {(str(e).strip().splitlines() or [''])[0]}"
        time.sleep(delay)
        m.cut_power()
        self.after_cut(m, n, phase, delay, in_flight, start, error)

    def drive(self, m: Machine, phase: str, name: str, in_flight: dict, start: int) -> float:
        """Brings the booth to the phase; returns the random delay from there to the cut."""
        rng = self.rng
        if phase == "idle":
            return rng.uniform(0, 5)
        m.press()
        if phase in ("countdown", "capture"):
            m.console_wait(BOOTH_LINE + r"idle -> countdown", after=start)
            return rng.uniform(0, COUNTDOWN) if phase == "countdown" else rng.uniform(COUNTDOWN - 0.4, COUNTDOWN + 0.8)
        if phase == "save":
            m.console_wait(BOOTH_LINE + r"countdown -> capturing", after=start)
            return rng.uniform(0, 0.8)
        m.keypad_shows(rb"Name your photo")
        if phase == "naming":
            m.console_wait(SAVED.pattern, after=start)
            m.keypad_send(name[:rng.randint(0, len(name))].encode())
            return rng.uniform(0, 3)
        if phase == "rename":
            if rng.random() < 0.5:
                m.console_wait(SAVED.pattern, after=start)
            m.keypad_send(name.encode() + b"\r")
            in_flight["name"] = name
            return rng.uniform(0, 0.6)
        if phase == "saved":
            m.keypad_send(name.encode() + b"\r")
            in_flight["name"] = name
            m.console_wait(NAMED.pattern, after=start)
            return rng.uniform(0, 5)
        raise ValueError(phase)

    def after_cut(self, m: Machine, n: int, phase: str, delay: float, in_flight: dict | None,
                  start: int = 0, error: str | None = None) -> None:
        """What the host saw before the cut: the acknowledgements, and the booth's last state."""
        lines = m.booth_lines()
        events = acknowledgements(lines)
        self.ledger.read(events)
        record = {"cut": n, "phase": phase, "delay_s": round(delay, 3), "boot": m.run_dir.name,
                  "acknowledged_so_far": len(self.ledger.logged)}
        if error:
            record["drive_error"] = error
        console = m.console()
        states = [to for _, to in STATE.findall(console)]
        record["state_at_cut"] = (states[-1] if states
                                  else "starting" if re.search(BOOTH_LINE, console) else "booting")
        if in_flight is not None and phase != "idle":
            # The photo of this press: taken once the booth left capturing; its save in flight
            # until acknowledged, its name from the moment it was sent until acknowledged.
            new = [photo for kind, photo, _ in events if kind == "saved" and photo not in in_flight["known"]]
            taken = any(frm == "capturing" for frm, _ in STATE.findall(console[start:]))
            record["save_in_flight"] = taken and not new
            if in_flight["name"]:
                named = bool(new) and any(kind == "named" and photo == new[-1] and caption == in_flight["name"]
                                          for kind, photo, caption in events)
                record["rename_in_flight"] = not named
                if new and not named:
                    self.ledger.typed(new[-1], in_flight["name"])
        (m.run_dir / "cut.json").write_text(json.dumps(record, indent=1) + "\n")
        self.cut_records.append(record)
        self.note(f"cut {n}/{self.cuts}: {phase} after {delay:.2f} s, last state seen {record['state_at_cut']}; "
                  f"{len(self.ledger.logged)} photos acknowledged so far" + (f"; {error}" if error else ""))

    # -- after a cut ----------------------------------------------------------------------------

    def verify(self, m: Machine, covers: list[int]) -> None:
        """The boot after one or more cuts (boot and startup cuts leave the next boot to check):
        the service back by itself, the library whole."""
        result: dict = {"boot": m.run_dir.name, "covers_cuts": covers}
        m.started_watch.join(timeout=300)
        came_back = m.started_watch.seen_at is not None
        m.attach_gpio()
        if came_back:
            self.ready_host.append(m.started_watch.seen_at - m.started_at)
            # The booth's start-up, from its first line to its ready line, in the console's guest
            # time stamps, scaled to the host's clock: how long a startup cut has to land in.
            first = re.search(r"\[\s*([0-9.]+)\] " + BOOTH_LINE, m.console())
            ready = re.search(r"\[\s*([0-9.]+)\] " + READY, m.console())
            if first and ready and float(ready.group(1)) > 0:
                scale = self.ready_host[-1] / float(ready.group(1))
                self.startup_host.append(max(0.0, float(ready.group(1)) - float(first.group(1))) * scale)
            m.ready(timeout=120)
        props = m.unit("ActiveState", "SubState", "NRestarts", "ActiveEnterTimestampMonotonic", "StatusText")
        # Without this boot's mark in vivid's frames, two photos taken as long after two startups
        # would be the same bytes: the duplicate check below would find the camera, not the booth.
        result["camera_marked"] = m.unit("ActiveState", name="photobooth-vm-camera-mark.service")["ActiveState"] == "active"
        came_back = came_back and (props["ActiveState"], props["SubState"]) == ("active", "running")
        result.update(came_back=came_back, restarts=int(props["NRestarts"] or 0), status=props["StatusText"])
        if came_back:
            guest = int(props["ActiveEnterTimestampMonotonic"]) / 1e6
            self.ready_guest.append(guest)
            result["ready_guest_s"] = round(guest, 1)
            result["ready_host_s"] = round(self.ready_host[-1], 1)
        else:
            m.sh("systemctl status photobooth.service > /share/status.txt 2>&1")
        m.sh("journalctl -b -u systemd-fsck-root.service -o cat --no-pager > /share/fsck.txt 2>&1")
        result["fsck_modified"] = "MODIFIED" in (m.share / "fsck.txt").read_text(errors="replace")

        visible = m.photos()
        hidden = m.photos(hidden=True)
        listed = visible + hidden
        ids = [p["id"] for p in listed]
        result.update(listed=len(visible), hidden=len(hidden))
        for photo in {i for i in ids if ids.count(i) > 1}:
            self.duplicates.add(frozenset([photo, "listed twice"]))
        (m.share / "originals.txt").write_text("".join(p["file"] + "\n" for p in listed))
        by_hash: dict[str, list[str]] = {}
        sums = m.sh_ok("xargs -a /share/originals.txt -r sha256sum", timeout=300)
        by_file = {p["file"]: p["id"] for p in listed}
        for line in sums.splitlines():
            digest, _, path = line.partition("  ")
            by_hash.setdefault(digest, []).append(by_file.get(path.strip(), path))
        for same in by_hash.values():
            if len(set(same)) > 1:
                self.duplicates.add(frozenset(same))

        status, report = m.as_booth(f"photobooth check --data-dir {LIBRARY}", timeout=900)
        (m.run_dir / "photobooth-check.txt").write_text(report)
        result["check_status"] = status
        if status != 0:
            result["check"] = report.strip()[-1500:]

        captions = {p["id"]: p["caption"] for p in visible}
        hidden_ids = {p["id"] for p in hidden}
        lost, wrong = [], []
        for photo, allowed in self.ledger.allowed.items():
            if photo not in captions:
                lost.append(photo)
                self.lost.setdefault(photo, f"{'hidden' if photo in hidden_ids else 'missing'} at {m.run_dir.name}")
            elif captions[photo] not in allowed:
                wrong.append(photo)
                self.wrong.setdefault(photo, f"{captions[photo]!r} at {m.run_dir.name}, acknowledged {sorted(allowed)}")
            else:
                self.ledger.settle(photo, captions[photo])
        kept = [photo for photo in captions if photo not in self.ledger.allowed]
        for photo in kept:
            self.ledger.adopt(photo, captions[photo])
        result.update(lost=lost, captions_wrong=wrong, kept_unacknowledged=kept)
        (m.run_dir / "verify.json").write_text(json.dumps(result, indent=1) + "\n")
        self.checks.append(result)
        for record in self.cut_records:
            record.setdefault("verified_at_boot", m.run_dir.name)
        self.note(f"{m.run_dir.name}: {'came back' if came_back else 'DID NOT COME BACK'}"
                  f"{' in %.1f s (guest clock)' % result['ready_guest_s'] if came_back else ''}; "
                  f"{len(visible)} listed, {len(lost)} lost, {len(wrong)} wrong captions, "
                  f"check {status}, {len(kept)} unacknowledged kept")

    # -- the summary ----------------------------------------------------------------------------

    def summary(self, seed, quick: bool, seconds: float, fs_clean: bool, fsck_report: str) -> dict:
        after_cuts = [c for c in self.checks if c["covers_cuts"]]

        def spread(values):
            return {"median": round(statistics.median(values), 1), "max": round(max(values), 1)} if values else None
        phases = {p: sum(1 for r in self.cut_records if r["phase"] == p) for p in PHASES}
        return {
            "seed": seed,
            "quick": quick,
            "file_system": FILE_SYSTEM,
            "cuts": len(self.cut_records),
            "cuts_by_phase": phases,
            "cuts_by_state_seen": {s: sum(1 for r in self.cut_records if r["state_at_cut"] == s)
                                   for s in sorted({r["state_at_cut"] for r in self.cut_records})},
            "saves_in_flight_at_cut": sum(1 for r in self.cut_records if r.get("save_in_flight")),
            "renames_in_flight_at_cut": sum(1 for r in self.cut_records if r.get("rename_in_flight")),
            "photos_acknowledged": len(self.ledger.logged),
            "names_acknowledged": len(self.ledger.named),
            "photos_kept_unacknowledged": len(self.ledger.listed),
            "photos_lost": len(self.lost),
            "captions_wrong": len(self.wrong),
            "duplicates": len(self.duplicates),
            "boots_camera_unmarked": sum(1 for c in self.checks if not c["camera_marked"]),
            "check_failures": sum(1 for c in self.checks if c["check_status"] != 0),
            "drive_errors": sum(1 for r in self.cut_records if "drive_error" in r),
            "reboots_checked": len(after_cuts),
            "service_came_back": sum(1 for c in after_cuts if c["came_back"]),
            "restarts_after_boot": sum(c["restarts"] for c in after_cuts),
            "fsck_repaired": sum(1 for c in after_cuts if c["fsck_modified"]),
            "boot_to_ready_s": spread(self.ready_guest),
            "boot_to_ready_host_s": spread(self.ready_host),
            "file_system_clean_at_end": fs_clean,
            "e2fsck_at_end": fsck_report.strip().splitlines()[-1:] or [""],
            "seconds": round(seconds),
            "lost": self.lost,
            "wrong": self.wrong,
            "duplicate_groups": [sorted(g) for g in self.duplicates],
            "cut_records": self.cut_records,
        }


def test_power_cuts(capsys, rng, request, deb, out, quick):
    if reason := unavailable():
        pytest.skip(reason)
    seed = request.config.getoption("--seed")
    if seed is None:
        # The rng fixture printed the seed it drew; keep it for the summary.
        match = re.search(r"seed (\d+)", capsys.readouterr().out)
        seed = int(match.group(1)) if match else None
    with capsys.disabled():
        # Live: the campaign's progress on the terminal as it goes (and in progress.txt).
        summary = run_campaign(deb, out, rng, seed, quick)
    # Captured: the summary in the test's report and JUnit XML.
    print(f"seed {seed} (rerun with --seed {seed})")
    print(json.dumps({k: v for k, v in summary.items() if k != "cut_records"}, indent=1))
    problems = []
    if summary["cuts"] < (QUICK_CUTS if quick else CUTS):
        problems.append(f"only {summary['cuts']} cuts were made")
    for key, what in [("photos_lost", "acknowledged photos lost"), ("captions_wrong", "acknowledged captions wrong"),
                      ("duplicates", "duplicates"), ("check_failures", "reboots after which photobooth check failed"),
                      ("drive_errors", "boots in which the booth did not follow the guest"),
                      ("boots_camera_unmarked", "boots whose camera frames had no mark of their own "
                       "(photobooth-vm-camera-mark.service), so that a duplicate could be the camera's")]:
        if summary[key]:
            problems.append(f"{summary[key]} {what}")
    if summary["service_came_back"] != summary["reboots_checked"]:
        problems.append(f"the service came back by itself after {summary['service_came_back']} of "
                        f"{summary['reboots_checked']} reboots")
    if not summary["file_system_clean_at_end"]:
        problems.append(f"e2fsck -fn after the last clean power-off: {summary['e2fsck_at_end']}")
    assert not problems, (f"seed {seed}: " + "; ".join(problems) + f" (details in {out / 'power_cut.json'}: "
                          "lost, wrong, duplicate_groups, cut_records)")


def run_campaign(deb, out: Path, rng, seed, quick: bool) -> dict:
    print(f"seed {seed} (rerun with --seed {seed})")
    t0 = time.monotonic()
    image = Image(deb, out)
    campaign = Campaign(image, out, rng, QUICK_CUTS if quick else CUTS)
    fs_clean, fsck_report = False, "not run: the campaign stopped"
    try:
        m = image.boot("install")
        try:
            install_package(m, image.deb)
            configure(m)
        finally:
            m.shutdown()
            m.kill()
        campaign.run()
        fsck = subprocess.run(["e2fsck", "-fn", str(image.disk)], capture_output=True, text=True)
        fs_clean, fsck_report = fsck.returncode == 0, fsck.stderr + fsck.stdout
        (out / "e2fsck-at-end.txt").write_text(fsck_report)
    except BaseException as e:
        # What the cuts so far showed is kept for whoever looks into why the campaign stopped.
        summary = campaign.summary(seed, quick, time.monotonic() - t0, fs_clean, fsck_report)
        summary["stopped"] = f"{e.__class__.__name__}: {(str(e).strip().splitlines() or [''])[0]}"
        (out / "power_cut.json").write_text(json.dumps(summary, indent=1) + "\n")
        raise
    finally:
        image.remove_disk()
    summary = campaign.summary(seed, quick, time.monotonic() - t0, fs_clean, fsck_report)
    (out / "power_cut.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "cut_records"}, indent=1))
    print("\n".join(image.figures))
    return summary
