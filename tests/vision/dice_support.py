"""Tables and dice drawn in the test: flat, top-down, one hard thing at a time."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import cv2

from companion.dice_cmd import find_rate
from vision.dice import read_dice
from vision.imageio import read_image

GREEN, YELLOW, RED = (50, 160, 40), (30, 205, 235), (45, 40, 200)
BLUE, BLACK, WHITE = (170, 80, 25), (35, 35, 38), (235, 235, 232)
FACE = {"green": GREEN, "yellow": YELLOW, "red": RED}


def table(size=(640, 480), colour=(150, 150, 155), seed=0, noise=3.0) -> np.ndarray:
    """A plain table with a little sensor noise."""
    w, h = size
    rng = np.random.default_rng(seed)
    img = np.full((h, w, 3), colour, np.float32) + rng.normal(0, noise, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def square(centre, side, angle=0.0) -> np.ndarray:
    """Corners (4, 2) of a square seen from above, (x, y) pixels."""
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    pts = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * side / 2
    return pts @ np.array([[c, s], [-s, c]]) + centre


def die(frame, centre, side, colour, *, angle=0.0, pips=3, pip_colour=(245, 245, 245),
        mark=None, shadow=True) -> np.ndarray:
    """Draw a die's top face (rounded square, dark rim, pips or a coloured mark) in place.

    ``colour`` is the face's BGR; with ``mark`` (a BGR) the face is ``colour`` and carries
    a round mark of that colour instead of pips.
    """
    corners = square(np.asarray(centre, float), side, angle)
    if shadow:
        cv2.fillConvexPoly(frame, np.round(corners + side * 0.12).astype(np.int32),
                           (60, 60, 60), cv2.LINE_AA)
    rim = square(np.asarray(centre, float), side * 1.06, angle)
    cv2.fillConvexPoly(frame, np.round(rim).astype(np.int32),
                       tuple(int(c * 0.45) for c in colour), cv2.LINE_AA)
    cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), colour, cv2.LINE_AA)
    cx, cy = centre
    if mark is not None:
        cv2.circle(frame, (int(cx), int(cy)), int(side * 0.27), mark, -1, cv2.LINE_AA)
        return frame
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
             5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
             6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}[pips] if pips else []
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    for sx, sy in spots:
        dx, dy = sx * side * 0.26, sy * side * 0.26
        px, py = cx + dx * c - dy * s, cy + dx * s + dy * c
        cv2.circle(frame, (int(round(px)), int(round(py))), max(1, int(side * 0.08)), pip_colour,
                   -1, cv2.LINE_AA)
    return frame


def scene(colours, *, side=34, size=(640, 480), table_colour=(150, 150, 155), seed=0,
          spacing=90) -> np.ndarray:
    """A table with one die per colour name (or BGR) in a loose grid."""
    frame = table(size, table_colour, seed)
    w, h = size
    cols = max(1, (w - 100) // spacing)
    rng = np.random.default_rng(seed)
    for i, colour in enumerate(colours):
        bgr = FACE.get(colour, colour) if isinstance(colour, str) else colour
        x = 70 + (i % cols) * spacing + rng.uniform(-8, 8)
        y = 70 + (i // cols) * spacing + rng.uniform(-8, 8)
        pip = (30, 30, 30) if sum(bgr) > 600 else (245, 245, 245)
        die(frame, (x, y), side, bgr, angle=rng.uniform(0, 90), pips=int(rng.integers(1, 7)),
            pip_colour=pip)
    return frame


def face(**kw):
    """A crisp green die-sized face candidate (``vision.dice_faces.Face``), with the fields
    in ``kw`` changed."""
    from vision.dice_faces import GREEN, Face
    base = dict(cls=GREEN, area=900.0, centre=(100.0, 100.0),
                box=np.array([[85, 85], [115, 85], [115, 115], [85, 115]], np.float32),
                aspect=1.0, fill=0.88, value=200.0, holes=0.1, mark=0, agree=0.9,
                bgr=(40.0, 180.0, 40.0), ring=0.0, edge=150.0, pips=60.0, max_hole=0.04,
                corners=1.38)
    base.update(kw)
    return Face(**base)


def photo_find_rate(name: str) -> tuple[tuple[int, int], int]:
    """One photo of ``tests/data/realdice-byler`` read: ((boxes holding a die found, false
    finds), boxes labelled), as ``companion eval`` counts them."""
    suite = Path(__file__).resolve().parents[1] / "data" / "realdice-byler"
    boxes = json.loads((suite / "labels.json").read_text())["images"][name]["boxes"]
    return find_rate(boxes, read_dice(read_image(suite / name))), len(boxes)
