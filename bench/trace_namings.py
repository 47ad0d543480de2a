"""Card reader, what a cold frame's namings are for: each naming traced to the pass that asked.

    .venv/bin/python bench/trace_namings.py [--suite DIR] [--per-condition 3] [--seed 11]
                                            [--faces 120]

Every call of the naming step (``cards_stages.fine_stage``: rectify at the fine size,
align faces, the look-alike duel) is labelled with the pass that asked for it: the fast
path's clean outlines (``fast``), the full read's first pass over every outline
(``first``), its search again at the measured aspect (``aspect``), the completions at the
named cards' size (``sized``), and the second looks (``vouched``, ``hidden``,
``occluded``). Each answer is sorted as a name kept in the reading, a name the reading
drops, an unsure card, or a refusal (no face close: the outline is no card), and each
refusal by where its outline lies against the cards the reading names (inside one, mostly
one, holding one, partly on one, or off them all). Printed per pass: namings, CPU and the
pass's whole CPU (its rankings, snapping and namings), so a pass that costs much and keeps
nothing shows. The frames are bench_cards.py's cold 1280x960 frames with its deck (or the
photos of a ``tests/data`` suite with its own deck), each read once to warm the deck's
memos, then once traced. One OpenCV and BLAS thread.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cards import _deck_folder, _frames  # noqa: E402  (pins OpenCV to one thread)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.cards as cards  # noqa: E402
import vision.cards_fast as cards_fast  # noqa: E402
import vision.cards_stages as cards_stages  # noqa: E402
from vision.deck import load_deck  # noqa: E402
from vision.imageio import read_image  # noqa: E402

# (module, function name, label): the passes that ask for namings
PASSES = [(cards_fast, "_bare_reading", "fast"), (cards_fast, "unnamed_tiles", "fast"),
          (cards, "sized_pass", "sized"), (cards, "vouched", "vouched"),
          (cards, "hidden_pass", "hidden"), (cards, "occluded_pass", "occluded")]


class _Trace:
    """The label of the pass running, each naming's record, and each pass's whole CPU."""

    def __init__(self) -> None:
        self.stack = ["first"]
        self.calls: list[dict] = []
        self.whole: dict[str, float] = defaultdict(float)

    def wrap_pass(self, label: str, fn):
        def traced(*args, **kwargs):
            self.stack.append(label)
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.whole[label] += time.process_time() - t
                self.stack.pop()
        return traced

    def wrap_fine(self, fn):
        def traced(frame, coarse, deck, params, *, usable=None):
            t = time.process_time()
            result = fn(frame, coarse, deck, params, usable=usable)
            self.calls.append({"pass": self.stack[-1], "cpu": time.process_time() - t,
                               "quad": np.asarray(coarse[1], np.float32), "result": result})
            return result
        return traced

    def install(self) -> None:
        for module, name, label in PASSES:
            setattr(module, name, self.wrap_pass(label, getattr(module, name)))
        measured = cards.measured_aspect

        def aspect(*args, **kwargs):  # the first pass's namings end here
            found = measured(*args, **kwargs)
            if found is not None:
                self.stack[0] = "aspect"
            return found
        cards.measured_aspect = aspect
        fine = cards_stages.fine_stage
        for module in list(sys.modules.values()):
            if (getattr(module, "__name__", "").startswith("vision")
                    and getattr(module, "fine_stage", None) is fine):
                module.fine_stage = self.wrap_fine(fine)


def _area(q: np.ndarray) -> float:
    return abs(float(cv2.contourArea(q.astype(np.float32))))


def _where(quad: np.ndarray, named: list[np.ndarray]) -> str:
    """Where a refused outline lies against the named cards' outlines."""
    a = max(_area(quad), 1e-6)
    shares = [(cv2.intersectConvexConvex(quad, n)[0] / a,
               cv2.intersectConvexConvex(quad, n)[0] / max(_area(n), 1e-6)) for n in named]
    inside = max((s for s, _ in shares), default=0.0)  # of the outline, under a named card
    holds = max((h for _, h in shares), default=0.0)  # of a named card, in the outline
    if inside > 0.8 and holds > 0.8:
        return "mostly a named card"
    if inside > 0.8:
        return "inside a named card"
    if holds > 0.8:
        return "holds a named card"
    return "partly on a named card" if inside > 0.2 else "off the named cards"


def _kind(call: dict, named: list[np.ndarray]) -> str:
    result = call["result"]
    if result is None:
        return "refused"
    if result[0].card_id is None:
        return "unsure"
    quad = np.array(result[0].corners, np.float32)
    kept = any(cv2.intersectConvexConvex(quad, n)[0] > 0.5 * _area(n) for n in named)
    return "named, kept" if kept else "named, dropped"


def _items(args: argparse.Namespace, tmp: str) -> tuple[object, list[np.ndarray]]:
    if args.suite is None:
        deck = load_deck(_deck_folder(Path(tmp) / "deck", args.faces))
        return deck, [f for _, f, _ in _frames(args.per_condition, args.seed)]
    suite = Path(args.suite)
    labels = json.loads((suite / "labels.json").read_text(encoding="utf-8"))
    deck = load_deck(suite / labels["deck"])
    return deck, [read_image(suite / name) for name in sorted(labels["images"])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", help="a tests/data card suite (default: bench_cards' frames)")
    ap.add_argument("--per-condition", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--faces", type=int, default=120, help="deck size (24 or more)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        deck, frames = _items(args, tmp)
    trace = _Trace()
    trace.install()
    for frame in frames:  # warm: the deck's keypoint index and per-deck memos
        cards.read_cards(frame, deck)
    trace.whole.clear()
    count, cpu = defaultdict(int), defaultdict(float)
    where, where_cpu = defaultdict(int), defaultdict(float)
    total = 0.0
    for frame in frames:
        trace.stack, trace.calls = ["first"], []
        t = time.process_time()
        reading = cards.read_cards(frame, deck)
        total += time.process_time() - t
        named = [np.array(s.corners, np.float32) for s in reading.cards]
        for call in trace.calls:
            key = (call["pass"], _kind(call, named))
            count[key] += 1
            cpu[key] += call["cpu"]
            if key[1] == "refused":
                spot = (call["pass"], _where(call["quad"], named))
                where[spot] += 1
                where_cpu[spot] += call["cpu"]
    n = len(frames)
    print(f"{n} frames: {1000 * total / n:.1f} ms a frame; namings "
          f"{1000 * sum(cpu.values()) / n:.1f} ms a frame ({100 * sum(cpu.values()) / total:.1f}%)")
    print("pass       answer           namings  CPU ms/frame   (pass's whole CPU ms/frame)")
    for key in sorted(count):
        whole = trace.whole.get(key[0])
        print(f"  {key[0]:9s} {key[1]:16s} {count[key]:6d}  {1000 * cpu[key] / n:8.1f}"
              + ("" if whole is None else f"     ({1000 * whole / n:.1f})"))
    print("refusals, by where the outline lies against the cards named")
    for spot in sorted(where, key=lambda s: -where_cpu[s]):
        print(f"  {spot[0]:9s} {spot[1]:24s} {where[spot]:6d}  {1000 * where_cpu[spot] / n:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
