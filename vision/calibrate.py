"""Learn one table's dice from one frame: their size, their three colours, the table colour.

>>> cal = calibrate(frame)               # the user's dice spread out, tops of all 3 colours
>>> config["dice_calibration"] = cal.to_dict()          # JSON-ready, stored per table
>>> read_dice(frame, calibration=Calibration.from_dict(config["dice_calibration"]))

Reading works without a calibration, and one must never make it worse: the camera may
sit higher or lower than when it was taken, a phone photo sees the dice at another size,
and perspective makes near dice bigger than far ones (the demo's tables: 18-33 px). So a
calibration is a prior, not a setting: the die size the reader measures in each frame is
only kept within ``SIZE_RANGE`` times the learned one (a wild measurement on a cluttered
frame is pulled back, a real change of height is not), and the hue boundaries move
towards the middle between this table's own green, yellow and red by at most
``MAX_HUE_SHIFT`` (a warm lamp's orange-looking yellow, not a different game's dice).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

import cv2

if TYPE_CHECKING:  # (vision.dice imports this module)
    from vision.dice import DiceParams

VERSION = 1
_COLOURS = ("red", "yellow", "green")  # in hue order
_SAID = ("green", "yellow", "red")  # in the order the reader's totals give them
SIZE_RANGE = 2.0  # a measured die size stays within [learned / this, learned * this]
MAX_HUE_SHIFT = 8  # OpenCV hue units (0-180) a boundary may move from its default
MIN_DICE = 3  # Toss Up! dice a calibration frame must show
TOSS_UP_SHARE = 0.8  # ... and at least this share of the dice found must be Toss Up! ones


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

    def describe(self) -> str:
        """What was learnt, in a sentence for the user."""
        hues = "/".join(f"{self.hues[c]:.0f}" for c in _SAID if c in self.hues)
        names = "/".join(c for c in _SAID if c in self.hues)
        return (f"{self.dice_seen} dice, {self.die_side_px:.0f} px across in a "
                f"{self.frame_width} px wide frame, {names} hues {hues} (0-180)")

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
        if not isinstance(data, dict):
            raise ValueError("not a dice calibration: not a table")
        if data.get("version") != VERSION:
            raise ValueError(f"calibration version {data.get('version')!r}, expected {VERSION}")
        try:
            hues = {str(k): float(v) for k, v in dict(data["hues"]).items()}
            table = tuple(float(c) for c in data["table_bgr"])
            cal = cls(die_side_px=float(data["die_side_px"]), frame_width=int(data["frame_width"]),
                      hues=hues, table_bgr=table, dice_seen=int(data.get("dice_seen", 0)))
        except (KeyError, TypeError, AttributeError, ValueError, OverflowError) as exc:
            # OverflowError: int() of an infinite frame width or count of dice
            raise ValueError(f"not a dice calibration: {exc}") from None
        if not set(hues) <= set(_COLOURS):
            raise ValueError(f"unknown colour in calibration hues: {sorted(hues)}")
        if len(table) != 3:
            raise ValueError("table_bgr must have 3 numbers")
        if not all(math.isfinite(n) for n in (cal.die_side_px, *hues.values(), *table)):
            raise ValueError("not a dice calibration: a number that is not finite")
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
    hues, grouped = _three_colours(die_hues)
    # a die counts as Toss Up! when the reader named it so or its hue groups with the
    # others' (a warm lamp's yellow reads orange; a light die's small mark gives no hue)
    _check_toss_up(len(reading.dice), max(grouped, len(reading.dice) - reading.other))
    table = frame[everywhere == 0]
    table_bgr = tuple(float(c) for c in np.median(table, axis=0)) if len(table) else (0.0,) * 3
    return Calibration(die_side_px=float(np.median(sides)), frame_width=int(frame.shape[1]),
                       hues=hues, table_bgr=table_bgr,
                       dice_seen=len(reading.dice))


def _check_toss_up(found: int, coloured: int) -> None:
    """Refuse a frame of too few dice, or of dice most of which are not Toss Up! coloured
    (``coloured`` of the ``found`` dice have a green, yellow or red top: under
    ``TOSS_UP_SHARE`` of them, these are another game's dice, whose colours would teach
    the reader wrong boundaries).

    :raises ValueError: one line saying what to do.
    """
    if coloured >= MIN_DICE and coloured >= TOSS_UP_SHARE * found:
        return
    what = (f"only {coloured} of the {found} dice found are green, yellow or red"
            if coloured >= MIN_DICE else f"only {coloured} Toss Up! dice found")
    raise ValueError(f"Not a calibration photo: {what}; spread at least {MIN_DICE} Toss Up! "
                     "dice out on the table, nothing else, tops of all three colours showing.")


def _three_colours(hues: list[float]) -> tuple[dict, int]:
    """Group the dice's hues around red, yellow and green (1-D k-means, red wraps around);
    the three hues found, and how many dice were grouped (hues within 25 of one).

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
    return ({c: centres[c] % 180 for c, v in groups.items() if v},
            sum(len(v) for v in groups.values()))


