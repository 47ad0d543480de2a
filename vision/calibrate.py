"""Learn one table's dice from one frame: their size, their three colours, the table colour.

>>> cal = calibrate(frame)               # the user's dice spread out, tops of all 3 colours
>>> config["dice_calibration"] = cal.to_dict()          # JSON-ready, stored per table
>>> read_dice(frame, calibration=Calibration.from_dict(config["dice_calibration"]))

Reading works without a calibration; with one, the die size is known (no guessing from
blobs) and the hue boundaries sit halfway between this table's own green, yellow and red
under this table's light.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

import cv2

if TYPE_CHECKING:  # (vision.dice imports this module)
    from vision.dice import DiceParams

VERSION = 1
_COLOURS = ("red", "yellow", "green")  # in hue order


@dataclass(frozen=True)
class Calibration:
    """What one frame of the user's dice taught us.

    Attributes
    ----------
    die_side_px : float
        Die edge length in pixels of a frame ``frame_width`` pixels wide.
    frame_width : int
    hues : dict of colour name to OpenCV hue (0-180) of that colour's faces or marks
    table_bgr : (b, g, r) median colour of the table around the dice
    dice_seen : int
    """

    die_side_px: float
    frame_width: int
    hues: dict
    table_bgr: tuple[float, float, float]
    dice_seen: int

    def side_at(self, width: int) -> float:
        """Die edge length in pixels for a frame ``width`` pixels wide."""
        return self.die_side_px * width / self.frame_width

    def to_dict(self) -> dict:
        """JSON-ready form (what the config stores)."""
        return {"version": VERSION, "die_side_px": round(self.die_side_px, 2),
                "frame_width": self.frame_width,
                "hues": {k: round(float(v), 1) for k, v in self.hues.items()},
                "table_bgr": [round(float(c), 1) for c in self.table_bgr],
                "dice_seen": self.dice_seen}

    @classmethod
    def from_dict(cls, data: dict) -> "Calibration":
        """Rebuild from :meth:`to_dict` output.

        :raises ValueError: missing or malformed fields, or another version.
        """
        try:
            if data.get("version") != VERSION:
                raise ValueError(f"calibration version {data.get('version')!r}, expected {VERSION}")
            hues = {str(k): float(v) for k, v in dict(data["hues"]).items()}
            if not set(hues) <= set(_COLOURS):
                raise ValueError(f"unknown colour in calibration hues: {sorted(hues)}")
            table = tuple(float(c) for c in data["table_bgr"])
            if len(table) != 3:
                raise ValueError("table_bgr must have 3 numbers")
            cal = cls(die_side_px=float(data["die_side_px"]), frame_width=int(data["frame_width"]),
                      hues=hues, table_bgr=table, dice_seen=int(data.get("dice_seen", 0)))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a dice calibration: {exc}") from None
        if not (2 < cal.die_side_px < cal.frame_width and cal.frame_width > 0):
            raise ValueError("calibration die size is out of range")
        return cal


def calibrate(frame: np.ndarray, *, params: DiceParams | None = None) -> Calibration:
    """Learn die size and colours from a frame of the user's dice on their table.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR; only the Toss Up! dice on the table,
        spread out, ideally with green, yellow and red tops all showing
    params : vision.dice.DiceParams, optional

    :raises ValueError: bad frame, or no die was found.
    """
    from vision.dice import DiceParams, read_dice

    reading = read_dice(frame, params=params or DiceParams())
    if not reading.dice:
        raise ValueError("No dice found: spread your dice out on the table and try again.")
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    sides, die_hues = [], []
    everywhere = np.zeros(frame.shape[:2], np.uint8)
    for die in reading.dice:
        poly = np.array(die.outline, np.float32)
        sides.append(float(np.sqrt(cv2.contourArea(poly))))
        mask = np.zeros(frame.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 255)
        everywhere |= cv2.dilate(mask, np.ones((5, 5), np.uint8), iterations=2)
        px = hsv[(mask > 0) & (hsv[..., 1] >= 80) & (hsv[..., 2] >= 45)]
        if len(px) >= 0.05 * cv2.contourArea(poly):
            die_hues.append(_circular_hue(px[:, 0]))
    table = frame[everywhere == 0]
    table_bgr = tuple(float(c) for c in np.median(table, axis=0)) if len(table) else (0.0,) * 3
    return Calibration(die_side_px=float(np.median(sides)), frame_width=int(frame.shape[1]),
                       hues=_three_colours(die_hues), table_bgr=table_bgr,
                       dice_seen=len(reading.dice))


def _three_colours(hues: list[float]) -> dict:
    """Group the dice's hues around red, yellow and green (1-D k-means, red wraps around).

    Only this table's own light decides: an orange-looking yellow under a warm lamp still
    groups with yellow, because the user's dice have exactly these three colours.
    """
    unwrapped = np.array([h - 180 if h > 135 else h for h in hues], float)
    centres = {"red": -2.0, "yellow": 26.0, "green": 62.0}
    groups: dict[str, list[float]] = {}
    for _ in range(6):
        groups = {c: [] for c in centres}
        for h in unwrapped:
            name = min(centres, key=lambda c: abs(centres[c] - h))
            if abs(centres[name] - h) <= 25:
                groups[name].append(h)
        centres = {c: float(np.median(v)) if v else centres[c] for c, v in groups.items()}
    return {c: centres[c] % 180 for c, v in groups.items() if v}


def _circular_hue(h: np.ndarray) -> float:
    """Mean OpenCV hue (0-180, red wraps around) of some pixels."""
    ang = h.astype(np.float64) * (np.pi / 90)
    mean = np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())
    return float((mean * 90 / np.pi) % 180)


def apply_calibration(params: DiceParams, calibration: Calibration) -> DiceParams:
    """DiceParams whose hue boundaries sit between the calibrated colours.

    Boundaries not covered by the calibration (a colour not seen) stay as they were.
    """
    ro, ry, yg, go, orr = params.hue_edges
    h = calibration.hues
    red = h.get("red")
    red_up = None if red is None else (red if red < 90 else red - 180)  # -90..90
    if "yellow" in h and red_up is not None:
        # red|orange and orange|yellow: keep a narrow band for orange dice in between
        mid = (red_up + h["yellow"]) / 2
        ro, ry = int(round(max(2, mid - 2))), int(round(max(mid + 2, h["yellow"] - 6)))
    if "yellow" in h and "green" in h:
        yg = int(round((h["yellow"] + h["green"]) / 2))
    if "green" in h:
        go = int(round(max(go, h["green"] + 20)))
    if red_up is not None and red_up < 0:
        orr = int(round(min(orr, 180 + red_up - 10)))
    return replace(params, hue_edges=(ro, ry, yg, go, orr))
