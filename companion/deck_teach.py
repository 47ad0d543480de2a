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
from typing import Callable, Iterable

import numpy as np

from companion.errors import InvalidAction, NotNow
from companion.games import GAMES, find_game

# vision (and with it OpenCV) is imported inside the functions that look at pictures, so
# listing a deck on the host page does not load it.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")  # as vision.deck.IMAGE_SUFFIXES

FACE_HEIGHT = 400  # pixels of a saved face's long side (as vision.deck.rectified_face)
#: Colour distance (0-441) across a card's edge that counts as an edge: low enough for a
#: pale card on a pale table, or a grey card on a dim grey cloth.
EDGE_CONTRAST = 15.0
EDGE_SHARE, EDGE_SIDE = 0.85, 0.6  # share of edge points that must show it: all, each side
EDGE_CLEAR = 0.95  # an outline this clear is preferred to a larger, less clear one
#: A card's outline has the deck's width / height give or take this much (a tilted view);
#: an outline further off is a printed frame or a misfit, and the capture is refused.
SHAPE_MISFIT = 0.05
TURN_PEERS = 40  # faces already taught that a new one is turned to lie like
SHAPE_GAIN = 0.05  # an outer outline this much nearer the deck's aspect beats a printed frame
FRAME_SHARE = 2.5  # a printed frame covers more than 1 / FRAME_SHARE of its card


class NoCardInView(NotNow):
    """The camera sees no card to learn."""


class TooManyCards(NotNow):
    """The camera sees more than one card; teaching takes them one at a time."""


@dataclass(frozen=True)
class CardFace:
    """One face a game needs: its id (the deck file's stem) and the name printed on it."""

    id: str
    name: str


def card_games() -> list[tuple[str, str]]:
    """(game id, display name) of every registered game that reads cards, in registry order."""
    games = []
    for game_id in GAMES:
        module = find_game(game_id)
        if getattr(module, "CARDS", None):
            games.append((game_id, str(module.NAME)))
    return games


def card_faces(game_id: object) -> tuple[CardFace, ...]:
    """The faces ``game_id`` needs, in the order its module lists them.

    :raises InvalidAction: no such game, or a game without cards (Toss Up! uses dice).
    """
    module = find_game(game_id)
    cards = getattr(module, "CARDS", None)
    if not cards:
        raise InvalidAction(f"{module.NAME} uses no cards, so there is no deck to teach.")
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

    Outline hypotheses (``vision.cards_find``) count as a card only when the colour
    changes across all four of their sides, as it does at a card's edge and rarely
    along a made-up outline on a patterned table.

    :raises NoCardInView: no whole card is found.
    :raises TooManyCards: two or more are.
    """
    from vision.cards_find import find_card_quads
    from vision.deck import DEFAULT_ASPECT

    aspect = DEFAULT_ASPECT if aspect is None else aspect
    quads = find_card_quads(frame, aspect)
    cards = _whole_cards(frame, quads, EDGE_CONTRAST, aspect)
    if not cards:
        raise NoCardInView("No card in view: put one card face up under the camera.")
    if len(cards) > 1:
        raise TooManyCards(f"I see {len(cards)} cards; show one at a time.")
    return cards[0]


def card_image(frame: np.ndarray, *, aspect: float | None = None) -> np.ndarray:
    """The one card in ``frame`` rectified upright, (400, w, 3) uint8 BGR, w from its shape.

    :raises NoCardInView, TooManyCards: as :func:`find_one_card`.
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise InvalidAction("The camera picture is not a colour image.")
    from vision.cards import rectify
    from vision.deck import DEFAULT_ASPECT

    quad = _refined(frame, find_one_card(frame, aspect=aspect))
    quad = _upright(quad)
    if _shape_misfit(quad, DEFAULT_ASPECT if aspect is None else aspect) > SHAPE_MISFIT:
        raise NoCardInView("I cannot make out the card's edge: put it on a plain part of "
                           "the table, away from other things, and try again.")
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    width = (sides[0] + sides[2]) / 2
    height = max((sides[1] + sides[3]) / 2, 1.0)
    size = (FACE_HEIGHT, max(16, round(FACE_HEIGHT * width / height)))
    face, _ = rectify(frame, quad, size)
    return face


def _whole_cards(frame: np.ndarray, quads: list[np.ndarray], contrast: float,
                 aspect: float = 63 / 88) -> list[np.ndarray]:
    """The hypotheses with an edge all round, one per card. Of outlines nested in one
    another the clearest wins, and of equally clear ones the outermost, since a card's
    printed frames have edges all round too (a made-up outline on a patterned table
    around the card rarely shows an edge at every point). But a clear printed frame
    (an art box) loses to an outline around it that has the deck's shape."""
    passing = []
    for quad in quads:
        share, weakest = _edge_score(frame, quad, contrast)
        if share >= EDGE_SHARE and weakest >= EDGE_SIDE:
            passing.append((share >= EDGE_CLEAR, _area(quad), quad))
    passing.sort(key=lambda p: (-p[0], -p[1]))
    cards: list[np.ndarray] = []
    for _, _, quad in passing:
        if any(_inside(quad.mean(axis=0), c) or _inside(c.mean(axis=0), quad) for c in cards):
            continue  # an outline inside a card already counted (or around it)
        cards.append(quad)
    return [_outer_card(c, [q for _, _, q in passing], aspect) for c in cards]


