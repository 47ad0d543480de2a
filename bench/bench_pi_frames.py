"""Whole frames on this venv's OpenCV, and the share of vision.cvcompat's exact warps in them.

    OPENBLAS_NUM_THREADS=1 .venv-ci-pi/bin/python bench/bench_pi_frames.py [--cache DIR]
                                                  [--per-condition 3] [--passes 3]
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_pi_frames.py [--cache DIR]

On a Raspberry Pi the companion runs on Debian's OpenCV 4.x, where vision.cvcompat does
its bilinear warps and remaps exactly (OpenCV 5's way, not 4.x's 1/32-pixel rounding). This
reads bench_cards.py's cold 1280x960 card frames (120-face deck) and ab_dice.py's 84
640x480 dice frames, CPU time, one OpenCV and BLAS thread, and prints per frame: the
first read (the deck's memos made on the way), each frame's quickest later read, and the
time spent inside cvcompat's warps (``warp_perspective``, ``warp_affine``, ``remap``) and
in ``cv2.findTransformECC``. On OpenCV 4.x the same frames are then read again with
cvcompat's exact path switched off (OpenCV's own rounded warps), in the same process, and
the readings that differ are counted. ``--cache DIR`` keeps the rendered card frames and
deck faces as PNG files, so two venvs (4.x and 5) read the very same pixels.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ab_dice import _frames as _dice_frames  # noqa: E402
from bench_cards import _deck_folder, _frames  # noqa: E402  (pins OpenCV to one thread)

import cv2  # noqa: E402

from vision import cvcompat  # noqa: E402
from vision.imageio import read_image  # noqa: E402

SPENT: dict[str, float] = defaultdict(float)


def _timed(name: str, fn):
    def wrapper(*a, **k):
        t = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            SPENT[name] += time.process_time() - t
    return wrapper


def _instrument() -> None:
    """Time cvcompat's warps wherever a vision module imported them, and OpenCV's ECC."""
    import vision.cards  # noqa: F401  (loads every card module)
    import vision.dice  # noqa: F401
    for name in ("warp_perspective", "warp_affine", "remap"):
        original = getattr(cvcompat, name)
        wrapped = _timed("cvcompat warps", original)
        for module in list(sys.modules.values()):
            if (getattr(module, "__name__", "").startswith("vision.")
                    and getattr(module, name, None) is original):
                setattr(module, name, wrapped)
    cv2.findTransformECC = _timed("findTransformECC", cv2.findTransformECC)


def _card_inputs(cache: Path | None, per_condition: int, seed: int, tmp: Path):
    """The card frames and a deck folder of this run's own (its index built here)."""
    from vision.deck import save_face
    if cache is None:
        return [f for _, f, _ in _frames(per_condition, seed)], _deck_folder(tmp / "deck", 120)
    frames_dir, faces_dir = cache / "frames", cache / "deck"
    if not frames_dir.is_dir():
        frames_dir.mkdir(parents=True)
        for i, (_, frame, _) in enumerate(_frames(per_condition, seed)):
            save_face(frames_dir / f"{i:03d}.png", frame)
        _deck_folder(faces_dir, 120)
    (tmp / "deck").mkdir()
    for face in faces_dir.glob("*.png"):
        shutil.copy(face, tmp / "deck" / face.name)
    return [read_image(p) for p in sorted(frames_dir.glob("*.png"))], tmp / "deck"


def _passes(read, frames, passes: int):
    """(first-read seconds, quickest later seconds, warp seconds, ECC seconds, readings)."""
    first, later, warps, ecc, readings = [], [], [], [], []
    for p in range(passes):
        for i, frame in enumerate(frames):
            SPENT.clear()
            t = time.process_time()
            got = read(frame)
            took = time.process_time() - t
            if p == 0:
                first.append(took)
                readings.append(repr(got))
                later.append(float("inf"))
            else:
                later[i] = min(later[i], took)
            if p == passes - 1:
                warps.append(SPENT["cvcompat warps"])
                ecc.append(SPENT["findTransformECC"])
    return first, later, warps, ecc, readings


def _report(label: str, result) -> None:
    first, later, warps, ecc, _ = result
    ms = lambda xs: 1000 * statistics.mean(xs)  # noqa: E731
    print(f"  {label}: first read {ms(first):.1f} ms, quickest later {ms(later):.1f} ms "
          f"(median {1000 * statistics.median(later):.1f}); inside cvcompat warps "
          f"{ms(warps):.1f} ms, inside findTransformECC {ms(ecc):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, help="folder keeping the rendered card frames")
    ap.add_argument("--per-condition", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--passes", type=int, default=3, help="reads per frame (>= 2)")
    ap.add_argument("--only", choices=("cards", "dice"), help="one kind of frame")
    args = ap.parse_args(argv)
    _instrument()
    from vision.cards import read_cards
    from vision.deck import load_deck
    from vision.dice import read_dice
    modes = ["exact"] + (["opencv's own"] if cvcompat.QUANTISED_WARPS else [])
    print(f"OpenCV {cv2.__version__}, numpy {cvcompat.np.__version__}")
    if args.only != "dice":
        frames, deck_dir = _card_inputs(args.cache, args.per_condition, args.seed,
                                        Path(tempfile.mkdtemp()))
        print(f"{len(frames)} card frames at 1280x960, 120-face deck, CPU per frame:")
        results = {}
        for mode in modes:
            cvcompat.QUANTISED_WARPS = mode == "exact" and modes[-1] != "exact"
            load_deck(deck_dir)  # the index, built or from the cache
            deck = load_deck(deck_dir)
            results[mode] = _passes(lambda f: read_cards(f, deck), frames, args.passes)
            _report(mode, results[mode])
        if len(results) == 2:
            a, b = (r[4] for r in results.values())
            print(f"  readings that differ between the two: {sum(x != y for x, y in zip(a, b))}"
                  f"/{len(a)}")
        cvcompat.QUANTISED_WARPS = modes[-1] != "exact"
    if args.only != "cards":
        frames = _dice_frames(False)
        print(f"{len(frames)} dice frames at 640x480, CPU per frame:")
        results = {}
        for mode in modes:
            cvcompat.QUANTISED_WARPS = mode == "exact" and modes[-1] != "exact"
            results[mode] = _passes(read_dice, frames, args.passes)
            _report(mode, results[mode])
        if len(results) == 2:
            a, b = (r[4] for r in results.values())
            print(f"  readings that differ between the two: {sum(x != y for x, y in zip(a, b))}"
                  f"/{len(a)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