def _circular_hue(h: np.ndarray) -> float:
    """Mean OpenCV hue (0-180, red wraps around) of some pixels."""
    ang = h.astype(np.float64) * (np.pi / 90)
    mean = np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())
    return float((mean * 90 / np.pi) % 180)


def apply_calibration(params: DiceParams, calibration: Calibration) -> DiceParams:
    """DiceParams whose hue boundaries make room for this table's own colours: a
    boundary moves only when the calibrated colour lies beyond it, up to that colour and
    by at most ``MAX_HUE_SHIFT`` (green, yellow and red grow, never shrink).

    Boundaries not covered by the calibration (a colour not seen) stay as they were.
    """
    d_ro, d_ry, d_yg, d_go, d_orr = params.hue_edges
    h = calibration.hues
    red = h.get("red")
    red_up = None if red is None else (red if red < 90 else red - 180)  # -90..90
    # A boundary next to another game's colours (orange, blue) moves only when this
    # table's own colour lies beyond it (a warm lamp's yellow at hue 14 reads orange), and
    # then only up to that colour: a shaded die's colour spreads around the frame's median
    # one, so each step closer loses dice (demo frames under a warm light: orange|yellow
    # 16 -> 15 lost one die of frame 4; moved up to 6 steps under the demo's yellow, 16 ->
    # 23, it read a yellow die of frame 1 as orange; red|orange at the middle of red and
    # yellow read three things of a cool-lit table red).
    ro = d_ro if red_up is None else max(d_ro, red_up)
    ry = d_ry if "yellow" not in h else min(d_ry, h["yellow"])
    go = d_go if "green" not in h else max(d_go, h["green"] + 20)
    orr = d_orr if red_up is None or red_up >= 0 else min(d_orr, 180 + red_up - 10)
    # yellow|green by the same rule (its middle between this table's yellow and green
    # moved 40 -> 47 and read a die of the suite's jpeg 0289 wrong, from 0281)
    yg = d_yg
    if h.get("yellow", 0) > d_yg:
        yg = h["yellow"]
    elif h.get("green", 180) < d_yg:
        yg = h["green"]
    if ry <= ro:  # red and yellow at the same hue: halfway
        ro = ry = (ro + ry) / 2
    soft = [int(round(d + np.clip(e - d, -MAX_HUE_SHIFT, MAX_HUE_SHIFT)))
            for d, e in zip(params.hue_edges, (ro, ry, yg, go, orr))]
    soft[1] = max(soft[1], soft[0] + 1)  # (red, orange, yellow in order)
    return replace(params, hue_edges=tuple(soft))


def within_prior(side: float, learned: float | None) -> float:
    """The die edge ``side`` measured in a frame, kept within ``SIZE_RANGE`` times the
    ``learned`` one (both pixels at the same scale); ``side`` itself without a calibration."""
    if not learned:
        return side
    return float(min(max(side, learned / SIZE_RANGE), learned * SIZE_RANGE))
