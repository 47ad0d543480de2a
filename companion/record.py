"""``companion record``: capture labelled camera frames into a recorded-image suite.

The suite is the contract's format, so ``companion eval DIR`` scores the recognizer on it::

    DIR/img/0001.jpg, DIR/img/0002.jpg, ...
    DIR/labels.json   {"kind": "dice", "images": {"img/0001.jpg": {"green": 3, ...}}}

Recording adds to an existing suite (numbering goes on after the highest image). Each
image and each new labels.json is written to a temporary file and renamed into place, so
an interrupted recording never leaves a half-written file; an image is listed in
labels.json only once it is complete.

Labels come from ``--label`` (the same for every capture) or are typed after each
capture: ``3 4 3`` (green yellow red, optionally a 4th number for other dice) for dice,
card ids separated by spaces for cards (``none``: no card). An empty answer discards the
capture; ``q`` stops.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

LABELS = "labels.json"
IMAGES = "img"
_NUMBERED = re.compile(r"^(\d+)\.jpe?g$", re.IGNORECASE)
_COLOURS = ("green", "yellow", "red", "other")


class RecordError(ValueError):
    """A suite or label that cannot be used; the message is one line for the user."""


def parse_label(text: str, kind: str, *, deck_ids: Iterable[str] | None = None
                ) -> dict[str, Any]:
    """Turn a typed label into the suite's label object.

    ``"3 4 3"`` -> ``{"green": 3, "yellow": 4, "red": 3}`` (dice; a 4th number is
    ``other``); ``"perfect good-throw"`` -> ``{"cards": ["perfect", "good-throw"]}``;
    ``"none"`` -> ``{"cards": []}``.

    :raises RecordError: not 3 or 4 whole numbers (dice), or a card id not in the deck.
    """
    words = text.replace(",", " ").split()
    if kind == "dice":
        if len(words) not in (3, 4) or not all(w.isdigit() for w in words):
            raise RecordError(f"A dice label is 3 numbers: green yellow red (e.g. 3 4 3), "
                              f"not {text.strip()!r}.")
        counts = {c: int(w) for c, w in zip(_COLOURS, words)}
        if counts.get("other") == 0:
            del counts["other"]
        return counts
    if words == ["none"]:
        return {"cards": []}
    if not words:
        raise RecordError("A cards label lists card ids, or says none.")
    known = set(deck_ids) if deck_ids is not None else None
    if known:
        unknown = [w for w in words if w not in known]
        if unknown:
            raise RecordError(f"{unknown[0]!r} is not a card of the deck.")
    return {"cards": words}


class Suite:
    """A suite folder being added to: its labels and the next image number.

    :raises RecordError: labels.json is unreadable or of another kind.
    """

    def __init__(self, folder: Path, kind: str, *, deck: str | None = None) -> None:
        self.folder = Path(folder)
        self.kind = kind
        path = self.folder / LABELS
        try:
            self.labels: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.labels = {"kind": kind, "images": {}}
            if kind == "cards":
                self.labels["deck"] = deck or "deck"
        except (OSError, ValueError) as exc:
            raise RecordError(f"{path}: cannot read it ({exc}).") from None
        if not isinstance(self.labels, dict) or not isinstance(self.labels.get("images"), dict):
            raise RecordError(f"{path}: not a suite's labels (no \"images\" table).")
        if self.labels.get("kind") != kind:
            raise RecordError(f"{path} holds a {self.labels.get('kind')!r} suite, "
                              f"not {kind!r}; use --kind {self.labels.get('kind')}.")
        (self.folder / IMAGES).mkdir(parents=True, exist_ok=True)

    def deck_ids(self) -> set[str] | None:
        """The card ids of the suite's deck folder, or None when there is none to check."""
        from vision.deck import IMAGE_SUFFIXES, card_id_of

        deck = self.folder / str(self.labels.get("deck", "deck"))
        if self.kind != "cards" or not deck.is_dir():
            return None
        return {card_id_of(f.name) for f in deck.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES}

    def next_name(self) -> str:
        """``img/NNNN.jpg`` after the highest number in the folder or the labels."""
        names = [Path(n).name for n in self.labels["images"]]
        names += [f.name for f in (self.folder / IMAGES).iterdir()]
        numbers = [int(m.group(1)) for n in names if (m := _NUMBERED.match(n))]
        return f"{IMAGES}/{max(numbers, default=0) + 1:04d}.jpg"

    def save_image(self, frame: np.ndarray) -> str:
        """Write `frame` (H, W, 3) uint8 BGR as the next JPEG; its suite-relative name."""
        from vision.overlay import encode_jpeg

        name = self.next_name()
        _write_atomic(self.folder / name, encode_jpeg(frame, quality=95))
        return name

    def discard(self, name: str) -> None:
        """Remove an image that got no label."""
        (self.folder / name).unlink(missing_ok=True)

    def add(self, name: str, label: dict[str, Any]) -> None:
        """List image `name` with `label` and write labels.json (atomically)."""
        self.labels["images"][name] = label
        text = json.dumps(self.labels, indent=1) + "\n"
        _write_atomic(self.folder / LABELS, text.encode("utf-8"))


