"""Toss Up! suites read under a lamp the camera does not balance (issue #3).

    .venv/bin/python bench/lamp_dice.py SUITE [SUITE ...] [--light warm|dim|none]

Every image of each labelled suite (``labels.json`` with green/yellow/red counts) is lit
as ``bench/calibrate_dice.py --light`` lights it (warm: B x0.55, G x0.85, R x1.1, a
3000-3500 K bulb) and read without a calibration. Prints each image read wrongly, then
the exact count per suite and in all.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibrate_dice import LIGHTS, _lit  # noqa: E402  (this folder's)
from vision.dice import read_dice  # noqa: E402
from vision.imageio import read_image  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suites", type=Path, nargs="+")
    ap.add_argument("--light", choices=sorted(LIGHTS) + ["none"], default="warm")
    args = ap.parse_args()
    light = None if args.light == "none" else args.light
    right = total = 0
    for suite in args.suites:
        images = json.loads((suite / "labels.json").read_text())["images"]
        exact = 0
        for name in sorted(images):
            label = images[name]
            r = read_dice(_lit(read_image(suite / name), light))
            want = (label["green"], label["yellow"], label["red"])
            if (r.green, r.yellow, r.red) == want:
                exact += 1
            else:
                print(f"{suite}/{name} ({label.get('condition', '-')}): read "
                      f"{(r.green, r.yellow, r.red)}, labelled {want}", flush=True)
        print(f"{suite}: {exact}/{len(images)} under --light {args.light}", flush=True)
        right, total = right + exact, total + len(images)
    print(f"total: {right}/{total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
