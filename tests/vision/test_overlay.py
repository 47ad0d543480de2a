"""The preview overlay: outlines in the colour read, names on cards, the input untouched."""

from __future__ import annotations

import numpy as np
import pytest

from vision.overlay import (CARD_BGR, DIE_BGR, UNSURE_BGR, dice_summary, draw_cards,
                            draw_dice, draw_status, preview_image, resize_to_width)
from vision.results import CardReading, CardSighting, DiceReading, Die


def grey(h: int = 480, w: int = 640) -> np.ndarray:
    return np.full((h, w, 3), 120, np.uint8)


def box(x0: float, y0: float, side: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side))


def die(colour: str, x0: float, y0: float, side: float = 60) -> Die:
    return Die(outline=box(x0, y0, side), centre=(x0 + side / 2, y0 + side / 2),
               colour=colour, confidence=0.9)


def pixels_of(image: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    """(row, col) of the pixels exactly `colour`."""
    return np.argwhere(np.all(image == np.array(colour, np.uint8), axis=2))


def test_each_die_is_outlined_in_the_colour_read_and_the_frame_is_untouched() -> None:
    frame = grey()
    before = frame.copy()
    reading = DiceReading.from_dice([die("green", 100, 100), die("red", 400, 300)])
    out = draw_dice(frame, reading)
    assert np.array_equal(frame, before)
    green = pixels_of(out, DIE_BGR["green"])
    red = pixels_of(out, DIE_BGR["red"])
    assert len(green) > 100 and len(red) > 100
    # each colour sits on its own die's outline, not the other's
    assert green[:, 1].min() >= 97 and green[:, 1].max() <= 163
    assert red[:, 1].min() >= 397 and red[:, 0].min() >= 297
    assert len(pixels_of(out, DIE_BGR["yellow"])) == 0


def test_scale_moves_the_outline_with_a_shrunk_frame() -> None:
    reading = DiceReading.from_dice([die("yellow", 400, 200, 80)])
    out = draw_dice(grey(240, 320), reading, scale=0.5)
    found = pixels_of(out, DIE_BGR["yellow"])
    assert found[:, 1].min() >= 197 and found[:, 1].max() <= 243
    assert found[:, 0].min() >= 97 and found[:, 0].max() <= 143


def test_summary_names_the_totals() -> None:
    reading = DiceReading.from_dice([die("green", 0, 0), die("green", 90, 0), die("other", 0, 90)])
    assert dice_summary(reading) == "2 green, 0 yellow, 0 red, 1 other"


def test_cards_are_outlined_with_named_and_unsure_colours() -> None:
    named = CardSighting("perfect", "perfect", 0.9, None, 1.0, box(50, 60, 120))
    unsure = CardSighting(None, "good-throw", 0.3, "perfect", 9.0, box(300, 200, 120))
    out = draw_cards(grey(), CardReading(cards=(named,), unsure=(unsure,)))
    cyan = pixels_of(out, CARD_BGR)
    assert len(cyan) > 100 and cyan[:, 1].max() <= 175
    assert len(pixels_of(out, UNSURE_BGR)) > 100


def test_preview_shrinks_to_width_and_draws() -> None:
    frame = grey(960, 1280)
    reading = DiceReading.from_dice([die("red", 600, 400, 120)])
    small = preview_image(frame, reading, width=480, status="camera offline")
    assert small.shape == (360, 480, 3)
    found = pixels_of(small, DIE_BGR["red"])
    assert len(found) > 50
    # the die spans x 600..720 in the frame: 225..270 at 480 px wide, centre 247.5
    assert found[:, 1].min() >= 223 and found[:, 1].max() <= 272
    assert 245 <= found[:, 1].mean() <= 250
    assert frame.shape == (960, 1280, 3) and np.all(frame == 120)


def test_preview_of_a_small_frame_without_reading_is_a_copy() -> None:
    frame = grey(100, 200)
    out = preview_image(frame, None, width=480)
    assert np.array_equal(out, frame) and out is not frame


def test_status_line_is_written_at_the_bottom() -> None:
    out = draw_status(grey(), "camera offline")
    assert np.all(out[-3:, :, :] == 0) and np.array_equal(out[:400], grey()[:400])


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((10, 10, 3), np.float32),
                                 "frame"])
def test_bad_frames_are_refused_naming_the_parameter(bad: object) -> None:
    with pytest.raises(ValueError, match="frame"):
        draw_dice(bad, DiceReading())  # type: ignore[arg-type]


def test_width_below_16_is_refused() -> None:
    with pytest.raises(ValueError, match="width"):
        resize_to_width(grey(), 8)


def test_a_long_status_line_is_shrunk_and_cut_to_fit() -> None:
    out = draw_status(grey(240, 200), "camera offline: " + "no frames for a long while " * 5)
    strip = out[-14:]
    text = np.argwhere(strip.max(axis=2) > 40)  # the orange letters on the black strip
    assert len(text) > 50
    assert text[:, 1].max() < 196  # nothing runs off the right edge
