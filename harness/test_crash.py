"""The crash campaign: SIGKILL at random instants over the booth's whole life, then restart,
`photobooth check` clean, and every photo the booth acknowledged present, with the caption it
acknowledged, hidden or deleted as the web said it was, exactly once.

One simulated booth ("east") keeps one library and syncs it to a real object store (SeaweedFS
on loopback) while a second booth ("west") now and then adds a photo to the same event, for
east to import. Each round starts east, brings it to an instant of one kind, and kills it:

  start     during start-up and the reconciliation of the library
  migrate   during the catalog's migration from version 6 (the catalog is taken back first)
  photo     after the button press: countdown, capture, the save, in any mode (a photo, a
            collage's shots and reviews, an animation's or a boomerang's frames)
  name      while the typed name is being kept (the rename), of a picture of any mode
  hide      while the web gallery's admin hides a photo
  delete    while the web gallery's admin deletes a photo
  upload    after a save, while its photo goes to the bucket
  print     after a save, while its print is asked for, sent to CUPS and printed
  import    while the photos of the other booth come in
  idle      once the booth is ready again after a kill of the first three kinds

After each kill: east starts again and is ready, stops cleanly, `check` exits 0, and the
library holds every photo it acknowledged (the log's `saved`/`named` lines, a 204 from the
admin API) as acknowledged. East prints every picture as it is saved (`print.auto`) on a real
CUPS (harness/printing.py), so every kill may fall between a print's request, its submission and
its end. At the end every acknowledged photo is in the bucket, every photo of the other booth is
in east's library, and every photo of east's library was printed exactly once (the printer's
received documents, counted). The figures go to crash.json.

    harness/run --binary .build/release/photobooth -k crash           # 500 kills
    harness/run --binary .build/release/photobooth -k crash --quick   # 40 kills, in CI
"""
from __future__ import annotations

import json
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from harness.booth import NAMED, SAVED, Acknowledgements, Booth, HarnessError, wait_for
from harness.printing import PrintLab, missing_tools

ADMIN_TOKEN = "harness-admin-token-0123456789"
KINDS = {"start": 12, "migrate": 4, "photo": 24, "name": 14, "hide": 10, "delete": 8, "upload": 16, "import": 12, "print": 10}
# The modes a press takes its picture in (booth.mode).
MODES = ["single", "collage", "animation", "boomerang"]
NAMES = ["Anna", "Ben", "Zoë", "Chloé & Max", "李", "O'Brien", "Émile", "Jo"]

# The catalog as a booth of before search left it (version 6): what migrations v7, v8 (and v9, after
# them: intents, the count of changes, two partial indexes, one of them on perceptual_hash; and v11:
# the count of changes guests see, on v9's table; and v12: pictures' kinds and parts) add, removed.
# v10's tables stay, unused by v6.
TO_VERSION_6 = """
    DROP TRIGGER IF EXISTS gallery_photo_insert; DROP TRIGGER IF EXISTS gallery_photo_delete;
    DROP TRIGGER IF EXISTS gallery_photo_update;
    DROP TABLE IF EXISTS photo_part; ALTER TABLE photo DROP COLUMN kind; ALTER TABLE photo DROP COLUMN layout;
    DELETE FROM grdb_migrations WHERE identifier LIKE 'v12%';
    DELETE FROM grdb_migrations WHERE identifier LIKE 'v11%';
    DROP TRIGGER IF EXISTS count_photo_insert; DROP TRIGGER IF EXISTS count_photo_delete;
    DROP TRIGGER IF EXISTS count_photo_update; DROP TRIGGER IF EXISTS count_intent;
    DROP TABLE IF EXISTS in_flight; DROP TABLE IF EXISTS catalog_state;
    DROP INDEX IF EXISTS photo_malformed_id; DROP INDEX IF EXISTS photo_without_hash;
    DELETE FROM grdb_migrations WHERE identifier LIKE 'v9%';
    DROP TRIGGER photo_search_insert; DROP TRIGGER photo_search_delete; DROP TRIGGER photo_search_update;
    DROP TABLE photo_search; DROP INDEX photo_visible_by_name; DROP INDEX photo_visible_favourites;
    ALTER TABLE photo DROP COLUMN name_key; ALTER TABLE photo DROP COLUMN search_text;
    ALTER TABLE photo DROP COLUMN favourite; ALTER TABLE photo DROP COLUMN perceptual_hash;
    DELETE FROM grdb_migrations WHERE identifier LIKE 'v7%' OR identifier LIKE 'v8%';
"""


