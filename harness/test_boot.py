"""The package as an operator installs it: the .deb on a small Debian, booted headless in QEMU
under systemd (harness/appliance.py), with nobody logged in.

Three boots of one disk, one test per check, in order:

  boot 1  test_install: dpkg -i with systemd and udev up, the configuration 0640
          root:photobooth; then the operator's edits of
          /etc/photobooth/photobooth.yaml and a power-off.
  boot 2  test_headless_start, test_console_log, test_unit_analysis, test_photo, test_reload,
          test_watchdog, and test_power_cut_while_saving's first half: QEMU killed as the last
          of several photos is being saved and named.
  boot 3  test_power_cut_while_saving's second half (every acknowledged photo and name in the
          library, `photobooth check` clean), test_upgrade, test_power_off.

A check whose boot could not be reached is skipped, naming the check that failed first.

    harness/run harness/test_boot.py --deb PATH [--out DIR]       (as root)

The boots' consoles, journals and the disk are in <out>/test_boot/; each check's screendumps
and reports in its own folder. The disk image is deleted unless PHOTOBOOTH_VM_KEEP_DISK is set;
PHOTOBOOTH_VM_UPGRADE_DEB names the newer package for test_upgrade (default: --deb repacked with
a higher version). vmtest/boot maps its old options onto these.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest

from harness.appliance import (CONFFILE, LIBRARY, UUID, Image, Machine, configure, deb_fields, edit_config,
                               fresh_folder, install_package, log_time, parse_usec, repack, unavailable)

pytestmark = [pytest.mark.vm, pytest.mark.root]

# The change `systemctl reload` has to bring into effect: a countdown long enough to tell apart.
RELOAD_EDITS = {("booth", "countdown_seconds"): "5"}


class Boots:
    """The module's one disk and the boot that is running now. Checks call `machine(label)`
    for the boot they belong to; `passed` records each check that got to its end, so that a
    check needing an earlier one is skipped with the reason."""

    def __init__(self, image: Image):
        self.image = image
        self.current: Machine | None = None
        self.label: str | None = None
        self.passed: set[str] = set()
        self.config: str | None = None          # the configuration as the operator left it
        self.failed_boot: str | None = None

    def need(self, *checks: str) -> None:
        missing = [c for c in checks if c not in self.passed]
        if missing:
            pytest.skip(f"needs {', '.join(missing)}, which did not pass")

    def boot(self, label: str) -> Machine:
        """Powers off whatever runs and boots the disk again."""
        self.close()
        self.label = label
        try:
            self.current = self.image.boot(label)
        except Exception:
            self.failed_boot = label
            raise
        return self.current

    def upgrade(self) -> Path:
        """The newer package: PHOTOBOOTH_VM_UPGRADE_DEB, or --deb repacked with a higher version."""
        if path := os.environ.get("PHOTOBOOTH_VM_UPGRADE_DEB"):
            return Path(path).resolve()
        deb = self.image.deb
        return repack(deb, self.image.home / "debs", deb_fields(deb)["Version"] + "+vmtest1")

    def machine(self, label: str) -> Machine:
        if self.label != label or self.current is None or self.failed_boot == label:
            pytest.skip(f"the boot '{label}' is not running (an earlier check failed)")
        if not self.current.alive():
            pytest.fail(f"the boot '{label}' stopped: {self.current.console_tail(10)}", pytrace=False)
        return self.current

    def close(self) -> None:
        if self.current:
            self.current.save_journal("journal")
            self.current.shutdown()
            self.current.kill()
            self.current = None


@pytest.fixture(scope="module")
def boots(deb, artifacts):
    if reason := unavailable():
        pytest.skip(reason)
    home = fresh_folder(artifacts / "test_boot")
    image = Image(deb, home)
    run = Boots(image)
    yield run
    run.close()
    image.remove_disk()
    (home / "figures.txt").write_text("\n".join(image.figures) + "\n")
    print("\n".join(image.figures))


# -- boot 1 --------------------------------------------------------------------------------------

def test_install(boots, out):
    """dpkg -i installs the package with systemd and udev running; the local udev rule names
    vivid and ttyS1 /dev/photobooth/camera and keypad; the GPIO chip's group is gpio. Then the
    operator's edits, and a power-off."""
    m = boots.boot("install")
    print("; ".join(install_package(m, boots.image.deb)))
    # It may hold http.admin_token: the booth's group reads it, other users do not.
    mode = m.sh_ok(f"stat -c '%a %U:%G' {CONFFILE}").strip()
    assert mode == "640 root:photobooth", f"{CONFFILE} is installed as {mode}, not 640 root:photobooth"
    boots.config = configure(m)
    (out / "photobooth.yaml").write_text(boots.config)
    boots.passed.add("install")
    boots.close()


