"""Fixtures for every test that runs the real binary: the hardware scenarios, the web test, the
boot test and the campaigns (harness/README.md).

Options (harness/run passes them through to pytest):
  --binary PATH   the photobooth binary (default .build/release/photobooth)
  --deb PATH      the Debian package, for the tests that install it in QEMU
  --out DIR       where logs, screendumps and summaries go, one folder per test
  --quick         the campaigns' CI form: fewer rounds, the same checks
  --seed N        the campaigns' random seed (printed by every campaign, to rerun one)
  --load-seconds N  the web test's load on each address (default 10)
"""
from __future__ import annotations

import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.dont_write_bytecode = True
for kit in ("vmtest", "webtest"):
    sys.path.insert(0, str(ROOT / kit))

from harness.booth import Booth, Command  # noqa: E402
from harness.store import ObjectStore  # noqa: E402


def pytest_addoption(parser):
    group = parser.getgroup("photobooth")
    group.addoption("--binary", default=str(ROOT / ".build/release/photobooth"), help="the photobooth binary")
    group.addoption("--deb", default=None, help="the Debian package, for the tests in QEMU that install it")
    group.addoption("--out", default="/tmp/photobooth-harness", help="logs, screendumps and summaries")
    group.addoption("--quick", action="store_true", help="the campaigns' CI form")
    group.addoption("--seed", type=int, default=None, help="the campaigns' random seed")
    group.addoption("--load-seconds", type=int, default=10, help="the web test's wrk run on each address")


def pytest_configure(config):
    config.addinivalue_line("markers", "campaign: a reliability campaign (harness/campaigns); --quick in CI")
    config.addinivalue_line("markers", "vm: needs QEMU and the hardware-test kit (vmtest/prepare)")
    config.addinivalue_line("markers", "root: needs root (debootstrap, loop devices)")
    config.addinivalue_line("markers", "pictures: strips, collages and animations (-k pictures selects them)")
    config.addinivalue_line("markers", "printing: printing on a real CUPS (-k printing selects them)")


@pytest.fixture(scope="session")
def binary(request) -> Path:
    path = Path(request.config.getoption("--binary")).resolve()
    if not path.exists():
        pytest.fail(f"{path} does not exist: build it with `swift build -c release --product photobooth`, "
                    "or pass --binary", pytrace=False)
    return path


@pytest.fixture(scope="session")
def deb(request) -> Path:
    value = request.config.getoption("--deb")
    if not value:
        pytest.fail("this test installs the Debian package: pass --deb PATH (deploy/build-deb makes it)", pytrace=False)
    return Path(value).resolve()


@pytest.fixture(scope="session")
def quick(request) -> bool:
    return request.config.getoption("--quick")


@pytest.fixture(scope="session")
def artifacts(request) -> Path:
    path = Path(request.config.getoption("--out"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def out(request, artifacts) -> Path:
    """This test's own folder under --out, emptied first: its logs, screendumps and summary."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name).strip("-")
    path = artifacts / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@pytest.fixture
def rng(request) -> random.Random:
    """The campaign's random source; its seed is printed, and --seed N replays it."""
    seed = request.config.getoption("--seed")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    print(f"seed {seed} (rerun with --seed {seed})")
    rng = random.Random(seed)
    rng.initial_seed = seed
    return rng


@pytest.fixture
def library(tmp_path_factory) -> Path:
    """An empty folder for a photo library, deleted after the test."""
    return tmp_path_factory.mktemp("library")


@pytest.fixture
def start_booth(binary, out):
    """Starts simulated booths on a library (`start_booth(library, args=..., config=...)`, with
    `binary=` for another executable, such as a small disk's wrapper); every booth still running
    at the test's end is killed, so that none outlives its test."""
    booths: list[Booth] = []

    def start(data: Path, binary: Path = binary, **options) -> Booth:
        booth = Booth(binary, data, out, **options)
        booths.append(booth)
        return booth
    yield start
    for booth in booths:
        booth.kill()


@pytest.fixture
def command(binary):
    """`photobooth COMMAND` on a library: `command(library).photos()`."""
    return lambda data: Command(binary, data)


@pytest.fixture
def object_store(out):
    """SeaweedFS on loopback with an empty bucket, stopped after the test."""
    store = ObjectStore(out)
    yield store
    store.close()


@pytest.fixture
def scratch():
    """A temporary folder outside pytest's own, for what a booth's child processes write."""
    path = Path(tempfile.mkdtemp(prefix="harness-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