def _outer_card(card: np.ndarray, passing: list[np.ndarray], aspect: float) -> np.ndarray:
    """``card``, or the passing outline around it whose shape is much nearer the deck's
    (``card`` was then a frame printed inside the card)."""
    best, best_misfit = card, _shape_misfit(card, aspect)
    for quad in passing:
        misfit = _shape_misfit(quad, aspect)
        if (1.15 * _area(card) < _area(quad) < FRAME_SHARE * _area(card)
                and _inside(card.mean(axis=0), quad) and misfit < best_misfit - SHAPE_GAIN):
            best, best_misfit = quad, misfit
    return best


def _shape_misfit(quad: np.ndarray, aspect: float) -> float:
    """How far an outline's width / height is from the deck's (0 = the same)."""
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return abs(float(min(a, b) / max(a, b, 1e-6)) - aspect)


def _area(quad: np.ndarray) -> float:
    """Area of a quadrilateral in square pixels (shoelace)."""
    x, y = quad[:, 0].astype(np.float64), quad[:, 1].astype(np.float64)
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def _refined(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The outline fitted again on a crop around the card (as a reference photo), if it
    agrees with ``quad``; else ``quad``."""
    h, w = frame.shape[:2]
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    pad = 0.12 * max(x1 - x0, y1 - y0)
    left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    right, bottom = int(min(w, x1 + pad + 1)), int(min(h, y1 + pad + 1))
    from vision.cards_find import find_face_outline

    found = find_face_outline(frame[top:bottom, left:right])
    if found is None:
        return quad
    found = found.astype(np.float32) + np.array([left, top], np.float32)
    corner_gap = np.hypot(*(_upright(found)[:, None] - _upright(quad)[None]).T).min(axis=0)
    return found if corner_gap.max() < 0.08 * max(x1 - x0, y1 - y0) else quad


def _upright(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left of a portrait card."""
    q = np.asarray(quad, np.float32)
    x, y = q[:, 0], q[:, 1]
    if np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) < 0:
        q = q[::-1].copy()  # clockwise on screen (y points down)
    q = np.roll(q, -int(np.argmin(q.sum(axis=1))), axis=0)
    sides = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
    if sides[0] + sides[2] > sides[1] + sides[3]:  # lying sideways: the long side goes down
        q = np.roll(q, -1, axis=0)
    return q


def _edge_score(frame: np.ndarray, quad: np.ndarray, contrast: float, n: int = 24
                ) -> tuple[float, float]:
    """(share of all, share on the weakest side) of points along the outline where the
    colour just inside differs from just outside by ``EDGE_CONTRAST`` or more."""
    q = np.asarray(quad, np.float32)
    ends = np.roll(q, -1, axis=0)
    edge = ends - q
    normal = np.stack([-edge[:, 1], edge[:, 0]], axis=1)
    normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-9
    normal *= np.sign(((q.mean(axis=0) - q) * normal).sum(axis=1))[:, None]  # inwards
    span = float(np.sqrt(abs(edge[0, 0] * edge[3, 1] - edge[0, 1] * edge[3, 0])))
    step = max(2.0, 0.04 * span)
    t = (np.arange(n) + 0.5) / n
    points = q[:, None] + edge[:, None] * t[None, :, None]  # (4, n, 2)
    inside = _pixels(frame, points + normal[:, None] * step)
    outside = _pixels(frame, points - normal[:, None] * step)
    strong = np.linalg.norm(inside - outside, axis=2) >= contrast
    return float(strong.mean()), float(strong.mean(axis=1).min())


def _pixels(frame: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Colours at (x, y) points (nearest pixel, clamped to the frame), float32."""
    h, w = frame.shape[:2]
    x = np.clip(np.rint(points[..., 0]), 0, w - 1).astype(np.intp)
    y = np.clip(np.rint(points[..., 1]), 0, h - 1).astype(np.intp)
    return frame[y, x].astype(np.float32)


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    """True when ``point`` (x, y) lies inside the convex ``quad``."""
    q = np.asarray(quad, np.float32)
    edge = np.roll(q, -1, axis=0) - q
    rel = point - q
    cross = edge[:, 0] * rel[:, 1] - edge[:, 1] * rel[:, 0]
    return bool((cross >= 0).all() or (cross <= 0).all())


# -- the deck folder -------------------------------------------------------------------

def save_taught(folder: str | os.PathLike[str], card_id: str, face: np.ndarray) -> Path:
    """Write ``face`` as ``<card_id>.png`` in the deck folder, replacing what the card had.

    Turned 180 degrees if it then lies like the deck's other faces (a camera cannot tell
    which way up a card is). Written to a hidden temporary file and renamed, so a recognizer loading the deck at
    the same moment never reads half a file; older photos of the card (``.jpg``,
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
        for old in face_files(root, card_id):
            if old != target:
                old.unlink(missing_ok=True)
        os.replace(tmp, target)
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

