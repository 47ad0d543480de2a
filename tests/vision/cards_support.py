"""Helpers for the card tests: the synthetic deck, and tables drawn in the test."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from scenes.card_faces import back_face, deck_specs, draw_face
from vision.cvcompat import warp_perspective
from vision.deck import Deck, build_deck


@functools.lru_cache(maxsize=1)
def faces() -> dict[str, np.ndarray]:
    """Card id -> face of the project's synthetic 24-face deck."""
    return {cid: draw_face(spec) for cid, spec in deck_specs(24).items()}


@functools.lru_cache(maxsize=1)
def deck() -> Deck:
    """The synthetic deck, built in memory from clean faces."""
    return build_deck(sorted(faces().items()))


def table(size: tuple[int, int] = (960, 720), seed: int = 0) -> np.ndarray:
    """A brownish, softly textured table, (H, W, 3) uint8 BGR."""
    w, h = size
    rng = np.random.default_rng(seed)
    noise = cv2.resize(rng.normal(0, 1, (h // 16, w // 16)).astype(np.float32), (w, h))
    base = np.array([60, 95, 140], np.float32)
    return np.clip(base + 18 * noise[..., None], 0, 255).astype(np.uint8)


#: The camera of ``card_corners(tilt=...)``: its distance (= focal length), in card heights.
VIEW_DISTANCE = 2.0


def card_corners(centre: tuple[float, float], height: float, angle_deg: float, *,
                 tilt: float = 0.0) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of a card of ``height`` pixels turned by ``angle_deg``;
    ``tilt`` views it at a slant, its far (top) side that much narrower than its near side
    (0.1 = 10%): the card tilted about its horizontal axis and seen by a pinhole camera
    ``VIEW_DISTANCE`` card heights away, so it is also foreshortened."""
    h = height
    w = h * 252 / 352
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    if tilt:
        d = VIEW_DISTANCE * h
        sin = 2 * d * tilt / (h * (2 - tilt))  # (d - sin h/2) / (d + sin h/2) = 1 - tilt
        if not 0 < sin < 1:
            raise ValueError(f"tilt must be between 0 and {2 / (1 + 2 * VIEW_DISTANCE):.2f}")
        depth = d - pts[:, 1] * sin  # the far side (top, y < 0) further from the camera
        pts = pts * [1, np.sqrt(1 - sin * sin)] * d / depth[:, None]
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (pts @ rot.T + centre).astype(np.float32)


def place(frame: np.ndarray, face: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Paint ``face`` onto a copy of ``frame`` inside ``corners`` (TL, TR, BR, BL)."""
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    size = (frame.shape[1], frame.shape[0])
    warped = warp_perspective(face, m, size, flags=cv2.INTER_AREA)
    mask = warp_perspective(np.full((fh, fw), 255, np.uint8), m, size) > 127
    out = frame.copy()
    out[mask] = warped[mask]
    return out


def back() -> np.ndarray:
    """A card back of the synthetic deck's size."""
    return back_face(0)


def photo_deck(ids: list[str]) -> Deck:
    """A deck taught from one photo per face: each card tilted a little on a plain table."""
    photos = [(cid, place(table((420, 520), seed=k), faces()[cid],
                          card_corners((210, 260), 400, 4 * k - 6)))
              for k, cid in enumerate(ids)]
    return build_deck(photos)
