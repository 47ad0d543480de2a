"""What a phone camera does to a lit scene: light colour and level, uneven light, hard
shadows, glare, motion blur, defocus, vignetting, sensor noise and JPEG artefacts.

All functions take and return float32 BGR images (0..255 scale) except :func:`to_jpeg`.
"""

from __future__ import annotations

import numpy as np

import cv2

from scenes.surfaces import smooth_noise

# What is left of a lamp's colour after the camera's auto white balance.
LIGHT_TINTS = {"neutral": (1.0, 1.0, 1.0), "warm": (0.8, 0.93, 1.07), "cool": (1.1, 1.0, 0.87)}


def tint(img: np.ndarray, kind: str, level: float) -> np.ndarray:
    """Multiply by the light colour (``LIGHT_TINTS``) and the exposure ``level``."""
    return img * (np.array(LIGHT_TINTS[kind], np.float32) * level)


def uneven(img: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Light falling off across the table: a gradient plus a soft blotch."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    g = (np.cos(ang) * (xx / w - 0.5) + np.sin(ang) * (yy / h - 0.5)) * 2
    field = 1 + strength * (0.5 * g + 0.3 * smooth_noise((h, w), min(h, w) * 0.5, rng))
    return img * np.clip(field, 0.25, 1.6)[..., None]


def vignette(img: np.ndarray, amount: float) -> np.ndarray:
    """Darken the corners as phone lenses do."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    return img * (1 - amount * r2 / 2)[..., None]


def hard_shadow(img: np.ndarray, rng: np.random.Generator, depth: float) -> np.ndarray:
    """A sharp-edged shadow (a person or a lamp arm) across part of the frame."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    pts = []
    for _ in range(int(rng.integers(4, 7))):
        pts.append([rng.uniform(-0.2, 0.7) * w, rng.uniform(-0.2, 1.2) * h])
    pts = np.array(pts, np.float32)
    if rng.random() < 0.5:
        pts[:, 0] = w - pts[:, 0]
    cv2.fillPoly(mask, [cv2.convexHull(pts).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, w / 500))
    return img * (1 - depth * mask)[..., None]


def glare(img: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A bright specular spot (lamp reflection) somewhere in the central area."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    sx, sy = rng.uniform(0.05, 0.12) * w, rng.uniform(0.05, 0.1) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
    return img + (strength * spot)[..., None]


def motion_blur(img: np.ndarray, rng: np.random.Generator, length: float) -> np.ndarray:
    """Blur along a random direction over ``length`` pixels (camera shake)."""
    n = max(3, int(round(length)) | 1)
    k = np.zeros((n, n), np.float32)
    ang = rng.uniform(0, np.pi)
    c = n // 2
    dx, dy = np.cos(ang) * c, np.sin(ang) * c
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0)
    return cv2.filter2D(img, -1, k / k.sum())


def defocus(img: np.ndarray, sigma: float) -> np.ndarray:
    """Lens softness."""
    return cv2.GaussianBlur(img, (0, 0), sigma) if sigma > 0.05 else img


def sensor_noise(img: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Shot-like noise (stronger in bright areas) with a little colour noise."""
    h, w = img.shape[:2]
    lum = rng.standard_normal((h, w)).astype(np.float32)[..., None]
    chroma = rng.standard_normal((h, w, 3)).astype(np.float32) * 0.5
    scale = sigma * (0.5 + 0.5 * np.sqrt(np.clip(img, 0, 255) / 255))
    return img + scale * (lum + chroma)


def to_jpeg(img: np.ndarray, quality: int) -> bytes:
    """Clip to uint8 and encode as JPEG at ``quality``."""
    u8 = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise ValueError("could not encode JPEG")
    return buf.tobytes()
