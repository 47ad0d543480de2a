"""The cards' fast path (``vision.cards_fast``) against the full read, frame by frame.

    .venv/bin/python bench/bench_card_fast.py [bench] [cards-scenes] [cards-pinochle]
        [--busy-keys] [--passes 2]

Each frame is read with ``CardParams(fast=None)`` (every frame in full, main's path) and
with the fast path, in turn (the order alternating frame by frame and pass by pass), in
one process pinned to one thread; CPU by ``time.process_time``. ``bench`` is the 30
frames of ``bench/bench_cards.py --per-condition 3`` with its 120-face deck; the others
are the recorded suites with their decks. Printed per set: CPU per frame both ways, the
frames the fast path read by itself and their CPU both ways, and the frames whose ids or
unsure cards differ between the two readings.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_cards import _deck_folder, _frames  # noqa: E402
from vision.cards import CardParams, read_cards  # noqa: E402
from vision.cards_fast import FastParams, fast_first  # noqa: E402
from vision.deck import load_deck  # noqa: E402
from vision.imageio import read_image  # noqa: E402

import cv2  # noqa: E402

cv2.setNumThreads(1)
ROOT = Path(__file__).resolve().parents[1]


def _set(name: str, tmp: Path) -> tuple[object, list[tuple[str, object]]]:
    if name == "bench":
        deck = load_deck(_deck_folder(tmp / "deck120", 120))
        return deck, [(f"{c}-{k % 3}", f) for k, (c, f, _) in enumerate(_frames(3, 11))]
    suite = ROOT / "tests/data" / name
    labels = json.loads((suite / "labels.json").read_text())
    deck = load_deck(suite / labels.get("deck", "deck"))
    return deck, [(n, read_image(suite / n)) for n in labels["images"]]


def _key(reading) -> tuple:
    return sorted(reading.ids), sorted(s.best_guess for s in reading.unsure)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", default=["bench"])
    ap.add_argument("--busy-keys", action="store_true", help="FastParams(busy_keys=True)")
    ap.add_argument("--passes", type=int, default=2)
    args = ap.parse_args(argv)
    full = replace(CardParams(), fast=None)
    fast = replace(CardParams(), fast=FastParams(busy_keys=args.busy_keys))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            deck, frames = _set(name, Path(tmp))
            read_cards(frames[0][1], deck)  # the deck's keypoint index, built once
            cpu = {"full": [0.0] * len(frames), "fast": [0.0] * len(frames)}
            differ, alone = [], []
            for p in range(args.passes):
                for k, (label, frame) in enumerate(frames):
                    got = {}
                    for way in (("full", "fast") if (k + p) % 2 == 0 else ("fast", "full")):
                        t = time.process_time()
                        got[way] = read_cards(frame, deck, params=full if way == "full" else fast)
                        cpu[way][k] += (time.process_time() - t) / args.passes
                    if p == 0:
                        if _key(got["full"]) != _key(got["fast"]):
                            differ.append(label)
                        if fast_first(frame, deck, fast)[0] is not None:
                            alone.append(k)
            n = len(frames)
            a = max(1, len(alone))
            print(f"{name}: {n} frames, CPU per frame full {1000 * sum(cpu['full']) / n:.1f} ms, "
                  f"fast path {1000 * sum(cpu['fast']) / n:.1f} ms; read by the fast path alone "
                  f"{len(alone)}/{n} ({1000 * sum(cpu['fast'][k] for k in alone) / a:.1f} ms, "
                  f"in full {1000 * sum(cpu['full'][k] for k in alone) / a:.1f} ms); readings "
                  f"differ on {len(differ)}/{n} {' '.join(differ)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
