"""Card reader, where a cold frame's time goes: CPU time per stage over the bench frames.

    .venv/bin/python bench/stages_cards.py [--per-condition 3] [--seed 11] [--faces 120]

bench_cards.py's cold 1280x960 frames are read by ``vision.cards.read_cards`` (one OpenCV
and BLAS thread) once to warm the deck's index and memos, then once timed. Each stage is
timed on its own (exclusive: a stage's time leaves out the other stages it calls, e.g.
the naming's coarse ranking of a second look), so the column adds up to the whole read
with "the rest" (the second looks' own work, the margins, suppression). Stages are found
by name in every ``vision`` module that imports them, so the reader runs unchanged.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cards import _deck_folder, _frames  # noqa: E402  (pins OpenCV to one thread)

import vision.cards as cards  # noqa: E402
from vision.deck import load_deck  # noqa: E402

# label: (module, function) pairs timed as that stage
STAGES = {
    "outline search": [("vision.cards_part", "work_view"), ("vision.cards_part", "view_quads"),
                       ("vision.cards_beyond", "beyond_frame")],
    "coarse ranking": [("vision.cards_stages", "coarse_all")],
    "snapping": [("vision.cards_snap", "snap_quads"), ("vision.cards_stages", "edges_at")],
    "keypoints: SIFT": [("vision.cards_keys", "frame_keys")],
    "keypoints: match, fit": [("vision.cards_keys", "find_keypoint_quads"),
                              ("vision.cards_keys", "with_nearest")],
    "naming (fine, duels)": [("vision.cards_stages", "fine_stage")],
}


class _Clock:
    """Exclusive CPU seconds and calls per stage (a stack of the stages running)."""

    def __init__(self) -> None:
        self.own: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[str] = []

    def wrap(self, label: str, fn):
        def timed(*args, **kwargs):
            self._stack.append(label)
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                dt = time.process_time() - t
                self._stack.pop()
                self.own[label] += dt
                self.calls[label] += 1
                if self._stack:  # not the caller's own time
                    self.own[self._stack[-1]] -= dt
        return timed

    def install(self) -> None:
        for label, items in STAGES.items():
            for mod, name in items:
                fn = getattr(importlib.import_module(mod), name)
                timed = self.wrap(label, fn)
                for module in list(sys.modules.values()):
                    if (getattr(module, "__name__", "").startswith("vision")
                            and getattr(module, name, None) is fn):
                        setattr(module, name, timed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-condition", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--faces", type=int, default=120, help="deck size (24 or more)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        deck = load_deck(_deck_folder(Path(tmp) / "deck", args.faces))
    frames = [f for _, f, _ in _frames(args.per_condition, args.seed)]
    clock = _Clock()
    clock.install()
    for frame in frames:  # warm: the deck's keypoint index and per-deck memos
        cards.read_cards(frame, deck)
    clock.own.clear()
    clock.calls.clear()
    t = time.process_time()
    for frame in frames:
        cards.read_cards(frame, deck)
    total = time.process_time() - t
    n = len(frames)
    print(f"{n} frames at 1280x960, {args.faces} faces: {1000 * total / n:.1f} ms a frame")
    for label in STAGES:
        own = clock.own[label]
        print(f"  {label:24s} {1000 * own / n:6.1f} ms  {100 * own / total:5.1f}%  "
              f"({clock.calls[label]} calls)")
    rest = total - sum(clock.own[label] for label in STAGES)
    print(f"  {'the rest':24s} {1000 * rest / n:6.1f} ms  {100 * rest / total:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
