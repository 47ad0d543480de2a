"""Things on the table: dice (two styles), coins, cards, pencils and a hand at the edge.

Everything is drawn into a float32 BGR canvas in place (supersampled by the caller), in
world millimetres projected through a :class:`scenes.camera.Camera`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cv2

from scenes.camera import Camera, warp_patch
from vision.cvcompat import warp_affine

# Base BGR colours of Toss Up! faces and of other games' dice.
FACE_BGR = {"green": (60, 150, 35), "yellow": (25, 200, 235), "red": (45, 35, 195)}
OTHER_BGR = [(170, 80, 25), (40, 40, 42), (225, 225, 222), (140, 50, 110), (30, 110, 230)]
_DIRS = {"+x": (1, 0, 0), "-x": (-1, 0, 0), "+y": (0, 1, 0), "-y": (0, -1, 0),
         "+z": (0, 0, 1), "-z": (0, 0, -1)}


@dataclass(frozen=True)
class Die:
    """A cube of edge ``size`` mm at (x, y) turned ``yaw`` radians, one colour per face."""

    x: float
    y: float
    yaw: float
    size: float
    faces: dict  # direction ("+z" ...) -> colour name or BGR tuple
    style: str  # "solid" (coloured all over) or "mark" (light body, coloured mark)
    look: dict  # per-set appearance: pip colour, mark shape, body colour

    @property
    def top(self) -> str:
        c = self.faces["+z"]
        return c if isinstance(c, str) else "other"


def random_faces(rng: np.random.Generator, colours=None) -> dict:
    """Assign colours to the six faces: 3 green, 2 yellow, 1 red unless given."""
    colours = list(colours or ["green"] * 3 + ["yellow"] * 2 + ["red"])
    order = rng.permutation(6)
    return {d: colours[i] for d, i in zip(_DIRS, order)}


def _rgb(colour, look: dict) -> np.ndarray:
    if isinstance(colour, str):
        base = np.array(look["palette"][colour], np.float32)
    else:
        base = np.array(colour, np.float32)
    return base


def face_texture(colour, style: str, look: dict, n: int, pips: int) -> np.ndarray:
    """Return an (n, n, 4) float32 BGRA face with rounded corners, bevel and symbol."""
    tex = np.zeros((n, n, 4), np.float32)
    body = _rgb(colour, look) if style == "solid" else np.array(look["body"], np.float32)
    tex[..., :3] = body
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / (n - 1)
    edge = np.minimum.reduce([xx, yy, 1 - xx, 1 - yy])
    tex[..., :3] *= (0.78 + 0.22 * np.clip(edge / 0.09, 0, 1))[..., None]
    tex[..., :3] *= (1 + 0.05 * (xx - yy))[..., None]
    if style == "mark":
        _draw_mark(tex, _rgb(colour, look), look["mark"], look["mark_size"])
    elif pips:
        _draw_pips(tex, pips, np.array(look["pip"], np.float32))
    r = 0.16
    cx, cy = np.clip(xx, r, 1 - r), np.clip(yy, r, 1 - r)
    dist = np.hypot(xx - cx, yy - cy)
    tex[..., 3] = np.clip((r - dist) * n + 0.5, 0, 1)
    return tex


def _draw_pips(tex: np.ndarray, pips: int, colour: np.ndarray) -> None:
    n = tex.shape[0]
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
             5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
             6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}[pips]
    for sx, sy in spots:
        c = (int(n * (0.5 + 0.26 * sx) * 16), int(n * (0.5 + 0.26 * sy) * 16))
        cv2.circle(tex, c, int(n * 0.085 * 16), (*colour.tolist(), 1.0), -1, cv2.LINE_AA, 4)


def _draw_mark(tex: np.ndarray, colour: np.ndarray, shape: str, size: float) -> None:
    n = tex.shape[0]
    col = (*colour.tolist(), 1.0)
    c = (n * 8, n * 8)
    rad = int(n * size / 2 * 16)
    if shape == "circle":
        cv2.circle(tex, c, rad, col, -1, cv2.LINE_AA, 4)
    elif shape == "square":
        d = int(rad * 0.85)
        cv2.rectangle(tex, (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), col, -1, cv2.LINE_AA, 4)
    else:  # star
        ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:10]
        rr = np.where(np.arange(10) % 2 == 0, rad, rad * 0.5)
        pts = np.stack([c[0] + rr * np.cos(ang), c[1] + rr * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(tex, [pts], col, cv2.LINE_AA, 4)


def _face_geometry(die: Die, key: str) -> tuple[np.ndarray, np.ndarray]:
    """Normal (3,) and corners (4, 3) of one face in world mm."""
    c, s = np.cos(die.yaw), np.sin(die.yaw)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    n = np.array(_DIRS[key], float)
    up = np.array([0, 0, 1.0]) if key[1] != "z" else np.array([0, 1.0, 0])
    u = np.cross(up, n)
    v = up
    h = die.size / 2
    centre = n * h + np.array([0, 0, h])
    corners = [centre + h * (-u + v), centre + h * (u + v), centre + h * (u - v), centre + h * (-u - v)]
    world = np.array(corners) @ rot.T + [die.x, die.y, 0]
    return rot @ n, world


def draw_die(canvas: np.ndarray, cam: Camera, die: Die, light: np.ndarray, scale: float,
             rng: np.random.Generator) -> None:
    """Draw the visible faces of ``die`` with Lambert shading from unit vector ``light``."""
    outline = []
    faces = []
    for key in _DIRS:
        normal, corners = _face_geometry(die, key)
        centre = corners.mean(0)
        if normal @ (cam.centre - centre) <= 0:
            continue
        quad = cam.project(corners) * scale
        outline.append(quad)
        shade = 0.42 + 0.62 * max(0.0, float(normal @ light))
        faces.append((key, quad, shade))
    hull = cv2.convexHull(np.concatenate(outline).astype(np.float32))
    body = np.array(die.look["body"] if die.style == "mark" else _rgb(die.faces["+z"], die.look))
    cv2.fillPoly(canvas, [np.round(hull * 16).astype(np.int32)], (body * 0.35).tolist(),
                 cv2.LINE_AA, 4)
    n = 96
    for key, quad, shade in faces:
        tex = face_texture(die.faces[key], die.style, die.look, n, die.look["pips"].get(key, 0))
        tex[..., :3] *= shade
        if key == "+z" and die.look.get("gloss", 0) > 0:
            yy, xx = np.mgrid[0:n, 0:n] / n
            g = die.look["gloss"] * np.exp(-((xx - 0.3) ** 2 + (yy - 0.3) ** 2) / 0.05)
            tex[..., :3] += (g * 90)[..., None]
        warp_patch(canvas, None, tex, quad)


def die_shadow_polygon(cam: Camera, die: Die, light: np.ndarray) -> np.ndarray:
    """Image polygon (N, 2) of the die's cast shadow on the table (unscaled pixels)."""
    pts = []
    for key in ("+z", "-z"):
        _, corners = _face_geometry(die, key)
        for p in corners:
            t = p[2] / max(light[2], 0.15)
            pts.append([p[0] - light[0] * t, p[1] - light[1] * t, 0.0])
    img = cam.project(np.array(pts))
    return cv2.convexHull(img.astype(np.float32))[:, 0, :]


