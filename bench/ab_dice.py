"""Dice reader speed, A/B: an earlier ``vision`` package against this checkout's, frame by frame.

    .venv/bin/python bench/ab_dice.py DIR [--big] [--repeat N]

DIR holds an earlier ``vision/`` (e.g. ``git archive main vision | tar -x -C DIR``). Both
readers are loaded in one process (the earlier one renamed ``vision_base`` in a temporary
copy) and read the same bench frames in turn, so a busy machine slows both alike: the
median over the frames of each frame's quickest of ``--repeat`` reads (CPU time, one
OpenCV thread). The frames are bench_dice.py's: every fourth 640x480 suite image (84),
or with ``--big`` the 1280x960 ones (42). With ``--stage NAME`` only the CPU time spent
inside ``vision.dice.NAME`` (a step ``read_dice`` calls, e.g. ``find_marks``) is counted,
in both readers: a step's own change, too small for the whole frame's noise.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
SCENES = ROOT / "tests" / "data" / "dice-scenes"


def _renamed_copy(src: Path, dest: Path) -> None:
    """Copy the package ``src`` (a ``vision/``) to ``dest/vision_base`` with its imports
    of ``vision`` renamed."""
    target = dest / "vision_base"
    shutil.copytree(src, target)
    for py in target.glob("*.py"):
        text = py.read_text(encoding="utf-8")
        text = re.sub(r"\bfrom vision\b", "from vision_base", text)
        text = re.sub(r"\bimport vision\.", "import vision_base.", text)
        py.write_text(text, encoding="utf-8")


def _frames(big: bool) -> list:
    from vision.imageio import read_image

    labels = json.loads((SCENES / "labels.json").read_text())["images"]
    frames = [read_image(SCENES / img) for img in labels]
    small = [f for f in frames if f.shape[1] == 640][::4]
    if not big:
        return small
    return ([cv2.resize(f, (1280, 960), interpolation=cv2.INTER_LINEAR) for f in small[::3]]
            + [f for f in frames if f.shape[1] == 1280])


def _timed(module, stage: str | None):
    """A function reading a frame with ``module.read_dice`` and returning the CPU time it
    took, or with ``stage`` the time spent inside ``module.<stage>`` during the read."""
    if stage is None:
        def read(frame) -> float:
            t = time.process_time()
            module.read_dice(frame)
            return time.process_time() - t
        return read
    spent = [0.0]
    step = getattr(module, stage)

    def timed(*a, **k):
        t = time.process_time()
        try:
            return step(*a, **k)
        finally:
            spent[0] += time.process_time() - t
    setattr(module, stage, timed)

    def read_step(frame) -> float:
        spent[0] = 0.0
        module.read_dice(frame)
        return spent[0]
    return read_step


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="folder holding the earlier vision/ package")
    ap.add_argument("--big", action="store_true", help="1280x960 frames")
    ap.add_argument("--repeat", type=int, default=5, help="reads per frame and reader")
    ap.add_argument("--stage", metavar="NAME", help="time only vision.dice.NAME")
    args = ap.parse_args()
    src = Path(args.dir) / "vision"
    if not (src / "dice.py").is_file():
        print(f"no vision/dice.py in {args.dir}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        _renamed_copy(src, Path(tmp))
        sys.path[:0] = [str(ROOT), tmp]
        import vision.dice
        import vision_base.dice

        old, new = (_timed(m, args.stage) for m in (vision_base.dice, vision.dice))
        before, after = [], []
        for frame in _frames(args.big):
            a, b = [], []
            for _ in range(args.repeat):
                a.append(old(frame))
                b.append(new(frame))
            before.append(min(a))
            after.append(min(b))
    ma, mb = statistics.median(before), statistics.median(after)
    print(f"{len(before)} frames, median of each frame's quickest of {args.repeat} reads: "
          f"{1000 * ma:.2f} ms ({args.dir}) -> {1000 * mb:.2f} ms (this checkout), "
          f"ratio {mb / ma:.3f}; summed over the frames {1000 * sum(before):.0f} -> "
          f"{1000 * sum(after):.0f} ms, ratio {sum(after) / sum(before):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
