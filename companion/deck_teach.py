"""Teaching a deck live: show each card the game needs under the camera and name it.

Used by ``companion deck learn --game GAME_ID`` (the command line walks the game's faces)
and by the host page's "Teach cards" panel (``web/decks.py``). One capture is: take a
still frame, find exactly one card in it, rectify the card upright and save it into the
deck folder as ``<card-id>.png`` (the contract's deck format, which ``vision.deck``
indexes and caches; the cache is rebuilt when a file changes).

>>> run = TeachRun.start("sorry-21", Path("data/decks/sorry-21"))
>>> run.current.name                     # '0': the first face not taught yet
>>> run.capture(frame)                   # saves number-0.png, moves on to the next face

Refusals are :class:`~companion.errors.ActionError` sentences a player understands:
"No card in view: put one card face up under the camera." (409).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

import numpy as np

from companion.durable import fsync_path
from companion.errors import InvalidAction, NotNow
from companion.games import GAMES, find_game

# vision (and with it OpenCV) is imported inside the functions that look at pictures, so
# listing a deck on the host page does not load it.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")  # as vision.deck.IMAGE_SUFFIXES

FACE_HEIGHT = 400  # pixels of a saved face's long side (as vision.deck.rectified_face)
#: A card's outline has the deck's width / height give or take this much (read in perspective);
#: an outline further off is a printed frame or a misfit, and the capture is refused. Read in
#: perspective the true outline's aspect is the deck's within 0.013 (focal length 25% off),
#: the captures' outlines within 0.010 (69 rendered captures); an art box with three sides
#: on the card's edge, 0.046.
SHAPE_MISFIT = 0.03
#: Each side of a saved face's outline lies on one straight edge (the card's) along this
#: share of its length or more (``vision.cards_own.own_edges``, within 4% of the card): a
#: face cut askew, one side running from a corner out onto the table, is the deck's only
#: picture of that card and makes a look-alike's cards nearer to the other face.
SIDE_ON_EDGE = 0.8
TURN_PEERS = 40  # faces already taught that a new one is turned to lie like
#: Width / height (portrait) a card of a deck may have: tarot 0.55-0.58, hanafuda 0.60,
#: bridge and skat 0.64-0.65, mini 0.66, Dixit 0.67, poker 0.72 (square cards are left out:
#: a card cut short at its title band reads 0.80-0.85). The deck's first cards may have any.
CARD_ASPECTS = (0.5, 0.75)
#: The deck's shape is set once this many faces are taught (the median of their shapes,
#: so one capture cut wrong among the first does not set it); later captures must fit it.
ASPECT_VOTES = 3
#: Most share of a capture (inside its rim) the camera may see at its ceiling in
#: ``CLIPPED_CHANNELS`` channels or more (``vision.cards_exposure``): past it the paper is
#: clipped, and light print with it. The captures of the deck taught live
#: (``bench/bench_teach.py``) read 0-0.01 (paper below the ceiling) or 0.10-0.25 (a pale art
#: box lost, and BANK cards named BARK: seeds 141, every channel; 45, green and red).
CLIPPED_MOST = 0.05
#: Channels at the ceiling that lose a light colour's lightness: two (green with red on a
#: yellow band) carry most of it, so a tinted light that clips two is as bad as a white one.
CLIPPED_CHANNELS = 2
UNCLEAR_EDGE = ("I cannot make out the card's edge: put it on a plain part of the table, "
                "away from other things, and try again.")
TOO_BRIGHT = ("The card is too bright for the camera: its light colours are lost. Dim the "
              "light on it or move it out of the lamp's glare, and try again.")
OTHER_SHAPE = ("This card looks {shape} than the cards taught so far: show the whole card "
               "on a plain part of the table, or, if the first cards were cut wrong, redo them.")


class NoCardInView(NotNow):
    """The camera sees no card to learn."""


class TooManyCards(NotNow):
    """The camera sees more than one card; teaching takes them one at a time."""


class TooBright(NotNow):
    """The camera saw the card's paper at its ceiling: less light on it is the remedy."""


@dataclass(frozen=True)
class CardFace:
    """One face a game needs: its id (the deck file's stem) and the name printed on it."""

    id: str
    name: str


def reads_cards(module: ModuleType) -> bool:
    """Whether the camera reads this game's cards, so its deck can be taught: the module
    lists ``CARDS`` and has the camera link's ``from_cards`` hook (not Toss Up!, which
    has no cards, nor Paper Tales, kept by taps alone)."""
    return bool(getattr(module, "CARDS", None)) and hasattr(module, "from_cards")