# -- boot 2 --------------------------------------------------------------------------------------

def test_headless_start(boots, out):
    """After a reboot, systemd starts photobooth.service (Type=notify) without a login; it is
    active (running) after READY=1, with no restart."""
    boots.need("install")
    m = boots.boot("headless")
    m.attach_gpio()
    m.ready(timeout=300)
    m.booth_wait(r"Keypad /dev/photobooth/keypad is listening", after=0)
    props = m.unit("ActiveState", "SubState", "Type", "MainPID", "NRestarts", "StatusText",
                   "ActiveEnterTimestampMonotonic")
    (out / "unit-after-boot.json").write_text(json.dumps(props, indent=1) + "\n")
    assert (props["ActiveState"], props["SubState"]) == ("active", "running"), \
        f"photobooth.service is {props['ActiveState']} ({props['SubState']})"
    assert props["Type"] == "notify", f"the unit's Type is {props['Type']}, not notify"
    assert props["NRestarts"] == "0", f"the booth was restarted {props['NRestarts']} times on the way up"
    sessions = m.sh_ok("loginctl list-sessions --no-legend; who").strip()
    assert not sessions, f"somebody is logged in: {sessions}"
    guest_ready = int(props["ActiveEnterTimestampMonotonic"]) / 1e6
    watch = m.started_watch
    host_ready = (watch.seen_at - m.started_at) if watch and watch.seen_at else None
    boots.image.figure(
        f"boot to ready (READY=1, unit active): {guest_ready:.1f} s after the kernel started (guest clock)"
        + (f"; the booth's ready line on the console {host_ready:.1f} s after QEMU started (host clock)"
           if host_ready else ""))
    print(f"ready {guest_ready:.1f} s after the kernel started; status {props['StatusText']!r}")
    m.sh("systemd-analyze > /share/systemd-analyze.txt 2>&1; "
         "systemd-analyze critical-chain photobooth.service >> /share/systemd-analyze.txt 2>&1; "
         "systemctl list-units --failed >> /share/systemd-analyze.txt 2>&1")
    m.screendump(out / "screen-ready.png")
    boots.passed.add("headless-start")


def test_console_log(boots):
    """The booth's log lines appear on the serial console."""
    m = boots.machine("headless")
    # The console file fills as the guest writes it: wait for the booth's ready line.
    m.started_watch.join(timeout=60)
    assert m.started_watch.seen_at, "no '-> idle (' line of the booth on the serial console"
    lines = [line for line in m.console().splitlines() if "-> idle (" in line or "Photo library in" in line]
    print(f"e.g. {lines[0].strip()!r}")


