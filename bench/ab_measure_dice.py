"""Face candidates measured one by one (``dice_faces.measure``) or all at once
(``dice_atlas.measure_all``): the same candidates, timed in one process.

    .venv/bin/python bench/ab_measure_dice.py [--big] [--repeat N]

The reader reads bench_dice.py's frames (``ab_dice.py``'s: every fourth 640x480 suite
image, or the 1280x960 ones with ``--big``) once, and every batch of candidates it
measures (each ``face_candidates`` and ``find_marks`` call) is kept. Then each batch is
measured both ways in turn, ``--repeat`` passes over all the frames: CPU time per
frame, the quickest pass of each way, and whether the two ways gave the same dicts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return type(a) is type(b) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and repr(a) == repr(b)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", action="store_true", help="1280x960 frames")
    ap.add_argument("--repeat", type=int, default=5, help="passes over the frames")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from ab_dice import _frames

    import vision.dice as dice
    import vision.dice_candidates as cands_
    import vision.dice_marks as marks_
    from vision import dice_faces as faces_
    from vision.dice_atlas import measure_all

    batches: list[list[tuple]] = []

    def one_by_one(cands, cls, hsv, bgr, offset, *, planes=None, lit=None):
        return [faces_.measure(c.code, c.hull, c.area, c.own, c.origin, cls, hsv, bgr,
                               offset, shape=c.shape, need_pips=c.need_pips,
                               drop_plain=c.drop_plain, planes=planes, lit=lit)
                for c in cands]

    def kept(cands, cls, hsv, bgr, offset, *, planes=None, lit=None):
        batches[-1].append((cands, cls, hsv, bgr, offset, dict(planes=planes, lit=lit)))
        return one_by_one(cands, cls, hsv, bgr, offset, planes=planes, lit=lit)

    cands_.measure_all = marks_.measure_all = kept
    for frame in _frames(args.big):
        batches.append([])
        dice.read_dice(frame)
    ways = {"one by one": one_by_one, "all at once": measure_all}
    best = {name: float("inf") for name in ways}
    for _ in range(args.repeat):
        for name, way in ways.items():
            t = time.process_time()
            for frame_batches in batches:
                for b in frame_batches:
                    way(*b[:5], **b[5])
            best[name] = min(best[name], time.process_time() - t)
    same = all(_same(one_by_one(*b[:5], **b[5]), measure_all(*b[:5], **b[5]))
               for frame_batches in batches for b in frame_batches)
    n = len(batches)
    count = sum(len(b[0]) for frame_batches in batches for b in frame_batches)
    print(f"{n} frames, {count / n:.1f} candidates a frame; quickest of {args.repeat} "
          f"passes, ms a frame: " + ", ".join(f"{k} {1000 * v / n:.3f}" for k, v in
                                              best.items())
          + f"; ratio {best['all at once'] / best['one by one']:.3f}; same dicts: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
