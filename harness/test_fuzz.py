"""The fuzz targets (fuzz/README.md): each runs 10 s under --quick (CI) and 10 minutes without,
after replaying its regressions, and must not crash. Its figures (executions, exec/s, coverage,
features) are in its folder's fuzz.json (fuzz/run's --summary), beside libFuzzer's log and any
crash input.

The first test builds the fuzz package (fuzz/run builds it each time; the later builds find
nothing to do).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ_RUN = Path(__file__).resolve().parent.parent / "fuzz" / "run"
TARGETS = ["mjpeg", "rawframe", "gif", "keypad", "config", "http", "bucket"]
# CI's form: the regressions replayed, then a short run that finds what a change broke in the
# reading code (a crash on the corpus's inputs or near them); long runs find the rest.
QUICK_SECONDS = 10


@pytest.mark.campaign
@pytest.mark.parametrize("target", TARGETS)
def test_fuzz(target, quick, out):
    seconds = QUICK_SECONDS if quick else 600
    summary = out / "fuzz.json"
    result = subprocess.run([sys.executable, str(FUZZ_RUN), "--seconds", str(seconds), "--out", str(out),
                             "--summary", str(summary), target], capture_output=True, text=True)
    (out / "run.log").write_text(result.stdout + result.stderr)
    assert summary.exists(), f"fuzz/run wrote no summary (exit {result.returncode}):\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
    figures = json.loads(summary.read_text())[target]
    print(f"{target}: {figures.get('executions')} executions, {figures.get('exec_per_sec')} exec/s, "
          f"cov {figures.get('cov')}, ft {figures.get('ft')}")
    assert not figures["crashed"], f"{target} crashed: {figures.get('error')}\n{result.stdout[-3000:]}"
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert figures["executions"] > 0
