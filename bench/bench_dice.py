"""Dice vision benchmark: the reader side by side with a plain HSV-threshold baseline.

    .venv/bin/python bench/bench_dice.py [--quick] [--vision DIR]

Same run, same images, one core (OpenCV limited to one thread, CPU time):
- median ms per frame at 640x480 and at 1280x960;
- exact (green, yellow, red, other) match per condition on tests/data/dice-scenes, and the
  share of labelled dice found at their place with the right colour;
- dice found / false finds on the real photos in tests/data/realdice-byler;
- peak memory of ``companion detect dice --json`` on 100 images (child process maxrss).
Prints a Markdown section for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]


def _vision_root(argv: list[str]) -> Path:
    """The folder holding the ``vision`` package to measure (``--vision DIR``, read before
    the reader is imported), by default this checkout."""
    if "--vision" in argv[:-1]:
        return Path(argv[argv.index("--vision") + 1]).resolve()
    return ROOT


VISION = _vision_root(sys.argv)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(VISION))
sys.path.insert(0, str(ROOT / "bench"))

from baseline_dice import counts as baseline_counts  # noqa: E402
from baseline_dice import read_dice_baseline  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.imageio import read_image  # noqa: E402

SCENES = ROOT / "tests" / "data" / "dice-scenes"
BYLER = ROOT / "tests" / "data" / "realdice-byler"


def _ours(frame):
    r = read_dice(frame)
    return r.counts(), [(d.centre, d.colour) for d in r.dice]


def _theirs(frame):
    found = read_dice_baseline(frame)
    return baseline_counts(found), found


READERS = {"reader": _ours, "baseline": _theirs}


def _timed(fn, frame):
    start = time.process_time()
    out = fn(frame)
    return out, time.process_time() - start


def suite_scores(frames: dict, labels: dict) -> dict:
    """Per reader: exact match per condition, per-die accuracy and times per frame size."""
    result = {}
    for name, fn in READERS.items():
        by_cond = defaultdict(lambda: [0, 0])
        times = defaultdict(list)
        dice = right = 0
        for img, lab in labels.items():
            frame = frames[img]
            (got, placed), secs = _timed(fn, frame)
            times[frame.shape[1]].append(secs)
            ok = got == (lab["green"], lab["yellow"], lab["red"], lab.get("other", 0))
            by_cond[lab["condition"]][0] += ok
            by_cond[lab["condition"]][1] += 1
            reach = 0.03 * frame.shape[1]
            for want in lab["dice"]:
                dice += 1
                right += any(c == want["colour"] and (x - want["x"]) ** 2 + (y - want["y"]) ** 2 < reach ** 2
                             for (x, y), c in placed)
        result[name] = {"by_cond": dict(by_cond), "per_die": right / dice, "times": dict(times)}
    return result


def timing(frames: list, repeat: int) -> dict:
    """Median ms per frame per reader on the given frames (each read ``repeat`` times)."""
    out = {}
    for name, fn in READERS.items():
        samples = []
        for frame in frames:
            for _ in range(repeat):
                samples.append(_timed(fn, frame)[1])
        out[name] = 1000 * statistics.median(samples)
    return out


def byler_scores() -> dict:
    from companion.dice_cmd import find_rate
    from vision.results import DiceReading, Die

    labels = json.loads((BYLER / "labels.json").read_text())["images"]
    out = {}
    for name, fn in READERS.items():
        boxes_n = hits = found = false = 0
        for img, lab in labels.items():
            _, placed = fn(read_image(BYLER / img))
            reading = DiceReading.from_dice([Die(((0, 0),), (x, y), c, 1.0) for (x, y), c in placed])
            h, f = find_rate(lab["boxes"], reading)
            boxes_n, hits, found, false = boxes_n + len(lab["boxes"]), hits + h, found + len(placed), false + f
        out[name] = (hits / boxes_n, false / max(found, 1), boxes_n)
    return out


def peak_memory(paths: list[str]) -> float:
    """Peak resident memory (MB) of ``companion detect dice --json`` on ``paths``."""
    cmd = [sys.executable, "-m", "companion.cli", "detect", "dice", "--json", *paths]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(VISION), str(ROOT)])}
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, check=False, env=env)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer timing repeats")
    ap.add_argument("--vision", metavar="DIR", help="measure the vision package in DIR "
                    "(e.g. a copy of an earlier one) instead of this checkout's")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    labels = json.loads((SCENES / "labels.json").read_text())["images"]
    # first, while this process is still small (a forked child starts with its pages)
    mem = peak_memory([str(SCENES / img) for img in sorted(labels)[:100]])
    frames = {img: read_image(SCENES / img) for img in labels}
    scores = suite_scores(frames, labels)
    small = [f for f in frames.values() if f.shape[1] == 640][::4]
    big = [cv2.resize(f, (1280, 960), interpolation=cv2.INTER_LINEAR) for f in small[::3]]
    big += [f for f in frames.values() if f.shape[1] == 1280]
    repeat = 1 if args.quick else 3
    t640, t1280 = timing(small, repeat), timing(big, repeat)
    byler = byler_scores()
    _print(scores, t640, t1280, byler, mem, len(small), len(big))
    return 0


def _print(scores, t640, t1280, byler, mem, n640, n1280) -> None:
    n = sum(v[1] for v in scores["reader"]["by_cond"].values())
    print(f"reader: {VISION / 'vision'}\n")
    print("| | reader | baseline (HSV thresholds + contours) |\n|---|---|---|")
    print(f"| median ms per 640x480 frame ({n640} frames) | {t640['reader']:.1f} | {t640['baseline']:.1f} |")
    print(f"| median ms per 1280x960 frame ({n1280} frames) | {t1280['reader']:.1f} | {t1280['baseline']:.1f} |")
    for name in ("reader", "baseline"):
        ok = sum(v[0] for v in scores[name]["by_cond"].values())
        scores[name]["exact"] = ok / n
    print(f"| exact (g, y, r, other) on {n} suite images | {100 * scores['reader']['exact']:.1f}% "
          f"| {100 * scores['baseline']['exact']:.1f}% |")
    print(f"| labelled dice found with the right colour | {100 * scores['reader']['per_die']:.1f}% "
          f"| {100 * scores['baseline']['per_die']:.1f}% |")
    nb = byler["reader"][2]
    print(f"| real photos: dice found ({nb} boxed dice) | {100 * byler['reader'][0]:.1f}% "
          f"| {100 * byler['baseline'][0]:.1f}% |")
    print(f"| real photos: false finds | {100 * byler['reader'][1]:.1f}% | {100 * byler['baseline'][1]:.1f}% |")
    print(f"| peak memory, `companion detect dice --json` on 100 images | {mem:.0f} MB | |")
    print("\n| condition | reader | baseline |\n|---|---|---|")
    for cond in sorted(scores["reader"]["by_cond"]):
        a, m = scores["reader"]["by_cond"][cond]
        b, _ = scores["baseline"]["by_cond"][cond]
        print(f"| {cond} | {a}/{m} | {b}/{m} |")


if __name__ == "__main__":
    sys.exit(main())
