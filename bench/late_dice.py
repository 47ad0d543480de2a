"""Dice reader: how often each late finder changes a reading, and what set the gate off.

    .venv/bin/python bench/late_dice.py DIR [DIR ...]

After the face finder, ``vision.dice.read_dice`` runs three late finders (square blobs,
edge squares, cloth dice and piles: ``_blob_dice``; pip groups at two sizes:
``_pip_dice``; cloth pips: ``cloth_pip_dice``) unless the gate
(``vision.dice_gate.is_explained``) finds every foreground blob explained by a top face.
For every image of each folder (a suite with a ``labels.json``) this reads the frame
once as it is and once with each late finder left out, and counts per folder:

- the frames gated (late finders skipped) and the frames where each finder ran;
- the frames where leaving a finder out changes the reading (its counts per colour);
- what kept the gate shut, the frame's least telling blob kind: ``specks`` (every blob
  without a top under 0.2 of a die's face), ``edge specks`` (those all cut by the
  frame's edge), ``blob`` (a blob without a top of 0.2 faces or more) or ``pile`` (a blob
  holding more than ``dice_gate.PER_TOP`` faces per top in it); and under each, how
  many of those frames a late finder changed.

A stricter gate may only skip the finders where they change no reading; this tells
which evidence could (in session 12 only specks did, which the gate heeds on purpose: a
white die on white shows only its pips; see docs/benchmarks.md). Only totals are
printed, no image names: it may be run on held-out sets.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FINDERS = ("_blob_dice", "_pip_dice", "cloth_pip_dice")


def _trigger(contours, centres, side: float, shape: tuple[int, int]) -> str:
    """What keeps the gate shut (as ``is_explained`` judges), or "" when it opens."""
    from vision.dice_gate import PER_TOP

    face = max(1.0, side * side)
    pts = np.asarray(centres, np.float64).reshape(-1, 2)
    h, w = shape
    kinds = set()
    for cnt in contours:
        tops = sum(1 for px, py in pts
                   if cv2.pointPolygonTest(cnt, (float(px), float(py)), False) >= 0)
        area = cv2.contourArea(cnt) / face
        if tops and area > PER_TOP * tops:
            kinds.add("pile")
        elif not tops:
            x, y, bw, bh = cv2.boundingRect(cnt)
            edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
            kinds.add("blob" if area >= 0.2 else "edge specks" if edge else "specks")
    for kind in ("pile", "blob", "specks", "edge specks"):
        if kind in kinds:
            return kind
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path, help="suite folders (with labels.json)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    sys.path.insert(0, str(ROOT))
    import vision.dice as dice
    from vision.imageio import read_image

    seen: dict = {}
    real_gate = dice.is_explained

    def gate(contours, centres, side):
        seen["trigger"] = _trigger(contours, centres, side, seen["shape"])
        return real_gate(contours, centres, side)

    def traced(mask):  # (the blobs' mask, at the size the gate sees: its frame's edge)
        seen["shape"] = mask.shape
        return real_outlines(mask)

    real_outlines = dice.outer_contours
    dice.is_explained, dice.outer_contours = gate, traced
    for folder in args.dirs:
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
        tally: Counter = Counter()
        for image in sorted(labels):
            frame = read_image(folder / image)
            ran = Counter()
            real = {name: getattr(dice, name) for name in FINDERS}
            for name in FINDERS:
                setattr(dice, name, lambda *a, _f=real[name], _n=name, **k: (
                    ran.update([_n]), _f(*a, **k))[1])
            whole = dice.read_dice(frame)
            trigger = seen["trigger"]
            tally["frames"] += 1
            tally["gated"] += not trigger
            if trigger:
                tally[f"shut by {trigger}"] += 1
            changed = False
            for name in FINDERS:
                tally[f"{name} ran"] += bool(ran[name])
                if not ran[name]:
                    continue
                setattr(dice, name, lambda *a, **k: [])
                without = dice.read_dice(frame)
                setattr(dice, name, real[name])
                if without.counts() != whole.counts():
                    tally[f"{name} changes counts"] += 1
                    changed = True
            for name in FINDERS:
                setattr(dice, name, real[name])
            if changed:
                tally[f"shut by {trigger}, changed"] += 1
        print(f"{folder}: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
