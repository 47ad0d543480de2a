"""Does the dice reader give the same answer when nothing that matters changes? (issue #3)

Each image of the dice suites is read as it is and in five copies that hold the same dice:
re-encoded as JPEG at quality 80 and 95, resized to 0.9x and 1.1x (INTER_AREA down,
INTER_LINEAR up), and shifted right and down by one pixel (the first row and column
repeated). Per suite and copy it prints:

- ``counts``: images whose (green, yellow, red) totals differ from the image as it is;
- ``lost`` / ``new``: dice found as it is and not in the copy, and the reverse (a die is
  the same when the centres, put back in the original's pixels, lie within half the typical
  die of each other);
- labelled suites: exact images (Toss Up! dice); boxed photos (``dice-count``): dice found
  and false finds against the boxes, as ``companion eval`` counts them.

Usage (from the repository root)::

    .venv/bin/python bench/stability_dice.py [--suite tests/data/dice-scenes ...]
        [--draw DIR] [--list]

``--draw DIR`` writes, for every image of a Toss Up! suite whose counts flip, a PNG with
both readings side by side (each die's outline in its colour, its centre marked; the copy's
dice put back in the original's pixels); ``--list`` prints each flip.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import vision  # noqa: F401  (sets OpenCV's pixel limit and one BLAS thread first)

import cv2
import numpy as np

from companion.dice_cmd import find_rate
from vision.dice import read_dice
from vision.results import DiceReading

ROOT = Path(__file__).resolve().parents[1]
SUITES = ("tests/data/dice-scenes", "companion/demo/frames", "tests/data/realdice-byler")
VARIANTS = ("q80", "q95", "x0.9", "x1.1", "shift1")
_BGR = {"green": (0, 200, 0), "yellow": (0, 220, 255), "red": (0, 0, 255), "other": (255, 0, 255)}


def variant(frame: np.ndarray, name: str) -> tuple[np.ndarray, float, float]:
    """(copy, scale, offset): a copy's pixel p is the original's (p - offset) / scale."""
    if name.startswith("q"):
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(name[1:])])
        return cv2.imdecode(data, cv2.IMREAD_COLOR), 1.0, 0.0
    if name.startswith("x"):
        s = float(name[1:])
        h, w = frame.shape[:2]
        size = (round(w * s), round(h * s))
        interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
        return cv2.resize(frame, size, interpolation=interp), size[0] / w, 0.0
    if name == "shift1":
        return cv2.copyMakeBorder(frame[:-1, :-1], 1, 0, 1, 0, cv2.BORDER_REPLICATE), 1.0, 1.0
    raise ValueError(f"unknown variant {name!r}")


def back(reading: DiceReading, scale: float, offset: float) -> DiceReading:
    """``reading`` with every die's outline and centre in the original's pixels."""
    def p(x: float, y: float) -> tuple[float, float]:
        return ((x - offset) / scale, (y - offset) / scale)
    dice = tuple(type(d)(outline=tuple(p(*q) for q in d.outline), centre=p(*d.centre),
                         colour=d.colour, confidence=d.confidence) for d in reading.dice)
    return DiceReading(reading.green, reading.yellow, reading.red, reading.other, dice)


def _side(reading: DiceReading) -> float:
    spans = sorted(max(np.ptp([q[0] for q in d.outline]), np.ptp([q[1] for q in d.outline]))
                   for d in reading.dice)
    return float(spans[len(spans) // 2]) if spans else 1.0


def unmatched(a: DiceReading, b: DiceReading) -> tuple[list, list]:
    """(dice of ``a`` with no die of ``b`` near, dice of ``b`` with none of ``a`` near)."""
    reach = 0.5 * max(_side(a), _side(b))
    rest = list(b.dice)
    lost = []
    for d in a.dice:
        near = [e for e in rest if np.hypot(e.centre[0] - d.centre[0], e.centre[1] - d.centre[1]) <= reach]
        if near:
            rest.remove(min(near, key=lambda e: np.hypot(e.centre[0] - d.centre[0], e.centre[1] - d.centre[1])))
        else:
            lost.append(d)
    return lost, rest


def draw(frame: np.ndarray, a: DiceReading, b: DiceReading, title: str) -> np.ndarray:
    """The two readings side by side on the original (left: as it is; right: the copy)."""
    panels = []
    for reading, label in ((a, "as is"), (b, title)):
        img = frame.copy()
        for d in reading.dice:
            pts = np.round(np.array(d.outline)).astype(np.int32)
            cv2.polylines(img, [pts], True, _BGR[d.colour], 2)
            cv2.circle(img, tuple(int(round(v)) for v in d.centre), 3, (255, 255, 255), -1)
        text = f"{label}: g{reading.green} y{reading.yellow} r{reading.red} o{reading.other}"
        cv2.putText(img, text, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 3)
        cv2.putText(img, text, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1)
        panels.append(img)
    return np.hstack(panels)


def run_suite(suite: Path, *, draw_dir: Path | None, show: bool) -> dict:
    """Read every image of ``suite`` as it is and in each copy; the tallies per copy."""
    labels = json.loads((suite / "labels.json").read_text())
    images, boxed = labels["images"], labels.get("kind") == "dice-count"
    tally = {v: {"counts": 0, "lost": 0, "new": 0, "exact": 0, "hits": 0, "false": 0}
             for v in ("as is", *VARIANTS)}
    total_boxes = 0
    for name in sorted(images):
        frame = cv2.imread(str(suite / name), cv2.IMREAD_COLOR)
        label = images[name]
        base = read_dice(frame)
        total_boxes += len(label.get("boxes", ())) if boxed else 0
        for v in ("as is", *VARIANTS):
            if v == "as is":
                reading = base
            else:
                copy, scale, offset = variant(frame, v)
                reading = back(read_dice(copy), scale, offset)
            t = tally[v]
            if boxed:
                h, f = find_rate(label["boxes"], reading)
                t["hits"] += h
                t["false"] += f
            else:
                t["exact"] += reading.counts()[:3] == tuple(label.get(c, 0) for c in ("green", "yellow", "red"))
            lost, new = unmatched(base, reading)
            t["lost"] += len(lost)
            t["new"] += len(new)
            if reading.counts()[:3] != base.counts()[:3]:
                t["counts"] += 1
                if show:
                    print(f"  {suite.name}/{name} {v}: {base.counts()} -> {reading.counts()}"
                          f" lost {len(lost)} new {len(new)}")
                if draw_dir is not None and not boxed:
                    out = draw_dir / f"{suite.name}-{Path(name).stem}-{v}.png"
                    cv2.imwrite(str(out), draw(frame, base, reading, v))
    return {"images": len(images), "boxed": boxed, "boxes": total_boxes, "tally": tally}


def main(argv: list[str] | None = None) -> int:
    """Print the stability table of each suite."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", action="append", help="suite folder (default: the three)")
    ap.add_argument("--draw", type=Path, help="folder for PNGs of the flips (Toss Up! suites)")
    ap.add_argument("--list", action="store_true", help="print every flip")
    args = ap.parse_args(argv)
    if args.draw:
        args.draw.mkdir(parents=True, exist_ok=True)
    for s in args.suite or SUITES:
        start = time.process_time()
        r = run_suite(ROOT / s if not Path(s).is_absolute() else Path(s), draw_dir=args.draw, show=args.list)
        print(f"{s}: {r['images']} images ({time.process_time() - start:.0f} s CPU)")
        for v, t in r["tally"].items():
            what = (f"found {t['hits']}/{r['boxes']}, false {t['false']}" if r["boxed"]
                    else f"exact {t['exact']}/{r['images']}")
            flips = "" if v == "as is" else f"; counts change {t['counts']}, lost {t['lost']}, new {t['new']}"
            print(f"  {v:7s} {what}{flips}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
