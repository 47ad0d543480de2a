"""Decks: a folder of reference photos, one or more per card face, learned once.

A deck folder holds ``<card-id>.png`` or ``<card-id>.jpg`` (the id is the file stem), and
``<card-id>@<n>.png`` for extra photos of the same face. A reference may be a clean scan or
a photo of the card on a table: the card's outline is found and rectified. The rectified
faces are cached beside the photos (``.companion-index.npz`` in the folder) and rebuilt when
any file is added, removed or changed. All file I/O of the card recognizer is here:
:func:`load_deck` (with its two small helpers) reads, :func:`save_face` writes a taught
face; everything else is pure.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision.cards_face import find_face_outline
from vision.cards_keys import face_keys
from vision.cards_single import quad_area
from vision.cards_match import (COARSE_H, FINE_SCALE, SHARP, Bank, build_bank, canonical_size,
                                sharp_size)
from vision.cvcompat import warp_perspective
from vision.imageio import ImageError, read_image, shrink_to

CACHE_NAME = ".companion-index.npz"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
_FORMAT = 13  # bump when rectification or what the index holds changes: old caches are rebuilt
DEFAULT_ASPECT = 63 / 88  # poker card, used when no reference shows an outline
FACE_HEIGHT = 400  # pixels of the long side of a face saved rectified (taught, rectified_face)
#: A reference photo's long side is shrunk to this before its card is looked for: a folder
#: of 12 Mpx phone photos used as a deck took 790 MB to load (faces are 400 pixels high).
REFERENCE_SIDE = 1600
#: In a face saved rectified, an outline filling this much of it is a frame printed on the
#: face, not the card's edge on a table (a tight photo's edge fills as much: it is kept).
FACE_FILL = 0.6
FACE_ASPECTS = (0.55, 0.85)  # width / height of a picture that may be a whole face


@dataclass(frozen=True)
class Deck:
    """The reference faces of a deck, ready for naming.

    Attributes
    ----------
    ids : tuple of str
        Card id of each reference photo (an id repeats for extra photos).
    faces : ndarray of shape (N, Hf, Wf, 3), uint8, BGR
        Each reference rectified upright at the fine canonical size.
    aspect : float
        Card width / height, portrait.
    bank : Bank
        Precomputed features (``cards_match``).
    problems : tuple of str
        One line per file that was skipped, naming it and why.
    """

    ids: tuple[str, ...]
    faces: np.ndarray
    aspect: float
    bank: Bank
    problems: tuple[str, ...] = ()

    @property
    def card_ids(self) -> tuple[str, ...]:
        """The distinct card ids, sorted."""
        return tuple(sorted(set(self.ids)))


def card_id_of(name: str) -> str:
    """The card id a reference file name stands for: ``"perfect@2.png"`` -> ``"perfect"``."""
    stem = Path(name).stem
    return stem.split("@", 1)[0]


def build_deck(photos: Sequence[tuple[str, np.ndarray]], *, problems: Sequence[str] = ()
               ) -> Deck:
    """Rectify reference photos and index them.

    Parameters
    ----------
    photos : sequence of (card_id, image)
        ``image`` of shape (H, W, 3), uint8, BGR: a scan of the face or a photo of the card.
    """
    outlines = [_card_outline(img) for _, img in photos]
    aspects = [_aspect_of(q) for q in outlines if q is not None]
    aspects += [min(i.shape[0], i.shape[1]) / max(i.shape[0], i.shape[1])
                for (_, i), q in zip(photos, outlines) if q is None]
    aspect = float(np.median(aspects)) if aspects else DEFAULT_ASPECT
    faces = np.stack([_upright_face(img, q, aspect) for (_, img), q in zip(photos, outlines)]
                     ) if photos else np.zeros((0, 1, 1, 3), np.uint8)
    # the same faces larger, for look-alike duels too close to call at the fine size
    sharp = np.stack([_upright_face(img, q, aspect, size=sharp_size(aspect))
                      for (_, img), q in zip(photos, outlines)]) if photos else None
    ids = tuple(cid for cid, _ in photos)
    return deck_from_faces(ids, faces, aspect, problems=problems, sharp=sharp)


def _card_outline(image: np.ndarray) -> np.ndarray | None:
    """The card's outline in a reference picture, or None when the picture is the face
    itself (no outline, or in a face saved rectified, one that is a frame printed on it)."""
    quad = find_face_outline(image)
    if quad is None:
        return None
    h, w = image.shape[:2]
    if max(h, w) == FACE_HEIGHT and FACE_ASPECTS[0] <= min(h, w) / max(h, w) <= FACE_ASPECTS[1] \
            and quad_area(quad) >= FACE_FILL * h * w:
        return None
    return quad


def upright_like(face: np.ndarray, others: Sequence[np.ndarray]) -> np.ndarray:
    """``face`` (h, w, 3) uint8 BGR, or it turned 180 degrees if it then lies more like the
    ``others`` (faces of the same deck, any size); ``face`` itself when there are none."""
    if not others:
        return face
    total = np.sum([_layout(o) for o in others], axis=0)
    plain = _layout(face)
    if float(plain[::-1, ::-1].ravel() @ total.ravel()) > float(plain.ravel() @ total.ravel()):
        return np.ascontiguousarray(face[::-1, ::-1])
    return face


def _layout(face: np.ndarray) -> np.ndarray:
    """A face's layout as its profile of lightness from top to bottom (title band, art box,
    text lines), shape (48, 1), unit length; a straight lighting slope is taken out, since
    a slope looks the other way round once turned."""
    grey = cv2.cvtColor(cv2.resize(face, (24, 48), interpolation=cv2.INTER_AREA),
                        cv2.COLOR_BGR2GRAY).astype(np.float32)
    rows = grey.mean(axis=1)
    t = np.linspace(-1.0, 1.0, len(rows), dtype=np.float32)
    rows = rows - rows.mean() - t * float(t @ rows) / float(t @ t)
    return (rows / (float(np.linalg.norm(rows)) + 1e-6))[:, None]


def deck_from_faces(ids: tuple[str, ...], faces: np.ndarray, aspect: float, *,
                    problems: Sequence[str] = (), sharp: np.ndarray | None = None,
                    keys: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> Deck:
    """A deck from faces already rectified at the fine canonical size (the cached form);
    ``sharp``: the same faces at ``cards_match.sharp_size``, and ``keys`` their SIFT
    keypoints (``cards_keys.face_keys``), when at hand."""
    return Deck(ids=ids, faces=faces, aspect=aspect,
                bank=build_bank(ids, faces, aspect, sharp=sharp, keys=keys),
                problems=tuple(problems))


def rectified_face(image: np.ndarray) -> np.ndarray:
    """The card in a photo, rectified upright at its own aspect (the photo if none found).

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8, BGR

    Returns
    -------
    face : ndarray of shape (h, w, 3), uint8, BGR, with h = 400 and w from the card's aspect.
    """
    quad = find_face_outline(image)
    if quad is None:
        return image.copy()
    aspect = _aspect_of(quad)
    h = FACE_HEIGHT
    w = round(h * aspect)
    return _upright_face(image, quad, aspect, size=(h, w))


def _aspect_of(quad: np.ndarray) -> float:
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return float(min(a, b) / max(a, b))


def _upright_face(image: np.ndarray, quad: np.ndarray | None, aspect: float, *,
                  size: tuple[int, int] | None = None) -> np.ndarray:
    """The face warped to ``size`` (default: the fine canonical size), long side vertical."""
    fh, fw = size or canonical_size(aspect)[1]
    h, w = image.shape[:2]
    if quad is None:
        quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    q = quad.astype(np.float32)
    x, y = q[:, 0], q[:, 1]
    if np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) < 0:
        q = q[::-1].copy()
    # start at the corner nearest the image's top-left, so an upright photo stays upright
    q = np.roll(q, -int(np.argmin(q.sum(axis=1))), axis=0)
    sides = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
    if sides[0] + sides[2] > sides[1] + sides[3]:  # landscape photo: turn it upright
        q = np.roll(q, -1, axis=0)
    dst = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    return warp_perspective(image, m, (fw, fh), flags=cv2.INTER_AREA,
                            borderMode=cv2.BORDER_REPLICATE)


def load_deck(folder: str | os.PathLike[str]) -> Deck:
    """Load a deck folder, from its cache when no file changed since it was built.

    :raises ValueError: the folder does not exist or holds no readable reference image.
    """
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"deck folder {folder} does not exist")
    files, problems = _list_references(root)
    # the OpenCV version too: its SIFT keypoints and warps differ from one version to another
    signature = json.dumps([_FORMAT, cv2.__version__, COARSE_H, FINE_SCALE, SHARP]
                           + [[f.name, *_stamp(f)] for f in files])
    cache = root / CACHE_NAME
    try:
        with open(cache, "rb") as fh, np.load(fh, allow_pickle=False) as z:  # closed on any error
            if str(z["signature"]) == signature:
                return deck_from_faces(tuple(str(i) for i in z["ids"]), z["faces"],
                                       float(z["aspect"]), sharp=z["sharp"],
                                       keys=(z["key_pts"], z["key_owner"], z["key_desc"]),
                                       problems=problems + [str(p) for p in z["problems"]])
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        pass  # no cache yet, or stale, or damaged (cut short by a power cut): rebuild it
    photos, unreadable = [], []
    for f in files:
        try:
            photos.append((card_id_of(f.name), shrink_to(read_image(f), REFERENCE_SIDE)))
        except ImageError as exc:
            unreadable.append(f"{f}: {exc}; skipped")
    problems += unreadable
    if not photos:
        raise ValueError(f"deck folder {folder} holds no readable .png or .jpg card image")
    deck = build_deck(photos, problems=problems)
    # the faces' keypoints are found here, once, and kept: else every process would find
    # them on its first frame that needs the keypoint search (a 120-face deck: ~0.3 s)
    keys = face_keys(deck.faces)
    deck = replace(deck, bank=replace(deck.bank, keys=keys))
    _save_index(cache, signature=np.array(signature), ids=np.array(deck.ids),
                faces=deck.faces, sharp=deck.bank.sharp, aspect=np.array(deck.aspect),
                problems=np.array(unreadable, dtype=str), key_pts=keys[0],
                key_owner=keys[1], key_desc=keys[2])
    return deck


def _save_index(cache: Path, **arrays: np.ndarray) -> None:
    """Write the index whole or not at all: to a file beside it, then moved into place."""
    part = cache.with_name(f"{cache.name}.{os.getpid()}.part")
    try:
        with open(part, "wb") as out:
            np.savez(out, **arrays)
        os.replace(part, cache)
    except OSError:
        part.unlink(missing_ok=True)  # a read-only deck still works, indexed again next time


def save_face(path: str | os.PathLike[str], face: np.ndarray) -> None:
    """Write a reference face as PNG (the deck folder format).

    :raises OSError: the file cannot be written.
    """
    ok, buf = cv2.imencode(".png", face)
    if not ok:
        raise OSError(f"cannot encode {path} as PNG")
    Path(path).write_bytes(buf.tobytes())


def _list_references(root: Path) -> tuple[list[Path], list[str]]:
    """Reference image files in the folder, and one line per file that is not one."""
    files, problems = [], []
    for f in sorted(root.iterdir()):
        if f.name.startswith("."):
            continue
        if f.suffix.lower() not in IMAGE_SUFFIXES or not f.is_file():
            problems.append(f"{f}: not a .png or .jpg card image; skipped")
        elif not card_id_of(f.name):
            problems.append(f"{f}: no card id before the '@'; skipped")
        else:
            files.append(f)
    return files, problems


def _stamp(f: Path) -> tuple[int, int]:
    st = f.stat()
    return st.st_size, st.st_mtime_ns
