"""Arms drawn onto recorded table frames, for the hand detector's tests and benchmark.

The suites' rendered hands are a few clip-art fingers; these are a forearm (bare or in a
sleeve) with a palm, fingers and thumb, in the ten skin tones of the Monk Skin Tone scale,
tinted by the frame's own light, with soft edges, shading and a soft shadow. They are a
check on generality, not a stand-in for real photos.
"""

from __future__ import annotations

import numpy as np

import cv2

#: The Monk Skin Tone scale (Google, CC BY 4.0), lightest to darkest, as BGR.
MONK_BGR = tuple(tuple(int(h[i:i + 2], 16) for i in (4, 2, 0)) for h in (
    "f6ede4", "f3e7db", "f7ead0", "eadaba", "d7bd96",
    "a07e56", "825c43", "604134", "3a312a", "292420"))

#: Sleeve colours (BGR): navy, grey, white, black, red, a green knit.
SLEEVES = ((90, 40, 30), (128, 128, 128), (235, 235, 235), (25, 25, 25), (40, 40, 170),
           (60, 120, 50))


#: Light colours as BGR gains, for the suite conditions that change the light.
LIGHTS = {"warm": (0.7, 0.92, 1.1), "cool": (1.12, 1.0, 0.85), "dim": (0.4, 0.4, 0.4)}


def arm_mask(shape: tuple[int, int], *, side: int, along: float, reach: float,
             angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(arm, hand) float32 masks 0..1 of an arm reaching in from one side of the frame.

    side : 0 bottom, 1 top, 2 left, 3 right; along : 0..1 where along that side it enters;
    reach : 0..1, how far in the fingertips get (share of the frame across); angle : degrees
    the arm leans from straight in.
    """
    h, w = shape
    unit = min(h, w)
    start = {0: (along * w, h + 0.1 * unit), 1: (along * w, -0.1 * unit),
             2: (-0.1 * unit, along * h), 3: (w + 0.1 * unit, along * h)}[side]
    inward = {0: (0.0, -1.0), 1: (0.0, 1.0), 2: (1.0, 0.0), 3: (-1.0, 0.0)}[side]
    a = np.radians(angle)
    dx = inward[0] * np.cos(a) - inward[1] * np.sin(a)
    dy = inward[0] * np.sin(a) + inward[1] * np.cos(a)
    across = reach * (h if side < 2 else w) + 0.1 * unit
    wrist = (start[0] + dx * (across - 0.2 * unit), start[1] + dy * (across - 0.2 * unit))
    arm = np.zeros((h, w), np.float32)
    hand = np.zeros((h, w), np.float32)
    width = int(0.13 * unit)
    cv2.line(arm, _pt(start), _pt(wrist), 1.0, width)
    palm = (wrist[0] + dx * 0.06 * unit, wrist[1] + dy * 0.06 * unit)
    deg = float(np.degrees(np.arctan2(dy, dx)))
    cv2.ellipse(hand, _pt(palm), (int(0.075 * unit), int(0.065 * unit)), deg, 0, 360, 1.0, -1)
    nx, ny = -dy, dx
    for k, off in enumerate((-0.045, -0.015, 0.015, 0.045)):
        base = (palm[0] + dx * 0.05 * unit + nx * off * unit,
                palm[1] + dy * 0.05 * unit + ny * off * unit)
        length = (0.07, 0.085, 0.08, 0.065)[k] * unit
        tip = (base[0] + dx * length + nx * off * 0.4 * unit,
               base[1] + dy * length + ny * off * 0.4 * unit)
        cv2.line(hand, _pt(base), _pt(tip), 1.0, max(2, int(0.024 * unit)))
    thumb = (palm[0] + (nx * 0.07 + dx * 0.03) * unit, palm[1] + (ny * 0.07 + dy * 0.03) * unit)
    cv2.line(hand, _pt(palm), _pt(thumb), 1.0, max(2, int(0.03 * unit)))
    return arm, hand


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))


def with_arm(frame: np.ndarray, *, tone: int, sleeve: int | None = None, side: int = 0,
             along: float = 0.5, reach: float = 0.45, angle: float = 0.0,
             light: tuple[float, float, float] = (1.0, 1.0, 1.0), seed: int = 0) -> np.ndarray:
    """A copy of ``frame`` (H, W, 3 uint8 BGR) with an arm in it.

    tone : 0..9, the Monk scale tone of the skin; sleeve : index into SLEEVES for a
    sleeved forearm (the hand stays bare), or None for a bare arm. light : BGR gains of
    the room's light (LIGHTS), which the arm takes on like the table did.
    """
    h, w = frame.shape[:2]
    arm, hand = arm_mask((h, w), side=side, along=along, reach=reach, angle=angle)
    rng = np.random.default_rng(seed)
    unit = min(h, w)
    gains = np.array(light, np.float32)
    skin = np.array(MONK_BGR[tone], np.float32) * gains
    cloth = skin if sleeve is None else np.array(SLEEVES[sleeve], np.float32) * gains
    body = np.maximum(arm, hand)
    shadow = cv2.GaussianBlur(np.roll(body, (int(0.04 * unit), int(0.03 * unit)), (0, 1)),
                              (0, 0), 0.03 * unit)
    out = frame.astype(np.float32) * (1.0 - 0.45 * shadow[..., None])
    shade = 0.7 + 0.45 * cv2.GaussianBlur(body, (0, 0), 0.05 * unit)[..., None]
    grain = 1.0 + rng.normal(0.0, 0.02, (h, w, 1)).astype(np.float32)
    colour = np.where(hand[..., None] > 0, skin, cloth) * shade * grain
    alpha = cv2.GaussianBlur(body, (0, 0), max(0.8, unit / 480))[..., None]
    out = out * (1.0 - alpha) + colour * alpha
    return np.clip(out + rng.normal(0.0, 2.0, out.shape), 0, 255).astype(np.uint8)
