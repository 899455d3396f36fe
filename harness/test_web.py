"""The web gallery of a running simulated booth with real clients (webtest/webcheck.py): curl,
headless Chromium, zbarimg, exiftool, schemathesis against docs/openapi.yaml, and wrk. One
booth for the module, in the order the checks need (the load and the scroll take photos; the
guest's deletion removes one).

    harness/run --binary .build/release/photobooth harness/test_web.py [--load-seconds N] [--quick]

--quick measures the booth against nginx in one round rather than three.
"""
import shutil
import tempfile
from pathlib import Path

import pytest

import webcheck as web
from harness.booth import free_port

TOOLS = {"curl": "curl", "chromium": "chromium", "wrk": "wrk", "nginx": "nginx-light", "zbarimg": "zbar-tools",
         "exiftool": "libimage-exiftool-perl"}


@pytest.fixture(scope="module")
def web_out(artifacts) -> Path:
    path = artifacts / "web"
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@pytest.fixture(scope="module")
def web_booth(binary, web_out):
    """A library of four photos (two shapes, markup in a name), and the booth serving it."""
    missing = [package for tool, package in TOOLS.items() if not shutil.which(tool)]
    if missing:
        pytest.fail(f"the web test needs {', '.join(missing)}: sudo apt-get install -y {' '.join(missing)}", pytrace=False)
    if not web.schemathesis():
        pytest.fail("the web test needs schemathesis: .build/venv/bin/pip install -r webtest/requirements.txt", pytrace=False)
    data = Path(tempfile.mkdtemp(prefix="photobooth-web-"))
    web.make_library(str(binary), data, web_out)
    booth = web.Booth(str(binary), data, web_out, free_port())
    yield booth
    if booth.process.poll() is None:
        booth.process.kill()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def photos(web_booth):
    return web.curl(web_booth.base + "/api/photos").json()


def checked(body) -> None:
    """Runs a group of checks; the test fails with the names of those that failed."""
    before = len(web.failures)
    body()
    failed = web.failures[before:]
    assert not failed, "failed: " + "; ".join(failed)


def test_api(web_booth):
    checked(lambda: web.api_checks(web_booth))


def test_contract(web_booth, web_out):
    checked(lambda: web.contract_checks(web_booth, web_out))


def test_browser(web_booth, photos, web_out):
    checked(lambda: web.browser_checks(web_booth.base, photos[-1], web_out))


def test_layout(web_booth, photos, web_out):
    checked(lambda: web.layout_checks(web_booth.base, photos, web_out))


def test_accessibility(web_booth, photos, web_out):
    """axe-core (WCAG 2.2 AA) finds no violation on the gallery, a photo page, the albums, the
    slideshow, a search and the French gallery, at a phone's width and a desktop's."""
    checked(lambda: web.accessibility_checks(web_booth.base, photos, web_out))


def test_text_alternatives(web_booth, photos, web_out):
    """Every photo a screen reader meets is named by its caption: the gallery, each photo's
    page, the slideshow; the albums' covers are decorative, their links named by the albums."""
    checked(lambda: web.text_alternative_checks(web_booth.base, photos, web_out))


def test_keyboard(web_booth, photos, web_out):
    """The gallery and a photo page with the keyboard alone: Tab in the document's order, the
    skip link first, the focus always shown, no trap; Enter opens a photo."""
    checked(lambda: web.keyboard_checks(web_booth.base, photos, web_out))


def test_slideshow_pause(web_booth, web_out):
    """The slideshow paused and played by keyboard on the page's own clock, stepped with the
    arrows; a photo taken while paused waits its turn. Takes a photo."""
    checked(lambda: web.slideshow_checks(web_booth, web_out))


def test_screen_and_guest_deletion(web_booth, web_out):
    checked(lambda: web.screen_checks(web_booth, web_out))


def test_load(web_booth, photos, web_out, request):
    checked(lambda: web.load_checks(web_booth, photos[-1], request.config.getoption("--load-seconds"), web_out))


def test_against_nginx(web_booth, photos, web_out, request, quick):
    """The figure of issue 16: requests per second and p99 of the booth and of nginx serving
    the same bytes, per address (DIR/web/perf.txt, perf.json); only wrk's errors fail."""
    seconds = request.config.getoption("--load-seconds")
    checked(lambda: web.nginx_comparison(web_booth, photos[-1], seconds, 1 if quick else 3, web_out, free_port()))


def test_scroll(web_booth, web_out):
    checked(lambda: web.scroll_checks(web_booth, web_out))


def test_stops_cleanly(web_booth):
    assert web_booth.stop() == 0, "the booth does not stop cleanly when its input ends"