def test_unit_analysis(boots, out):
    """systemd-analyze verify is clean; systemd-analyze security's exposure is at most 2.5; the
    sandbox lets the booth run its web threads at nice 10."""
    m = boots.machine("headless")
    status, verify = m.sh("systemd-analyze verify /usr/lib/systemd/system/photobooth.service")
    _, security = m.sh("systemd-analyze security --no-pager photobooth.service")
    (out / "systemd-analyze-verify.txt").write_text(verify)
    (out / "systemd-analyze-security.txt").write_text(security)
    assert status == 0 and not verify.strip(), f"systemd-analyze verify (status {status}): {verify.strip()}"
    exposure = re.search(r"Overall exposure level for photobooth\.service: ([0-9.]+)", security)
    assert exposure, f"no exposure level in systemd-analyze security's output: {security[-300:]}"
    assert float(exposure.group(1)) <= 2.5, f"exposure {exposure.group(1)} > 2.5"
    # BackgroundPriority lowers the web's threads with setpriority, which fails silently where a
    # system call filter forbids it.
    pid = m.unit("MainPID")["MainPID"]
    stats = m.sh_ok(f"cat /proc/{pid}/task/*/stat")
    nice = [int(line[line.rfind(")") + 2:].split()[16]) for line in stats.splitlines() if line]
    print(f"exposure {exposure.group(1)}; {nice.count(10)} of {len(nice)} threads at nice 10")
    assert 10 in nice, (f"no thread of the booth runs at nice 10 (nice values {sorted(set(nice))}): "
                        "the sandbox keeps it from lowering its web threads' priority")


def test_photo(boots, out):
    """A press through gpio-sim and a name on the keypad make a photo with that caption."""
    m = boots.machine("headless")
    photo = m.take_photo("Alice")
    m.screendump(out / "screen-after-photo.png")
    found = [p for p in m.photos() if p["id"] == photo["id"]]
    assert found, f"photo {photo['id']} is not in photobooth list"
    assert found[0]["caption"] == "Alice", f"its caption is {found[0]['caption']!r}, not 'Alice'"
    print(f"{photo['id']} \"Alice\" {found[0]['width']}x{found[0]['height']}")


def test_reload(boots, out):
    """systemctl reload during a name entry: the photo is saved with its name, the same process
    runs on, and the next countdown lasts the new booth.countdown_seconds (5 s instead of 2)."""
    m = boots.machine("headless")
    boots.need("install")
    pid = m.unit("MainPID")["MainPID"]
    start, before = m.begin_photo()
    # The operator changes the file and reloads while the guest is typing.
    changed = edit_config(boots.config, RELOAD_EDITS)
    (m.share / "photobooth-reloaded.yaml").write_text(changed)
    m.sh_ok(f"cat /share/photobooth-reloaded.yaml > {CONFFILE} && systemctl reload photobooth.service", timeout=120)
    boots.config = changed
    photo_id = m.name_photo("Reload", start)
    # Once no photo is in flight, the booth starts again in the same process with the file as
    # it is now.
    _, again = m.booth_wait(r"Starting again\.", after=start, timeout=60)
    m.ready(after=again)
    after = m.take_photo("AfterReload")
    props = m.unit("MainPID", "NRestarts")
    assert props["MainPID"] == pid, f"the booth was restarted (MainPID {pid} -> {props['MainPID']})"
    named = {p["id"]: p["caption"] for p in m.photos()}
    assert named.get(photo_id) == "Reload", f"the photo named during the reload is {named.get(photo_id)!r}"
    assert before < 4.5 <= after["countdown"], (
        f"the countdown lasted {before} s before the reload and {after['countdown']} s after; "
        "the new configuration asks for 5 s")
    print(f"countdown {before:.1f} s -> {after['countdown']:.1f} s, photo {photo_id} kept its name")


