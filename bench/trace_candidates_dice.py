"""Dice reader: what becomes of the face candidates measured in a frame (issue #3 speed).

    .venv/bin/python bench/trace_candidates_dice.py [--big]

Over ``ab_dice.py``'s bench frames, every outline ``dice_faces.measure`` is given (by
``face_candidates`` or the mark finder) is sorted: refused by the shape test (too long or
too hollow), refused after it (no pips where they are needed, a plain light face, no own
pixels), or measured. A measured one whose centre lies inside an earlier measured outline
of the same colour class is a *repeat* (the same die found again by another run, pass or
the mark finder); it is counted as kept when ``pick_tops`` takes it as a top face (same
centre). Figures are per frame: a candidate that need not be measured must be a repeat
that is never kept, and whose absence changes no other choice.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", action="store_true", help="1280x960 frames")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from ab_dice import _frames

    import vision.dice as dice
    import vision.dice_faces as faces_
    import vision.dice_marks as marks_

    log: list[dict] = []
    state = {"marks": False}
    measure, find_marks, pick_tops = faces_.measure, marks_.find_marks, dice.pick.pick_tops

    def traced_measure(code, cnt, *a, **k):
        part = measure(code, cnt, *a, **k)
        shape = k.get("shape", (2.4, 0.5))
        (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
        short, long_ = min(rw, rh), max(rw, rh)
        refused = short < 2 or long_ > shape[0] * short or (
            cv2.contourArea(cnt) / ((rw + 1) * (rh + 1) - 1) < shape[1])
        log.append(dict(code=code, hull=cnt, part=part, shape=refused, marks=state["marks"]))
        return part

    def traced_marks(*a, **k):
        state["marks"] = True
        try:
            return find_marks(*a, **k)
        finally:
            state["marks"] = False

    tops: list = []
    faces_.measure = traced_measure
    dice.find_marks = traced_marks
    dice.pick.pick_tops = lambda *a, **k: tops.append(pick_tops(*a, **k)) or tops[-1]
    total: Counter = Counter()
    frames = _frames(args.big)
    for frame in frames:
        log.clear()
        tops.clear()
        dice.read_dice(frame)
        centres = [t.centre for t in (tops[-1] if tops else [])]
        done: list[dict] = []
        for e in log:
            total["measured"] += 1
            total["from the mark finder"] += e["marks"]
            if e["shape"]:
                total["refused by the shape test"] += 1
                continue
            if e["part"] is None:
                total["refused after it"] += 1
                continue
            total["measured in full"] += 1
            at = e["part"]["at"]
            kept = any(np.hypot(e["part"]["centre"][0] - x, e["part"]["centre"][1] - y) < 1e-6
                       for x, y in centres)
            total["kept as a top"] += kept
            if any(o["code"] == e["code"] and cv2.pointPolygonTest(
                    o["hull"], (float(at[0]), float(at[1])), False) >= 0 for o in done):
                total["repeats (centre in an earlier one, same class)"] += 1
                total["- of them from the mark finder"] += e["marks"]
                total["- of them kept as a top"] += kept
            done.append(e)
    print(f"{len(frames)} frames; candidates per frame:")
    for key in ("measured", "from the mark finder", "refused by the shape test",
                "refused after it", "measured in full", "kept as a top",
                "repeats (centre in an earlier one, same class)",
                "- of them from the mark finder", "- of them kept as a top"):
        print(f"  {key:48s} {total[key] / len(frames):6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