def card_games() -> list[tuple[str, str]]:
    """(game id, display name) of every registered game whose cards the camera reads
    (:func:`reads_cards`), in registry order."""
    return [(game_id, str(find_game(game_id).NAME)) for game_id in GAMES
            if reads_cards(find_game(game_id))]


def card_faces(game_id: object) -> tuple[CardFace, ...]:
    """The faces ``game_id`` needs, in the order its module lists them.

    :raises InvalidAction: no such game, a game without cards (Toss Up! uses dice), or one
        whose cards the camera does not read (Paper Tales is kept by taps alone).
    """
    if not isinstance(game_id, str) or game_id not in GAMES:
        known = ", ".join(gid for gid, _ in card_games())
        raise InvalidAction(f"Unknown game {game_id!r}; the games with a deck to teach: "
                            f"{known}." if isinstance(game_id, str) else
                            f"'game' must be one of: {known}.")
    module = find_game(game_id)
    cards = getattr(module, "CARDS", None)
    if not cards:
        raise InvalidAction(f"{module.NAME} uses no cards, so there is no deck to teach.")
    if not hasattr(module, "from_cards"):
        raise InvalidAction(f"The camera reads no {module.NAME} cards, so there is no deck "
                            "to teach.")
    return tuple(CardFace(str(cid), str(name)) for cid, name in cards.items())


def find_face(game_id: object, card_id: object) -> CardFace:
    """The face ``card_id`` of ``game_id``.

    :raises InvalidAction: the game has no such card (this also refuses any path trick).
    """
    faces = card_faces(game_id)
    for face in faces:
        if face.id == card_id:
            return face
    shown = card_id if isinstance(card_id, str) and len(card_id) <= 40 else "that"
    raise InvalidAction(f"{find_game(game_id).NAME} has no card {shown!r}.")


def deck_folder(data_dir: str | os.PathLike[str], game_id: str) -> Path:
    """Where a game's taught deck lives: ``<data>/decks/<game-id>/`` (the recognizer looks
    there while the game runs)."""
    return Path(data_dir) / "decks" / game_id


def card_id_of(name: str) -> str:
    """The card id a reference file name stands for (as ``vision.deck.card_id_of``)."""
    return Path(name).stem.split("@", 1)[0]


def face_files(folder: str | os.PathLike[str], card_id: str) -> list[Path]:
    """The reference images of one card in a deck folder (``<id>.png``, ``<id>@2.jpg``...)."""
    root = Path(folder)
    if not root.is_dir():
        return []
    return sorted(f for f in root.iterdir()
                  if f.suffix.lower() in IMAGE_SUFFIXES and not f.name.startswith(".")
                  and card_id_of(f.name) == card_id and f.is_file())


def taught_counts(folder: str | os.PathLike[str]) -> dict[str, int]:
    """Card id -> how many reference images the deck folder holds for it."""
    root = Path(folder)
    counts: dict[str, int] = {}
    if root.is_dir():
        for f in root.iterdir():
            if f.suffix.lower() in IMAGE_SUFFIXES and not f.name.startswith(".") and f.is_file():
                cid = card_id_of(f.name)
                counts[cid] = counts.get(cid, 0) + 1
    return counts


# -- one capture: a still frame -> exactly one card -> its face --------------------------

def settled_frame(read: Callable[[], np.ndarray | None], *, still: int = 3,
                  max_motion: float = 3.0, attempts: int = 60) -> np.ndarray:
    """Read frames until ``still`` in a row barely change; return the last.

    ``read`` is a camera's ``read``; a repeated frame object counts as still.

    :raises NotNow: the camera gave no frame, or the picture never settled.
    """
    from vision.settle import motion_score

    previous, calm, seen = None, 0, False
    for _ in range(attempts):
        frame = read()
        if frame is None:
            continue
        seen = True
        motion = 0.0 if frame is previous else motion_score(previous, frame)
        calm = calm + 1 if previous is not None and motion <= max_motion else 0
        previous = frame
        if calm + 1 >= still:
            return frame
    if not seen:
        raise NotNow("The camera gives no picture; check that it is connected.")
    raise NotNow("The picture keeps moving: hold still and keep hands out of view.")


