"""Dice reader, a fixed amount of work for callgrind: 10 suite frames read after one warm-up.

    valgrind --tool=callgrind --callgrind-out-file=OUT .venv/bin/python bench/callgrind_dice.py
    valgrind --tool=callgrind --callgrind-out-file=OUT0 .venv/bin/python bench/callgrind_dice.py --none

Instruction counts do not depend on what else the machine runs, so a change of a few
percent shows where timings under load cannot (``ab_dice.py`` for the rest). The frames
are suite images 0001, 0033, ... 0289 (640x480: every eighth of ``ab_dice.py``'s bench
frames); ``--none`` stops after loading them, so the read's own count is the first
total minus the second. The ``vision`` read is the first on ``sys.path`` (``PYTHONPATH``
picks another checkout's, e.g. main's from ``git archive``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

SCENES = Path(__file__).resolve().parents[1] / "tests" / "data" / "dice-scenes"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--none", action="store_true", help="load the frames, read none")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    import vision.dice as dice
    from vision.imageio import read_image

    print(f"code: {Path(dice.__file__).parent}", file=sys.stderr)
    frames = [read_image(SCENES / f"img/{1 + 32 * k:04d}.jpg") for k in range(10)]
    if args.none:
        return 0
    for frame in [frames[0], *frames]:
        dice.read_dice(frame)
    return 0


if __name__ == "__main__":
    sys.exit(main())
