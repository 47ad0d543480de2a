"""Hand detector benchmark: hits, false alarms and CPU time of vision/hand.py.

    .venv/bin/python bench/bench_hand.py [--quick]

One core (OpenCV limited to one thread), CPU time per call. Prints a Markdown section:
- single frame (``find_hand``, no table picture): hit rate on the suites' rendered-hand
  images, false alarms on every other image, per suite and condition; the real photos;
- with a table picture (``HandWatcher`` fed the empty table first): the same rendered
  hands (the empty table is the same scene rendered again without its hand) and arms of
  the ten Monk skin tones, bare or sleeved, composited onto suite frames;
- median CPU ms per call at 640x480 and 1280x960.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.vision.hand_support import LIGHTS, with_arm  # noqa: E402
from vision.hand import HandWatcher, find_hand  # noqa: E402
from vision.imageio import read_image  # noqa: E402

DATA = ROOT / "tests" / "data"
#: Real photos that do show a hand (checked by eye; every other one shows none).
REAL_HANDS = {"img/IMG_20191208_112623.jpg"}


def _suite(name: str) -> dict:
    return json.loads((DATA / name / "labels.json").read_text())["images"]


def single_frame(name: str, times: list) -> tuple[dict, list]:
    """{condition: [fired, images]} for one suite, and the mistakes."""
    tally: dict = defaultdict(lambda: [0, 0])
    wrong = []
    for key, label in _suite(name).items():
        frame = read_image(DATA / name / key)
        start = time.process_time()
        hand = find_hand(frame).hand
        times.append((frame.shape[1], time.process_time() - start))
        condition = label.get("condition", "hand" if key in REAL_HANDS else "real")
        tally[condition][0] += hand
        tally[condition][1] += 1
        if hand != (condition == "hand"):
            wrong.append(f"{name}/{key} ({condition})")
    return dict(tally), wrong


def _empty_twin(number: int) -> np.ndarray:
    """The dice-scenes image ``number`` rendered again without its hand."""
    from scenes import dice, props

    draw = props.draw_hand
    props.draw_hand = lambda *args, **kwargs: None
    try:
        rng = np.random.default_rng([1, number])
        data, _ = dice.render(dice.make_plan("hand", rng), rng)
    finally:
        props.draw_hand = draw
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def _watch(table: np.ndarray, frame: np.ndarray) -> bool:
    watcher = HandWatcher()
    for _ in range(5):
        watcher.update(table)
    return watcher.update(frame).hand


def watcher_rendered() -> tuple[int, int, int]:
    """(hits, hand images, false alarms on their empty twins) with a table picture."""
    hits = alarms = 0
    hands = [k for k, v in _suite("dice-scenes").items() if v["condition"] == "hand"]
    for key in hands:
        table = _empty_twin(int(Path(key).stem))
        hits += _watch(table, read_image(DATA / "dice-scenes" / key))
        alarms += _watch(table, _noisy(table, 1))
    return hits, len(hands), alarms


def _noisy(frame: np.ndarray, seed: int) -> np.ndarray:
    """The same view a moment later: new sensor noise and JPEG artefacts."""
    noisy = frame + np.random.default_rng(seed).normal(0, 3, frame.shape)
    ok, data = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 80])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def composited(step: int) -> tuple[dict, dict, int, int]:
    """Arms on every ``step``-th empty dice scene: hits per tone, single and watched."""
    single: dict = defaultdict(lambda: [0, 0])
    watched: dict = defaultdict(lambda: [0, 0])
    alarms = tables = 0
    rng = np.random.default_rng(5)
    items = [(k, v) for k, v in _suite("dice-scenes").items() if v["condition"] != "hand"]
    for i, (key, label) in enumerate(items[::step]):
        table = read_image(DATA / "dice-scenes" / key)
        tone, sleeve = i % 10, (None if i % 3 else int(rng.integers(6)))
        frame = with_arm(table, tone=tone, sleeve=sleeve, side=int(rng.integers(4)),
                         along=float(rng.uniform(0.25, 0.75)), reach=float(rng.uniform(0.25, 0.5)),
                         angle=float(rng.uniform(-25, 25)),
                         light=LIGHTS.get(label["condition"], (1.0, 1.0, 1.0)), seed=i)
        group = f"tone {tone + 1}" + (" sleeve" if sleeve is not None else "")
        for tally, hand in ((single, find_hand(frame).hand), (watched, _watch(table, frame))):
            tally[group][0] += hand
            tally[group][1] += 1
        alarms += _watch(table, _noisy(table, i))
        tables += 1
    return dict(single), dict(watched), alarms, tables


def _shifted(frame: np.ndarray, pixels: int) -> np.ndarray:
    """The camera nudged by ``pixels`` (a bumped table)."""
    m = np.float32([[1, 0, pixels], [0, 1, pixels / 2]])
    return cv2.warpAffine(frame, m, frame.shape[1::-1], borderMode=cv2.BORDER_REFLECT)


def _shadow(frame: np.ndarray, seed: int) -> np.ndarray:
    """A soft shadow (someone leaning in front of the lamp) reaching in from a side."""
    h, w = frame.shape[:2]
    rng = np.random.default_rng(seed)
    blob = np.zeros((h, w), np.float32)
    centre = (int(rng.uniform(0.2, 0.8) * w), h if rng.random() < 0.5 else 0)
    cv2.ellipse(blob, centre, (int(0.3 * w), int(0.35 * h)), 0, 0, 360, 1.0, -1)
    blob = cv2.GaussianBlur(blob, (0, 0), 0.05 * w)
    return (frame * (1 - 0.35 * blob[..., None])).astype(np.uint8)


#: Changes of a table with no hand that the watcher must take calmly.
CHANGES = {
    "new noise and JPEG": lambda f, i: _noisy(f, i),
    "camera nudged 2 px": lambda f, i: _shifted(f, 2 * f.shape[1] // 640),
    "exposure x0.75": lambda f, i: cv2.convertScaleAbs(f, alpha=0.75),
    "exposure x1.25": lambda f, i: cv2.convertScaleAbs(f, alpha=1.25),
    "a soft shadow from a side": _shadow,
    "light warmer": lambda f, i: np.clip(f * np.float32((0.85, 1.0, 1.12)), 0, 255
                                         ).astype(np.uint8),
}


def watcher_changes(step: int, times: list) -> dict:
    """{change: [false alarms, tables]} over every ``step``-th suite image without a hand."""
    tally: dict = {name: [0, 0] for name in CHANGES}
    items = [(k, v) for k, v in _suite("dice-scenes").items() if v["condition"] != "hand"]
    for i, (key, _) in enumerate(items[::step]):
        table = read_image(DATA / "dice-scenes" / key)
        for name, change in CHANGES.items():
            watcher = HandWatcher()
            watcher.update(table)
            frame = change(table, i)
            start = time.process_time()
            hand = watcher.update(frame).hand
            times.append((frame.shape[1], time.process_time() - start))
            tally[name][0] += hand
            tally[name][1] += 1
    return tally


def dice_thrown(count: int) -> tuple[int, int]:
    """(false alarms, tables): the empty table learned, then ten dice on it."""
    from dataclasses import replace

    from scenes import dice

    alarms = 0
    for k in range(count):
        shots = []
        for n in (0, 10):
            rng = np.random.default_rng([21, k])
            plan = replace(dice.make_plan("plain", rng), n_dice=n)
            data, _ = dice.render(plan, rng)
            shots.append(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))
        alarms += _watch(*shots)
    return alarms, count


def _rate(tally: dict, keys=None) -> str:
    keys = list(tally) if keys is None else [k for k in keys if k in tally]
    fired = sum(tally[k][0] for k in keys)
    total = sum(tally[k][1] for k in keys)
    return f"{fired}/{total}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer composited arms")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    times: list = []
    print("## Hand detector\n")
    print("Command: `.venv/bin/python bench/bench_hand.py`\n")
    print("| set | hands found | false alarms |\n|---|---|---|")
    wrong_all = []
    for name in ("dice-scenes", "cards-scenes", "realdice-byler"):
        tally, wrong = single_frame(name, times)
        wrong_all += wrong
        others = [k for k in tally if k != "hand"]
        hits = _rate(tally, ["hand"]) if "hand" in tally else "-"
        print(f"| {name}, single frame | {hits} | {_rate(tally, others)} |")
    hits, hands, alarms = watcher_rendered()
    print(f"| dice-scenes hands, with table picture | {hits}/{hands} | {alarms}/{hands} |")
    single, watched, alarms, tables = composited(8 if args.quick else 2)
    print(f"| composited arms, single frame | {_rate(single)} | - |")
    print(f"| composited arms, with table picture | {_rate(watched)} | {alarms}/{tables} |")
    update_times: list = []
    for name, (fired, total) in watcher_changes(8 if args.quick else 2, update_times).items():
        print(f"| empty table, then {name}, with table picture | - | {fired}/{total} |")
    fired, total = dice_thrown(3 if args.quick else 12)
    print(f"| empty table, then dice thrown on it, with table picture | - | {fired}/{total} |")
    print("\nComposited arms by Monk tone (single frame / with table picture):\n")
    for group in sorted(single, key=lambda g: (int(g.split()[1]), g)):
        print(f"- {group}: {_rate(single, [group])} / {_rate(watched, [group])}")
    for width in (640, 1280):
        ms = [t * 1000 for w, t in times if w == width]
        if ms:
            print(f"\nMedian CPU per `find_hand` call at width {width}: "
                  f"{statistics.median(ms):.2f} ms ({len(ms)} frames)")
    for width in (640, 1280):
        ms = [t * 1000 for w, t in update_times if w == width]
        if ms:
            print(f"\nMedian CPU per `HandWatcher.update` call at width {width}: "
                  f"{statistics.median(ms):.2f} ms ({len(ms)} frames)")
    print("\nMistakes (single frame): " + (", ".join(wrong_all) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
