"""Settler rules on still tables: how often each settles right, wrong or says unsure.

    .venv/bin/python bench/votes_dice.py [--copies 6] [--every 1]

Each labelled image (the rendered suite ``tests/data/dice-scenes`` and the demo frames
``companion/demo/frames``) stands for a still table filmed ``--copies`` times: every copy
gets a fresh camera grain (sd 2 levels, seeded) and is read by ``vision.dice.read_dice``,
so the readings flicker as they do frame to frame. Each settler rule is then fed those
readings in order, 0.1 s apart, after one moving frame, as the camera loop feeds it.
Prints JSON per rule: rolls settled right, wrong, unsure or undecided, and the frames
from the first still frame to the decision (the frame before it counts as moving).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

import cv2

ROOT = Path(__file__).resolve().parents[1]
SUITES = (ROOT / "tests" / "data" / "dice-scenes", ROOT / "companion" / "demo" / "frames")
RULES = {  # name: DiceSettler keywords
    "window 5, agree 4, quick 3 (default)": {},
    "window 5, agree 4": {"quick": None},
    "window 4, agree 3": {"window": 4, "agree": 3, "quick": None, "still_seconds": 0.15},
    "window 3, agree 3": {"window": 3, "agree": 3, "quick": None, "still_seconds": 0.15},
}


def readings(copies: int, every: int) -> list[tuple[tuple[int, ...], list[Any]]]:
    """(label counts, the readings of `copies` grained copies) per image."""
    from vision.dice import read_dice
    from vision.imageio import read_image

    out = []
    for suite in SUITES:
        labels = json.loads((suite / "labels.json").read_text())["images"]
        for k, (name, label) in enumerate(sorted(labels.items())):
            if k % every:
                continue
            frame = read_image(suite / name)
            rng = np.random.default_rng(k)
            reads = [read_dice(np.clip(frame + rng.normal(0.0, 2.0, frame.shape), 0, 255)
                               .astype(np.uint8)) for _ in range(copies)]
            truth = tuple(int(label.get(c, 0)) for c in ("green", "yellow", "red", "other"))
            out.append((truth, reads))
    return out


def judge(rule: dict[str, Any], tables: list[tuple[tuple[int, ...], list[Any]]]
          ) -> dict[str, Any]:
    """Feed each table's readings to a settler with `rule`; tally its decisions."""
    from vision.settle import DiceSettler

    tally = {"right": 0, "wrong": 0, "unsure": 0, "undecided": 0}
    frames = []
    for truth, reads in tables:
        now = [0.0]
        settler = DiceSettler(clock=lambda: now[0], **rule)
        settler.feed(None, motion=50.0)
        result, used = None, 0
        for used, reading in enumerate(reads, start=2):
            now[0] += 0.1
            result = settler.feed(reading, motion=0.5)
            if result is not None:
                break
        if result is None:
            tally["undecided"] += 1
            continue
        frames.append(used)
        kind = ("unsure" if not result.settled
                else "right" if result.reading.counts() == truth else "wrong")
        tally[kind] += 1
    return {**tally, "frames median": statistics.median(frames) if frames else None,
            "frames max": max(frames, default=None)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=6)
    ap.add_argument("--every", type=int, default=1, help="take every n-th image")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    tables = readings(args.copies, args.every)
    print(json.dumps({"tables": len(tables),
                      **{name: judge(rule, tables) for name, rule in RULES.items()}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
