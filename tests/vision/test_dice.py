"""The dice reader on tables drawn in the test: one hard thing at a time."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from tests.vision import dice_support as ds
from vision.dice import DiceParams, read_dice
from vision.dice_cloth import is_cloth_square
from vision.dice_segment import table_model
from vision.results import DiceReading, Die


@pytest.mark.parametrize("frame, words", [
    ([[1, 2, 3]], "numpy array"),
    (np.zeros((100, 100), np.uint8), "shape"),
    (np.zeros((100, 100, 4), np.uint8), "shape"),
    (np.zeros((100, 100, 3), np.float32), "uint8"),
    (np.zeros((20, 100, 3), np.uint8), "too small"),
])
def test_bad_frames_are_refused_with_a_sentence(frame, words):
    with pytest.raises(ValueError, match=words):
        read_dice(frame)


@pytest.mark.parametrize("colour", [(150, 150, 155), (40, 110, 30), (236, 238, 238),
                                    (30, 45, 80), (45, 40, 190)])
def test_an_empty_table_has_no_dice(colour):
    assert read_dice(ds.table(colour=colour)).count == 0


def test_counts_each_colour_and_other_games_dice():
    frame = ds.scene(["green", "yellow", "red", "green", ds.BLUE, ds.BLACK, "yellow", "green"])
    reading = read_dice(frame)
    assert reading.counts() == (3, 2, 1, 2)
    assert reading.to_dict() == {"green": 3, "yellow": 2, "red": 1, "other": 2}
    assert len(reading.dice) == reading.count == 8


@pytest.mark.parametrize("angle", [0, 20, 45, 70])
def test_any_rotation(angle):
    frame = ds.table()
    for i, colour in enumerate(["green", "yellow", "red"]):
        ds.die(frame, (150 + 160 * i, 240), 36, ds.FACE[colour], angle=angle + 7 * i, pips=5)
    assert read_dice(frame).counts() == (1, 1, 1, 0)


def test_light_dice_with_coloured_marks():
    frame = ds.table(colour=(120, 125, 120))
    for i, mark in enumerate([ds.GREEN, ds.GREEN, ds.YELLOW, ds.RED]):
        ds.die(frame, (120 + 130 * i, 240), 40, ds.WHITE, mark=mark, angle=10 * i)
    assert read_dice(frame).counts() == (2, 1, 1, 0)


@pytest.mark.parametrize("table_colour", [(40, 110, 30), (236, 238, 238), (30, 45, 80)])
def test_dice_on_tables_that_fight_the_colours(table_colour):
    frame = ds.scene(["green", "yellow", "red", "green", "red"], table_colour=table_colour)
    assert read_dice(frame).counts() == (2, 1, 2, 0)


def test_dice_and_their_positions_come_back_in_frame_pixels():
    frame = ds.table(size=(1280, 960))
    ds.die(frame, (300, 400), 70, ds.GREEN, pips=2)
    ds.die(frame, (900, 600), 70, ds.RED, pips=4)
    reading = read_dice(frame)
    assert reading.counts() == (1, 0, 1, 0)
    by_colour = {d.colour: d for d in reading.dice}
    for colour, (x, y) in {"green": (300, 400), "red": (900, 600)}.items():
        die = by_colour[colour]
        assert abs(die.centre[0] - x) < 8 and abs(die.centre[1] - y) < 8
        outline = np.array(die.outline, np.float32)
        assert cv2.pointPolygonTest(outline, (x, y), False) >= 0
        assert 0.6 * 70 < np.sqrt(cv2.contourArea(outline)) < 1.3 * 70
        assert 0.0 <= die.confidence <= 1.0


def test_the_frame_is_not_written_to():
    frame = ds.scene(["green", "yellow", "red"])
    before = frame.copy()
    read_dice(frame)
    assert np.array_equal(frame, before)


def test_same_counts_at_both_camera_sizes():
    small = ds.scene(["green", "yellow", "red", "yellow"], side=30)
    big = cv2.resize(small, (1280, 960), interpolation=cv2.INTER_LINEAR)
    assert read_dice(small).counts() == read_dice(big).counts() == (1, 2, 1, 0)


def test_coins_and_pencils_are_not_dice():
    frame = ds.scene(["green", "red"])
    cv2.circle(frame, (400, 300), 20, (70, 160, 200), -1, cv2.LINE_AA)  # a brass coin
    cv2.circle(frame, (500, 300), 18, (160, 160, 165), -1, cv2.LINE_AA)  # a steel coin
    cv2.line(frame, (100, 400), (420, 430), (30, 200, 235), 12, cv2.LINE_AA)  # a yellow pencil
    assert read_dice(frame).counts() == (1, 0, 1, 0)


def test_params_are_used():
    frame = ds.scene(["green", "yellow"], side=34)
    assert read_dice(frame).count == 2
    assert read_dice(frame, params=DiceParams(fg_threshold=500)).count == 0


def test_reading_totals_follow_its_dice():
    dice = (Die(((0, 0), (1, 0), (1, 1), (0, 1)), (0.5, 0.5), "green", 0.9),
            Die(((2, 0), (3, 0), (3, 1), (2, 1)), (2.5, 0.5), "other", 0.4))
    reading = DiceReading.from_dice(dice)
    assert reading.counts() == (1, 0, 0, 1) and reading.count == 2
    assert reading.confidence == 0.4
    assert DiceReading().confidence == 1.0 and DiceReading().count == 0


def test_top_faces_are_square_coloured_faces_with_pips_in_their_middle():
    from vision.dice_faces import GREY, LIGHT, RED, YELLOW
    from vision.dice_pick import is_crisp_square, is_top_shaped

    shaped = dict(top_area=900.0, max_aspect=1.75, min_fill=0.62)
    assert is_top_shaped(ds.face(), **shaped)
    assert not is_top_shaped(ds.face(max_hole=0.5, holes=0.5), **shaped)  # felt around a die
    light = dict(cls=LIGHT, mark=RED, bgr=(220.0, 225.0, 225.0), holes=0.15, max_hole=0.12)
    assert is_top_shaped(ds.face(**light, mark_off=0.05), **shaped)
    assert not is_top_shaped(ds.face(**light, mark_off=0.35), **shaped)  # colour at its edge
    assert is_top_shaped(ds.face(cls=YELLOW, bgr=(30.0, 200.0, 230.0)), **shaped)
    assert not is_top_shaped(ds.face(cls=YELLOW, bgr=(110.0, 160.0, 190.0)), **shaped)  # brass
    grey = dict(cls=GREY, mark=RED, bgr=(90.0, 90.0, 95.0), holes=0.15, max_hole=0.12)
    assert is_top_shaped(ds.face(**grey, mark_off=0.05), **shaped)
    assert not is_top_shaped(ds.face(**grey, aspect=1.6), **shaped)  # a shaded side face
    assert not is_top_shaped(ds.face(**grey, corners=2.1), **shaped)  # side and shadow merged
    assert is_crisp_square(ds.face())
    assert not is_crisp_square(ds.face(edge=50.0))
    assert not is_crisp_square(ds.face(corners=2.2, fill=0.65, aspect=1.6))


def test_a_side_mark_next_to_a_top_mark_is_the_same_die():
    from vision.dice_faces import LIGHT, RED, YELLOW
    from vision.dice_pick import pick_tops

    light = dict(cls=LIGHT, bgr=(220.0, 225.0, 225.0), holes=0.15, max_hole=0.12)
    top = ds.face(**light, mark=RED, area=900.0)
    box = np.array([[85, 109], [115, 109], [115, 139], [85, 139]], np.float32)
    side = ds.face(**light, mark=YELLOW, area=800.0, centre=(100.0, 124.0), box=box)
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    assert [t.mark for t in pick_tops([top, side], 30.0, **kw)] == [RED]
    apart = ds.face(**light, mark=YELLOW, area=800.0, centre=(100.0, 131.0), box=box + [0, 7])
    assert len(pick_tops([top, apart], 30.0, **kw)) == 2  # a die lying next to it


def test_a_mark_on_a_shaded_body_next_to_a_lit_one_is_that_dies_side():
    from vision.dice_faces import RED, YELLOW
    from vision.dice_pick import pick_tops

    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = ds.face(cls=RED, area=120.0, body=30.0, body_value=250.0, ring=1.0)
    box = np.array([[95, 127], [105, 127], [105, 137], [95, 137]], np.float32)
    mark = dict(cls=YELLOW, area=110.0, centre=(100.0, 132.0), box=box, ring=1.0)
    shaded = ds.face(**mark, body=30.0, body_value=205.0)
    as_face = ds.face(**mark)  # the same mark found as a small yellow face
    assert [t.cls for t in pick_tops([top, shaded, as_face], 30.0, **kw)] == [RED]
    # two dice lying side by side: their bodies are lit alike
    lit = ds.face(**mark, body=30.0, body_value=245.0)
    assert sorted(t.cls for t in pick_tops([top, lit], 30.0, **kw)) == [YELLOW, RED]


def test_a_ragged_light_patch_bigger_than_a_die_is_no_top_face():
    from vision.dice_faces import LIGHT
    from vision.dice_pick import pick_tops

    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    light = dict(cls=LIGHT, bgr=(225.0, 230.0, 230.0), holes=0.1, max_hole=0.08, pips=60.0)
    patch = ds.face(**light, area=1400.0, corners=1.9, fill=0.72, aspect=1.3)
    assert pick_tops([patch], 30.0, **kw) == []  # a die's body run into a light square
    small = ds.face(**light, area=850.0, corners=1.9, fill=0.72)  # a die's size
    assert len(pick_tops([small], 30.0, **kw)) == 1
    assert len(pick_tops([ds.face(**light, area=1400.0, corners=1.5)], 30.0, **kw)) == 1


def test_a_round_plain_face_of_no_toss_up_colour_is_a_coin():
    from vision.dice_faces import HUE
    from vision.dice_pick import pick_tops

    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    coin = dict(cls=HUE, bgr=(190.0, 140.0, 120.0), corners=1.21, fill=0.75)
    assert pick_tops([ds.face(**coin, holes=0.0, pips=0.0, max_hole=0.0)], 30.0, **kw) == []
    assert len(pick_tops([ds.face(**coin)], 30.0, **kw)) == 1  # a blue die shows its pips


def test_a_hand_reaching_in_does_not_set_the_die_size():
    frame = ds.table(colour=(235, 235, 232))
    ds.die(frame, (320, 300), 26, ds.YELLOW, angle=40, pips=5, pip_colour=(30, 30, 30))
    # a brown hand, far bigger than a die, cut by the frame's top edge
    cv2.rectangle(frame, (200, 0), (330, 40), (60, 90, 140), -1)
    for x in (205, 240, 275, 305):
        cv2.rectangle(frame, (x, 40), (x + 22, 110), (60, 90, 140), -1)
    assert read_dice(frame).counts() == (0, 1, 0, 0)


def test_a_small_mark_on_a_shaded_grey_body_is_a_side_face():
    from vision.dice_faces import GREY, LIGHT, RED, YELLOW
    from vision.dice_pick import pick_tops

    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = ds.face(cls=LIGHT, mark=RED, bgr=(225.0, 230.0, 230.0), holes=0.15, max_hole=0.12)
    box = np.array([[92, 128], [108, 128], [108, 144], [92, 144]], np.float32)
    mark = ds.face(cls=YELLOW, area=200.0, centre=(100.0, 136.0), box=box, corners=1.5,
                 bgr=(45.0, 85.0, 100.0), value=100.0)
    side = dict(cls=GREY, mark=YELLOW, area=500.0, centre=(100.0, 136.0), aspect=1.6,
                bgr=(100.0, 100.0, 105.0), value=105.0, spots=((YELLOW, 100.0, 136.0, 0.3),))
    assert [t.cls for t in pick_tops([top, mark, ds.face(**side)], 30.0, **kw)] == [LIGHT]
    # a black die's body is darker, and a die with coloured pips shows several
    dark = ds.face(**{**side, "value": 50.0})
    assert len(pick_tops([top, mark, dark], 30.0, **kw)) == 2
    pips = ds.face(**{**side, "spots": side["spots"] * 2})
    assert len(pick_tops([top, mark, pips], 30.0, **kw)) == 2


def test_a_glare_spot_far_bigger_than_the_die_does_not_set_the_die_size():
    frame = ds.table(colour=(120, 118, 125))
    ds.die(frame, (150, 150), 16, ds.GREEN, angle=20, pips=4)
    glare = np.zeros(frame.shape[:2], np.float32)
    cv2.ellipse(glare, (400, 300), (45, 35), 0, 0, 360, 1.0, -1)
    glare = cv2.GaussianBlur(glare, (0, 0), 3)[..., None]
    frame[:] = np.clip(frame * (1 - glare) + 250 * glare, 0, 255).astype(np.uint8)
    assert read_dice(frame).counts() == (1, 0, 0, 0)


def test_what_lies_on_a_pencil_is_no_die():
    frame = ds.scene(["green"])
    cv2.line(frame, (150, 300), (420, 330), (40, 150, 40), 12, cv2.LINE_AA)  # a green pencil
    ferrule = cv2.boxPoints(((432, 331), (22, 16), 6.3)).astype(np.int32)
    cv2.fillConvexPoly(frame, ferrule, (230, 232, 235), cv2.LINE_AA)
    cv2.circle(frame, (433, 331), 5, (60, 60, 210), -1, cv2.LINE_AA)  # a red stamp on it
    assert read_dice(frame).counts() == (1, 0, 0, 0)


def test_a_light_die_turned_like_a_checkered_cloth_is_still_a_die():
    frame = ds.table(colour=(235, 235, 232))
    for y in range(0, 480, 40):
        for x in range(0, 640, 40):
            if (x // 40 + y // 40) % 2:
                frame[y:y + 40, x:x + 40] = ds.RED
    # its red mark sits in its middle; a cloth square's colour sits at its corners
    ds.die(frame, (300, 220), 34, (225, 228, 230), angle=2, mark=ds.RED)
    assert read_dice(frame).counts() == (0, 0, 1, 0)


def _checker_model(light: tuple, dark: tuple) -> tuple:
    """The table model of a checkered cloth of two colours (BGR)."""
    cloth = np.zeros((40, 40, 3), np.uint8)
    cloth[:] = light
    cloth[:20, :20] = cloth[20:, 20:] = dark
    return table_model(cv2.cvtColor(cloth, cv2.COLOR_BGR2YCrCb))


def test_a_cloth_square_ringed_by_light_squares_is_no_mark():
    from vision.dice_faces import GREEN, RED

    model = _checker_model((232, 235, 235), ds.RED)
    square = dict(cls=RED, bgr=tuple(float(c) for c in ds.RED), body=40.0, body_value=230.0)
    assert is_cloth_square(ds.face(**square), 0.0, DiceParams(), model, 30.0)  # turned like it
    assert not is_cloth_square(ds.face(**square), 30.0, DiceParams(), model, 30.0)
    green = dict(square, cls=GREEN, bgr=tuple(float(c) for c in ds.GREEN))
    assert not is_cloth_square(ds.face(**green), 0.0, DiceParams(), model, 30.0)  # not its colour


def test_a_crisp_die_sized_square_of_a_colour_the_cloth_lacks_is_nois_cloth_square():
    from vision.dice_faces import HUE, YELLOW

    model = _checker_model((90, 90, 95), (30, 50, 90))  # a brown and grey check
    # a face whose pixels are yellow, its mean colour (shaded) near the brown
    shaded_yellow = ds.face(cls=YELLOW, bgr=(30.0, 55.0, 88.0))
    assert not is_cloth_square(shaded_yellow, 0.0, DiceParams(), model, 30.0)
    assert is_cloth_square(shaded_yellow, 0.0, DiceParams(), model, 60.0)  # far under a die
    brown = ds.face(cls=HUE, bgr=(30.0, 50.0, 90.0))
    assert is_cloth_square(brown, 0.0, DiceParams(), model, 30.0)


def test_a_die_in_a_hard_shadow_keeps_its_colour():
    # the die's green is darker than a colour may be in full light, as the shadow's
    # table is darker than the lit table
    frame = ds.table(colour=(200, 200, 205))
    cv2.rectangle(frame, (300, 150), (640, 480), (90, 90, 92), -1)  # a hard shadow
    ds.die(frame, (450, 300), 34, (22, 42, 14), pips=3, pip_colour=(90, 90, 90), angle=20,
           shadow=False)
    ds.die(frame, (150, 300), 34, ds.GREEN, pips=2, angle=35)
    ds.die(frame, (150, 120), 34, ds.RED, pips=2, angle=55)
    assert read_dice(frame).counts() == (2, 0, 1, 0)


def test_two_cloth_squares_joined_at_a_corner_are_cloth_though_turned_along_the_diagonal():
    from vision.dice_faces import GREEN, RED

    model = _checker_model((232, 235, 235), ds.RED)
    diagonal = np.array([[100, 70], [130, 100], [100, 130], [70, 100]], np.float32)
    # the outline of two squares meeting at a corner: only half of it is their colour
    pair = dict(cls=RED, box=diagonal, agree=0.5, bgr=tuple(float(c) for c in ds.RED))
    assert is_cloth_square(ds.face(**pair), 0.0, DiceParams(), model, 30.0)
    assert not is_cloth_square(ds.face(**dict(pair, agree=0.9)), 0.0, DiceParams(), model, 30.0)
    green = dict(pair, cls=GREEN, bgr=tuple(float(c) for c in ds.GREEN))
    assert not is_cloth_square(ds.face(**green), 0.0, DiceParams(), model, 30.0)
    assert not is_cloth_square(ds.face(**pair), 20.0, DiceParams(), model, 30.0)  # a die's turn



def test_a_dies_outline_is_its_top_scaled_back_to_the_frame_in_plain_floats(monkeypatch):
    from vision import dice as dice_
    from vision import dice_pick

    tops = []
    real = dice_pick.pick_tops

    def keep(*a, **k):
        tops.extend(real(*a, **k))
        return tops[:]
    monkeypatch.setattr(dice_pick, "pick_tops", keep)
    read_dice(ds.scene(["green", "yellow", "red"]))
    assert len(tops) == 3
    for top in tops:
        for scale in (1.0, 0.5, 0.37, 0.8125):
            die = dice_._die(top, scale)
            want = tuple((float(x / scale), float(y / scale)) for x, y in dice_pick.die_box(top))
            assert die.outline == want and len(die.outline) == 4
            assert all(type(p) is tuple and all(type(v) is float for v in p)
                       for p in die.outline)