class Expected:
    """What the library must hold: every photo acknowledged (or found whole after a kill, which
    from then on must stay), its acceptable captions, and what the web hid or deleted."""

    def __init__(self):
        self.captions: dict[str, set[str]] = {}
        self.hidden: set[str] = set()
        self.may_be_hidden: set[str] = set()
        self.deleted: set[str] = set()
        self.may_be_deleted: set[str] = set()
        self.acknowledged = 0
        self.named = 0

    def acknowledge(self, log: str, typed: dict[str, str]) -> None:
        """Reads a run's saves and renames; a name typed but not confirmed may or may not be kept."""
        acks = Acknowledgements()
        acks.read(log)
        for photo, caption in acks.captions.items():
            if photo not in self.captions:
                self.acknowledged += 1
            self.captions[photo] = {caption} | ({typed[photo]} if photo in typed else set())
        self.named += len(NAMED.findall(log))
        for photo, name in typed.items():
            if photo in self.captions and name not in self.captions[photo]:
                self.captions[photo].add(name)


def downgrade(catalog: Path) -> bool:
    """Takes a catalog at version 7 back to 6; False when it is not at 7 (a kill came before)."""
    if not catalog.exists():
        return False
    db = sqlite3.connect(catalog)
    try:
        done = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'grdb_migrations'").fetchone()[0] and \
            db.execute("SELECT count(*) FROM grdb_migrations WHERE identifier LIKE 'v7%'").fetchone()[0]
        if done:
            db.executescript(TO_VERSION_6)
        return bool(done)
    finally:
        db.close()


