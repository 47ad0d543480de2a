"""Table surface textures for rendered scenes: felt, cloth, checkered, wood, laminate, stone.

Every function is deterministic for a given ``rng`` and returns a BGR texture as an
ndarray of shape (H, W, 3), uint8, seen straight from above. The scale is given in
pixels per millimetre so that a checker or a wood plank has a real-world size.
Stable API (also used by the card scenes): :data:`SURFACES` and :func:`make_surface`.
"""

from __future__ import annotations

import numpy as np

import cv2

SURFACES = ("felt", "cloth", "checkered", "wood-dark", "wood-light", "laminate", "stone")


def make_surface(kind: str, shape: tuple[int, int], px_per_mm: float,
                 rng: np.random.Generator) -> np.ndarray:
    """Return a table texture of the named kind.

    Parameters
    ----------
    kind : one of :data:`SURFACES`
    shape : (rows, cols) of the texture in pixels
    px_per_mm : texture pixels per millimetre of table
    rng : seeded numpy generator (colours and pattern phases come from it)

    Returns
    -------
    texture : ndarray of shape (rows, cols, 3), uint8, BGR

    :raises ValueError: unknown ``kind``.
    """
    makers = {"felt": _felt, "cloth": _cloth, "checkered": _checkered,
              "wood-dark": _wood_dark, "wood-light": _wood_light,
              "laminate": _laminate, "stone": _stone}
    if kind not in makers:
        raise ValueError(f"kind must be one of {', '.join(SURFACES)}, not {kind!r}")
    tex = makers[kind](shape, px_per_mm, rng)
    return np.clip(tex, 0, 255).astype(np.uint8)


def smooth_noise(shape: tuple[int, int], scale_px: float, rng: np.random.Generator) -> np.ndarray:
    """Return zero-mean, unit-deviation noise smoothed over about ``scale_px`` pixels."""
    h, w = shape
    step = max(1.0, scale_px)
    sh, sw = max(2, int(h / step) + 3), max(2, int(w / step) + 3)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (int(sw * step), int(sh * step)), interpolation=cv2.INTER_CUBIC)
    out = big[:h, :w]
    if out.shape != (h, w):
        out = cv2.resize(big, (w, h), interpolation=cv2.INTER_LINEAR)
    return (out - out.mean()) / (out.std() + 1e-6)


def _base(shape: tuple[int, int], bgr: tuple[float, float, float]) -> np.ndarray:
    return np.ones((*shape, 3), np.float32) * np.array(bgr, np.float32)


def _jitter(bgr: tuple[float, float, float], rng: np.random.Generator,
            amount: float = 12.0) -> tuple[float, float, float]:
    b, g, r = (c + rng.uniform(-amount, amount) for c in bgr)
    return (b, g, r)


def _felt(shape, ppm, rng):
    colours = [(40, 110, 30), (45, 95, 35), (70, 125, 25), (110, 60, 20)]
    weights = [0.45, 0.25, 0.2, 0.1]
    col = _jitter(colours[rng.choice(len(colours), p=weights)], rng)
    tex = _base(shape, col)
    lum = 1 + 0.06 * smooth_noise(shape, 30 * ppm, rng) + 0.05 * smooth_noise(shape, 0.6 * ppm, rng)
    return tex * lum[..., None]


def _cloth(shape, ppm, rng):
    colours = [(40, 35, 170), (35, 30, 140), (120, 90, 60), (150, 150, 150), (60, 130, 200)]
    weights = [0.55, 0.25, 0.1, 0.05, 0.05]
    col = _jitter(colours[rng.choice(len(colours), p=weights)], rng)
    tex = _base(shape, col)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    period = max(2.0, 1.2 * ppm)
    weave = 0.05 * np.sin(2 * np.pi * xx / period) * np.sin(2 * np.pi * yy / period)
    folds = 0.08 * smooth_noise(shape, 60 * ppm, rng)
    lum = 1 + weave + folds + 0.04 * smooth_noise(shape, 0.5 * ppm, rng)
    return tex * lum[..., None]