def test_watchdog(boots):
    """kill -STOP of the main process: the journal says the watchdog timed out, the process is
    killed within WatchdogSec + TimeoutAbortSec, and a new one becomes ready."""
    m = boots.machine("headless")
    props = m.unit("MainPID", "NRestarts", "WatchdogUSec", "TimeoutAbortUSec")
    pid = props["MainPID"]
    assert parse_usec(props["WatchdogUSec"]) > 0, f"the unit has no watchdog: {props}"
    limit = (parse_usec(props["WatchdogUSec"]) + parse_usec(props["TimeoutAbortUSec"])) / 1e6
    start = m.offset
    stopped_at = float(m.sh_ok(f"cut -d' ' -f1 /proc/uptime; kill -STOP {pid}").split()[0])
    timeout_line = m.booth_wait(r"Watchdog timeout", after=start, timeout=limit + 60)[0]
    exited = m.booth_wait(r"Main process exited, code=(killed|dumped), status=\d+/(\w+)", after=start, timeout=60)[0]
    restarted = m.booth_wait(r"Scheduled restart job", after=start, timeout=60)[0]
    m.ready(after=start, timeout=180)
    new = m.unit("MainPID", "NRestarts", "ActiveState", "SubState")
    assert new["MainPID"] not in (pid, "0"), f"MainPID is still {new['MainPID']}"
    assert (new["ActiveState"], new["SubState"]) == ("active", "running"), \
        f"the booth is {new['ActiveState']} ({new['SubState']})"
    assert int(new["NRestarts"]) == int(props["NRestarts"]) + 1, f"NRestarts {props['NRestarts']} -> {new['NRestarts']}"
    fired = log_time(timeout_line) - stopped_at
    killed = log_time(exited) - stopped_at
    assert killed <= limit + 5, (f"the frozen booth was killed {killed:.1f} s after SIGSTOP, more than "
                                 f"WatchdogSec + TimeoutAbortSec = {limit:.0f} s")
    print(f"watchdog fired {fired:.1f} s after SIGSTOP, process killed ({exited.group(2)}) at {killed:.1f} s, "
          f"restarted at {log_time(restarted) - stopped_at:.1f} s, MainPID {pid} -> {new['MainPID']}")


# -- boot 2's power cut, boot 3 ------------------------------------------------------------------

def test_power_cut_while_saving(boots, out):
    """QEMU killed as the last of several photos is being saved and named; after a reboot every
    photo the host saw logged as saved and every name it saw logged or shown as "Saved as" are
    in the library, and `photobooth check` exits 0.

    The worst moment a real cut can come at: the guest's write-back is turned off and ext4's
    commit interval set to an hour, so only what the booth fsync'ed is on the disk.
    (test_power_cut.py cuts at random instants with the card's own settings.)"""
    m = boots.machine("headless")
    m.sh_ok("cd /proc/sys/vm && echo 0 > dirty_writeback_centisecs && echo 360000 > dirty_expire_centisecs && "
            "echo 90 > dirty_background_ratio && echo 90 > dirty_ratio && mount -o remount,commit=3600 /")
    for i in range(1, 4):
        m.take_photo(f"Cut{i}")
    start = m.offset
    m.press()
    # The keypad's prompt comes straight from the UART, the log through the journal: the prompt
    # is the sooner sign that naming, and the save, began.
    m.keypad_shows(rb"Name your photo")
    m.keypad_send(b"Cut4\r")
    m.cut_power()
    cut_log = m.read_log("photobooth.log")
    cut_keypad = m.keypad_output().decode(errors="replace")
    boots.current = None

    saved = re.findall(rf"saved ({UUID}) ", cut_log)
    named = dict(re.findall(rf'named ({UUID}) "([^"]*)"', cut_log))
    shown = re.findall(r"Saved as ([^\r\n]+)", cut_keypad)
    last_saved = bool(re.search(rf"saved {UUID} ", cut_log[start:]))
    m = boots.boot("after-power-cut")
    m.attach_gpio()
    m.ready(timeout=300)
    m.sh("journalctl -b -u systemd-fsck-root.service --no-pager > /share/fsck.txt 2>&1; "
         "journalctl -b -1 -u photobooth.service -o short-monotonic --no-pager > /share/journal-before-cut.txt 2>&1")
    m.screendump(out / "screen-after-power-cut.png")
    photos = {p["id"]: p["caption"] for p in m.photos()}
    missing = [i for i in saved if i not in photos]
    assert not missing, f"acknowledged photos missing after the power cut: {missing}"
    wrong = {i: (c, photos.get(i)) for i, c in named.items() if photos.get(i) != c}
    assert not wrong, f"acknowledged names lost (named, listed): {wrong}"
    lost_shown = [c for c in shown if c not in photos.values()]
    assert not lost_shown, f"the keypad said 'Saved as' {lost_shown}, which the library lacks"
    status, report = m.as_booth(f"photobooth check --data-dir {LIBRARY}", timeout=300)
    (out / "photobooth-check.txt").write_text(report)
    assert status == 0, f"photobooth check exited with {status}: {report.strip()[-800:]}"
    reconciled = [line.split("Library: ", 1)[1] for line in m.read_log("photobooth.log").splitlines()
                  if "Library: " in line]
    kept = len(re.findall(rf"saved {UUID} ", (m.share / "journal-before-cut.txt").read_text(errors="replace")))
    print(f"{len(saved)} acknowledged, {len(photos)} listed; the last photo's save was "
          f"{'acknowledged' if last_saved else 'in flight'} at the cut; the booth's start: "
          f"{'; '.join(reconciled) or 'nothing to reconcile'}; the guest's own journal kept "
          f"{kept} of the {len(saved)} 'saved' lines; {report.strip().splitlines()[-1]}")


