"""Camera-loop landing scenes: each image read by ``CardReader`` after itself with one of
its named cards painted out (the card lands), compared with a fresh ``read_cards``.

    .venv/bin/python bench/bench_card_landing.py [bench] [cards-scenes] [cards-pinochle]
        [--crop-below F] [--ab]

``bench`` is ``bench/bench_cards.py``'s 30 rendered frames (3 per condition, seed 11) with
its 120-face deck; the others are the recorded suites under tests/data. Prints, per set,
the CPU per landing frame (``time.process_time``, one thread) and how many landing reads
name what a fresh read names, listing the others. ``--ab`` reads each landing twice in
turn (order alternating), with the landing read (``TrackParams.land``, ``cards_landing``)
and without it (every changed frame read in full), and prints both CPUs, how many landings
the landing read read from the change alone, and where the two differ.
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

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_cards import _deck_folder, _frames, _painted_out  # noqa: E402
from vision.cards import read_cards  # noqa: E402
from vision.cards_track import CardReader, TrackParams  # noqa: E402
from vision.deck import load_deck  # noqa: E402
from vision.imageio import read_image  # noqa: E402

import cv2  # noqa: E402

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parents[1]


def _sets(names: list[str], tmp: Path) -> dict:
    out = {}
    if "bench" in names:
        frames = [(f"{c}{i % 3}", f) for i, (c, f, _) in enumerate(_frames(3, 11))]
        out["bench"] = (load_deck(_deck_folder(tmp / "deck120", 120)), frames)
    for name in ("cards-scenes", "cards-pinochle"):
        if name in names:
            suite = ROOT / "tests/data" / name
            labels = json.loads((suite / "labels.json").read_text())
            out[name] = (load_deck(suite / labels.get("deck", "deck")),
                         [(img, read_image(suite / img)) for img in labels["images"]])
    return out


def _landings(deck, frames, track: TrackParams) -> str:
    read_cards(frames[0][1], deck)  # builds the deck's keypoint index
    rng = np.random.default_rng(7)
    seconds, same, n, notes = 0.0, 0, 0, []
    for key, after in frames:
        fresh = read_cards(after, deck)
        if not fresh.cards:
            continue
        before = _painted_out(after, fresh.cards[int(rng.integers(len(fresh.cards)))].corners)
        reader = CardReader(deck, track=track)
        reader.read(before)
        t = time.process_time()
        got = reader.read(after)
        seconds += time.process_time() - t
        n += 1
        if sorted(got.ids) == sorted(fresh.ids):
            same += 1
        else:
            notes.append(f"  {key}: landing {sorted(got.ids)}, fresh {sorted(fresh.ids)}")
    return "\n".join([f"{1000 * seconds / max(n, 1):.1f} ms per landing frame, "
                      f"{same}/{n} named as a fresh read names them"] + notes)


def _ab(deck, frames, track: TrackParams) -> str:
    read_cards(frames[0][1], deck)  # builds the deck's keypoint index
    rng = np.random.default_rng(7)
    ways = {"full": replace(track, land=None), "land": track}
    cpu = {"full": 0.0, "land": 0.0}
    same = {"full": 0, "land": 0}
    n, alone, notes = 0, 0, []
    for k, (key, after) in enumerate(frames):
        fresh = read_cards(after, deck)
        if not fresh.cards:
            continue
        before = _painted_out(after, fresh.cards[int(rng.integers(len(fresh.cards)))].corners)
        got = {}
        for way in (("full", "land") if k % 2 == 0 else ("land", "full")):
            reader = CardReader(deck, track=ways[way])
            reader.read(before)
            keys = reader._keys
            t = time.process_time()
            got[way] = reader.read(after)
            cpu[way] += time.process_time() - t
            same[way] += sorted(got[way].ids) == sorted(fresh.ids)
            if way == "land":
                alone += reader._keys is keys and reader._stale is not None
        n += 1
        if sorted(got["full"].ids) != sorted(got["land"].ids):
            notes.append(f"  {key}: land {sorted(got['land'].ids)}, full {sorted(got['full'].ids)},"
                         f" fresh {sorted(fresh.ids)}")
    return "\n".join([f"{n} landings: CPU per landing frame full {1000 * cpu['full'] / n:.1f} ms, "
                      f"land {1000 * cpu['land'] / n:.1f} ms; read from the change alone "
                      f"{alone}/{n}; named as a fresh read names them: full {same['full']}/{n}, "
                      f"land {same['land']}/{n}"] + notes)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", default=["bench"],
                    choices=["bench", "cards-scenes", "cards-pinochle"])
    ap.add_argument("--crop-below", type=float, default=TrackParams.crop_below)
    ap.add_argument("--ab", action="store_true", help="with and without the landing read")
    args = ap.parse_args(argv)
    track = TrackParams(crop_below=args.crop_below)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (deck, frames) in _sets(args.sets, Path(tmp)).items():
            run = _ab if args.ab else _landings
            print(f"{name}: {run(deck, frames, track)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
