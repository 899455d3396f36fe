"""Strips, collages, animations and boomerangs of the simulated booth, in the web gallery as a
guest's browser shows them: a real headless Chromium (over its DevTools pipe) and exiftool.

    harness/run --binary .build/release/photobooth -k pictures

The library is made by the booth itself (`--mode collage --layout strip-4`, `--mode animation`,
`--mode boomerang`), then the booth serves it. Chromium must show the strip at its true aspect
ratio (600x1800: one to three) and play the animations: pictures of the page taken a moment
apart show different frames of the GIF, as they do when it plays and never when it is stuck. A download
of each is the file of its kind with the name inside, as exiftool reads it. The booth's own
screen plays them too: its gallery's full-screen picture, read from the screen's mirror.

`-k pictures` selects this file and the crash campaign (marked `pictures`: its photo and name
rounds take their pictures in every mode; add --quick for CI's 40 kills). The Swift tests of
pictures (PictureSessionTests, the unit tests of layouts, composition and GIFs, the sync of
every kind through SeaweedFS) run in `swift test`.
"""
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image

import webcheck as web
from harness.booth import free_port

SHAPE = """JSON.stringify((() => {
  const image = document.querySelector("img.original");
  const box = image.getBoundingClientRect();
  return {natural: [image.naturalWidth, image.naturalHeight], drawn: [box.width, box.height], src: image.getAttribute("src"),
          box: [box.left, box.top, box.right, box.bottom].map(v => Math.round(v * devicePixelRatio))};
})())"""


@pytest.fixture(scope="module")
def pictures_out(artifacts) -> Path:
    path = artifacts / "pictures"
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@pytest.fixture(scope="module")
def pictures_booth(binary, pictures_out):
    """A library of a strip of four named Strip, an animation named Wave and a boomerang named
    Bounce, each made by the simulated booth in its mode; then the booth serving it."""
    missing = [tool for tool in ("chromium", "curl", "exiftool") if not shutil.which(tool)]
    if missing:
        pytest.fail(f"the pictures test needs {', '.join(missing)}", pytrace=False)
    data = Path(tempfile.mkdtemp(prefix="photobooth-pictures-"))
    config = pictures_out / "quick.yaml"
    config.write_text("booth:\n  next_countdown_seconds: 0\n")
    for mode, name in [("collage", "Strip"), ("animation", "Wave"), ("boomerang", "Bounce")]:
        result = subprocess.run(
            [str(binary), "run", "--simulate", "--no-http", "--data-dir", str(data), "--config", str(config), "--countdown", "0",
             "--mode", mode, "--layout", "strip-4", "--camera-size", "1280x720"],
            input=f"\n{name}\n".encode(), capture_output=True, timeout=180)
        (pictures_out / f"{mode}.log").write_bytes(result.stderr)
        assert result.returncode == 0, f"the {mode} session failed: {result.stderr.decode(errors='replace')[-2000:]}"
    booth = web.Booth(str(binary), data, pictures_out, free_port())
    yield booth
    if booth.process.poll() is None:
        booth.process.kill()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def listed(pictures_booth) -> dict[str, dict]:
    return {photo["caption"]: photo for photo in web.curl(pictures_booth.base + "/api/photos").json()}


def test_pictures_in_the_api(listed):
    assert set(listed) == {"Strip", "Wave", "Bounce"}, listed
    strip, wave = listed["Strip"], listed["Wave"]
    assert (strip["width"], strip["height"]) == (600, 1800)
    assert strip["download_url"].endswith(".jpg") and wave["download_url"].endswith(".gif")
    assert (wave["width"], wave["height"]) == (540, 304), "an animation's frames are 540 px on their longest side"


