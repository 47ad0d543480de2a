"""Whole-die blobs, the cloth's grid and the white balance the dice reader leans on."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice_blobs import blob_colour, pip_groups, square_blobs
from vision.dice_faces import GREEN, GREY, LIGHT, RED
from vision.dice_segment import grid_turn, white_balance


def _mask_of(frame: np.ndarray, table=(150, 150, 155)) -> np.ndarray:
    diff = np.abs(frame.astype(np.int16) - np.array(table, np.int16)).max(axis=2)
    return (diff > 40).astype(np.uint8) * 255


def test_a_die_sized_square_with_pips_is_a_blob_die():
    frame = ds.table()
    ds.die(frame, (200, 200), 36, ds.BLACK, angle=20, pips=5)
    blobs = square_blobs(_mask_of(frame), frame, 36.0, [])
    assert len(blobs) == 1
    box, centre, hsv, origin = blobs[0]
    assert abs(centre[0] - 200) < 4 and abs(centre[1] - 200) < 4
    assert 0.7 * 36 < np.sqrt(cv2.contourArea(box.astype(np.float32))) < 1.3 * 36
    assert hsv.shape[2] == 3 and origin[0] <= 200 - 18 and origin[1] <= 200 - 18


def test_coins_plain_tokens_and_taken_places_are_not_blob_dice():
    frame = ds.table()
    cv2.circle(frame, (100, 100), 20, (60, 60, 60), -1, cv2.LINE_AA)  # a coin
    ds.die(frame, (250, 250), 36, ds.BLACK, angle=10, pips=0)  # a plain square token
    ds.die(frame, (450, 250), 36, ds.BLACK, angle=30, pips=4)  # a die already read
    blobs = square_blobs(_mask_of(frame), frame, 36.0, [(450.0, 250.0)])
    assert blobs == []


def test_dice_cut_by_the_frame_edge_or_far_off_size_are_left_out():
    frame = ds.table()
    ds.die(frame, (5, 240), 36, ds.BLACK, pips=5)
    ds.die(frame, (300, 240), 90, ds.BLACK, pips=5)
    assert square_blobs(_mask_of(frame), frame, 36.0, []) == []


def test_squares_turned_like_a_cloth_grid_are_left_out():
    frame = ds.table()
    for i in range(3):
        ds.die(frame, (120 + 180 * i, 240), 36, ds.BLACK, angle=3 * i, pips=5)
    assert len(square_blobs(_mask_of(frame), frame, 36.0, [])) == 3
    assert square_blobs(_mask_of(frame), frame, 36.0, [], grid=2.0) == []


def test_blob_colour_is_the_majority_class_inside():
    cls = np.full((40, 40), GREY, np.uint8)
    cls[8:32, 8:32] = LIGHT
    box = np.array([[5, 5], [35, 5], [35, 35], [5, 35]], np.float32)
    code, share = blob_colour(cls, box)
    assert code == LIGHT and share > 0.9


def test_a_blobs_colour_is_its_lit_tops_when_its_shaded_sides_are_more():
    # a pile's peak off a red top's middle: the box takes in the die's two green side
    # faces (an L along two edges, in the shade), more of them than of the top
    cls = np.full((40, 40), RED, np.uint8)
    value = np.full((40, 40), 190, np.uint8)
    cls[:, 22:] = cls[22:, :] = GREEN
    value[:, 22:] = value[22:, :] = 80
    box = np.array([[2, 2], [38, 2], [38, 38], [2, 38]], np.float32)
    assert blob_colour(cls, box)[0] == GREEN  # by count alone
    code, share = blob_colour(cls, box, value)
    assert code == RED and share > 0.5  # (a colour needs half the box)
    # a green top's white pips are brighter than it, but too few to outweigh it
    cls, value = np.full((40, 40), GREEN, np.uint8), np.full((40, 40), 150, np.uint8)
    for y, x in ((12, 12), (20, 20), (28, 28), (12, 28), (28, 12)):
        cls[y - 2:y + 2, x - 2:x + 2], value[y - 2:y + 2, x - 2:x + 2] = LIGHT, 245
    assert blob_colour(cls, box, value)[0] == GREEN


def test_a_checkered_cloth_has_a_grid_turn_and_a_plain_table_none():
    cloth = np.zeros((240, 320, 3), np.uint8)
    cloth[:] = (40, 40, 200)
    for y in range(0, 240, 20):
        for x in range(0, 320, 20):
            if (x // 20 + y // 20) % 2:
                cloth[y:y + 20, x:x + 20] = (235, 235, 235)
    turned = cv2.warpAffine(cloth, cv2.getRotationMatrix2D((160, 120), 30, 1.0), (320, 240),
                            borderMode=cv2.BORDER_REFLECT)
    assert grid_turn(cloth) in (0.0, 1.0, 89.0)
    assert abs(grid_turn(turned) - 60) <= 2 or abs(grid_turn(turned) - 30) <= 2
    assert grid_turn(ds.table(size=(320, 240))) is None


def test_white_balance_makes_a_lamp_lit_white_die_white_and_leaves_neutral_frames():
    frame = ds.scene(["green", "red"])
    assert white_balance(frame) is frame or np.array_equal(white_balance(frame), frame)
    warm = cv2.convertScaleAbs(frame * np.array([0.7, 0.9, 1.0]))  # BGR: a warm lamp
    balanced = white_balance(warm)
    white = frame.min(axis=2) > 230  # the pips
    before = warm[white].astype(np.float32).mean(axis=0)
    after = balanced[white].astype(np.float32).mean(axis=0)
    assert np.ptp(after) < 0.4 * np.ptp(before)


def test_plain_black_and_white_dice_on_a_contrasting_table_are_found():
    frame = ds.table(colour=(150, 150, 155))
    ds.die(frame, (150, 200), 36, ds.BLACK, angle=15, pips=5)
    ds.die(frame, (350, 260), 36, ds.BLACK, angle=40, pips=2)
    reading = read_dice(frame)
    assert reading.counts() == (0, 0, 0, 2)


def test_white_dice_on_a_white_table_are_found_by_their_pips():
    frame = ds.table(colour=(228, 230, 230))
    ds.die(frame, (150, 200), 36, ds.WHITE, angle=15, pips=5, pip_colour=(30, 30, 30))
    ds.die(frame, (400, 260), 36, ds.WHITE, angle=40, pips=3, pip_colour=(30, 30, 30))
    found = pip_groups(frame, 36.0, [])
    centres = sorted((round(c[0]), round(c[1])) for _, c in found)
    assert len(centres) == 2
    assert abs(centres[0][0] - 150) < 6 and abs(centres[0][1] - 200) < 6
    assert abs(centres[1][0] - 400) < 6 and abs(centres[1][1] - 260) < 6
    taken = [np.array([[130, 180], [170, 180], [170, 220], [130, 220]], np.float32)]
    assert len(pip_groups(frame, 36.0, taken)) == 1
    assert read_dice(frame).counts() == (0, 0, 0, 2)


def test_noise_and_grain_are_not_pips():
    rng = np.random.default_rng(3)
    frame = ds.table(colour=(200, 200, 200), noise=25.0)
    frame[rng.random(frame.shape[:2]) < 0.01] = (40, 40, 40)  # dark specks
    assert pip_groups(frame, 36.0, []) == []


def test_dice_of_the_tables_colour_found_by_their_pips_take_their_body_colour():
    frame = ds.table(colour=(45, 40, 200))  # a red cloth
    ds.die(frame, (200, 200), 36, ds.RED, pips=5, angle=20, shadow=False)
    ds.die(frame, (420, 260), 36, ds.RED, pips=4, angle=55, shadow=False)
    ds.die(frame, (320, 380), 36, ds.WHITE, pips=3, angle=5, shadow=False,
           pip_colour=(30, 30, 30))
    assert read_dice(frame).counts() == (0, 0, 2, 1)


def test_a_plain_square_is_a_blob_die_only_when_told_it_is_one():
    frame = ds.table()
    ds.die(frame, (200, 200), 36, ds.GREEN, angle=20, pips=0, shadow=False)
    mask = _mask_of(frame)
    assert square_blobs(mask, frame, 36.0, []) == []  # plain: a token, a cloth square
    seen = []

    def plain_die(box, hsv, origin):
        seen.append(origin)
        return True

    blobs = square_blobs(mask, frame, 36.0, [], plain_die=plain_die)
    assert len(blobs) == 1 and len(seen) == 1
    assert np.hypot(blobs[0][1][0] - 200, blobs[0][1][1] - 200) < 4


def _plain_case(rim: str) -> bool:
    from vision.dice import DiceParams
    from vision.dice_blobs import is_plain_die

    felt = (40, 140, 35)
    frame = ds.table(colour=felt)
    box = ds.square(np.array([200.0, 200.0]), 36, 20).astype(np.float32)
    mask = np.zeros(frame.shape[:2], np.uint8)
    if rim == "shadow":  # its side faces of the felt's green too: only its shadow,
        u = (box[2] - box[1]) / np.linalg.norm(box[2] - box[1])  # along one edge
        n = (box[1] - box[0]) / np.linalg.norm(box[1] - box[0])
        a, b = box[1] + u * 5, box[2] - u * 5
        cv2.fillConvexPoly(mask, np.round([a, b, b + n * 6, a + n * 6]).astype(np.int32), 255)
    elif rim != "none":  # the die's side faces and shadow: unlike the table, round its top
        outer = ds.square(np.array([206.0, 206.0] if rim == "part" else [200.0, 200.0]),
                          48, 20)
        cv2.fillConvexPoly(mask, np.round(outer).astype(np.int32), 255)
        cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 0)
    x0, y0 = 170, 170
    hsv = cv2.cvtColor(frame[y0:240, x0:240], cv2.COLOR_BGR2HSV)
    return is_plain_die(box, hsv, (x0, y0), mask, DiceParams())


def test_a_plain_square_of_the_felts_green_with_its_sides_along_part_of_its_rim_is_a_die():
    assert _plain_case("part")
    assert _plain_case("shadow")  # along a sixth of its rim
    assert not _plain_case("none")  # a square of the cloth, nothing of a die around it
    assert not _plain_case("all")  # a patch of felt closed in between dice


def test_a_faint_smudge_beside_a_faces_pips_does_not_hide_them():
    # pips of one face are alike in size and darkness; a smudge on the table within a
    # pip's reach joins their group but is left out of it, not taken for a pip
    frame = ds.table(colour=(150, 150, 155))
    ds.die(frame, (200, 200), 36, ds.WHITE, pips=5, pip_colour=(30, 30, 30), shadow=False)
    cv2.circle(frame, (200 + 23, 200 + 9), 4, (75, 75, 78), -1, cv2.LINE_AA)
    found = pip_groups(frame, 36.0, [])
    assert len(found) == 1
    assert abs(found[0][1][0] - 200) < 4 and abs(found[0][1][1] - 200) < 4


def test_taken_outlines_round_as_each_alone_does():
    from vision.dice_blobs import _rounded

    rng = np.random.default_rng(4)
    boxes = [(rng.integers(0, 1200, (4, 2)) / 2).astype(np.float32) for _ in range(9)]  # halves
    boxes[3] = boxes[3].astype(np.float64) - 0.5  # another dtype, negative halves near 0
    for outlines in (boxes, boxes[:1], boxes + [np.array([[1.5, 2.5], [3.5, 4.5]])]):
        got = _rounded(outlines)
        assert len(got) == len(outlines)
        for g, t in zip(got, outlines):
            assert g.dtype == np.int32 and np.array_equal(g, np.round(t).astype(np.int32))