class Campaign:
    def __init__(self, start_booth, command, library: Path, west_library: Path, store, lab: PrintLab, rng, out: Path):
        self.start_booth, self.rng, self.out = start_booth, rng, out
        self.library, self.west_library = library, west_library
        self.command = command(library)
        self.store = store
        self.lab = lab
        self.config = (f"http:\n  admin_token: {ADMIN_TOKEN}\n" + store.sync_config("Crash campaign")
                       + "  interval_seconds: 1\n")
        self.print_config = f"print:\n  printer: Booth\n  server: {lab.server}\n  media: 4x6\n  auto: true\n"
        self.expected = Expected()
        self.west_photos: dict[str, str] = {}
        self.kills: Counter[str] = Counter()
        self.modes: Counter[str] = Counter()
        self.failures: list[str] = []
        self.ready_seconds = [1.0]
        self.uploads_seen = 0
        self.imports_seen = 0
        self.migrations = 0
        self.seconds: Counter[str] = Counter()
        # The pictures east said it saved (a shot kept as a photo when its picture was never
        # made is not one: it was never asked to print).
        self.saved_pictures: set[str] = set()

    def east(self, countdown: int = 0, mode: str = "single") -> Booth:
        booth = self.start_booth(self.library, config=self.config + self.print_config
                                 + "booth:\n  name: east\n  next_countdown_seconds: 0\n",
                                 args=("--countdown", str(countdown), "--mode", mode), label="east")
        booth.countdown = countdown
        booth.mode = mode
        return booth

    def typical_ready(self) -> float:
        recent = sorted(self.ready_seconds[-20:])
        return recent[len(recent) // 2]

    # One round

    def round(self, number: int, kind: str) -> None:
        """One kill of the given kind; the start that follows it is the next round's (or the
        final convergence), which verifies the library before it does anything else."""
        typed: dict[str, str] = {}
        if kind == "import":
            self.timed("west", self.west_photo)
        if kind == "migrate" and downgrade(self.library / "photobooth.sqlite"):
            self.migrations += 1
        # A photo is taken, and named, in every mode: a collage's shots, an animation's frames.
        photos = self.kills["photo"] + self.kills["name"]
        mode = (MODES[photos] if photos < len(MODES) else self.rng.choice(MODES)) if kind in ("photo", "name") else "single"
        self.modes[mode] += 1
        booth = self.east(countdown=self.rng.choice([0, 0, 1]), mode=mode)
        started = time.monotonic()
        if kind in ("start", "migrate", "import"):
            time.sleep(self.rng.uniform(0, self.typical_ready() * (2.5 if kind == "import" else 1.2)))
            self.kill(booth, kind, typed)
            booth = self.east(countdown=self.rng.choice([0, 0, 1]))
            started = time.monotonic()
        self.timed("ready", lambda: self.ready(booth, number, kind))
        self.ready_seconds.append(time.monotonic() - started)
        self.timed("verify", lambda: self.verify(number, kind))
        if kind in ("start", "migrate", "import"):
            # Killed idle too, a state the booth spends most of its life in.
            self.kill(booth, "idle", typed)
        else:
            self.timed(kind, lambda: getattr(self, kind)(booth, typed))
            self.kill(booth, kind, typed)

    def timed(self, part: str, body) -> None:
        began = time.monotonic()
        body()
        self.seconds[part] += time.monotonic() - began

    def kill(self, booth: Booth, kind: str, typed: dict[str, str]) -> None:
        booth.kill()
        log = booth.log()
        self.kills[kind] += 1
        self.uploads_seen += log.count("] uploaded ")
        self.imports_seen += log.count("] imported ")
        self.expected.acknowledge(log, typed)
        self.saved_pictures.update(match.group(1) for match in SAVED.finditer(log))

    def ready(self, booth: Booth, number: int, kind: str) -> None:
        try:
            booth.wait_ready(timeout=90)
        except HarnessError as error:
            self.failures.append(f"round {number} ({kind}): east did not start again: {error}")
            raise

    def photo(self, booth: Booth, typed: dict[str, str]) -> None:
        booth.type("")
        # A collage of four takes a shot and a review of 2 s each; an animation, ten frames.
        time.sleep(self.rng.uniform(0, booth.countdown + {"collage": 8.5, "single": 0.4}.get(booth.mode, 2.4)))

    def name(self, booth: Booth, typed: dict[str, str]) -> None:
        before = len(booth.saved())
        booth.type("")
        wait_for(lambda: len(booth.saved()) > before, 30, "the save of the photo to name")
        photo = booth.saved()[before][0]
        typed[photo] = self.rng.choice(NAMES)
        booth.type(typed[photo])
        time.sleep(self.rng.uniform(0, 0.15))

    def administer(self, booth: Booth, action: str) -> None:
        candidates = sorted(set(self.expected.captions) - self.expected.deleted - self.expected.may_be_deleted
                            - (self.expected.hidden if action == "hide" else set())
                            # Only the booth that took a photo may hide or delete it (409 here).
                            - set(self.west_photos))
        if not candidates:
            return self.photo(booth, {})
        photo = self.rng.choice(candidates)
        answer: list[int] = []
        method, path = ("POST", f"/api/photos/{photo}/hide") if action == "hide" else ("DELETE", f"/api/photos/{photo}")
        request = threading.Thread(target=lambda: answer.append(booth.send(
            method, path, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})))
        request.start()
        time.sleep(self.rng.uniform(0, 0.15))
        booth.kill()
        request.join()
        target, maybe = ((self.expected.hidden, self.expected.may_be_hidden) if action == "hide"
                         else (self.expected.deleted, self.expected.may_be_deleted))
        if answer and answer[0] and not 200 <= answer[0] < 300:
            self.failures.append(f"{method} {path} answered {answer[0]}, not 204 or nothing")
        (target if answer and 200 <= answer[0] < 300 else maybe).add(photo)

    def hide(self, booth: Booth, typed: dict[str, str]) -> None:
        self.administer(booth, "hide")

    def delete(self, booth: Booth, typed: dict[str, str]) -> None:
        self.administer(booth, "delete")

    def upload(self, booth: Booth, typed: dict[str, str]) -> None:
        booth.take_photo(self.rng.choice(NAMES))
        time.sleep(self.rng.uniform(0, 0.6))

    def print(self, booth: Booth, typed: dict[str, str]) -> None:
        # The save queues the print; the print thread sends it within a second and CUPS prints
        # it in about as much again.
        booth.take_photo(self.rng.choice(NAMES))
        time.sleep(self.rng.uniform(0, 2.5))

    def west_photo(self) -> None:
        """The other booth takes a photo and uploads it, then stops; east imports it later."""
        west = self.start_booth(self.west_library, config=self.config + "booth:\n  name: west\n", label="west")
        west.wait_ready()
        name = self.rng.choice(NAMES)
        photo = west.take_photo(name)
        wait_for(lambda: json.loads(west.command.run("sync", "status", "--json").stdout or "{}").get("pending") == 0,
                 60, "west's upload of its photo and name", poll=0.2)
        if west.stop() != 0:
            self.failures.append(f"west did not stop cleanly:\n{west.tail()}")
        self.west_photos[photo] = name

    # After each kill

    def verify(self, number: int, kind: str) -> None:
        """The library after a kill and a start: `check` clean (the booth is idle), and every
        acknowledged photo there as acknowledged, once."""
        def fail(what: str) -> None:
            self.failures.append(f"after round {number - 1}, at the start of round {number} ({kind}): {what}")

        # West's photos come in at start-up, each original written before its row: `check`
        # would count one under way as a file without a row. Wait until they are all in.
        try:
            wait_for(lambda: set(self.west_photos) <= {photo["id"] for photo in self.command.all_photos()}, 60,
                     "east to import every photo of west", poll=0.2)
        except HarnessError as error:
            fail(str(error))
        check = self.command.check()
        if check.returncode != 0:
            fail(f"check is not clean:\n{check.stdout}{check.stderr}")
            self.command.check(repair=True)
        visible, hidden = self.command.photos(), self.command.photos(hidden=True)
        ids = [photo["id"] for photo in visible + hidden]
        files = [photo["file"] for photo in visible + hidden]
        if len(set(ids)) != len(ids) or len(set(files)) != len(files):
            fail(f"a photo is listed twice: {[i for i, n in Counter(ids).items() if n > 1]}")
        present = {photo["id"]: photo for photo in visible + hidden}
        hidden_ids = {photo["id"] for photo in hidden}
        expected = self.expected
        for photo, captions in list(expected.captions.items()):
            if photo in expected.deleted:
                if photo in present:
                    fail(f"{photo} was deleted (204) but is still there")
                continue
            if photo not in present:
                if photo in expected.may_be_deleted:
                    expected.deleted.add(photo)
                    continue
                fail(f"acknowledged photo {photo} {sorted(captions)} is lost")
                continue
            caption = present[photo]["caption"]
            if photo in self.west_photos:
                # West's rename reaches east after its photo, as a later record.
                captions = captions | {self.west_photos[photo]}
            if caption not in captions:
                fail(f"{photo} has the caption {caption!r}, acknowledged {sorted(captions)}")
            expected.captions[photo] = {caption}
            if photo in expected.hidden and photo not in hidden_ids:
                fail(f"{photo} was hidden (204) but guests see it")
            if photo in expected.may_be_hidden and photo in hidden_ids:
                expected.hidden.add(photo)
        expected.may_be_hidden.clear()
        expected.may_be_deleted -= expected.deleted
        for photo, listed in present.items():
            # A photo saved whole just before its acknowledgement, or imported: it stays from now on.
            expected.captions.setdefault(photo, {listed["caption"]})
            if photo in hidden_ids:
                expected.hidden.add(photo)

    # At the end

    def converge(self) -> dict:
        """East runs undisturbed until the bucket has all its photos and it has all of west's."""
        booth = self.east()
        booth.wait_ready()
        self.verify(sum(self.kills.values()) + 1, "final")

        def converged():
            status = json.loads(self.command.run("sync", "status", "--json").stdout or "{}")
            ids = {photo["id"] for photo in self.command.all_photos()}
            return status.get("pending") == 0 and set(self.west_photos) <= ids
        try:
            wait_for(converged, 180, "east to upload everything and import west's photos", poll=0.5)
        except HarnessError as error:
            self.failures.append(f"no convergence: {error}")
        booth.stop()
        keys = self.store.keys()
        in_bucket = {key.rsplit("/", 1)[1].rsplit(".", 1)[0] for key in keys if "/east/photos/" in key}
        alive = set(self.expected.captions) - self.expected.deleted - set(self.west_photos)
        missing = sorted(alive - in_bucket)
        if missing:
            self.failures.append(f"{len(missing)} acknowledged photos never reached the bucket: {missing[:5]}")
        listed = {photo["id"]: photo["caption"] for photo in self.command.all_photos()}
        not_imported = sorted(set(self.west_photos) - set(listed))
        if not_imported:
            self.failures.append(f"{len(not_imported)} photos of west never reached east: {not_imported[:5]}")
        return {"photos_in_bucket": len(alive & in_bucket), "photos_missing_from_bucket": len(missing),
                "west_photos": len(self.west_photos), "west_photos_not_imported": len(not_imported),
                **self.check_prints(listed)}

    def check_prints(self, listed: dict[str, str]) -> dict:
        """Every picture east acknowledged and still has was printed once, and no photo twice;
        every print request of a photo still there ended printed. (Shots kept as photos when
        their picture was never made were never asked for: a boomerang cut short is not ten
        prints. A photo deleted before its turn is not printed at all.)"""
        def unfinished() -> int | None:
            counts = json.loads(self.command.run("print", "status", "--json").stdout or "{}").get("counts", {})
            return sum(counts.get(state, 0) for state in ("pending", "sending", "printing")) if counts else None
        booth = self.east()
        # The campaign asks for prints faster than the lab's printer prints them (CUPS's backend
        # takes 7 to 20 s a job), so a backlog of minutes may be left: wait while the prints go
        # on ending, and fail when none has ended for longer than a job ever takes.
        stalled = 90
        last_change, left = time.monotonic(), None
        while (now := unfinished()) != 0:
            if now != left:
                last_change, left = time.monotonic(), now
            elif time.monotonic() - last_change > stalled:
                self.failures.append(f"prints never finished: {left} print requests still open, none ended for {stalled} s")
                break
            time.sleep(0.5)
        booth.stop()
        printed = self.lab.printed_per_photo()
        catalog = sqlite3.connect(self.library / "photobooth.sqlite")
        requests = catalog.execute("SELECT photo_id, state FROM print_job WHERE photo_id IN (SELECT id FROM photo)").fetchall()
        catalog.close()
        unfinished = [(photo, state) for photo, state in requests if state != "done"]
        if unfinished:
            self.failures.append(f"{len(unfinished)} print requests of photos still there did not print: {unfinished[:5]}")
        acknowledged = (self.saved_pictures - self.expected.deleted - self.expected.may_be_deleted) & set(listed)
        not_printed = sorted(photo for photo in acknowledged if printed.get(photo[:8], 0) == 0)
        doubled = {prefix: count for prefix, count in printed.items() if count > 1}
        if not_printed:
            self.failures.append(f"{len(not_printed)} acknowledged pictures were never printed: {not_printed[:5]}")
        if doubled:
            self.failures.append(f"{len(doubled)} photos were printed more than once: {doubled}")
        return {"pictures_printed": sum(1 for photo in acknowledged if printed.get(photo[:8], 0) == 1),
                "pictures_not_printed": len(not_printed), "photos_printed_twice": len(doubled),
                "print_requests": len(requests), "documents_printed": sum(printed.values())}


