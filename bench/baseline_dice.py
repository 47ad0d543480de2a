"""The peer in the dice benchmark: HSV thresholds plus contours, as hobby projects do it.

For each Toss Up colour, threshold the frame in HSV with fixed ranges, clean the mask
with an opening, and count the contours whose area looks like a die's. Nothing else:
no table model, no top-face choice, no "other" dice. Points are (x, y) pixels.
"""

from __future__ import annotations

import numpy as np

import cv2

# (lower, upper) HSV bounds in OpenCV ranges; red wraps around 180.
RANGES = {
    "green": [((35, 80, 50), (85, 255, 255))],
    "yellow": [((18, 100, 100), (34, 255, 255))],
    "red": [((0, 100, 70), (9, 255, 255)), ((170, 100, 70), (180, 255, 255))],
}
MIN_AREA, MAX_AREA = 120, 4000  # pixels at 640x480


def read_dice_baseline(frame: np.ndarray) -> list[tuple[tuple[float, float], str]]:
    """Centre (x, y) and colour of every die-sized blob of a Toss Up colour."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    scale = (frame.shape[1] / 640) ** 2
    kernel = np.ones((3, 3), np.uint8)
    found = []
    for colour, ranges in RANGES.items():
        mask = np.zeros(frame.shape[:2], np.uint8)
        for lo, hi in ranges:
            mask |= cv2.inRange(hsv, lo, hi)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            area = cv2.contourArea(cnt)
            if MIN_AREA * scale <= area <= MAX_AREA * scale:
                m = cv2.moments(cnt)
                found.append(((m["m10"] / m["m00"], m["m01"] / m["m00"]), colour))
    return found


def counts(found: list[tuple[tuple[float, float], str]]) -> tuple[int, int, int, int]:
    """(green, yellow, red, other) of a baseline reading; the baseline never says other."""
    return (sum(c == "green" for _, c in found), sum(c == "yellow" for _, c in found),
            sum(c == "red" for _, c in found), 0)