def draw_coin(canvas, cam: Camera, x: float, y: float, radius: float, scale: float,
              rng: np.random.Generator) -> None:
    """A coin lying flat: an ellipse with a metallic radial gradient and a rim."""
    metal = [(150, 150, 155), (60, 120, 170), (70, 160, 200)][rng.integers(3)]
    ang = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    for r, k in ((radius, 0.7), (radius * 0.86, 1.0), (radius * 0.5, 1.12)):
        pts = np.stack([x + r * np.cos(ang), y + r * np.sin(ang), np.full(48, 1.8)], 1)
        poly = np.round(cam.project(pts) * scale * 16).astype(np.int32)
        cv2.fillPoly(canvas, [poly], [c * k for c in metal], cv2.LINE_AA, 4)


def draw_card(canvas, cam: Camera, x: float, y: float, yaw: float, scale: float,
              rng: np.random.Generator) -> None:
    """A playing card (63 x 88 mm) face up or face down, flat on the table."""
    c, s = np.cos(yaw), np.sin(yaw)
    pts = np.array([[-31.5, -44], [31.5, -44], [31.5, 44], [-31.5, 44]])
    world = np.c_[pts @ np.array([[c, s], [-s, c]]) + [x, y], np.full(4, 0.3)]
    poly = cam.project(world) * scale
    back = [(230, 232, 235), (40, 40, 160), (140, 70, 30), (50, 120, 40)][rng.integers(4)]
    cv2.fillPoly(canvas, [np.round(poly * 16).astype(np.int32)], back, cv2.LINE_AA, 4)
    inner = cam.project(np.c_[pts * 0.8 @ np.array([[c, s], [-s, c]]) + [x, y], np.full(4, 0.3)])
    ink = [(30, 30, 30), (40, 40, 200), (220, 220, 220)][rng.integers(3)]
    cv2.polylines(canvas, [np.round(inner * scale * 16).astype(np.int32)], True, ink,
                  max(1, int(scale)), cv2.LINE_AA, 4)


