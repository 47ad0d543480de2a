"""``companion detect dice`` and ``companion eval`` on dice suites.

Output of ``detect`` (CONTRACT.md): one JSON object per line, one line per image, in the
order given: ``{"image": PATH, "green": g, "yellow": y, "red": r, "other": o}`` or
``{"image": PATH, "error": LINE}``. Exit 0 when every image was read, 1 when one could not
be. Never a traceback: whatever goes wrong with one image becomes its error line. A
black-and-white photo is such an error (the dice's colours cannot be told), never a count
of "other" dice nor of no dice.

``eval`` reads a suite folder (``labels.json`` of kind ``dice``, or ``dice-count`` for
photos whose dice are boxed but not coloured) and prints each image it got wrong, then a
summary: exact-match rate, per-colour error, per-die accuracy when the labels place the
dice, per-condition rates when they name a condition, and time per image.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

import numpy as np

from vision.dice import read_dice
from vision.imageio import ImageError, read_image, read_reduced
from vision.results import DICE_COLOURS, DiceReading

_COLOURS = DICE_COLOURS  # green, yellow, red, other


def detect(paths: list[str], *, out: IO[str], calibration: Any = None) -> int:
    """Count the dice by top-face colour in each image; one JSON line per image on ``out``
    (with this table's ``calibration``, ``vision.calibrate``, when given)."""
    status = 0
    for path in paths:
        try:
            reading = read_colour_dice(read_image(path), calibration=calibration)
            line = {"image": path, **reading.to_dict()}
        except ImageError as exc:
            line, status = {"image": path, "error": str(exc)}, 1
        except (ValueError, MemoryError) as exc:
            line, status = {"image": path, "error": f"cannot read dice: {_one_line(exc)}"}, 1
        except Exception as exc:  # noqa: BLE001 - the contract forbids tracebacks
            line, status = {"image": path, "error": f"internal error: {_one_line(exc)}"}, 1
        out.write(json.dumps(line) + "\n")
        out.flush()
    return status


def read_colour_dice(frame: np.ndarray, *, calibration: Any = None) -> DiceReading:
    """``read_dice``, refusing a black-and-white photo.

    Toss Up! is scored by the colours of the top faces, so a photo with no colour can
    never be read: not even as "no dice", since grey dice may go unseen in it (a grey
    copy of the demo's frame 3 read as zero dice).

    :raises ImageError: the frame has no colour (every pixel grey).
    """
    if _is_grey(frame):
        raise ImageError("a black-and-white photo: the dice's colours cannot be told; "
                         "use a colour photo")
    return read_dice(frame, calibration=calibration)


def _is_grey(frame: np.ndarray) -> bool:
    """True when no pixel's channels differ by more than a JPEG's rounding (a mono photo)."""
    sample = frame[::2, ::2].astype(np.int16)
    return bool(np.abs(sample - sample[..., 1:2]).max() <= 3)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


def evaluate(suite_dir: Path, labels: dict, *, out: IO[str], calibration: Any = None) -> int:
    """Score the dice reader on a suite; print mistakes and a summary on ``out`` (with
    this table's ``calibration`` when given).

    Returns 0 when every image could be read and scored, 1 when one could not, 2 when the
    labels are malformed.
    """
    images = labels.get("images")
    if not isinstance(images, dict) or not images:
        what = "is empty" if isinstance(images, dict) else "must be an object"
        out.write(f'companion eval: {suite_dir}: labels.json "images" {what}: '
                  '{"photo.jpg": {"green": 1, "yellow": 0, "red": 2}, ...} '
                  "(see: companion eval --help)\n")
        return 2
    if labels.get("kind") == "dice-count":
        return _evaluate_finder(suite_dir, images, out=out, calibration=calibration)
    score = _Score()
    for name in sorted(images):
        label = images[name]
        if not isinstance(label, dict) or not all(isinstance(label.get(c, 0), int) for c in _COLOURS):
            out.write(f"{name}: malformed label\n")
            score.unreadable += 1
            continue
        reading, seconds, error = _read(suite_dir / name, colour=True, calibration=calibration)
        if reading is None:
            out.write(f"{name}: cannot read ({error})\n")
            score.unreadable += 1
            continue
        score.add(name, label, reading, seconds, out)
    score.report(out)
    return 1 if score.unreadable else 0


def _read(path: Path, *, colour: bool = False,
          calibration: Any = None) -> tuple[DiceReading | None, float, str]:
    """(reading, CPU seconds, why not); the dice's places in the picture's own pixels.

    ``colour``: a black-and-white photo with dice in it is unreadable (their colours).
    """
    try:
        frame, factor = read_reduced(path)
    except ImageError as exc:
        return None, 0.0, str(exc)
    start = time.process_time()
    try:
        reading = (read_colour_dice(frame, calibration=calibration) if colour
                   else read_dice(frame, calibration=calibration))
    except ValueError as exc:
        return None, 0.0, _one_line(exc)
    seconds = time.process_time() - start
    return _scaled(reading, factor), seconds, ""


def _scaled(reading: DiceReading, factor: int) -> DiceReading:
    """``reading`` with each die's outline and centre multiplied by ``factor`` (a photo
    over the pixel limit is read smaller; labels give places in its own pixels)."""
    if factor == 1:
        return reading
    dice = tuple(replace(d, centre=(d.centre[0] * factor, d.centre[1] * factor),
                         outline=tuple((x * factor, y * factor) for x, y in d.outline))
                 for d in reading.dice)
    return replace(reading, dice=dice)


class _Score:
    """Running totals for a dice suite."""

    def __init__(self) -> None:
        self.n = self.exact = self.unreadable = 0
        self.abs_err = dict.fromkeys(_COLOURS, 0)
        self.dice = self.dice_right = 0
        self.times: list[float] = []
        self.by_condition: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def add(self, name: str, label: dict, reading: DiceReading, seconds: float, out: IO[str]) -> None:
        want = tuple(int(label.get(c, 0)) for c in _COLOURS)
        got = reading.counts()
        ok = want == got
        self.n += 1
        self.exact += ok
        self.times.append(seconds)
        for c, w, g in zip(_COLOURS, want, got):
            self.abs_err[c] += abs(w - g)
        cond = label.get("condition")
        if isinstance(cond, str):
            self.by_condition[cond][0] += ok
            self.by_condition[cond][1] += 1
        if isinstance(label.get("dice"), list):
            right, total = _match_dice(label["dice"], reading)
            self.dice_right += right
            self.dice += total
        if not ok:
            where = f" [{cond}]" if isinstance(cond, str) else ""
            out.write(f"{name}: saw {_fmt(got)}, expected {_fmt(want)}{where}\n")

    def report(self, out: IO[str]) -> None:
        if not self.n:
            out.write("no image could be scored\n")
            return
        out.write(f"images: {self.n} scored, {self.unreadable} unreadable\n")
        out.write(f"exact match: {self.exact}/{self.n} = {100 * self.exact / self.n:.1f}%\n")
        err = ", ".join(f"{c} {self.abs_err[c] / self.n:.3f}" for c in _COLOURS)
        out.write(f"per-colour mean absolute error (dice per image): {err}\n")
        if self.dice:
            out.write(f"per-die: {self.dice_right}/{self.dice} = "
                      f"{100 * self.dice_right / self.dice:.2f}% found with the right colour\n")
        times = sorted(self.times)
        out.write(f"time per image (CPU): median {1000 * times[len(times) // 2]:.1f} ms, "
                  f"max {1000 * times[-1]:.1f} ms\n")
        if self.by_condition:
            out.write("per condition (exact match):\n")
            for cond, (ok, n) in sorted(self.by_condition.items(), key=lambda kv: kv[1][0] / kv[1][1]):
                out.write(f"  {cond:14s} {ok}/{n} = {100 * ok / n:.1f}%\n")


def _fmt(counts: tuple[int, ...]) -> str:
    return " ".join(f"{c[0]}{n}" for c, n in zip(_COLOURS, counts))


def _match_dice(labelled: list, reading: DiceReading) -> tuple[int, int]:
    """(dice found at their labelled place with the labelled colour, labelled dice).

    A labelled die matches the nearest unused die within 0.6 of the typical die size.
    """
    if not reading.dice:
        return 0, len(labelled)
    sizes = sorted(_span(d.outline) for d in reading.dice)
    reach = 0.6 * sizes[len(sizes) // 2]
    unused = list(reading.dice)
    right = 0
    for item in labelled:
        try:
            x, y, colour = float(item["x"]), float(item["y"]), item["colour"]
        except (KeyError, TypeError, ValueError):
            continue
        best = min(unused, key=lambda d: (d.centre[0] - x) ** 2 + (d.centre[1] - y) ** 2,
                   default=None)
        if best is None or ((best.centre[0] - x) ** 2 + (best.centre[1] - y) ** 2) ** 0.5 > reach:
            continue
        unused.remove(best)
        right += best.colour == colour
    return right, len(labelled)


def _span(outline: tuple[tuple[float, float], ...]) -> float:
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    return max(max(xs) - min(xs), max(ys) - min(ys), 1.0)


def find_rate(boxes: list, reading: DiceReading) -> tuple[int, int]:
    """(labelled boxes holding a found die's centre, found dice inside no box).

    Each box is [x0, y0, x1, y1] in frame pixels; each found die is used at most once.
    """
    unused = list(reading.dice)
    hits = 0
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        inside = [d for d in unused if x0 <= d.centre[0] <= x1 and y0 <= d.centre[1] <= y1]
        if inside:
            best = min(inside, key=lambda d: (d.centre[0] - cx) ** 2 + (d.centre[1] - cy) ** 2)
            unused.remove(best)
            hits += 1
    return hits, len(unused)


def _evaluate_finder(suite_dir: Path, images: dict, *, out: IO[str],
                     calibration: Any = None) -> int:
    """Photos of ordinary dice, each boxed: how many dice are found, how many false finds."""
    labelled = found = hits = false = unreadable = 0
    times = []
    for name in sorted(images):
        boxes = images[name].get("boxes") if isinstance(images[name], dict) else None
        reading, seconds, error = _read(suite_dir / name, calibration=calibration)
        if reading is None or not isinstance(boxes, list):
            out.write(f"{name}: cannot read ({error or 'no boxes'})\n")
            unreadable += 1
            continue
        h, f = find_rate(boxes, reading)
        labelled, found, hits, false = labelled + len(boxes), found + reading.count, hits + h, false + f
        times.append(seconds)
        if h < len(boxes) or f:
            out.write(f"{name}: found {h}/{len(boxes)} dice, {f} false\n")
    if labelled:
        out.write(f"dice found: {hits}/{labelled} = {100 * hits / labelled:.1f}%\n")
        out.write(f"false finds: {false}/{max(found, 1)} = {100 * false / max(found, 1):.1f}% "
                  f"of what was found\n")
    if times:
        times.sort()
        out.write(f"time per image (CPU): median {1000 * times[len(times) // 2]:.1f} ms\n")
    return 1 if unreadable else 0