@pytest.mark.campaign
@pytest.mark.pictures
@pytest.mark.printing
def test_crash_campaign(start_booth, command, tmp_path_factory, object_store, rng, quick, out):
    missing = missing_tools()
    if missing:
        pytest.fail(f"the crash campaign prints: it needs {', '.join(missing)} (cups, cups-ipp-utils, dbus-daemon)", pytrace=False)
    # Not under pytest's folder: cupsd runs as nobody when the harness is root, and must reach it.
    with PrintLab(Path(tempfile.mkdtemp(prefix="photobooth-cups-"))) as lab:
        try:
            run_campaign(start_booth, command, tmp_path_factory, object_store, lab, rng, quick, out)
        finally:
            (out / "cups.log").write_text(lab.log())


def run_campaign(start_booth, command, tmp_path_factory, object_store, lab, rng, quick, out):
    kills = 40 if quick else 500
    campaign = Campaign(start_booth, command, tmp_path_factory.mktemp("east"), tmp_path_factory.mktemp("west"),
                        object_store, lab, rng, out)
    started = time.monotonic()
    kinds = list(KINDS)
    # Every kind at least once, then at random by weight.
    # The photo instant once more than the kinds, so that every mode comes at least once.
    plan = kinds + ["photo"] * len(MODES) + rng.choices(kinds, weights=list(KINDS.values()), k=kills - len(kinds) - len(MODES))
    for number, kind in enumerate(plan, 1):
        campaign.round(number, kind)
        if len(campaign.failures) > 20:
            break
    convergence = campaign.converge()
    expected = campaign.expected
    lost = [failure for failure in campaign.failures if "is lost" in failure]
    wrong = [failure for failure in campaign.failures if "has the caption" in failure]
    summary = {
        "kills": sum(campaign.kills.values()), "kills_by_instant": dict(campaign.kills), "rounds_by_mode": dict(campaign.modes),
        "photos_acknowledged": expected.acknowledged, "names_acknowledged": expected.named,
        "photos_in_library": len(set(expected.captions) - expected.deleted),
        "hidden_acknowledged": len(expected.hidden), "deleted_acknowledged": len(expected.deleted),
        "migrations_interrupted": campaign.migrations, "uploads_logged": campaign.uploads_seen, "imports_logged": campaign.imports_seen,
        "seed": rng.initial_seed, "photos_lost": len(lost), "captions_wrong": len(wrong),
        "failures": len(campaign.failures),
        **convergence, "seconds": round(time.monotonic() - started),
        "seconds_by_part": {part: round(seconds) for part, seconds in campaign.seconds.items()},
        "typical_start_to_ready_seconds": round(campaign.typical_ready(), 2),
    }
    (out / "crash.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "failures.txt").write_text("\n\n".join(campaign.failures) + "\n")
    print(json.dumps(summary, indent=2))
    assert not campaign.failures, "\n\n".join(campaign.failures[:10])
