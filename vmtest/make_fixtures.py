#!/usr/bin/python3
"""Generate the camera fixture frames for the VM tests into a directory (outside the repo).

    make_fixtures.py OUTDIR

Writes (all 640x480):
  frame-1.jpg .. frame-4.jpg  baseline JPEGs with standard Huffman tables. Each has a distinct
                              "signature" colour filling its top-left quadrant, a grey level in
                              the top-right quadrant and its number in large digits below, so a
                              photo taken from the stream tells which frame it was.
  frame-5-nodht.jpg           like the others (signature magenta) but with every DHT segment
                              removed, as MJPEG webcams send it; decoders must fall back to the
                              standard tables (JPEG Annex K.3), which the encoder used.
  solid-1.jpg .. solid-4.jpg  the whole frame in frame N's signature colour, 4:2:2 as webcams
                              send it: any part of a picture of one tells which frame it was,
                              so a screen capture that mixes two is a torn frame.
  bayer-1.ba81, bayer-2.ba81  raw V4L2_PIX_FMT_SBGGR8 (BGGR) frames of four flat quadrants:
                              bayer-1 red | green / blue | white, bayer-2 white | blue / green | red.
  bayer-N.expected.png        what a correct demosaic of bayer-N.ba81 looks like.
  manifest.json               all of the above as data (see FRAMES / BAYER below).
"""
import json
import os
import sys

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 640, 480
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

# number -> (name, signature RGB of the top-left quadrant)
FRAMES = {
    1: ("red", (220, 30, 30)),
    2: ("green", (30, 180, 60)),
    3: ("blue", (40, 60, 220)),
    4: ("yellow", (240, 220, 40)),
    5: ("magenta", (200, 40, 200)),
}
NODHT_FRAME = 5

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
BAYER = {
    1: {"top_left": RED, "top_right": GREEN, "bottom_left": BLUE, "bottom_right": WHITE},
    2: {"top_left": WHITE, "top_right": BLUE, "bottom_left": GREEN, "bottom_right": RED},
}
QUADRANTS = {
    "top_left": (0, 0, WIDTH // 2, HEIGHT // 2),
    "top_right": (WIDTH // 2, 0, WIDTH, HEIGHT // 2),
    "bottom_left": (0, HEIGHT // 2, WIDTH // 2, HEIGHT),
    "bottom_right": (WIDTH // 2, HEIGHT // 2, WIDTH, HEIGHT),
}


def jpeg_frame(number):
    name, signature = FRAMES[number]
    img = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle(QUADRANTS["top_left"], fill=signature)
    grey = 40 * number
    draw.rectangle(QUADRANTS["top_right"], fill=(grey, grey, grey))
    font = ImageFont.truetype(FONT, 180)
    text = str(number)
    box = draw.textbbox((0, 0), text, font=font)
    x = (WIDTH - (box[2] - box[0])) // 2 - box[0]
    y = HEIGHT // 2 + (HEIGHT // 2 - (box[3] - box[1])) // 2 - box[1]
    draw.text((x, y), text, fill=(0, 0, 0), font=font)
    draw.text((10, HEIGHT - 30), f"fixture frame {number} ({name})", fill=(0, 0, 0),
              font=ImageFont.truetype(FONT, 18))
    return img


def strip_dht(data):
    """Remove every DHT (FFC4) segment before the scan from a JPEG byte string."""
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    out = bytearray(data[:2])
    i = 2
    while i < len(data):
        assert data[i] == 0xFF, f"marker expected at {i}"
        marker = data[i + 1]
        if marker == 0xDA:  # start of scan: the rest is entropy-coded data and EOI
            out += data[i:]
            break
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker != 0xC4:
            out += data[i:i + 2 + length]
        i += 2 + length
    return bytes(out)


def bayer_bggr(quadrants):
    """Raw SBGGR8: even rows B G B G ..., odd rows G R G R ..."""
    raw = bytearray(WIDTH * HEIGHT)
    for y in range(HEIGHT):
        for x in range(WIDTH):
            half = ("top" if y < HEIGHT // 2 else "bottom") + ("_left" if x < WIDTH // 2 else "_right")
            r, g, b = quadrants[half]
            if y % 2 == 0:
                raw[y * WIDTH + x] = b if x % 2 == 0 else g
            else:
                raw[y * WIDTH + x] = g if x % 2 == 0 else r
    return bytes(raw)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_fixtures.py OUTDIR")
    out = sys.argv[1]
    tmp = out + ".tmp"
    os.makedirs(tmp, exist_ok=True)
    manifest = {"width": WIDTH, "height": HEIGHT, "quadrants": QUADRANTS,
                "signature_region": QUADRANTS["top_left"], "jpeg": [], "bayer": []}

    for number in FRAMES:
        img = jpeg_frame(number)
        path = os.path.join(tmp, f"frame-{number}.jpg")
        # Baseline, no optimisation: the standard Huffman tables, so stripping DHT stays decodable.
        img.save(path, "JPEG", quality=90, optimize=False, progressive=False, subsampling="4:2:0")
        name = f"frame-{number}.jpg"
        if number == NODHT_FRAME:
            with open(path, "rb") as f:
                stripped = strip_dht(f.read())
            os.unlink(path)
            name = f"frame-{number}-nodht.jpg"
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(stripped)
        manifest["jpeg"].append({"file": name, "number": number, "name": FRAMES[number][0],
                                 "signature": FRAMES[number][1], "dht": number != NODHT_FRAME})

    for number in range(1, 5):
        name = f"solid-{number}.jpg"
        Image.new("RGB", (WIDTH, HEIGHT), FRAMES[number][1]).save(
            os.path.join(tmp, name), "JPEG", quality=90, optimize=False, progressive=False, subsampling="4:2:2")
        manifest.setdefault("solid", []).append({"file": name, "number": number, "colour": FRAMES[number][1]})

    for number, quadrants in BAYER.items():
        name = f"bayer-{number}.ba81"
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(bayer_bggr(quadrants))
        expected = Image.new("RGB", (WIDTH, HEIGHT))
        draw = ImageDraw.Draw(expected)
        for quadrant, colour in quadrants.items():
            x0, y0, x1, y1 = QUADRANTS[quadrant]
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)
        expected.save(os.path.join(tmp, f"bayer-{number}.expected.png"))
        manifest["bayer"].append({"file": name, "number": number, "fourcc": "BA81",
                                  "quadrants": quadrants})

    with open(os.path.join(tmp, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
    if os.path.exists(out):
        import shutil
        shutil.rmtree(out)
    os.rename(tmp, out)


if __name__ == "__main__":
    main()
