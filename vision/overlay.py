"""Drawing what was read onto a frame, for the host's live preview.

Pure functions: each returns a new image and never writes into the frame it is given.
Points in readings are (x, y) pixels of the frame that was read; :func:`preview_image`
shrinks the frame first and scales the points with it, so the drawing costs little.

Example::

    frame, reading = recognizer.snapshot()
    small = preview_image(frame, reading, width=480)   # (H', 480, 3) uint8 BGR copy
    jpeg = encode_jpeg(small, quality=75)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

import cv2

from vision.frames import check_frame
from vision.results import CardReading, CardSighting, DiceReading

#: BGR outline colour for each top-face colour a die can be read as (saturated, so the
#: outline stands out from the die's own printed colour and survives JPEG).
DIE_BGR: dict[str, tuple[int, int, int]] = {
    "green": (0, 255, 0),
    "yellow": (0, 255, 255),
    "red": (0, 0, 255),
    "other": (255, 0, 255),
}
CARD_BGR = (255, 255, 0)  # a named card: cyan
UNSURE_BGR = (160, 160, 160)  # a card that could not be told from a look-alike: grey
TEXT_BGR = (255, 255, 255)
BANNER_BGR = (0, 0, 0)


@dataclass(frozen=True)
class OverlayParams:
    """How the overlay looks.

    Attributes
    ----------
    line : int
        Outline thickness in pixels of the drawn image.
    font_scale : float
        OpenCV Hershey font scale for names and the summary line.
    """

    line: int = 2
    font_scale: float = 0.5


def resize_to_width(frame: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """A copy of `frame` at most `width` pixels wide, and the scale applied (<= 1).

    :raises ValueError: `frame` is not (H, W, 3) uint8, or `width` is below 16.
    """
    check_frame(frame)
    if width < 16:
        raise ValueError(f"width must be at least 16 pixels, not {width}")
    if frame.shape[1] <= width:
        return frame.copy(), 1.0
    scale = width / frame.shape[1]
    height = max(1, round(frame.shape[0] * scale))
    return cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA), scale


def _points(points: Iterable[tuple[float, float]], scale: float) -> np.ndarray:
    """(x, y) points as the int32 (N, 1, 2) array ``cv2.polylines`` wants."""
    arr = np.asarray(list(points), dtype=np.float64).reshape(-1, 2) * scale
    return np.round(arr).astype(np.int32).reshape(-1, 1, 2)


def _outline(image: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int],
             params: OverlayParams) -> None:
    """A closed outline in `colour` over a dark halo, visible on any table colour."""
    cv2.polylines(image, [pts], True, BANNER_BGR, params.line + 2, cv2.LINE_AA)
    cv2.polylines(image, [pts], True, colour, params.line, cv2.LINE_AA)


def _label(image: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int],
           params: OverlayParams) -> None:
    """Write `text` centred on `at` (x, y) over a dark box, in place on our own copy."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), base = cv2.getTextSize(text, font, params.font_scale, 1)
    x = int(min(max(0, at[0] - w // 2), max(0, image.shape[1] - w)))
    y = int(min(max(h + 2, at[1] + h // 2), image.shape[0] - base))
    cv2.rectangle(image, (x - 2, y - h - 2), (x + w + 2, y + base), BANNER_BGR, -1)
    cv2.putText(image, text, (x, y), font, params.font_scale, colour, 1, cv2.LINE_AA)


def _fit(text: str, width: int, scale: float) -> tuple[str, float]:
    """`text` and a font scale that fit `width` pixels: smaller type, then cut with "..."."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    room = max(8, width - 8)
    (w, _), _ = cv2.getTextSize(text, font, scale, 1)
    if w > room:
        scale = max(0.35, scale * room / w)
    while len(text) > 4 and cv2.getTextSize(text, font, scale, 1)[0][0] > room:
        text = text[:-4].rstrip() + "..."
    return text, scale


def _banner(image: np.ndarray, text: str, params: OverlayParams) -> None:
    """A dark strip along the top with `text` on it, in place on our own copy."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    text, scale = _fit(text, image.shape[1], params.font_scale)
    (_, h), base = cv2.getTextSize(text, font, scale, 1)
    cv2.rectangle(image, (0, 0), (image.shape[1], h + base + 6), BANNER_BGR, -1)
    cv2.putText(image, text, (4, h + 3), font, scale, TEXT_BGR, 1, cv2.LINE_AA)


def dice_summary(reading: DiceReading) -> str:
    """One line for the banner: ``"3 green, 4 yellow, 3 red"`` (``other`` only if any)."""
    parts = [f"{reading.green} green", f"{reading.yellow} yellow", f"{reading.red} red"]
    if reading.other:
        parts.append(f"{reading.other} other")
    return ", ".join(parts)


def draw_dice(frame: np.ndarray, reading: DiceReading, *, scale: float = 1.0,
              params: OverlayParams = OverlayParams()) -> np.ndarray:
    """A copy of `frame` with each die outlined in the colour it was read as.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    reading : the dice read in the frame the points refer to
    scale : factor from the reading's pixels to `frame`'s (0.5 when `frame` was halved)

    :raises ValueError: `frame` is not (H, W, 3) uint8.
    """
    check_frame(frame)
    image = frame.copy()
    for die in reading.dice:
        colour = DIE_BGR.get(die.colour, DIE_BGR["other"])
        if len(die.outline) >= 2:
            _outline(image, _points(die.outline, scale), colour, params)
        else:
            cx, cy = (round(v * scale) for v in die.centre)
            cv2.circle(image, (cx, cy), 6, BANNER_BGR, params.line + 2, cv2.LINE_AA)
            cv2.circle(image, (cx, cy), 6, colour, params.line, cv2.LINE_AA)
    _banner(image, dice_summary(reading), params)
    return image


def _card_name(sighting: CardSighting) -> str:
    if sighting.card_id is not None:
        return sighting.card_id
    return f"{sighting.best_guess}?"


def draw_cards(frame: np.ndarray, reading: CardReading, *, scale: float = 1.0,
               params: OverlayParams = OverlayParams()) -> np.ndarray:
    """A copy of `frame` with each card outlined and named (unsure ones in grey, with "?").

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    reading : the cards read in the frame the corners refer to
    scale : factor from the reading's pixels to `frame`'s

    :raises ValueError: `frame` is not (H, W, 3) uint8.
    """
    check_frame(frame)
    image = frame.copy()
    for sightings, colour in ((reading.unsure, UNSURE_BGR), (reading.cards, CARD_BGR)):
        for sighting in sightings:
            if len(sighting.corners) < 2:
                continue
            pts = _points(sighting.corners, scale)
            _outline(image, pts, colour, params)
            centre = pts.reshape(-1, 2).mean(axis=0)
            _label(image, _card_name(sighting), (int(centre[0]), int(centre[1])), colour, params)
    named = len(reading.cards)
    _banner(image, f"{named} card{'s' if named != 1 else ''} named"
            + (f", {len(reading.unsure)} unsure" if reading.unsure else ""), params)
    return image


def draw_status(frame: np.ndarray, text: str, *,
                params: OverlayParams = OverlayParams()) -> np.ndarray:
    """A copy of `frame` with `text` written in a strip along its bottom (camera offline...).

    :raises ValueError: `frame` is not (H, W, 3) uint8.
    """
    check_frame(frame)
    image = frame.copy()
    font = cv2.FONT_HERSHEY_SIMPLEX
    text, scale = _fit(text, image.shape[1], params.font_scale)
    (_, h), base = cv2.getTextSize(text, font, scale, 1)
    top = max(0, image.shape[0] - h - base - 6)
    cv2.rectangle(image, (0, top), (image.shape[1], image.shape[0]), BANNER_BGR, -1)
    cv2.putText(image, text, (4, image.shape[0] - base - 3), font, scale,
                (0, 200, 255), 1, cv2.LINE_AA)
    return image


def preview_image(frame: np.ndarray, reading: DiceReading | CardReading | None, *,
                  width: int = 480, status: str | None = None,
                  params: OverlayParams = OverlayParams()) -> np.ndarray:
    """The preview picture: `frame` shrunk to at most `width` pixels with `reading` drawn on.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR (not modified)
    reading : what was read in `frame`, or None to show the bare picture
    width : largest width of the result in pixels
    status : a line to write along the bottom (e.g. "camera offline"), or None

    Returns
    -------
    ndarray of shape (H', W', 3), uint8, BGR, a new array with W' <= `width`

    :raises ValueError: `frame` is not (H, W, 3) uint8, or `width` is below 16.
    """
    small, scale = resize_to_width(frame, width)
    if isinstance(reading, DiceReading):
        small = draw_dice(small, reading, scale=scale, params=params)
    elif isinstance(reading, CardReading):
        small = draw_cards(small, reading, scale=scale, params=params)
    if status:
        small = draw_status(small, status, params=params)
    return small


def encode_jpeg(image: np.ndarray, *, quality: int = 75) -> bytes:
    """`image` as JPEG file bytes (the preview's wire format).

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8, BGR
    quality : 1 (smallest) to 100 (best)

    :raises ValueError: `image` is not (H, W, 3) uint8, or `quality` is out of range.
    """
    check_frame(image)
    if not 1 <= quality <= 100:
        raise ValueError(f"quality must be 1 to 100, not {quality}")
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("the image could not be encoded as JPEG")
    return data.tobytes()
