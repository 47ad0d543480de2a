"""Card vision benchmark: speed per 1280x960 frame (24- and 120-face decks), deck load
time, and accuracy per condition, side by side with a perceptual-hash peer.

    .venv/bin/python bench/bench_cards.py [--per-condition 3] [--seed 11]

Times are CPU seconds (``time.process_time``) of this process, pinned to one thread
(OpenCV and OpenBLAS). Frames are
rendered by ``scenes.cards`` at 1280x960 with the project's synthetic deck; the 120-face
deck is the 24 faces plus 96 more of the same style (the frames show only the 24). The real
Pinochle photos (tests/data/cards-pinochle) are scored with every method too. Methods:
``ours`` (``read_cards``), ``fast`` (``read_cards`` without the keypoint search) and
``phash`` (the perceptual-hash peer). A camera's frames in turn are timed with
``vision.cards_track.CardReader`` (120 faces): a still table seen again with new sensor
noise, and each frame again after one of its cards was painted out (the card lands).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scenes.card_faces import deck_specs, draw_face  # noqa: E402
from scenes.cards import CONDITIONS, make_plan, render  # noqa: E402
from vision.cards import CardParams, read_cards  # noqa: E402
from vision.cards_phash import deck_hashes, read_cards_phash  # noqa: E402
from vision.cards_track import CardReader  # noqa: E402
from vision.deck import load_deck, save_face  # noqa: E402
from vision.imageio import decode_image, read_image  # noqa: E402

import cv2  # noqa: E402  (vision is the package that uses OpenCV; the bench pins it to one thread)

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parents[1]


def _deck_folder(folder: Path, size: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for cid, spec in deck_specs(size).items():
        save_face(folder / f"{cid}.png", draw_face(spec))
    return folder


def _timed_load(folder: Path) -> tuple[float, float, object]:
    t = time.process_time()
    load_deck(folder)  # builds the index and writes the cache
    built = time.process_time() - t
    t = time.process_time()
    deck = load_deck(folder)  # from the cache
    return built, time.process_time() - t, deck


def _frames(per_condition: int, seed: int) -> list[tuple[str, np.ndarray, list[str]]]:
    faces = {cid: draw_face(spec) for cid, spec in deck_specs(24).items()}
    rng = np.random.default_rng(seed)
    out = []
    for condition in CONDITIONS:
        for _ in range(per_condition):
            plan = make_plan(condition, rng, sorted(faces), size=(1280, 960))
            data, label = render(plan, rng, faces)
            out.append((condition, decode_image(np.frombuffer(data, np.uint8)), label["cards"]))
    return out


class _Tally:
    def __init__(self) -> None:
        self.n = self.exact = self.tp = self.fp = self.fn = 0
        self.seconds = 0.0

    def add(self, want: list[str], got: tuple[str, ...], seconds: float) -> None:
        w, g = Counter(want), Counter(got)
        self.n += 1
        self.exact += w == g
        self.tp += sum((w & g).values())
        self.fp += sum((g - w).values())
        self.fn += sum((w - g).values())
        self.seconds += seconds

    def row(self) -> str:
        prec = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        rec = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return (f"{self.exact}/{self.n} exact, P {100 * prec:.0f}%, R {100 * rec:.0f}%, "
                f"{self.fp} wrong")


FAST = CardParams(keys=None)  # ours without the keypoint search


def _read(method: str, frame: np.ndarray, deck, hashes) -> tuple[str, ...]:
    if method == "phash":
        return read_cards_phash(frame, deck, hashes).ids
    return read_cards(frame, deck, params=FAST if method == "fast" else CardParams()).ids


def _warm(deck, frame: np.ndarray) -> float:
    """CPU seconds of the first read after loading (it builds the deck's keypoint index)."""
    t = time.process_time()
    read_cards(frame, deck)
    return time.process_time() - t


def _run(method, frames, deck, hashes) -> tuple[dict[str, _Tally], _Tally]:
    per: dict[str, _Tally] = defaultdict(_Tally)
    total = _Tally()
    for condition, frame, want in frames:
        t = time.process_time()
        got = _read(method, frame, deck, hashes)
        dt = time.process_time() - t
        per[condition].add(want, got, dt)
        total.add(want, got, dt)
    return per, total


def _painted_out(frame: np.ndarray, corners) -> np.ndarray:
    """The frame before a card landed: the card's area painted the table's median colour."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.array(corners)).astype(np.int32), 255)
    before = frame.copy()
    before[cv2.dilate(mask, np.ones((9, 9), np.uint8)) > 0] = np.median(
        frame.reshape(-1, 3), axis=0).astype(np.uint8)
    return before


def _camera(frames, deck) -> str:
    """A camera's frames in turn (``CardReader``): a still table, and a card landing."""
    rng = np.random.default_rng(7)
    still = landing = 0.0
    same = n = 0
    for _, after, _ in frames:
        named = read_cards(after, deck).cards
        if not named:
            continue
        before = _painted_out(after, named[int(rng.integers(len(named)))].corners)
        again = np.clip(before.astype(np.int16) + rng.integers(-3, 4, before.shape), 0, 255
                        ).astype(np.uint8)  # the same table, new sensor noise
        reader = CardReader(deck)
        reader.read(before)
        t = time.process_time()
        reader.read(again)
        still += time.process_time() - t
        t = time.process_time()
        got = reader.read(after)
        landing += time.process_time() - t
        same += sorted(got.ids) == sorted(read_cards(after, deck).ids)  # a landing read keeps
        # the cards seen before and adds the new one: the same cards, in another order
        n += 1
    return (f"{1000 * still / n:.1f} ms per still frame, {1000 * landing / n:.0f} ms per frame "
            f"where a card landed ({same}/{n} named as read_cards names them)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-condition", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        decks = {}
        for size in (24, 120):
            built, cached, deck = _timed_load(_deck_folder(Path(tmp) / f"deck{size}", size))
            decks[size] = deck
            print(f"deck of {size} faces: first load (index built) {1000 * built:.0f} ms, "
                  f"cached load {1000 * cached:.0f} ms")
    frames = _frames(args.per_condition, args.seed)
    print(f"\n{len(frames)} rendered frames at 1280x960, {args.per_condition} per condition")
    results = {}
    for size, deck in decks.items():
        hashes = deck_hashes(deck)
        print(f"first read after loading the {size}-face deck (builds its keypoint index): "
              f"{1000 * _warm(deck, frames[0][1]):.0f} ms")
        for method in ("ours", "fast", "phash"):
            results[size, method] = _run(method, frames, deck, hashes)
            total = results[size, method][1]
            print(f"{method:5s} {size:3d} faces: {1000 * total.seconds / total.n:6.1f} ms/frame  "
                  f"{total.row()}")
    print(f"camera frames in turn, 120 faces (CardReader): {_camera(frames, decks[120])}")
    print("\naccuracy per condition, 24-face deck (ours | fast | phash):")
    for condition in CONDITIONS:
        ours, fast = results[24, "ours"][0][condition], results[24, "fast"][0][condition]
        peer = results[24, "phash"][0][condition]
        print(f"  {condition:10s} {ours.row():34s} | {fast.row():34s} | {peer.row()}")
    suite = ROOT / "tests/data/cards-pinochle"
    labels = json.loads((suite / "labels.json").read_text())
    deck = load_deck(suite / "deck")
    hashes = deck_hashes(deck)
    real = [("real", read_image(suite / name), label["cards"])
            for name, label in labels["images"].items()]
    _warm(deck, real[0][1])
    for method in ("ours", "fast", "phash"):
        total = _run(method, real, deck, hashes)[1]
        print(f"pinochle real photos, {method:5s}: {total.row()}, "
              f"{1000 * total.seconds / total.n:.0f} ms/image")
    return 0


if __name__ == "__main__":
    sys.exit(main())
