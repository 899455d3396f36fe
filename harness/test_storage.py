"""The storage campaign (issue 15, point 7): the storage troubles of issue 11 as repeatable
scenarios, each a test on the release binary: a disk filling one photo at a time down to 0
bytes, a read-only photos folder, a catalog truncated or overwritten with garbage, a `-wal` lost
after a SIGKILL, a lock file deleted under a running booth.

For each: what the guest sees (`/api/status`'s state, asserted; the screen's last line, only
reported), whether the booth starts, and that nothing acknowledged is lost: once the trouble is
fixed and the booth restarted, `photobooth check` is clean (the scenario says whether it needed
`check --repair` or the booth's own start-up repair) and every photo the log acknowledged
(`saved ID "CAPTION"`, `named ID "NAME"`) is listed with the caption last acknowledged.

The disk scenarios run on a tmpfs of a few megabytes in a user and mount namespace
(harness/smalldisk.py). Each scenario's summary is printed and written to its folder as
storage.json, and gathered with the others in storage.json at the top of --out.
"""
from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

import pytest

from harness.booth import Acknowledgements, Booth, Command, HarnessError, wait_for
from harness.observe import LogFollower
from harness.smalldisk import SmallDisk, can_mount

pytestmark = pytest.mark.campaign
needs_namespaces = pytest.mark.skipif(not can_mount(), reason="needs `unshare -rm` (user and mount namespaces) for a small tmpfs")

# Guests' names with what a log or a sidecar could get wrong: quotes, a backslash, other scripts.
NAMES = ["Anna", 'Mia "M"', "Zoë", "Noah\\Emma", "大久保", "Ben & Co", "Łukasz"]


def names(count: int):
    return (f"{NAMES[number % len(NAMES)]} {number}" for number in range(count))


def all_saved(log: LogFollower, guests, count: int) -> None:
    """`count` guests pose and name a photo one after the other; every photo is saved."""
    for _ in range(count):
        attempt = log.attempt(next(guests))
        assert attempt["outcome"] == "saved", attempt


def seen(booth: Booth) -> dict:
    """What a guest sees now: the state, as /api/status says (None when it does not answer), and the
    screen's last line (for people: never asserted)."""
    status = booth.status() or {}
    lines = [line for line in booth.screen_path.read_text(errors="replace").splitlines() if line.strip()]
    return {"state": status.get("state"), "storage_ok": status.get("storage_ok"), "screen": lines[-1] if lines else ""}


def wait_state(booth: Booth, condition, what: str, timeout: float = 30) -> str:
    """Waits until /api/status's state satisfies `condition` (the storage checks run every 10 s, every
    2 s in a fault); returns it."""
    def reached():
        if not booth.running():
            raise HarnessError(f"the booth exited with {booth.process.returncode}:\n{booth.tail()}")
        state = (booth.status() or {}).get("state")
        return state if state and condition(state) else None
    try:
        return wait_for(reached, timeout, what, poll=0.1)
    except HarnessError as error:
        raise HarnessError(f"{error} (state {(booth.status() or {}).get('state')})\n{booth.tail()}") from None


def verdict(command: Command, acknowledged: Acknowledgements, repair: bool = False) -> dict:
    """`check` (after `check --repair` when asked), then every acknowledged photo against `list`."""
    repaired = command.check(repair=True) if repair else None
    check = command.check()
    listed = {photo["id"]: photo["caption"] for photo in command.all_photos()}
    lost = sorted(set(acknowledged.captions) - set(listed))
    wrong = {photo: [caption, listed[photo]] for photo, caption in acknowledged.captions.items()
             if photo in listed and listed[photo] != caption}
    return {"repair": ({"status": repaired.returncode, "output": repaired.stdout.strip()[-600:]} if repaired else None),
            "check": {"status": check.returncode, "output": check.stdout.strip()[-600:]},
            "acknowledged": len(acknowledged.captions), "listed": len(listed), "lost": lost, "wrong_captions": wrong}


def assert_nothing_lost(result: dict) -> None:
    assert result["check"]["status"] == 0, f"check is not clean: {result['check']['output']}"
    assert not result["lost"], f"acknowledged photos lost: {result['lost']}"
    assert not result["wrong_captions"], f"acknowledged photos with another caption: {result['wrong_captions']}"


