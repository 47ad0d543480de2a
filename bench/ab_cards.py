"""Card reader speed, A/B: an earlier ``vision`` package against this checkout's, frame by frame.

    .venv/bin/python bench/ab_cards.py DIR [--per-condition 3] [--seed 11] [--faces 120]
                                           [--passes 3]

DIR holds an earlier ``vision/`` (e.g. ``git archive main vision | tar -x -C DIR``). Both
readers are loaded in one process (the earlier one renamed ``vision_base`` in a temporary
copy, as ``ab_dice.py`` does), each loads its own copy of bench_cards.py's deck (built,
then from its index), and they read bench_cards.py's cold 1280x960 frames in turn, the
order swapped every frame, so a busy machine slows both alike. CPU time, one OpenCV and
BLAS thread. Printed: the deck loads; the first pass (what a fresh process pays: the
deck's keypoint index and every per-deck memo are made on the way, as in bench_cards.py's
"ours" column); the later passes (each frame's quickest read); and how many frames the two
read differently (ids, corners, distances: the whole reading).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab_dice import _renamed_copy  # noqa: E402  (the same renamed copy of vision/)
from bench_cards import _deck_folder, _frames  # noqa: E402  (pins OpenCV to one thread)


def _load(load_deck, folder: Path) -> tuple[float, float, object]:
    """CPU seconds of a deck's first load (index built) and of a load from its index."""
    t = time.process_time()
    load_deck(folder)
    built = time.process_time() - t
    t = time.process_time()
    deck = load_deck(folder)
    return built, time.process_time() - t, deck


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="folder holding the earlier vision/ package")
    ap.add_argument("--per-condition", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--faces", type=int, default=120, help="deck size (24 or more)")
    ap.add_argument("--passes", type=int, default=3, help="passes over the frames (>= 2)")
    args = ap.parse_args(argv)
    src = Path(args.dir) / "vision"
    if not (src / "cards.py").is_file():
        print(f"no vision/cards.py in {args.dir}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        _renamed_copy(src, Path(tmp))
        sys.path[:0] = [str(Path(__file__).resolve().parents[1]), tmp]
        from vision.cards import read_cards as new
        from vision.deck import load_deck as new_load
        from vision_base.cards import read_cards as old
        from vision_base.deck import load_deck as old_load

        readers = {"base": (old, old_load), "this": (new, new_load)}
        decks = {}
        for name, (_, load) in readers.items():
            built, cached, decks[name] = _load(load, _deck_folder(Path(tmp) / name, args.faces))
            print(f"{name}: deck of {args.faces} faces, first load (index built) "
                  f"{1000 * built:.0f} ms, from its index {1000 * cached:.0f} ms")
        frames = [f for _, f, _ in _frames(args.per_condition, args.seed)]
        times = {name: [[] for _ in frames] for name in readers}
        differ = set()
        for p in range(max(2, args.passes)):
            for i, frame in enumerate(frames):
                got = {}
                for name in sorted(readers, reverse=(i + p) % 2 == 1):
                    t = time.process_time()
                    got[name] = readers[name][0](frame, decks[name])
                    times[name][i].append(time.process_time() - t)
                if repr(got["base"]) != repr(got["this"]):
                    differ.add(i)
        first = {n: sum(t[0] for t in ts) / len(frames) for n, ts in times.items()}
        later = {n: [min(t[1:]) for t in ts] for n, ts in times.items()}
        ratios = [b / a for a, b in zip(later["base"], later["this"])]
        print(f"{len(frames)} frames at 1280x960, {args.faces} faces, CPU per frame:")
        print(f"  first pass (a fresh process): {1000 * first['base']:.1f} ms (base) -> "
              f"{1000 * first['this']:.1f} ms (this), ratio {first['this'] / first['base']:.3f}")
        print(f"  later passes, each frame's quickest: mean {1000 * statistics.mean(later['base']):.1f}"
              f" -> {1000 * statistics.mean(later['this']):.1f} ms, ratio "
              f"{statistics.mean(later['this']) / statistics.mean(later['base']):.3f}; "
              f"median per-frame ratio {statistics.median(ratios):.3f}")
        print(f"  readings that differ: {len(differ)}/{len(frames)} frames {sorted(differ)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
