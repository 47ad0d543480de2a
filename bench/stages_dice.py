"""Dice reader, where a frame's time goes: CPU time per stage over the bench frames.

    .venv/bin/python bench/stages_dice.py [--big] [--repeat N]

Each stage of ``vision.dice.read_dice`` (and the face finder's parts) is timed with all
it calls, CPU time, one OpenCV thread, over bench_dice.py's frames (``ab_dice.py``'s:
every fourth 640x480 suite image, or the 1280x960 ones with ``--big``), each read
``--repeat`` times after one warm-up read. Stages nest (the face finder holds the face
candidates and the mark finder), so the column does not add up to the whole read.
Then the frame times are fitted against the number of face candidates measured: the
part of a frame's time that does not grow with the candidates (dense whole-frame and
whole-ROI steps) and the part each candidate adds (its run, core, measures, picking).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# (module, name, label): what is timed, in the module whose namespace the reader calls
_STAGES = [
    ("vision.dice", "normalise_exposure", "exposure"),
    ("vision.dice", "white_gains", "white balance (its gains)"),
    ("vision.dice", "lamp_gains", "a strong lamp's gains (dice_lamp)"),
    ("vision.dice", "apply_gains", "white balance (applied)"),
    ("vision.dice", "_blobs", "table model and foreground (_blobs)"),
    ("vision.dice", "cloth_grid", "cloth grid turn"),
    ("vision.dice", "_find_faces", "face finder (_find_faces)"),
    ("vision.dice_candidates", "face_candidates", "- face candidates"),
    ("vision.dice_runs", "bright_cores", "-- bright cores of the runs"),
    ("vision.dice_faces", "measure", "-- measuring candidates (and marks)"),
    ("vision.dice_faces", "finish", "-- corners, rings, edges (finish)"),
    ("vision.dice", "find_marks", "- mark finder"),
    ("vision.dice", "split_blocks", "touching dice cut apart"),
    ("vision.dice_pick", "die_side", "die size from the faces"),
    ("vision.dice_pick", "pick_tops", "top faces (pick_tops)"),
    ("vision.dice", "_blob_dice", "blob dice (_blob_dice)"),
    ("vision.dice", "_pip_dice", "pip dice (_pip_dice)"),
    ("vision.dice", "cloth_pip_dice", "cloth pip dice"),
]


def _wrap(acc: dict, calls: Counter) -> None:
    """Replace each stage by a timing wrapper (module attribute, so callers see it)."""
    import importlib

    for modname, name, label in _STAGES:
        mod = importlib.import_module(modname)
        fn = getattr(mod, name)

        def timed(*a, _fn=fn, _label=label, **k):
            t = time.process_time()
            try:
                return _fn(*a, **k)
            finally:
                acc[_label] += time.process_time() - t
                calls[_label] += 1
        setattr(mod, name, timed)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", action="store_true", help="1280x960 frames")
    ap.add_argument("--repeat", type=int, default=3, help="timed reads per frame")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from ab_dice import _frames

    import vision.dice as dice

    acc: dict[str, float] = defaultdict(float)
    calls: Counter = Counter()
    _wrap(acc, calls)
    frames = _frames(args.big)
    for frame in frames:
        dice.read_dice(frame)
    acc.clear()
    calls.clear()
    times, measured = [], []
    for _ in range(args.repeat):
        for frame in frames:
            before = calls["-- measuring candidates (and marks)"]
            t = time.process_time()
            dice.read_dice(frame)
            times.append(time.process_time() - t)
            measured.append(calls["-- measuring candidates (and marks)"] - before)
    n = len(times)
    print(f"{len(frames)} frames x {args.repeat}: whole read median "
          f"{1000 * statistics.median(times):.2f} ms, mean {1000 * sum(times) / n:.2f} ms")
    print(f"{'stage':44s} {'ms/frame':>9s} {'calls/frame':>12s}")
    for _, _, label in _STAGES:
        print(f"{label:44s} {1000 * acc[label] / n:9.2f} {calls[label] / n:12.1f}")
    fit = np.polyfit(np.array(measured, float), 1000 * np.array(times), 1)
    print(f"frame time ~ {fit[1]:.2f} ms + {fit[0]:.3f} ms per measured candidate "
          f"(median {statistics.median(measured):.0f} candidates a frame)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
