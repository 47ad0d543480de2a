"""Card outline search benchmark: CPU per 1280x960 bench frame of the outline search
(``vision.cards_part``) at the deck's aspect, and again on the same frame at another
aspect (what ``read_cards`` does when the cards it named show an aspect of their own).

    .venv/bin/python bench/bench_card_search.py [--per-condition 3] [--seed 11]

The frames are ``bench/bench_cards.py``'s (rendered by ``scenes.cards``). Times are CPU
seconds (``time.process_time``) of this process, pinned to one thread. For another
checkout's figures, copy this file into its ``bench/`` and run it there (it puts its own
checkout first on the path).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402

from bench_cards import _frames  # noqa: E402
from vision.cards_part import view_quads, work_view  # noqa: E402

cv2.setNumThreads(1)
ASPECT, OTHER = 0.716, 0.62  # the bench deck's aspect, and a card cut shorter


def main() -> None:
    """Print the outline search's CPU per frame, first and at another aspect."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-condition", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    frames = [f for _, f, _ in _frames(args.per_condition, args.seed)]
    first = again = 0.0
    count = 0
    for frame in frames:
        view = work_view(frame)
        t = time.process_time()
        count += len(view_quads(view, ASPECT))
        first += time.process_time() - t
        t = time.process_time()
        view_quads(view, OTHER)
        again += time.process_time() - t
    n = len(frames)
    print(f"{n} frames, {count / n:.1f} outlines a frame: outline search "
          f"{first / n * 1000:.1f} ms, again at another aspect {again / n * 1000:.1f} ms CPU")


if __name__ == "__main__":
    main()