def draw_pencil(canvas, cam: Camera, x: float, y: float, yaw: float, scale: float,
                rng: np.random.Generator) -> None:
    """A hexagonal pencil lying on the table: painted body, wood tip, eraser."""
    length = rng.uniform(110, 170)
    paint = [(30, 200, 235), (40, 140, 40), (40, 40, 190), (150, 80, 30)][rng.integers(4)]
    d = np.array([np.cos(yaw), np.sin(yaw)])
    nrm = np.array([-d[1], d[0]])
    parts = [(0.0, 0.82, paint), (0.82, 0.95, (140, 185, 220)), (-0.08, 0.0, (150, 150, 230))]
    for t0, t1, col in parts:
        for side, k in ((-1, 0.7), (0, 1.0), (1, 0.85)):
            w0, w1 = side * 3.5 - 1.2, side * 3.5 + 1.2
            if t0 > 0.8:
                w0, w1 = w0 * 0.6, w1 * 0.6
            a, b = np.array([x, y]) + d * length * t0, np.array([x, y]) + d * length * t1
            quad = np.array([a + nrm * w0, b + nrm * w0, b + nrm * w1, a + nrm * w1])
            img = cam.project(np.c_[quad, np.full(4, 4.0)]) * scale
            cv2.fillPoly(canvas, [np.round(img * 16).astype(np.int32)],
                         [c * k for c in col], cv2.LINE_AA, 4)


def draw_hand(canvas, shadow: np.ndarray, scale: float, rng: np.random.Generator) -> None:
    """A hand reaching in from one image edge (image space), with its shadow in ``shadow``."""
    h, w = canvas.shape[:2]
    skin = np.array([(110, 150, 215), (80, 120, 185), (60, 90, 140), (150, 180, 230)][rng.integers(4)],
                    np.float32)
    side = rng.integers(4)
    along = rng.uniform(0.25, 0.75)
    size = rng.uniform(0.22, 0.32) * min(h, w)
    base = {0: (along * w, h + size * 0.3), 1: (along * w, -size * 0.3),
            2: (-size * 0.3, along * h), 3: (w + size * 0.3, along * h)}[side]
    inward = {0: (0, -1), 1: (0, 1), 2: (1, 0), 3: (-1, 0)}[side]
    layer = np.zeros((h, w), np.float32)
    bx, by = base
    ix, iy = inward
    cv2.ellipse(layer, (int(bx), int(by)), (int(size * 0.55), int(size * 0.6)), 0, 0, 360, 1, -1)
    for k, f in enumerate(np.linspace(-0.45, 0.45, 4)):
        px, py = bx + ix * size * 0.45 - iy * f * size, by + iy * size * 0.45 + ix * f * size
        ln = size * rng.uniform(0.45, 0.7)
        qx, qy = px + ix * ln + iy * f * size * 0.2, py + iy * ln - ix * f * size * 0.2
        cv2.line(layer, (int(px), int(py)), (int(qx), int(qy)), 1, int(size * 0.16))
    shadow_shift = np.float32([[1, 0, -ix * size * 0.2 + 10], [0, 1, -iy * size * 0.2 + 10]])
    shadow[:] = np.maximum(shadow, warp_affine(layer, shadow_shift, (w, h)) * 0.5)
    alpha = cv2.GaussianBlur(layer, (0, 0), max(1.0, scale))[..., None]
    shade = cv2.GaussianBlur(layer, (0, 0), size * 0.12)[..., None]
    colour = skin * (0.65 + 0.45 * shade)
    canvas[:] = canvas * (1 - alpha) + colour * alpha
