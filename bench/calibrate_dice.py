"""Does a calibration ever make reading worse?  Calibrate from one image, read the others.

    python bench/calibrate_dice.py companion/demo/frames          # from EACH image, read all
    python bench/calibrate_dice.py tests/data/dice-scenes --per-condition
        # per condition: calibrate from its first image that teaches (the calibration
        # refuses a frame of under 3 Toss Up! dice), read its other images

    python bench/calibrate_dice.py companion/demo/frames --light warm    # under a 2700 K lamp
        # (--light dim: a quarter of the light): every image lit so before anything

Prints exact readings without a calibration and with each one, and every calibration
that read fewer images right than none did. Only the counts matter, not the time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.calibrate import calibrate  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.imageio import read_image  # noqa: E402


def _right(frame, label, cal=None) -> bool:
    r = read_dice(frame, calibration=cal)
    return (r.green, r.yellow, r.red) == (label["green"], label["yellow"], label["red"])


# per-channel (B, G, R) light: a warm bulb has little blue; a dim room a quarter of the light
LIGHTS = {"warm": (0.55, 0.85, 1.1), "dim": (0.28, 0.28, 0.28)}


def _lit(frame: np.ndarray, light: str | None) -> np.ndarray:
    if light is None:
        return frame
    return np.clip(frame * np.float32(LIGHTS[light]), 0, 255).astype(np.uint8)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", type=Path)
    ap.add_argument("--per-condition", action="store_true")
    ap.add_argument("--light", choices=sorted(LIGHTS), default=None)
    args = ap.parse_args()
    images = json.loads((args.suite / "labels.json").read_text())["images"]
    groups: dict[str, list[str]] = defaultdict(list)
    for name in sorted(images):
        groups[images[name].get("condition", "all") if args.per_condition else "all"].append(name)
    frames = {n: _lit(read_image(args.suite / n), args.light) for n in images}
    plain = {n: _right(frames[n], images[n]) for n in images}
    tot_plain = tot_cal = worse = 0
    for cond, names in groups.items():
        sources = names
        for src in sources:
            try:
                cal = calibrate(frames[src])
            except ValueError as exc:
                print(f"{cond} from {src}: refused ({exc})")
                continue
            targets = [n for n in names if n != src] if args.per_condition else names
            got = {n: _right(frames[n], images[n], cal) for n in targets}
            a, b = sum(plain[n] for n in targets), sum(got.values())
            tot_plain, tot_cal = tot_plain + a, tot_cal + b
            lost = [n for n in targets if plain[n] and not got[n]]
            gained = [n for n in targets if got[n] and not plain[n]]
            worse += b < a
            print(f"{cond:14s} from {src}: {a}/{len(targets)} -> {b}/{len(targets)}"
                  f"  side {cal.die_side_px:.1f}px  lost {lost}  gained {gained}", flush=True)
            if args.per_condition:  # the first image the calibration accepts
                break
    print(f"total: uncalibrated {tot_plain}, calibrated {tot_cal}; calibrations worse: {worse}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