def report(artifacts: Path, out: Path, scenario: str, summary: dict) -> None:
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    (out / "storage.json").write_text(text + "\n")
    everything = artifacts / "storage.json"
    gathered = json.loads(everything.read_text()) if everything.exists() else {}
    gathered[scenario] = summary
    everything.write_text(json.dumps(gathered, indent=2, ensure_ascii=False) + "\n")
    print(f"storage scenario {scenario}:\n{text}")


@pytest.fixture
def small_disk(binary):
    disks: list[SmallDisk] = []

    def make(size: str = "16m") -> SmallDisk:
        disk = SmallDisk(binary, size)
        disks.append(disk)
        return disk
    yield make
    for disk in disks:
        disk.close()


@needs_namespaces
def test_disk_filling(binary, small_disk, start_booth, out, artifacts, quick):
    """A 24 MB disk (16 MB --quick) filled by photos until the booth refuses them, then by
    another program one photo's size (a megabyte --quick) at a time down to 0 bytes; a restart at
    0 bytes; then, from a booth that believes it has room, the disk filled to a few bytes under
    it just before a guest poses (so that the save, its sidecar, the catalog's commit or the
    name's fails), at each level; then the room given back."""
    # The quick form's disk holds fewer photos and is filled a megabyte at a time, not a photo.
    disk = small_disk("16m" if quick else "24m")
    # 8 MB: a photo and the catalog's write-ahead log at its largest (about 4 MB before SQLite
    # checkpoints it) fit in it, so that the booth, checking after each save, always refuses the
    # next guest before a save can fail for want of room.
    reserve_mb = 8
    args = ("--storage-reserve", str(reserve_mb))
    booth = start_booth(disk.path, binary=disk.binary, label="filling", args=args)
    booth.wait_ready()
    log = LogFollower(booth)
    acknowledged = Acknowledgements()
    summary: dict = {"disk": disk.size, "reserve_mb": reserve_mb, "steps": []}
    guests = names(10_000)

    def step(phase: str, **extra) -> dict:
        entry = {"phase": phase, "free_bytes": disk.free_bytes(), **extra, **seen(booth)}
        summary["steps"].append(entry)
        return entry

    # 1. Photos fill the disk until the booth stops taking them, before anyone poses.
    drops = []
    while True:
        free = disk.free_bytes()
        try_ = log.attempt(next(guests))
        if try_["outcome"] != "saved":
            break
        drops.append(free - disk.free_bytes())
    photo_size = max(4096, sorted(drops)[len(drops) // 2]) if drops else 140_000
    step("photos fill the disk", outcome=try_["outcome"], states=try_["states"], photos_saved=len(drops),
         bytes_per_photo=photo_size)
    summary["photos_until_full"] = len(drops)
    assert len(drops) > 10, f"a {disk.size} disk takes more than 10 photos of the simulated camera"
    assert try_["outcome"] == "refused", f"the full disk is found out before a guest poses: {try_}"
    assert wait_state(booth, lambda s: s.startswith("fault"), "the fault") == "fault(storageFull)"

    # 2. Another program fills the rest, one photo's size at a time, down to 0 bytes: every press
    #    shows the fault, the gallery and the status still answer.
    while disk.free_bytes() > 0:
        disk.fill(2**20 if quick else photo_size)
        try_ = log.attempt("Nobody")
        entry = step("filled by another program", outcome=try_["outcome"],
                     gallery=booth.get("/")[0], healthz=booth.get("/healthz")[0])
        assert try_["outcome"] == "refused" and entry["state"] == "fault(storageFull)", entry
        assert entry["gallery"] == 200 and entry["healthz"] == 503, entry

    # 3. The booth stopped and started at 0 bytes: it starts, says the disk is full, serves the
    #    gallery, and `list` and `check` (which only read) work.
    assert booth.stop() == 0, booth.tail()
    acknowledged.read(booth.log())
    log.close()
    command = Command(disk.binary, disk.path)
    listing, check = command.run("list", "--json"), command.check()
    booth = start_booth(disk.path, binary=disk.binary, label="filling-restarted", args=args)
    log = LogFollower(booth)
    state = wait_state(booth, lambda s: s != "starting", "the booth to start on a full disk", timeout=60)
    entry = step("restarted at 0 bytes", list_status=listing.returncode, check_status=check.returncode,
                 gallery=booth.get("/")[0], api_photos=len(json.loads(booth.get("/api/photos?limit=100")[2] or b"[]")))
    summary["starts_at_0_bytes"] = state == "fault(storageFull)"
    assert state == "fault(storageFull)", entry
    assert listing.returncode == 0 and check.returncode == 0, f"{listing.stderr} {check.stdout} {check.stderr}"
    assert entry["gallery"] == 200 and entry["api_photos"] == min(100, len(drops)), entry

    # 4. Room again: the booth's photos took the disk down to its reserve, and the operator gives
    #    it more; the booth takes photos by itself. Then, at each level, the disk is filled to
    #    about that many free bytes right after a save and a guest presses at once: the booth
    #    finds it out first (refused, stopped), or fails the save and says so (not saved), or the
    #    photo fits (saved), its name waiting for room if the name does not fit.
    kib = 1024
    levels = [0, 64 * kib, 160 * kib] if quick else [0, 4 * kib, 16 * kib, 48 * kib, 64 * kib, 96 * kib, 128 * kib,
                                                     136 * kib, 160 * kib, 256 * kib, 512 * kib]
    rng = random.Random(15)
    disk.grow("48m")
    for level in levels:
        disk.free()
        wait_state(booth, lambda s: s == "idle", "the booth to take photos again once there is room")
        try_ = log.attempt(next(guests))
        assert try_["outcome"] == "saved", try_
        disk.fill(max(0, disk.free_bytes() - level - rng.randrange(0, 4096)))
        try_ = log.attempt(next(guests))
        entry = step(f"filled to {level} bytes free just before a press", outcome=try_["outcome"],
                     name_waits=try_["name_waits"], states=try_["states"])
        if try_["outcome"] != "saved":
            state = wait_state(booth, lambda s: s.startswith("fault"), "the fault")
            assert state in ("fault(storageFull)", "fault(storageFailing)"), entry
    disk.free()
    wait_state(booth, lambda s: s == "idle", "the booth to take photos again once there is room")
    try_ = log.attempt("After the storm")
    assert try_["outcome"] == "saved", try_
    # A name that waited for room is written at the next healthy check or the next save.
    log.wait(lambda: not [photo for photo in log.saved if photo not in log.named], 30, "the names that waited for room")
    assert booth.stop() == 0, booth.tail()
    acknowledged.read(booth.log())
    outcomes: dict[str, int] = {}
    for entry in summary["steps"]:
        if "outcome" in entry:
            outcomes[entry["outcome"]] = outcomes.get(entry["outcome"], 0) + 1
    summary["outcomes"] = outcomes
    summary["names_that_waited"] = sum(1 for entry in summary["steps"] if entry.get("name_waits"))
    summary["result"] = verdict(command, acknowledged)
    summary["repair_needed"] = "none"
    report(artifacts, out, "disk filling to 0 bytes", summary)
    assert_nothing_lost(summary["result"])


@needs_namespaces
def test_photos_read_only(binary, small_disk, start_booth, out, artifacts, quick):
    """The photos folder turns read-only under a running booth (a card's folder remounted
    read-only), the booth is restarted on it, then the folder is writable again."""
    disk = small_disk("64m")
    args = ("--storage-reserve", "8")
    booth = start_booth(disk.path, binary=disk.binary, label="read-only", args=args)
    booth.wait_ready()
    log = LogFollower(booth)
    acknowledged = Acknowledgements()
    summary: dict = {"disk": disk.size, "steps": []}
    guests = names(10_000)

    def step(phase: str, **extra) -> dict:
        entry = {"phase": phase, **extra, **seen(booth)}
        summary["steps"].append(entry)
        return entry

    all_saved(log, guests, 3 if quick else 10)
    disk.photos_read_only()
    # A guest at once: the booth has not checked the disk since, so the save itself finds out.
    try_ = log.attempt(next(guests))
    step("a press right after the folder went read-only", outcome=try_["outcome"], states=try_["states"])
    state = wait_state(booth, lambda s: s.startswith("fault"), "the fault")
    try_ = log.attempt(next(guests))
    entry = step("a press in the fault", outcome=try_["outcome"], healthz=booth.get("/healthz")[0], gallery=booth.get("/")[0])
    assert state == "fault(storageFailing)" and try_["outcome"] == "refused", entry
    assert entry["healthz"] == 503 and entry["gallery"] == 200, entry
    assert booth.stop() == 0, booth.tail()
    acknowledged.read(booth.log())
    log.close()

    booth = start_booth(disk.path, binary=disk.binary, label="read-only-restarted", args=args)
    log = LogFollower(booth)
    state = wait_state(booth, lambda s: s != "starting", "the booth to start on a read-only photos folder", timeout=60)
    try_ = log.attempt(next(guests))
    entry = step("restarted on the read-only folder", outcome=try_["outcome"], gallery=booth.get("/")[0])
    summary["starts_read_only"] = state == "fault(storageFailing)"
    assert state == "fault(storageFailing)" and try_["outcome"] == "refused" and entry["gallery"] == 200, entry

    disk.photos_writable()
    wait_state(booth, lambda s: s == "idle", "the booth to take photos again once the folder is writable")
    try_ = log.attempt(next(guests))
    step("the folder writable again", outcome=try_["outcome"])
    assert try_["outcome"] == "saved", try_
    assert booth.stop() == 0, booth.tail()
    acknowledged.read(booth.log())
    summary["result"] = verdict(Command(disk.binary, disk.path), acknowledged)
    summary["repair_needed"] = "none"
    report(artifacts, out, "read-only photos folder", summary)
    assert_nothing_lost(summary["result"])


@pytest.mark.parametrize("fix", ["booth", "repair"])
@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_catalog_damaged(start_booth, command, library, out, artifacts, quick, damage, fix):
    """The catalog truncated to half, or overwritten whole with random bytes, after a clean stop;
    then fixed by the booth's own start (`booth`) or by `check --repair` first (`repair`)."""
    booth = start_booth(library, label="before")
    booth.wait_ready()
    log = LogFollower(booth)
    guests = names(10_000)
    all_saved(log, guests, 10 if quick else 40)
    assert booth.stop() == 0, booth.tail()
    acknowledged = Acknowledgements()
    acknowledged.read(booth.log())
    catalog = library / "photobooth.sqlite"
    # A stopped booth may leave its last transactions in the write-ahead log (durable, and read at
    # the next open); the damage is to the catalog's own file, so everything goes there first.
    wal = library / "photobooth.sqlite-wal"
    wal_left = wal.stat().st_size if wal.exists() else 0
    connection = sqlite3.connect(catalog)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    assert not wal.exists(), "the catalog is closed cleanly before it is damaged"
    size = catalog.stat().st_size
    if damage == "truncated":
        os.truncate(catalog, size // 2)
    else:
        catalog.write_bytes(random.Random(6).randbytes(size))
    summary: dict = {"damage": damage, "catalog_bytes": size, "wal_left_by_the_stop": wal_left,
                     "photos": len(acknowledged.captions), "steps": []}
    damaged = command(library)
    check, listing = damaged.check(), damaged.run("list", "--json")
    summary["steps"].append({"phase": "damaged", "check_status": check.returncode, "check": check.stdout.strip()[-300:],
                             "list_status": listing.returncode, "list": (listing.stdout + listing.stderr).strip()[-300:]})
    assert check.returncode == 1, f"check finds the damage: {summary}"
    repaired = None
    if fix == "repair":
        repaired = damaged.check(repair=True)
        summary["steps"].append({"phase": "check --repair", "status": repaired.returncode,
                                 "output": repaired.stdout.strip()[-400:]})
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr

    booth = start_booth(library, label="after")
    log = LogFollower(booth)
    state = wait_state(booth, lambda s: s != "starting", "the booth to start", timeout=120)
    summary["starts"] = state == "idle"
    rebuilt = [line for line in booth.log().splitlines() if "rebuilt the catalog" in line]
    summary["steps"].append({"phase": "restarted", "rebuilt_at_start": bool(rebuilt), **seen(booth)})
    assert state == "idle", booth.tail()
    assert log.attempt("After the repair")["outcome"] == "saved"
    assert booth.stop() == 0, booth.tail()
    acknowledged.read(booth.log())
    summary["result"] = verdict(command(library), acknowledged)
    summary["repair_needed"] = "check --repair" if fix == "repair" else "none: the booth rebuilds the catalog at start"
    report(artifacts, out, f"catalog {damage}, fixed by {'check --repair' if fix == 'repair' else 'the booth'}", summary)
    assert_nothing_lost(summary["result"])


def test_lost_wal(start_booth, command, library, out, artifacts, quick):
    """Photos whose rows are only in the write-ahead log when the booth is killed (SIGKILL), and
    the `-wal` deleted before the next start: the start-up check restores them, with their names,
    from the originals and their sidecars."""
    # SQLite copies the log into the catalog once it passes 1,000 pages (about 39 photos here):
    # the killed session stays under that, so that its rows are in the log alone.
    count = 10 if quick else 30
    booth = start_booth(library, label="checkpointed")
    booth.wait_ready()
    log = LogFollower(booth)
    guests = names(10_000)
    all_saved(log, guests, count)
    assert booth.stop() == 0, booth.tail()
    acknowledged = Acknowledgements()
    acknowledged.read(booth.log())
    # These photos go into the catalog's own file (a stopped booth may leave them in the log).
    connection = sqlite3.connect(library / "photobooth.sqlite")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    booth = start_booth(library, label="killed")
    booth.wait_ready()
    log = LogFollower(booth)
    all_saved(log, guests, count)
    booth.kill()
    acknowledged.read(booth.log())
    wal = library / "photobooth.sqlite-wal"
    summary: dict = {"photos": len(acknowledged.captions), "wal_bytes": wal.stat().st_size, "steps": []}
    wal.unlink()
    damaged = command(library)
    check = damaged.check()
    listed = len(damaged.all_photos())
    summary["steps"].append({"phase": "-wal deleted", "check_status": check.returncode, "check": check.stdout.strip()[-300:],
                             "listed": listed})
    summary["rows_lost_with_the_log"] = len(acknowledged.captions) - listed
    assert listed == len(acknowledged.captions) - count, "the killed session's rows were in the deleted log alone"

    booth = start_booth(library, label="restarted")
    log = LogFollower(booth)
    state = wait_state(booth, lambda s: s != "starting", "the booth to start", timeout=120)
    summary["starts"] = state == "idle"
    summary["steps"].append({"phase": "restarted", **seen(booth)})
    assert state == "idle", booth.tail()
    assert log.attempt("After the crash")["outcome"] == "saved"
    assert booth.stop() == 0, booth.tail()
    acknowledged.read(booth.log())
    summary["result"] = verdict(command(library), acknowledged)
    summary["repair_needed"] = "none: the booth's start-up check restores rows and names from the sidecars"
    report(artifacts, out, "lost -wal after SIGKILL", summary)
    assert_nothing_lost(summary["result"])


def test_deleted_lock_file(start_booth, command, library, out, artifacts, quick):
    """An earlier version's lock file in the library, and a lock file deleted under a running
    booth: a second booth on the library, and `check --repair`, are still refused, and the first
    booth goes on."""
    (library / "photobooth.lock").write_text("")
    booth = start_booth(library, label="first")
    booth.wait_ready()
    log = LogFollower(booth)
    guests = names(10_000)
    all_saved(log, guests, 3 if quick else 10)
    summary: dict = {"old_lock_file_left": (library / "photobooth.lock").exists(), "steps": []}
    # What deleted the lock file before: rm under the running booth (with nothing to delete, the
    # booth having removed it, the test makes one and deletes it, as a cleanup script would).
    (library / "photobooth.lock").touch()
    (library / "photobooth.lock").unlink()
    second = start_booth(library, label="second", http=False)
    status = second.process.wait(timeout=120)
    repair = command(library).check(repair=True)
    summary["steps"].append({"phase": "a second booth and a repair beside the first", "second_status": status,
                             "second_says": second.tail(1), "repair_status": repair.returncode,
                             "repair_says": (repair.stdout + repair.stderr).strip()[-300:], **seen(booth)})
    summary["starts"] = booth.running()
    assert status == 1 and repair.returncode == 1, summary["steps"][-1]
    all_saved(log, guests, 3 if quick else 10)
    assert booth.stop() == 0, booth.tail()
    acknowledged = Acknowledgements()
    acknowledged.read(booth.log())
    summary["result"] = verdict(command(library), acknowledged)
    summary["repair_needed"] = "none"
    report(artifacts, out, "deleted lock file", summary)
    assert not summary["old_lock_file_left"], "the booth removes an earlier version's lock file"
    assert_nothing_lost(summary["result"])