def _write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, flush it to disk, then rename."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def grab(camera: Any, *, timeout: float = 5.0, flush: int = 0,
         clock: Callable[[], float] = time.monotonic) -> np.ndarray:
    """The camera's next frame, after dropping `flush` stale ones.

    :raises RecordError: no frame within `timeout` seconds.
    """
    deadline = clock() + timeout
    frame = None
    while clock() < deadline:
        got = camera.read()
        if got is not None:
            frame = got
            if flush <= 0:
                return frame
            flush -= 1
    if frame is not None:
        return frame
    raise RecordError(f"The camera gave no picture for {timeout:g} seconds.")


_STOP = object()


def record(camera: Any, suite: Suite, *, label: str | None = None, every: float | None = None,
           count: int | None = None, ask: Callable[[str], str] = input,
           say: Callable[[str], object] = print, sleep: Callable[[float], object] = time.sleep,
           clock: Callable[[], float] = time.monotonic, flush: int = 0) -> int:
    """Capture frames from `camera` into `suite`; return how many were recorded.

    With `label`, every capture gets it, one capture (or `count`) back to back, or one
    each `every` seconds. Without, each capture waits for Enter (or the `every` seconds)
    and is then labelled through `ask`. Stops after `count` images, on ``q`` or at the end
    of the input.

    :raises RecordError: a bad `label`, or the camera gives no picture.
    """
    deck_ids = suite.deck_ids()
    fixed = None if label is None else parse_label(label, suite.kind, deck_ids=deck_ids)
    if fixed is not None and count is None and every is None:
        count = 1
    saved, next_at = 0, clock()
    while count is None or saved < count:
        if every is not None:
            wait = next_at - clock()
            if wait > 0:
                sleep(wait)
            next_at = max(next_at + every, clock())
        elif fixed is None and _answer(ask, "Set the table, press Enter to capture "
                                            "(q to stop): ").lower() == "q":
            break
        name = suite.save_image(grab(camera, flush=flush))
        got = fixed if fixed is not None else _ask_label(ask, say, suite.kind, deck_ids)
        if got is None or got is _STOP:
            suite.discard(name)
            say(f"{name}: discarded")
            if got is _STOP:
                break
            continue
        suite.add(name, got)  # type: ignore[arg-type]
        saved += 1
        say(f"{name}: {json.dumps(got)}")
    return saved


def _answer(ask: Callable[[str], str], prompt: str) -> str:
    """One line of input, stripped; ``q`` at the end of the input."""
    try:
        return ask(prompt).strip()
    except EOFError:
        return "q"


def _ask_label(ask: Callable[[str], str], say: Callable[[str], object], kind: str,
               deck_ids: set[str] | None) -> dict[str, Any] | object | None:
    """Ask until a valid label; None to discard (empty answer), _STOP on ``q``."""
    prompt = ("Dice seen (green yellow red), Enter to discard, q to stop: " if kind == "dice"
              else "Card ids seen (or none), Enter to discard, q to stop: ")
    while True:
        text = _answer(ask, prompt)
        if not text:
            return None
        if text.lower() == "q":
            return _STOP
        try:
            return parse_label(text, kind, deck_ids=deck_ids)
        except RecordError as exc:
            say(str(exc))


def record_command(args: Any) -> int:
    """``companion record``: exit 0 when done, 1 for a camera failure, 2 for a usage error."""
    from hardware.camera import CameraError, open_camera, parse_camera_spec
    from hardware.replay import ReplayCamera

    prog = "companion record"
    if args.every is not None and not args.every > 0:
        return _fail(prog, "--every must be a number of seconds above 0.", 2)
    if args.count is not None and args.count < 1:
        return _fail(prog, "--count must be 1 or more.", 2)
    deck = None
    if args.deck is not None:
        deck = os.path.relpath(Path(args.deck).resolve(), Path(args.suite).resolve())
    spec = None
    try:
        spec = parse_camera_spec(args.camera)
        if spec.kind == "none":
            return _fail(prog, "recording needs a camera; --camera none has none.", 2)
        # A replay gives its next recorded image at each capture, without pacing.
        camera = (ReplayCamera(spec.path, fps=None) if spec.kind == "replay"
                  else open_camera(spec))
    except CameraError as exc:  # a usage error, except a device that fails to open
        usage = spec is None or spec.kind == "replay"
        return _fail(prog, f"--camera {args.camera}: {exc}", 2 if usage else 1)
    try:
        suite = Suite(Path(args.suite), args.kind, deck=deck)
    except (RecordError, OSError) as exc:
        camera.close()
        return _fail(prog, str(exc), 2)
    saved = 0
    with camera:
        try:
            saved = record(camera, suite, label=args.label, every=args.every, count=args.count,
                           flush=0 if spec.kind == "replay" else 2,
                           say=lambda line: print(line, flush=True))
        except KeyboardInterrupt:
            saved = -1
        except RecordError as exc:
            return _fail(prog, str(exc), 2 if args.label else 1)
        except (CameraError, OSError) as exc:
            return _fail(prog, str(exc), 1)
    total = len(suite.labels["images"])
    done = "Stopped" if saved < 0 else f"Recorded {saved} image{'s' if saved != 1 else ''}"
    plural = "s" if total != 1 else ""
    print(f"{done}; {suite.folder} holds {total} labelled image{plural}. "
          f"Score the recognizer on them: companion eval {suite.folder}")
    return 0


def _fail(prog: str, message: str, status: int) -> int:
    print(f"{prog}: {message}", file=sys.stderr)
    return status
