"""Long thin things told from dice: pencils, a tray's rim (vision.dice_thin)."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice_thin import band_at, edge_turn, is_on_band


def _bar(frame, a, b, half, colour):
    """A straight bar with square ends from a to b (x, y), ``half`` its half width."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    u = (b - a) / np.linalg.norm(b - a)
    n = np.array([-u[1], u[0]]) * half
    cv2.fillConvexPoly(frame, np.round([a + n, b + n, b - n, a - n]).astype(np.int32), colour,
                       cv2.LINE_AA)


def _pencils(frame, start, end, *, n=3, width=9, erase=14):
    """``n`` green pencils side by side from ``start`` to ``end`` (x, y), a pink eraser
    on each at ``end``: together the erasers make a square, striped red face."""
    s, e = np.asarray(start, float), np.asarray(end, float)
    u = (e - s) / np.linalg.norm(e - s)
    across = np.array([-u[1], u[0]])
    for i in range(n):
        off = (i - (n - 1) / 2) * width * across
        _bar(frame, s + off, e + off - u * erase, width / 2 - 1, (40, 150, 40))
        _bar(frame, e + off - u * erase, e + off, width / 2 - 1, (120, 110, 225))
    return frame


def test_a_band_is_measured_along_its_axis():
    mask = np.zeros((480, 640), np.uint8)
    cv2.line(mask, (100, 300), (400, 340), 255, 13)
    band = band_at(mask, (250.0, 320.0), 30.0)
    assert abs(band.width - 13) <= 3 and band.even >= 0.9
    assert band.length >= 200 and not band.cut  # (out to four dice each way)
    assert abs(band.axis[1] / band.axis[0] - 40 / 300) < 0.1
    square = np.zeros_like(mask)
    cv2.rectangle(square, (100, 100), (130, 130), 255, -1)
    die = band_at(square, (115.0, 115.0), 30.0)
    assert die.length < 2 * die.width  # about a die long in every direction
    edge = band_at(mask, (110.0, 301.0), 30.0)
    assert not edge.cut
    cv2.line(mask, (-50, 100), (80, 120), 255, 13)
    assert band_at(mask, (40.0, 114.0), 30.0).cut  # it runs out of the frame


def test_edges_along_pencils_and_around_a_die():
    frame = ds.table(colour=(150, 150, 155))
    _pencils(frame, (100, 300), (300, 260))
    (dx, dy), share = edge_turn(frame, (200.0, 280.0), 30.0)
    assert share >= 0.85  # their sides and seams all run one way
    assert abs(dy / dx - (-40 / 200)) < 0.1
    ds.die(frame, (450, 150), 30, ds.GREEN, angle=20, pips=5)
    assert edge_turn(frame, (450.0, 150.0), 30.0)[1] <= 0.65  # a square outline, pips


def test_a_piece_of_a_rim_is_on_a_band_a_die_against_it_is_not():
    frame = ds.table(colour=(200, 200, 200))
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.rectangle(frame, (60, 40), (580, 540), (50, 50, 55), 16)  # a tray's dark rim
    cv2.rectangle(mask, (60, 40), (580, 540), 255, 16)
    ds.die(frame, (200, 64), 30, ds.GREEN, angle=0, pips=4)  # lying against it
    cv2.rectangle(mask, (183, 47), (217, 83), 255, -1)
    on = is_on_band(frame, mask, [(400.0, 40.0), (60.0, 300.0), (200.0, 64.0)], 30.0)
    assert on == [True, True, False]
    assert is_on_band(frame, mask, [], 30.0) == []


def test_pencils_running_out_of_the_frame_are_no_die():
    frame = ds.scene(["green", "yellow"], side=30)
    _pencils(frame, (-40, 430), (110, 395))  # their erasers once read as a red die
    assert read_dice(frame).counts() == (1, 1, 0, 0)


def test_dice_beside_and_at_the_end_of_pencils_are_read():
    frame = ds.scene(["green", "yellow"], side=30)
    _pencils(frame, (-40, 430), (110, 395))
    ds.die(frame, (80, 350), 30, ds.RED, angle=10)
    ds.die(frame, (140, 387), 30, ds.GREEN, angle=35)
    assert read_dice(frame).counts() == (2, 1, 1, 0)


def test_dice_in_a_straight_row_edge_to_edge_are_still_dice():
    frame = ds.scene(["green"], side=30)
    for j in range(4):  # the row is a band of even width, but its dice's edges cross it
        ds.die(frame, (200 + j * 29, 250), 28, ds.YELLOW, angle=0, pips=1 + j)
    assert read_dice(frame).counts() == (1, 4, 0, 0)


def test_dice_on_and_against_a_ruler_and_a_card_are_read():
    frame = ds.scene(["green"], side=30, table_colour=(60, 90, 60))
    cv2.rectangle(frame, (200, 150), (320, 320), (235, 235, 230), -1)  # a card
    cv2.rectangle(frame, (340, 60), (380, 400), (230, 232, 228), -1)  # a ruler
    ds.die(frame, (260, 230), 30, ds.RED, angle=15)  # on the card
    ds.die(frame, (337, 240), 30, ds.YELLOW, angle=5)  # against the ruler and the card
    ds.die(frame, (360, 300), 28, ds.GREEN, angle=0)  # on the ruler: its edges cross it
    assert read_dice(frame).counts() == (2, 1, 1, 0)
