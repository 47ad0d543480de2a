"""A deck nobody designed for us: 52 real playing cards, clean and taught, on rendered tables.

    .venv/bin/python bench/bench_deck52.py [--per-condition 2] [--seed 7] [--teach-seed 5]
    .venv/bin/python bench/bench_deck52.py --write tests/data/cards-kennard --per-condition 1
    .venv/bin/python bench/bench_deck52.py --deck tests/data/cards-knoll/deck [...]

The faces are Adrian Kennard's CC0 playing cards (``tests/data/cards-kennard/deck``, see its
SOURCE.md), or any deck folder of ``<rank><suit>`` faces given by ``--deck`` (Byron Knoll's
public-domain cards: ``tests/data/cards-knoll/deck``); the cards are drawn 88 mm high at the
faces' own aspect. Tables are rendered by ``scenes.cards`` (960x720, every condition; the
"lookalike" condition lays one look-alike group: one rank in two or three suits, two or
three neighbouring ranks of one suit, or the court cards of one suit). Each table is read
1. with the deck given as its clean faces, and
2. with the deck taught live: each face shown alone on a rendered 1280x960 table and saved
   by the teaching capture (``bench_teach.taught_deck``),
and scored: exact sets, precision, recall, and every wrong name by its family (the same
rank in the other colour or the same colour, a neighbouring rank or another of the same
suit, a court card for another court card, or a card that is nowhere in the picture).
``--write DIR`` writes the tables of the first part as a recorded suite (deck, img/,
labels.json) instead, for ``companion eval``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402

from bench_teach import taught_deck  # noqa: E402
from scenes.cards import CARD_MM, CONDITIONS, make_plan, render  # noqa: E402
from vision.cards import read_cards  # noqa: E402
from vision.deck import load_deck  # noqa: E402
from vision.imageio import decode_image  # noqa: E402

cv2.setNumThreads(1)
DECK = Path(__file__).resolve().parents[1] / "tests" / "data" / "cards-kennard" / "deck"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED = ("H", "D")


def split(cid: str) -> tuple[str, str]:
    """'10H' -> ('10', 'H')."""
    return cid[:-1], cid[-1]


def lookalikes(ids: list[str], rng: np.random.Generator) -> tuple[str, ...]:
    """One look-alike group of a 52-card deck, drawn at random."""
    kind = int(rng.integers(3))
    suit = str(rng.choice(["C", "D", "H", "S"]))
    if kind == 0:  # one rank, two or three suits
        rank = str(rng.choice(RANKS))
        group = [c for c in ids if split(c)[0] == rank]
    elif kind == 1:  # neighbouring ranks of one suit
        start = int(rng.integers(1, len(RANKS) - 3))
        group = [r + suit for r in RANKS[start:start + 3]]
    else:  # the court cards of one suit
        group = [r + suit for r in ("J", "Q", "K")]
    n = int(rng.integers(2, 4))
    return tuple(str(c) for c in rng.choice(group, size=min(n, len(group)), replace=False))


def card_mm(faces: dict[str, np.ndarray]) -> tuple[float, float]:
    """The cards' size on the table (mm): 88 high at the faces' own aspect (63 x 88 if so)."""
    h, w = next(iter(faces.values())).shape[:2]
    if abs(w / h - CARD_MM[0] / CARD_MM[1]) < 0.005:
        return CARD_MM
    return (CARD_MM[1] * w / h, CARD_MM[1])


def tables(faces: dict[str, np.ndarray], per: int, seed: int) -> list[tuple[bytes, dict]]:
    """Rendered tables (JPEG bytes, label) of every condition, `per` each."""
    rng = np.random.default_rng(seed)
    ids = sorted(faces)
    size = card_mm(faces)
    out = []
    for condition in CONDITIONS:
        for _ in range(per):
            plan = dataclasses.replace(make_plan(condition, rng, ids), card_mm=size)
            if condition == "lookalike":
                plan = dataclasses.replace(plan, ids=lookalikes(ids, rng))
            out.append(render(plan, rng, faces))
    return out


def family(wrong: str, missed: list[str]) -> str:
    """What a wrong name stood for, from the cards of the picture it missed."""
    rank, suit = split(wrong)
    for cid in missed:
        r, s = split(cid)
        if r == rank:
            same = (s in RED) == (suit in RED)
            return "same rank, " + ("same colour" if same else "other colour")
    for cid in missed:
        r, s = split(cid)
        if s == suit:
            court = r in "JQK" and rank in "JQK"
            return "court for court" if court else "same suit, other rank"
    return "not in the picture" if not missed else "another card"


def score(shots: list[tuple[bytes, dict]], deck_dir: Path, verbose: bool) -> dict:
    """Exact sets, precision, recall, wrong names by family, CPU ms per table."""
    deck = load_deck(deck_dir)
    exact = tp = fp = fn = 0
    families: Counter = Counter()
    seconds = []
    for k, (data, label) in enumerate(shots):
        frame = decode_image(data)
        start = time.process_time()
        got = Counter(read_cards(frame, deck).ids)
        seconds.append(time.process_time() - start)
        want = Counter(label["cards"])
        exact += got == want
        tp += sum((want & got).values())
        fp += sum((got - want).values())
        fn += sum((want - got).values())
        missed = sorted((want - got).elements())
        for cid in (got - want).elements():
            families[family(cid, missed)] += 1
        if verbose and got != want:
            print(f"    {k:3d} {label['condition']:9s} want {sorted(want.elements())} "
                  f"got {sorted(got.elements())}")
    return {"exact": exact, "n": len(shots), "precision": tp / max(tp + fp, 1),
            "recall": tp / max(tp + fn, 1), "wrong": fp, "families": dict(families),
            "ms": 1000 * float(np.median(seconds))}


def report(title: str, s: dict) -> None:
    print(f"  {title}: exact {s['exact']}/{s['n']}, precision {100 * s['precision']:.1f}%, "
          f"recall {100 * s['recall']:.1f}%, wrong {s['wrong']} {s['families'] or ''}, "
          f"median {s['ms']:.0f} ms CPU a table")


def write_suite(out: Path, shots: list[tuple[bytes, dict]], deck: Path = DECK) -> None:
    """A recorded suite: the deck, img/NNNN.jpg and labels.json."""
    (out / "img").mkdir(parents=True, exist_ok=True)
    if (out / "deck").resolve() != deck.resolve():
        shutil.copytree(deck, out / "deck", dirs_exist_ok=True)
    images = {}
    for k, (data, label) in enumerate(shots):
        name = f"img/{k:04d}.jpg"
        (out / name).write_bytes(data)
        images[name] = label
    labels = {"kind": "cards", "deck": "deck", "images": images}
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", type=Path, default=DECK, help="a folder of <rank><suit> faces")
    parser.add_argument("--per-condition", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7, help="the tables' seed")
    parser.add_argument("--teach-seed", type=int, default=5, help="the teaching photos' seed")
    parser.add_argument("--keep", type=Path, help="keep the taught deck in this folder")
    parser.add_argument("--write", type=Path, help="write the tables as a suite and stop")
    parser.add_argument("--no-teach", action="store_true", help="the clean deck only")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each miss")
    args = parser.parse_args(argv)
    faces = {p.stem: cv2.imread(str(p)) for p in sorted(args.deck.glob("*.png"))}
    if len(faces) < 4:
        parser.error(f"{args.deck} holds {len(faces)} PNG faces; a deck needs at least 4.")
    shots = tables(faces, args.per_condition, args.seed)
    if args.write:
        write_suite(args.write, shots, args.deck)
        print(f"wrote {len(shots)} tables to {args.write}")
        return 0
    print(f"{len(faces)} faces, {len(shots)} tables (seed {args.seed})")
    report("clean faces", score(shots, args.deck, args.verbose))
    if not args.no_teach:
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.keep or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            refused = taught_deck(faces, folder, args.teach_seed, card_mm(faces))
            print(f"  taught {len(faces)} faces live (seed {args.teach_seed}, "
                  f"{refused} captures refused and retried)")
            report("taught deck", score(shots, folder, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