def find_one_card(frame: np.ndarray, *, aspect: float | None = None) -> np.ndarray:
    """The outline of the one whole card in ``frame``: corners (x, y), shape (4, 2).

    See :func:`vision.cards_single.whole_cards`: an outline counts as a card only when
    the colour changes across all four of its sides.

    :raises NoCardInView: no whole card is found.
    :raises TooManyCards: two or more are.
    """
    from vision.cards_single import search_cards
    from vision.deck import DEFAULT_ASPECT

    search = search_cards(frame, DEFAULT_ASPECT if aspect is None else aspect)
    cards = search.cards
    if not cards and search.edged:  # outlines along a pattern, none a card's own edges
        raise NoCardInView(UNCLEAR_EDGE)
    if not cards:
        raise NoCardInView("No card in view: put one card face up under the camera.")
    if len(cards) + search.doubtful > 1:  # a card whose edge is less clear counts here too
        raise TooManyCards(f"I see {len(cards) + search.doubtful} cards; show one at a time.")
    return cards[0]


def card_image(frame: np.ndarray, *, aspect: float | None = None) -> np.ndarray:
    """The one card in ``frame`` rectified upright, (400, w, 3) uint8 BGR, its light evened
    out from its border (``vision.cards_light``).

    ``aspect`` is the deck's width / height (:func:`deck_aspect`): the card's outline,
    read in perspective, must fit it. None (what the CLI, the host page and the bench
    pass: the faces' stored shapes are too loose to check the next capture by, see
    :func:`deck_aspect`): any card's shape (``CARD_ASPECTS``, read in perspective by
    ``vision.cards_single.card_aspect``) is taken. The face keeps the shape its outline
    shows (its mean sides), so the deck's faces store the deck's shape, a little wider
    than the card when seen aslant; the recognizer warps every face to the deck's median.

    :raises NoCardInView, TooManyCards: as :func:`find_one_card`; NoCardInView also for an
        outline that is no card's shape, or not the deck's, or has a side off a straight edge.
    :raises TooBright: the camera saw the card's paper at its ceiling (``CLIPPED_MOST``).
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise InvalidAction("The camera picture is not a colour image.")
    from vision.cards import rectify
    from vision.cards_exposure import clipped_share
    from vision.cards_light import even_light
    from vision.cards_own import own_edges
    from vision.cards_single import card_aspect, card_outline, on_rim, view_misfit

    quad = on_rim(frame, card_outline(frame, find_one_card(frame, aspect=aspect)))
    if min(own_edges(frame, quad).straight) < SIDE_ON_EDGE:  # a side off the card's edge
        raise NoCardInView(UNCLEAR_EDGE)
    shape = card_aspect(quad, frame.shape)
    if aspect is None:
        if not CARD_ASPECTS[0] <= shape <= CARD_ASPECTS[1]:
            raise NoCardInView(UNCLEAR_EDGE)
    elif view_misfit(quad, aspect, frame.shape) > SHAPE_MISFIT:  # seen in perspective
        raise NoCardInView(OTHER_SHAPE.format(shape="narrower" if shape < aspect else "wider"))
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    width = (sides[0] + sides[2]) / 2
    height = max((sides[1] + sides[3]) / 2, 1.0)
    size = (FACE_HEIGHT, max(16, round(FACE_HEIGHT * width / height)))
    face, _ = rectify(frame, quad, size)
    if clipped_share(face, channels=CLIPPED_CHANNELS) > CLIPPED_MOST:  # past the ceiling
        raise TooBright(TOO_BRIGHT)
    return even_light(face)


# -- the deck folder -------------------------------------------------------------------

def deck_aspect(folder: str | os.PathLike[str]) -> float | None:
    """The width / height of the deck's cards, as its taught faces show it: the median
    shape of the faces saved (``<id>.png`` at 400 pixels high) once ``ASPECT_VOTES`` are,
    else None (the deck's shape is not set yet). Decks taught before read the same way.

    Each face keeps the shape its outline showed, up to 0.04-0.07 off the card's when
    seen aslant (a tarot card read 0.575-0.625, poker ones 0.65-0.79); the median of many
    is within 0.015 of it, but that of the first three can be 0.03 off (0.689 for 0.716
    cards), too far to check the next capture by: a deck's shape to check captures by
    needs each face's measured shape (``card_aspect``) stored with it.
    """
    root = Path(folder)
    if not root.is_dir():
        return None
    shapes = []
    for f in root.iterdir():
        if f.suffix.lower() == ".png" and not f.name.startswith(".") and f.is_file():
            size = _png_size(f)
            if size is not None and size[1] == FACE_HEIGHT:
                shapes.append(size[0] / size[1])
    return float(np.median(shapes)) if len(shapes) >= ASPECT_VOTES else None


def _png_size(path: Path) -> tuple[int, int] | None:
    """(width, height) from a PNG file's header, or None when it is not a readable PNG."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def save_taught(folder: str | os.PathLike[str], card_id: str, face: np.ndarray) -> Path:
    """Write ``face`` as ``<card_id>.png`` in the deck folder, replacing what the card had.

    Turned 180 degrees if it then lies like the deck's other faces (a camera cannot tell
    which way up a card is). Written to a hidden temporary file, flushed to the disk and
    renamed, so a recognizer loading the deck at the same moment never reads half a file
    and a power cut right after the answer loses nothing; older photos of the card (``.jpg``,
    ``@n``) are removed, so a redo replaces the face instead of adding a second one.

    :raises OSError: the folder cannot be written.
    """
    from vision.deck import save_face, upright_like
    from vision.imageio import ImageError, read_image

    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    target = root / f"{card_id}.png"
    others = []
    for f in sorted(root.glob("*.png"))[:TURN_PEERS]:  # lie like the faces already taught
        if card_id_of(f.name) != card_id and not f.name.startswith("."):
            try:
                others.append(read_image(f))
            except ImageError:
                pass  # a broken file is named when the deck is loaded
    face = upright_like(face, others)
    fd, tmp = tempfile.mkstemp(prefix=f".{card_id}-", suffix=".png", dir=root)
    os.close(fd)
    try:
        save_face(tmp, face)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a deck is an ordinary folder
        fsync_path(tmp)  # on disk before it takes the name: a power cut leaves no empty face
        for old in face_files(root, card_id):
            if old != target:
                old.unlink(missing_ok=True)
        os.replace(tmp, target)
        fsync_path(root)  # the rename itself, before the teaching page hears "saved"
    finally:
        Path(tmp).unlink(missing_ok=True)
    return target


def forget(folder: str | os.PathLike[str], card_id: str) -> int:
    """Delete every reference image of ``card_id`` from the deck folder; how many."""
    files = face_files(folder, card_id)
    for f in files:
        f.unlink(missing_ok=True)
    return len(files)


# -- a teaching run: which face is next ------------------------------------------------

@dataclass
class TeachRun:
    """The faces still to show, in the game's order, and where they are saved.

    ``queue`` holds the faces of this run; ``position`` the one being asked for.
    """

    game: str
    folder: Path
    queue: tuple[CardFace, ...]
    position: int = 0

    @classmethod
    def start(cls, game: str, folder: str | os.PathLike[str], *,
              every: bool = False) -> "TeachRun":
        """A run over the faces not taught yet (``every``: all the game's faces).

        :raises InvalidAction: unknown game, or one without cards.
        """
        faces = card_faces(game)
        if not every:
            taught = taught_counts(folder)
            faces = tuple(f for f in faces if not taught.get(f.id))
        return cls(game=game, folder=Path(folder), queue=faces)

    @property
    def current(self) -> CardFace | None:
        """The face to show now, or None when the run is through."""
        return self.queue[self.position] if self.position < len(self.queue) else None

    @property
    def is_done(self) -> bool:
        """True once every face of the run was taught or skipped."""
        return self.position >= len(self.queue)

    def capture(self, frame: np.ndarray) -> Path:
        """Learn the current face from ``frame`` and move on; the file written.

        :raises NotNow: the run is through. :raises NoCardInView, TooManyCards: as
            :func:`find_one_card` (the run stays on this face).
        """
        face = self.current
        if face is None:
            raise NotNow("Every card of this run is done.")
        path = save_taught(self.folder, face.id, card_image(frame))
        self.position += 1
        return path

    def skip(self) -> None:
        """Leave the current face untaught and go to the next."""
        self.position = min(self.position + 1, len(self.queue))

    def back(self) -> None:
        """Go back one face, to show it again (a redo)."""
        self.position = max(self.position - 1, 0)

    def untaught(self) -> list[CardFace]:
        """The game's faces that have no reference image yet."""
        taught = taught_counts(self.folder)
        return [f for f in card_faces(self.game) if not taught.get(f.id)]


def describe(faces: Iterable[CardFace]) -> str:
    """"Slide to 10 (slide-10), Switch (switch)": faces for a message."""
    return ", ".join(f"{f.name} ({f.id})" for f in faces)

