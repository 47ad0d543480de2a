"""``companion detect cards``, ``companion eval`` on card suites, and teaching a deck.

Output of ``detect`` (CONTRACT.md): one JSON object per line, one line per image, in the
order given: ``{"image": PATH, "cards": [ids]}`` or ``{"image": PATH, "error": LINE}``.
Exit 0 when every image was read, 1 when one could not be, 2 for a usage error (a deck
folder that cannot be loaded). Problems with single deck files go to stderr, one line each.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import IO, Callable, Mapping

import numpy as np

from vision.cards import read_cards
from vision.deck import IMAGE_SUFFIXES, Deck, load_deck, rectified_face, save_face
from vision.imageio import ImageError, read_image, shrink_to

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _load(deck_dir: str, prog: str) -> Deck | None:
    """Load the deck, printing its problems; None (after one line on stderr) if unusable."""
    if Path(deck_dir).is_file():
        print(f"{prog}: --deck {deck_dir} is a file: give the deck folder (one image per "
              "card, named by its id)", file=sys.stderr)
        return None
    try:
        deck = load_deck(deck_dir)
    except (ValueError, OSError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    for line in deck.problems:
        print(f"{prog}: deck: {line}", file=sys.stderr)
    return deck


def detect(paths: list[str], deck_dir: str, *, out: IO[str]) -> int:
    """Name the known card faces in each image; one JSON line per image on ``out``."""
    deck = _load(deck_dir, "companion detect cards")
    if deck is None:
        return 2
    status = 0
    for path in paths:
        try:
            line = {"image": path, "cards": list(read_cards(read_image(path), deck).ids)}
        except ImageError as exc:
            line, status = {"image": path, "error": str(exc)}, 1
        except (ValueError, MemoryError) as exc:  # a picture too small to hold a card
            line, status = {"image": path, "error": f"cannot read cards: {_one_line(exc)}"}, 1
        except Exception as exc:  # noqa: BLE001 - the contract forbids tracebacks
            line, status = {"image": path, "error": f"internal error: {_one_line(exc)}"}, 1
        out.write(json.dumps(line) + "\n")
        out.flush()
    return status


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


def evaluate(suite_dir: Path, labels: dict, *, out: IO[str],
             clock: Callable[[], float] = time.process_time) -> int:
    """Score card naming on a recorded-image suite; prints mistakes and a summary.

    Returns 0 when the suite was scored (whatever the score), 2 when it cannot be.
    """
    images = labels.get("images")
    deck_name = labels.get("deck", "deck")
    if not isinstance(images, dict) or not isinstance(deck_name, str):
        print(f'companion eval: {suite_dir}: labels.json needs "deck" (a folder name) and '
              '"images" as an object: {"photo.jpg": {"cards": ["AH"]}, ...} '
              "(see: companion eval --help)", file=sys.stderr)
        return 2
    deck = _load(str(suite_dir / deck_name), "companion eval")
    if deck is None:
        return 2
    score = _Score()
    for name, label in images.items():
        want = Counter(label.get("cards", []) if isinstance(label, dict) else [])
        try:
            frame = read_image(suite_dir / name)
            start = clock()
            got = Counter(read_cards(frame, deck).ids)
        except (ImageError, ValueError) as exc:  # unreadable, or too small for a card
            out.write(f"{name}: unreadable ({_one_line(exc)})\n")
            score.add(want, Counter(), 0.0)
            continue
        score.add(want, got, clock() - start)
        if got != want:
            missed = sorted((want - got).elements())
            extra = sorted((got - want).elements())
            out.write(f"{name}: missed {missed or '-'}, wrongly named {extra or '-'}\n")
    out.write(score.summary() + "\n")
    return 0


class _Score:
    """Running tallies for :func:`evaluate`."""

    def __init__(self) -> None:
        self.images = self.exact = self.tp = self.fp = self.fn = 0
        self.seconds = 0.0

    def add(self, want: Counter, got: Counter, seconds: float) -> None:
        self.images += 1
        self.exact += got == want
        self.tp += sum((want & got).values())
        self.fp += sum((got - want).values())
        self.fn += sum((want - got).values())
        self.seconds += seconds

    def summary(self) -> str:
        n = max(self.images, 1)
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return (f"{self.images} images: exact set {self.exact}/{self.images} "
                f"({100 * self.exact / n:.1f}%), precision {100 * precision:.1f}%, "
                f"recall {100 * recall:.1f}%, {1000 * self.seconds / n:.0f} ms per image (CPU)")


def learn_from_folder(photos_dir: str | Path, deck_dir: str | Path, *,
                      out: IO[str] = sys.stdout, cards: Mapping[str, str] | None = None) -> int:
    """Teach a deck from photos named by card id: find the card, rectify, save its face.

    Each photo ``<card-id>.jpg`` (or ``<card-id>@<n>.jpg``) shows one card on a table;
    its rectified face is written to ``deck_dir/<same stem>.png``. The card is looked for
    as the camera's teaching looks for it (:func:`companion.deck_teach.card_image`), then
    as a reference photo's outline; a photo where neither finds it is saved whole, as a
    scan would be, and named on ``out`` (a photo of a card on a busy table is better
    retaken or cropped). A photo whose card the camera read at its ceiling is skipped with
    what to do (``PHOTO_TOO_BRIGHT``): its face would lack the card's light print. With
    ``cards`` (the game's card ids and the names printed on them) a photo may also be
    named by the printed name (``0.jpg``, ``Slide to 15.jpg``), and one named otherwise is
    skipped with the nearest id, not taught as a face the game never plays. Each photo gets
    a line on ``out`` as it is done. Returns 0, 1 if a photo was unreadable or too bright,
    or none was taught (one line on stderr says why).
    """
    src, dst = Path(photos_dir), Path(deck_dir)
    if not src.is_dir():
        print(f"companion deck learn: {src} is not a folder", file=sys.stderr)
        return 2
    status, taught, whole, misnamed = 0, 0, 0, 0
    for photo in sorted(p for p in src.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES):
        stem, at, copy = photo.stem.partition("@")
        card = stem if cards is None else card_named(stem, cards)
        if card is None:
            hint = nearest_card(stem, cards or {})
            out.write(f"{photo.name}: no card of this game is called '{stem}'"
                      + (f" (did you mean '{hint}'?)" if hint else "") + "; skipped\n")
            misnamed += 1
            continue
        if not _ID.match(card):
            out.write(f"{photo.name}: not named by a card id; skipped\n")
            continue
        try:
            face, found = _photo_face(read_image(photo))
        except (ImageError, ValueError) as exc:  # unreadable, or too small
            out.write(f"{photo.name}: {_one_line(exc)}; skipped\n")
            status = 1
            continue
        dst.mkdir(parents=True, exist_ok=True)
        save_face(dst / f"{card}{at}{copy}.png", face)
        taught += 1
        if found:
            out.write(f"{photo.name}: taught as {card}\n")
        else:
            out.write(f"{photo.name}: taught as {card}, but no card edge was found, so the "
                      "whole photo is its face (right for a scan or a photo cropped to the "
                      "card; else retake it with the card alone on a plain table, or crop "
                      "it)\n")
            whole += 1
        out.flush()  # a line as each photo is done: 50 phone photos take a minute or more
    if misnamed and cards:
        out.write("This game's card ids (a photo may also be named by the card's printed "
                  "name): " + ", ".join(cards) + "\n")
    if not taught:
        why = ("none of its photos could be used (see above)" if status else
               "it needs photos named by card id, e.g. <card-id>.jpg")
        print(f"companion deck learn: no card taught from {src}: {why}", file=sys.stderr)
        return 1
    out.write(f"taught {taught} card face{'' if taught == 1 else 's'} into {dst}"
              + (f" ({whole} of them whole photos: see above)" if whole else "") + "\n")
    return status


def _plain(text: str) -> str:
    """`text` as compared with card names: letters and digits only, case folded."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def card_named(stem: str, cards: Mapping[str, str]) -> str | None:
    """The card id a photo's name stands for: the id itself, or the id or printed name of
    exactly one card once case, spaces and punctuation are set aside; None otherwise."""
    if stem in cards:
        return stem
    key = _plain(stem)
    hits = {card for card, name in cards.items() if key and key in (_plain(card), _plain(name))}
    return hits.pop() if len(hits) == 1 else None


def nearest_card(stem: str, cards: Mapping[str, str]) -> str | None:
    """The card id whose id or printed name is closest to a photo's unmatched name."""
    keys = {}
    for card, name in cards.items():
        keys.setdefault(_plain(card), card)
        keys.setdefault(_plain(name), card)
    close = difflib.get_close_matches(_plain(stem), list(keys), n=1, cutoff=0.6)
    return keys[close[0]] if close else None


# A photo whose card the camera read at its ceiling (``deck_teach.TooBright``): saved, its
# face would lack the light print the card has, and its look-alike would win every duel.
PHOTO_TOO_BRIGHT = ("the card is too bright in this photo: its light colours are lost. "
                    "Retake it with less light on the card, out of the lamp's glare")
# Long side a photo is looked at when teaching: a 12 Mpx phone photo is shrunk to it (the
# face is saved 400 pixels high; finding the card at 4000 pixels took up to 7 s).
TEACH_SIDE = 1600
MIN_PHOTO_SIDE = 32  # pixels: a smaller picture holds no card face worth teaching
# Photos taught from: the deck's own formats, and what phones and editors save besides (a
# HEIC photo is read or named with what to do, never passed over in silence).
PHOTO_SUFFIXES = IMAGE_SUFFIXES + (".webp", ".heic", ".heif", ".avif", ".bmp", ".tif",
                                   ".tiff")


def _photo_face(photo: np.ndarray) -> tuple[np.ndarray, bool]:
    """(the card's face, True) from a photo of one card; (the photo, False) if none found.

    :raises ValueError: the photo is smaller than ``MIN_PHOTO_SIDE``, or its card is too
        bright (``PHOTO_TOO_BRIGHT``).
    """
    from companion.deck_teach import TooBright, card_image
    from companion.errors import NotNow

    if min(photo.shape[:2]) < MIN_PHOTO_SIDE:
        raise ValueError(f"too small to hold a card ({photo.shape[1]}x{photo.shape[0]} "
                         "pixels)")
    photo = shrink_to(photo, TEACH_SIDE)
    try:
        return card_image(photo), True
    except TooBright:  # the card found, its light print lost with the paper: not a face
        raise ValueError(PHOTO_TOO_BRIGHT) from None
    except NotNow:  # no card, several, or none with a clear edge: try a reference's way
        pass
    face = rectified_face(photo)  # the photo itself when it finds no outline
    return face, not (face.shape == photo.shape and np.array_equal(face, photo))