def test_upgrade(boots):
    """The same package repacked with a higher version, installed over it: photobooth.yaml keeps
    the edits, no .dpkg-* file appears, every photo is still listed, the booth runs again in a
    new process."""
    m = boots.machine("after-power-cut")
    upgrade = boots.upgrade()
    debs = m.share / "debs"
    debs.mkdir(exist_ok=True)
    shutil.copy(upgrade, debs / upgrade.name)
    new_version = deb_fields(upgrade)["Version"]
    conf_before = m.sh_ok(f"sha256sum {CONFFILE}").split()[0]
    ids_before = {p["id"] for p in m.photos()}
    pid = m.unit("MainPID")["MainPID"]
    start = m.offset
    status, output = m.sh(f"dpkg -i /share/debs/{shlex.quote(upgrade.name)}", timeout=400)
    (m.run_dir / "dpkg-upgrade.txt").write_text(output)
    assert status == 0, f"dpkg -i of the newer package exited with {status}: {output.strip()[-500:]}"
    version = m.sh_ok("dpkg-query -W -f '${Version}' photobooth").strip()
    assert version == new_version, f"the installed version is {version}, not {new_version}"
    conf_after = m.sh_ok(f"sha256sum {CONFFILE}").split()[0]
    assert conf_after == conf_before, f"{CONFFILE} changed in the upgrade"
    leftovers = m.sh_ok("ls /etc/photobooth/").split()
    assert leftovers == ["photobooth.yaml"], f"/etc/photobooth holds {leftovers} after the upgrade"
    m.ready(after=start, timeout=180)
    props = m.unit("MainPID", "ActiveState", "SubState")
    assert (props["ActiveState"], props["SubState"]) == ("active", "running"), \
        f"the booth is {props['ActiveState']} ({props['SubState']}) after the upgrade"
    assert props["MainPID"] not in (pid, "0"), "the booth was not restarted: it still runs the old binary"
    ids_after = {p["id"] for p in m.photos()}
    assert ids_before <= ids_after, f"photos gone after the upgrade: {sorted(ids_before - ids_after)}"
    print(f"{version}; configuration unchanged; {len(ids_after)} photos listed; MainPID {pid} -> {props['MainPID']}")


def test_power_off(boots):
    """systemctl poweroff: the booth finishes its saves (its last line is on the console) and the
    machine stops."""
    m = boots.machine("after-power-cut")
    m.save_journal("journal")
    m.save_journal("journal-all-boots", which="")
    m.shutdown()
    boots.current = None
    try:
        assert not m.alive(), "the machine did not power off within 120 s"
    finally:
        m.kill()
    console = m.console()
    assert re.search(r"Stopped (\x1b\[[0-9;]*m)?photobooth\.serv", console), \
        "the console has no 'Stopped photobooth.service'"
    assert "All photos are saved." in console, "the booth did not say 'All photos are saved.' as it stopped"
