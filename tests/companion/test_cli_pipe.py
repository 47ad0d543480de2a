"""A reader that stops early (``companion eval SUITE | head -1``) ends the command quietly.

The command's output pipe is closed before it writes: each write then fails as it does
once ``head`` has its line and exits. No traceback, and no "Exception ignored" line when
Python flushes standard output at exit; the status a tool killed by SIGPIPE reports (141).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
DICE = DATA / "dice-scenes"
CARDS = DATA / "cards-scenes"


def _one_image_suite(tmp_path: Path) -> Path:
    """A dice suite of one labelled image (eval is quick)."""
    suite = tmp_path / "suite"
    (suite / "img").mkdir(parents=True)
    shutil.copy(DICE / "img" / "0001.jpg", suite / "img" / "0001.jpg")
    labels = json.loads((DICE / "labels.json").read_text())
    (suite / "labels.json").write_text(json.dumps({
        "kind": "dice", "images": {"img/0001.jpg": labels["images"]["img/0001.jpg"]}}))
    return suite


def _run_into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        return subprocess.run([sys.executable, "-m", "companion.cli", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    finally:
        os.close(write)


@pytest.mark.parametrize("command", ["eval", "detect dice", "detect cards"])
def test_a_closed_output_pipe_ends_the_command_quietly(tmp_path, command):
    images = [str(DICE / "img" / "0001.jpg"), str(DICE / "img" / "0002.jpg")]
    args = {"eval": ["eval", str(_one_image_suite(tmp_path))],
            "detect dice": ["detect", "dice", "--json", *images],
            "detect cards": ["detect", "cards", "--deck", str(CARDS / "deck"), "--json",
                             str(CARDS / "img" / "0000.jpg")]}[command]
    result = _run_into_closed_pipe(*args)
    assert result.stderr == ""
    assert result.returncode == 141