@pytest.mark.parametrize("caption, kind", [("Strip", "jpg"), ("Wave", "gif"), ("Bounce", "gif")])
def test_pictures_download_with_their_names_inside(pictures_booth, listed, pictures_out, caption, kind):
    photo = listed[caption]
    answer = web.curl(photo["download_url"] + "?download=1")
    assert answer.status == 200
    assert answer.headers.get("content-type") == ("image/gif" if kind == "gif" else "image/jpeg")
    assert f'filename="{caption}.{kind}"' in answer.headers.get("content-disposition", "")
    file = pictures_out / f"{caption}.{kind}"
    file.write_bytes(answer.body)
    tags = json.loads(subprocess.run(["exiftool", "-json", "-G", str(file)], capture_output=True, text=True).stdout)[0]
    assert tags.get("XMP:Title") == caption, tags
    if kind == "gif":
        assert tags.get("GIF:AnimationIterations") == "Infinite", tags
        assert tags.get("GIF:FrameCount") == (10 if caption == "Wave" else 18), tags
        assert len(answer.body) <= 4_000_000
    # The other extension is not this picture.
    other = photo["download_url"].rsplit(".", 1)[0] + (".jpg" if kind == "gif" else ".gif")
    assert web.curl(other).status == 404


def test_pictures_in_chromium(pictures_booth, listed, pictures_out):
    browser = web.Browser(pictures_out)
    try:
        browser.size(390, 844, True)
        browser.open(pictures_booth.base + "/")
        thumbnails = browser.evaluate("document.querySelectorAll('.grid a.photo img').length")
        assert thumbnails == 3, "the gallery shows the strip and both animations"
        browser.screenshot(pictures_out / "gallery-phone.png")

        # The strip at its true shape: one to three, drawn as tall as it is wide three times.
        browser.open(f"{pictures_booth.base}/photos/{listed['Strip']['id']}")
        shape = json.loads(browser.evaluate(SHAPE))
        assert shape["natural"] == [600, 1800], shape
        width, height = shape["drawn"]
        assert width > 0 and abs(height / width - 3) < 0.02, shape
        browser.screenshot(pictures_out / "strip-phone.png")

        for caption in ("Wave", "Bounce"):
            browser.open(f"{pictures_booth.base}/photos/{listed[caption]['id']}")
            shape = json.loads(browser.evaluate(SHAPE))
            assert shape["src"].endswith(".gif") and shape["natural"] == [540, 304], shape
            # Playing: what the page shows of the GIF changes within a few of its 200 ms delays.
            # Read from pictures of the page as Chromium draws it (a canvas would be given the
            # first frame, whatever is on the screen).
            seen = set()
            for step in range(10):
                time.sleep(0.15)
                shot = pictures_out / f"{caption.lower()}-{step}.png"
                browser.screenshot(shot)
                with Image.open(shot) as page:
                    seen.add(hashlib.sha256(page.convert("RGB").crop(tuple(shape["box"])).tobytes()).hexdigest())
            assert len(seen) >= 3, f"{caption}: Chromium shows {len(seen)} different frames in 1.5 s; it does not play"
            browser.screenshot(pictures_out / f"{caption.lower()}-phone.png")
    finally:
        browser.close()


def test_pictures_play_on_the_booths_own_screen(pictures_booth, listed, pictures_out):
    """The booth's gallery opens the newest picture, the boomerang, full screen, and plays it:
    four seconds of the screen's mirror (/screen.mjpg, drawn by the framebuffer's painter) hold
    several different pictures, where a still screen repeats one."""
    pictures_booth.type("v")
    web.wait_for(lambda: pictures_booth.state() == "gallery", 30, "the gallery on the booth's screen")
    pictures_booth.type("")
    web.wait_for(lambda: pictures_booth.state() == "photo", 30, "the newest picture full screen")
    stream = web.curl(pictures_booth.base + "/screen.mjpg", timeout=4).body
    pictures = []
    for part in re.finditer(rb"Content-Length: (\d+)\r\n\r\n", stream):
        body = stream[part.end():part.end() + int(part.group(1))]
        if len(body) == int(part.group(1)):
            pictures.append(body)
    for index, picture in enumerate(pictures[:12]):
        (pictures_out / f"booth-screen-{index}.jpg").write_bytes(picture)
    distinct = len({hashlib.sha256(picture).digest() for picture in pictures})
    pictures_booth.type("b")
    assert distinct >= 4, f"the booth's screen drew {len(pictures)} pictures in 4 s ({len(stream)} bytes), {distinct} different: the boomerang does not play"


def test_pictures_booth_stops_cleanly(pictures_booth):
    assert pictures_booth.stop() == 0
