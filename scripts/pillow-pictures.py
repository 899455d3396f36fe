#!/usr/bin/env python3
"""Pillow's side of `photobooth-bench --pictures`: the same strip and the same GIF, done the
way a careful Pillow program does them, timed the same way (the medians of RUNS runs: elapsed time and the process's processor time).

    pillow-pictures.py FOLDER RUNS

FOLDER holds what the benchmark wrote: shot-1..4.jpg, frame.png, frame-0..9.png and
booth.gif. Prints one JSON object: the collage's and the GIF's median seconds, the size of
Pillow's GIF, and the PSNR of each GIF (this project's and Pillow's) against the frames, both
decoded by Pillow.
"""
import io
import json
import math
import statistics
import sys
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageOps, ImageStat

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SLOTS = [(30, 30 + i * 390, 540, 360) for i in range(4)]
TEXTS = [("Anna & Ben", 1610, 52, (0x20, 0x20, 0x20)), ("28 November 2026", 1690, 34, (0x55, 0x55, 0x55))]


def median_time(runs, body):
    elapsed, processor = [], []
    result = None
    for _ in range(runs):
        start, start_processor = time.perf_counter(), time.process_time()
        result = body()
        elapsed.append(time.perf_counter() - start)
        processor.append(time.process_time() - start_processor)
    return {"elapsed": statistics.median(elapsed), "processor": statistics.median(processor)}, result


def main():
    folder = Path(sys.argv[1])
    runs = int(sys.argv[2])
    shots = [(folder / f"shot-{i}.jpg").read_bytes() for i in range(1, 5)]
    # The overlay and the fonts are loaded once, as the booth loads them at start.
    overlay = Image.open(folder / "frame.png").convert("RGBA")
    overlay.load()
    fonts = {size: ImageFont.truetype(FONT, size) for _, _, size, _ in TEXTS}

    def collage():
        canvas = Image.new("RGBA", (600, 1800), (255, 255, 255, 255))
        for shot, (x, y, width, height) in zip(shots, SLOTS):
            image = Image.open(io.BytesIO(shot))
            # Decode no larger than needed (libjpeg's DCT scaling), as the booth does.
            image.draft("RGB", (width, height))
            canvas.paste(ImageOps.fit(image.convert("RGB"), (width, height)), (x, y))
        canvas.alpha_composite(overlay)
        draw = ImageDraw.Draw(canvas)
        for text, y, size, color in TEXTS:
            draw.text((300, y), text, font=fonts[size], fill=color, anchor="mt")
        output = io.BytesIO()
        canvas.convert("RGB").save(output, "JPEG", quality=90)
        return output.getvalue()

    collage_time, strip = median_time(runs, collage)
    (folder / "pillow-strip.jpg").write_bytes(strip)

    frames = [Image.open(folder / f"frame-{i}.png").convert("RGB") for i in range(10)]

    def gif():
        # An adaptive palette per frame (median cut), then Floyd-Steinberg onto it.
        paletted = []
        for frame in frames:
            palette = frame.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
            paletted.append(frame.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG))
        output = io.BytesIO()
        paletted[0].save(output, "GIF", save_all=True, append_images=paletted[1:], duration=100, loop=0)
        return output.getvalue()

    gif_time, animation = median_time(runs, gif)
    (folder / "pillow.gif").write_bytes(animation)

    def psnr(path):
        image = Image.open(path)
        if image.n_frames != len(frames):
            raise SystemExit(f"{path} has {image.n_frames} frames, not {len(frames)}")
        squares = []
        for index, source in enumerate(frames):
            image.seek(index)
            # The root mean square of each channel's difference.
            rms = ImageStat.Stat(ImageChops.difference(image.convert("RGB"), source)).rms
            squares += [value * value for value in rms]
        return 10 * math.log10(255 * 255 / statistics.mean(squares))

    print(json.dumps({
        "collage": collage_time,
        "gif": gif_time,
        "gifBytes": len(animation),
        "boothPSNR": psnr(folder / "booth.gif"),
        "pillowPSNR": psnr(folder / "pillow.gif"),
    }))


if __name__ == "__main__":
    main()