def _checkered(shape, ppm, rng):
    pairs = [((45, 40, 190), (235, 235, 240)), ((50, 120, 40), (230, 235, 235)),
             ((40, 40, 40), (225, 225, 225)), ((150, 80, 30), (235, 235, 235))]
    dark, light = pairs[rng.choice(len(pairs), p=[0.5, 0.2, 0.15, 0.15])]
    dark, light = _jitter(dark, rng), _jitter(light, rng, 6)
    period = rng.uniform(12, 30) * ppm
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    ph = rng.uniform(0, period, 2)
    sx = (np.floor((xx + ph[0]) / period) % 2).astype(np.float32)
    sy = (np.floor((yy + ph[1]) / period) % 2).astype(np.float32)
    if rng.random() < 0.5:  # gingham: stripes that overlap darker
        t = (sx + sy) / 2
    else:  # plain checkerboard
        t = (sx + sy) % 2
    t = cv2.GaussianBlur(t, (0, 0), max(0.5, 0.15 * ppm))
    d, li = np.array(dark, np.float32), np.array(light, np.float32)
    tex = li * (1 - t[..., None]) + d * t[..., None]
    yy2 = 0.04 * np.sin(2 * np.pi * yy / max(2.0, ppm)) + 0.03 * smooth_noise(shape, 40 * ppm, rng)
    return tex * (1 + yy2)[..., None]


def _wood(shape, ppm, rng, dark: bool):
    if dark:
        c1, c2 = _jitter((25, 45, 80), rng, 8), _jitter((15, 28, 50), rng, 6)
    else:
        c1, c2 = _jitter((120, 175, 215), rng, 10), _jitter((80, 130, 180), rng, 10)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    plank = rng.uniform(80, 160) * ppm
    warp = 2.5 * ppm * smooth_noise(shape, 90 * ppm, rng)
    grain = np.sin((yy + warp) * 2 * np.pi / (rng.uniform(2.5, 5) * ppm)
                   + 1.2 * smooth_noise((h // 4 + 1, w), 40 * ppm, rng)[np.arange(h) // 4])
    t = 0.5 + 0.25 * grain + 0.2 * smooth_noise((h, w), 25 * ppm, rng)
    t = np.clip(t, 0, 1)
    c1a, c2a = np.array(c1, np.float32), np.array(c2, np.float32)
    tex = c1a * (1 - t[..., None]) + c2a * t[..., None]
    seams = (np.abs(((yy + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 0.6 * ppm)
    tex[seams] *= 0.55
    plank_tone = 1 + 0.08 * np.sin(np.floor((yy + 7) / plank) * 12.9898)
    return tex * plank_tone[..., None]


def _wood_dark(shape, ppm, rng):
    return _wood(shape, ppm, rng, dark=True)


def _wood_light(shape, ppm, rng):
    return _wood(shape, ppm, rng, dark=False)


def _laminate(shape, ppm, rng):
    col = _jitter((236, 238, 238), rng, 6)
    tex = _base(shape, col)
    lum = 1 + 0.012 * smooth_noise(shape, 3 * ppm, rng) + 0.02 * smooth_noise(shape, 80 * ppm, rng)
    return tex * lum[..., None]


def _stone(shape, ppm, rng):
    grey = rng.uniform(110, 170)
    tex = _base(shape, _jitter((grey, grey, grey + 4), rng, 5))
    lum = (1 + 0.10 * smooth_noise(shape, 25 * ppm, rng) + 0.07 * smooth_noise(shape, 4 * ppm, rng)
           + 0.06 * smooth_noise(shape, 0.7 * ppm, rng))
    tex = tex * lum[..., None]
    speck = rng.random(shape)
    tex[speck < 0.012] *= 0.45
    tex[speck > 0.990] = np.minimum(255, tex[speck > 0.990] * 1.5)
    return cv2.GaussianBlur(tex, (0, 0), max(0.4, 0.2 * ppm))
