"""A synthetic deck of card faces, drawn by the project (no game's art ever ships).

The deck is built to be hard in the ways real decks are: look-alike pairs that share
layout, colour and art and differ only by their title word; number cards that differ only
by their numeral; cards that differ only by a small corner icon. :func:`outside_face`
draws cards of "another game" in the same style, and :func:`back_face` a card back.
Faces are (350, 250, 3) uint8 BGR images (63 x 88 mm at 4 pixels per mm, portrait).
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from scenes.faces_opencv5 import spec_key, stored

FACE_H, FACE_W = 352, 252
_OLD_TEXT = int(cv2.__version__.split(".")[0]) < 5  # putText draws the Hershey fonts
_PALETTE = [(60, 60, 200), (200, 120, 40), (40, 150, 60), (30, 170, 220), (150, 60, 150),
            (90, 90, 90), (20, 110, 200), (170, 150, 40)]
_ICONS = ("circle", "triangle", "square", "star", "diamond", "cross")
TITLE_PAIRS = [("SWAP", "SKIP"), ("DRAW", "DROP"), ("FIRE", "FIVE"), ("BANK", "BARK")]


def deck_specs(size: int = 24) -> dict[str, dict]:
    """Card id -> drawing spec of the synthetic deck (24 faces, or more for benchmarks).

    The first 24: 4 title look-alike pairs, 6 number cards sharing one art, 4 icon
    variants sharing one art, and 6 distinct faces. Beyond 24, more distinct faces.
    """
    specs: dict[str, dict] = {}
    for k, pair in enumerate(TITLE_PAIRS):
        for word in pair:
            specs[f"act-{word.lower()}"] = {"art": 100 + k, "colour": k, "title": word}
    for n in range(1, 7):
        specs[f"num-{n}"] = {"art": 200, "colour": 4, "title": "NUMBER", "numeral": str(n)}
    for icon in _ICONS[:4]:
        specs[f"rune-{icon}"] = {"art": 300, "colour": 5, "title": "RUNE", "icon": icon}
    names = ["COMET", "TOWER", "RIVER", "FOX", "ANCHOR", "MOON"]
    for k, word in enumerate(names):
        specs[f"hero-{word.lower()}"] = {"art": 400 + k, "colour": 6 + k % 2, "title": word}
    k = 0
    while len(specs) < size:
        specs[f"extra-{k}"] = {"art": 1000 + k, "colour": k % len(_PALETTE),
                               "title": f"X{k:03d}", "numeral": str(k % 10)}
        k += 1
    return dict(list(specs.items())[:size])


def draw_face(spec: dict) -> np.ndarray:
    """Draw one face from its spec (deterministic; on OpenCV 4.x the stored faces of
    ``faces_opencv5`` for the specs it holds, as OpenCV 5 draws their text)."""
    if _OLD_TEXT:
        hit = stored().get(spec_key(spec))
        if hit is not None:
            return hit.copy()
    ss = 2
    h, w = FACE_H * ss, FACE_W * ss
    img = np.full((h, w, 3), 246, np.uint8)
    colour = _PALETTE[spec["colour"] % len(_PALETTE)]
    rng = np.random.default_rng(spec["art"])
    m = 14 * ss
    cv2.rectangle(img, (m, m), (w - m, h - m), colour, 3 * ss)
    cv2.rectangle(img, (m + 8 * ss, 60 * ss), (w - m - 8 * ss, 250 * ss), _light(colour), -1)
    _art(img, rng, (m + 8 * ss, 60 * ss, w - m - 8 * ss, 250 * ss), colour)
    cv2.rectangle(img, (m, m), (w - m, 52 * ss), colour, -1)
    _text(img, spec["title"], (w // 2, 33 * ss), 0.95 * ss, (255, 255, 255), 2 * ss)
    for k in range(3):  # rules text stand-in, fixed by the art
        y = (268 + 16 * k) * ss
        length = int(rng.uniform(0.5, 0.9) * (w - 2 * m - 30 * ss))
        cv2.line(img, (m + 15 * ss, y), (m + 15 * ss + length, y), (120, 120, 120), 2 * ss)
    if "numeral" in spec:
        _text(img, spec["numeral"], (w // 2, 170 * ss), 3.2 * ss, (255, 255, 255), 9 * ss)
        _text(img, spec["numeral"], (w // 2, 170 * ss), 3.2 * ss, (30, 30, 30), 4 * ss)
        _text(img, spec["numeral"], (w - m - 22 * ss, h - m - 18 * ss), 1.0 * ss, colour, 2 * ss)
    if "icon" in spec:
        _icon(img, spec["icon"], (w - m - 26 * ss, h - m - 26 * ss), 15 * ss, colour)
    return cv2.resize(img, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def outside_face(key: str) -> np.ndarray:
    """A face of another game, same style, not in the deck (deterministic per key)."""
    seed = zlib.crc32(key.encode()) % 10_000
    return draw_face({"art": 5000 + seed, "colour": seed % len(_PALETTE),
                      "title": key.upper()[:6], "numeral": str(seed % 10)})


BACK_STYLES = 7  # designs :func:`back_face` draws (0 and 1: the suites' lattice backs)


def back_face(style: int = 0) -> np.ndarray:
    """A card back: a lattice pattern inside a white margin (styles 0 and 1), or one of
    other common designs (2: dots, 3: frames round an emblem, 4: plaid, 5: full-bleed
    with a logo oval, 6: fine stripes); ``style`` is taken modulo ``BACK_STYLES``."""
    if style % BACK_STYLES >= 2:
        return _other_back(style % BACK_STYLES)
    img = np.full((FACE_H, FACE_W, 3), 245, np.uint8)
    colour = [(40, 40, 170), (150, 70, 30)][style % 2]
    cv2.rectangle(img, (14, 14), (FACE_W - 14, FACE_H - 14), colour, -1)
    for k in range(-FACE_H, FACE_W + FACE_H, 16):
        cv2.line(img, (k, 14), (k + FACE_H, FACE_H + 14), (235, 235, 235), 2)
        cv2.line(img, (k, FACE_H - 14), (k + FACE_H, -FACE_H - 14), (235, 235, 235), 2)
    img[:14], img[-14:], img[:, :14], img[:, -14:] = 245, 245, 245, 245
    return img


def _other_back(style: int) -> np.ndarray:
    """Back designs 2-6 of :func:`back_face` (deterministic)."""
    h, w = FACE_H * 2, FACE_W * 2
    img = np.full((h, w, 3), 245, np.uint8)
    colour = [(30, 110, 30), (40, 40, 40), (30, 30, 150), (140, 40, 20), (20, 90, 160)][style - 2]
    m = 0 if style == 5 else 28
    cv2.rectangle(img, (m, m), (w - m, h - m), colour, -1)
    if style == 2:  # polka dots
        for y in range(m + 20, h - m, 36):
            for x in range(m + 20 + (18 if (y // 36) % 2 else 0), w - m - 10, 36):
                cv2.circle(img, (x, y), 9, (235, 235, 235), -1, cv2.LINE_AA)
    elif style == 3:  # nested frames round a central emblem
        for k in range(1, 6):
            cv2.rectangle(img, (m + 14 * k, m + 14 * k), (w - m - 14 * k, h - m - 14 * k),
                          (225, 225, 225), 3)
        _icon(img, "star", (w // 2, h // 2), 80, (225, 225, 225))
    elif style == 4:  # plaid
        for k in range(m, max(h, w), 44):
            cv2.line(img, (k, m), (k, h - m), (90, 200, 230), 8)
            cv2.line(img, (m, k), (w - m, k), (90, 200, 230), 8)
            cv2.line(img, (k + 22, m), (k + 22, h - m), (230, 230, 230), 2)
    elif style == 5:  # full bleed, a logo oval and its word
        cv2.ellipse(img, (w // 2, h // 2), (w // 3, h // 4), -35, 0, 360, (235, 235, 235), -1,
                    cv2.LINE_AA)
        _text(img, "GAME", (w // 2, h // 2), 2.2, colour, 6)
    else:  # fine diagonal stripes
        for k in range(-h, w + h, 12):
            cv2.line(img, (k, m), (k + h, h + m), (225, 225, 225), 3)
    img[:m], img[h - m:], img[:, :m], img[:, w - m:] = 245, 245, 245, 245
    return cv2.resize(img, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def _light(colour: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple(int(235 - (235 - c) * 0.25) for c in colour)


def _text(img: np.ndarray, text: str, centre: tuple[int, int], scale: float,
          colour: tuple[int, ...], thick: int) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _art(img: np.ndarray, rng: np.random.Generator, box: tuple[int, int, int, int],
         colour: tuple[int, int, int]) -> None:
    """Random but fixed shapes: the 'illustration' shared by a family of faces."""
    x0, y0, x1, y1 = box
    for _ in range(7):
        cx, cy = rng.uniform(x0 + 20, x1 - 20), rng.uniform(y0 + 20, y1 - 20)
        r = rng.uniform(0.08, 0.22) * (x1 - x0)
        shade = tuple(int(c * rng.uniform(0.4, 1.0)) for c in colour)
        if rng.random() < 0.5:
            cv2.circle(img, (int(cx), int(cy)), int(r), shade, -1, cv2.LINE_AA)
        else:
            ang = rng.uniform(0, np.pi)
            pts = np.array([[cx + r * np.cos(ang + a), cy + r * np.sin(ang + a)]
                            for a in (0, 2.1, 4.2)], np.int32)
            cv2.fillConvexPoly(img, pts, shade, cv2.LINE_AA)


def _icon(img: np.ndarray, kind: str, centre: tuple[int, int], r: int,
          colour: tuple[int, int, int]) -> None:
    cx, cy = centre
    if kind == "circle":
        cv2.circle(img, centre, r, colour, -1, cv2.LINE_AA)
        return
    if kind == "cross":
        cv2.line(img, (cx - r, cy - r), (cx + r, cy + r), colour, r // 3)
        cv2.line(img, (cx - r, cy + r), (cx + r, cy - r), colour, r // 3)
        return
    n = {"triangle": 3, "square": 4, "diamond": 4, "star": 10}[kind]
    turn = {"triangle": -np.pi / 2, "square": np.pi / 4, "diamond": 0, "star": -np.pi / 2}[kind]
    pts = []
    for k in range(n):
        rad = r * (0.45 if kind == "star" and k % 2 else 1.0)
        a = turn + 2 * np.pi * k / n
        pts.append([cx + rad * np.cos(a), cy + rad * np.sin(a)])
    cv2.fillPoly(img, [np.array(pts, np.int32)], colour, cv2.LINE_AA)
