"""Card precision stress set: tables of card backs and of cards from outside the deck.

    .venv/bin/python bench/bench_card_precision.py [--per-kind 14] [--seed 101] [--small] [-v]

Counts the cards named that are not there (face down, of another game, of another deck)
on tables rendered by ``scenes.cards`` that the recorded suites and ``bench_cards`` never
show: several back designs (``scenes.card_faces.back_face``, seven), cloths, light and
camera conditions, seeds of their own. Kinds of table, ``--per-kind`` of each:

- ``backs``: one to four face-down cards, nothing else;
- ``outside``: one to three cards of another game drawn in the deck's own style, with a
  back or two;
- ``foreign``: faces of another deck (the real Pinochle reference photos) and backs;
- ``mixed``: one or two of the deck's own faces among backs and cards of another game
  (the second looks and the completions at the named size run only where a card is named).

Frames are 1280x960, as ``bench_cards`` (``--small``: 960x720, as the rendered suite).
Each table is read with the 24-face and the 120-face synthetic decks; the tables with no
Pinochle face also with the Pinochle deck (the synthetic faces are outside it). Printed:
per deck and kind, tables read, cards named that are not there, and the recall of the
deck's own faces on the mixed tables; with ``-v`` every wrong name with its distance.
Times are CPU seconds of this process (one thread).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scenes.card_faces import BACK_STYLES, deck_specs, draw_face  # noqa: E402
from scenes.cards import make_plan, render  # noqa: E402
from vision.cards import read_cards  # noqa: E402
from vision.deck import load_deck, save_face  # noqa: E402
from vision.imageio import decode_image, read_image  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PINOCHLE = ROOT / "tests/data/cards-pinochle/deck"
KINDS = ("backs", "outside", "foreign", "mixed")
LOOKS = ("plain", "plain", "tilt", "glare", "dim", "blur", "overlap")  # light and camera


def tables(kind: str, count: int, seed: int, *, size: tuple[int, int] = (1280, 960)
           ) -> list[tuple[np.ndarray, list[str], str]]:
    """``count`` rendered tables of one kind: (frame, the deck faces on it, description).

    Parameters
    ----------
    kind : str
        One of ``KINDS``.
    count : int
    seed : int
        Tables of one kind and seed are always the same.
    size : tuple of int
        (width, height) of the frames, pixels.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    own = {cid: draw_face(spec) for cid, spec in deck_specs(24).items()}
    foreign = {f"pinochle-{p.stem}": read_image(p) for p in sorted(PINOCHLE.glob("*.png"))}
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    out = []
    for _ in range(count):
        look = str(rng.choice(LOOKS))
        plan = make_plan(look, rng, sorted(own), size=size)
        backs = tuple(int(b) for b in rng.choice(BACK_STYLES, size=2, replace=False))
        n_back = int(rng.integers(1, 5)) if kind == "backs" else int(rng.integers(1, 3))
        ids: tuple[str, ...] = ()
        n_out = 0
        if kind == "outside":
            n_out = int(rng.integers(1, 4))
        elif kind == "foreign":
            ids = tuple(str(i) for i in rng.choice(sorted(foreign), int(rng.integers(1, 3)),
                                                   replace=False))
        elif kind == "mixed":
            ids = tuple(str(i) for i in rng.choice(sorted(own), int(rng.integers(1, 3)),
                                                   replace=False))
            n_out = int(rng.integers(0, 2))
        plan = replace(plan, ids=ids, n_back=n_back, n_outside=n_out, backs=backs)
        try:
            data, label = render(plan, rng, {**own, **foreign})
        except ValueError:  # no room on this table: the next one
            continue
        frame = decode_image(np.frombuffer(data, np.uint8))
        want = [c for c in label["cards"] if c in own]
        out.append((frame, want, f"{kind} {look} {plan.surface} backs {backs} "
                                 f"{n_back} down, {n_out} other, {list(ids)}"))
    return out


def _deck_folder(folder: Path, size: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for cid, spec in deck_specs(size).items():
        save_face(folder / f"{cid}.png", draw_face(spec))
    return folder


def wrong_names(want: list[str], got: tuple[str, ...]) -> int:
    """Cards named that are not there (a face named twice when it lies once counts)."""
    return sum((Counter(got) - Counter(want)).values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-kind", type=int, default=14)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--small", action="store_true", help="960x720 frames")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    size = (960, 720) if args.small else (1280, 960)
    import cv2

    cv2.setNumThreads(1)  # the bench's times on one thread (not on import: the tests use it)
    sets = {kind: tables(kind, args.per_kind, args.seed, size=size) for kind in KINDS}
    print(f"{sum(map(len, sets.values()))} tables ({args.per_kind} per kind, seed {args.seed}, "
          f"{size[0]}x{size[1]})")
    with tempfile.TemporaryDirectory() as tmp:
        decks = {f"{n} faces": load_deck(_deck_folder(Path(tmp) / f"d{n}", n)) for n in (24, 120)}
    decks["pinochle"] = load_deck(PINOCHLE)
    total_wrong = 0
    for name, deck in decks.items():
        wrong: dict[str, int] = defaultdict(int)
        seen = hit = reads = 0
        cpu = 0.0
        for kind, rows in sets.items():
            if name == "pinochle" and kind in ("foreign", "mixed"):
                continue  # Pinochle faces on them; the mixed tables' own faces are not its
            for frame, want, what in rows:
                want = want if name != "pinochle" else []
                t = time.process_time()
                reading = read_cards(frame, deck)
                cpu += time.process_time() - t
                reads += 1
                bad = wrong_names(want, reading.ids)
                wrong[kind] += bad
                seen += len(want)
                hit += sum((Counter(want) & Counter(reading.ids)).values())
                if bad and args.verbose:
                    print(f"  {name}: {what}: named {[(c.card_id, round(c.distance, 3)) for c in reading.cards]}")
        total_wrong += sum(wrong.values())
        per = ", ".join(f"{k} {wrong[k]}" for k in KINDS if k in wrong)
        recall = f", recall of own faces {hit}/{seen}" if seen else ""
        print(f"{name:9s}: {reads} tables, wrong names {sum(wrong.values())} ({per}){recall}, "
              f"{1000 * cpu / max(reads, 1):.0f} ms/table")
    print(f"cards named that are not there: {total_wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
