"""Choosing top faces (``vision.dice_pick``) on face candidates made in the test."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from tests.vision.dice_support import face
from vision.dice import read_dice
from vision.dice_faces import GREEN, GREY, HUE, LIGHT, RED, YELLOW, Face
from vision.dice_pick import (colour_of, is_doubtful_top, is_table_like, pick_tops,
                              unclaimed)
from vision.imageio import read_image

SCENES = Path(__file__).resolve().parents[1] / "data" / "dice-scenes"


def test_a_mark_ringed_all_round_by_its_light_body_is_not_the_cloth():
    # a green mark on a light die lying on a green and white check: the mark is the
    # cloth's colour and has no pips, but its own light body rings it all round
    table = np.array([90.0, 160.0, 75.0])
    mark = dict(area=50.0, holes=0.0, pips=0.0, max_hole=0.0, bgr=(88.0, 160.0, 71.0),
                body=21.0, body_value=235.0)
    assert not is_table_like(face(**mark, ring=1.0), table, True)
    # a green square of the cloth meets the next green squares at its corners
    assert is_table_like(face(**mark, ring=0.6), table, True)
    # a green spot without a light body around it is a blotch of the cloth
    assert is_table_like(face(**dict(mark, body=0.0), ring=1.0), table, True)


def test_only_faces_of_the_tables_colours_make_its_repeating_pattern():
    # five light dice with a green mark on green felt, turned alike by chance: no
    # pattern of the cloth, whose dominant colours hold no light class
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    square = np.array([[-15, -15], [15, -15], [15, 15], [-15, 15]], np.float32)
    places = [(100.0, 100.0), (230.0, 140.0), (170.0, 260.0), (320.0, 300.0), (60.0, 380.0)]
    dice = [face(cls=LIGHT, mark=GREEN, bgr=(240.0, 245.0, 240.0), value=245.0,
                 centre=at, box=square + at) for at in places]
    assert pick_tops(dice, 30.0, **kw) == []  # without the table's colours: a pattern
    assert len(pick_tops(dice, 30.0, **kw, cloth={GREEN, GREY})) == 5
    # the light squares of a light and green check are the cloth's pattern
    assert pick_tops(dice, 30.0, **kw, cloth={GREEN, LIGHT}) == []


def _ragged_run(**kw) -> Face:
    """A ragged green run taken whole (no bright core), in shade."""
    box = np.array([[88, 112], [118, 112], [118, 140], [88, 140]], np.float32)
    base = dict(area=900.0, centre=(103.0, 126.0), box=box, aspect=1.3, fill=0.7,
                value=80.0, corners=1.9, whole=True, holes=0.15, pips=40.0, max_hole=0.1)
    return face(**{**base, **kw})


def test_a_ragged_run_taken_whole_is_doubtful():
    assert is_doubtful_top(_ragged_run())
    assert not is_doubtful_top(_ragged_run(whole=False))  # it had a bright core
    assert not is_doubtful_top(_ragged_run(corners=1.45))  # a die's rounded square
    assert not is_doubtful_top(_ragged_run(cls=LIGHT))
    assert is_doubtful_top(_ragged_run(cls=GREY, mark=GREEN))  # a shaded side's mark


def test_a_darker_ragged_run_nearer_than_two_dice_can_lie_is_a_side_face():
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = face(cls=RED, bgr=(40.0, 40.0, 200.0), value=200.0)
    # its centre 27 pixels from the top's, dice 30 pixels wide: the die's side face
    # and its shadow, not a die lying against it
    assert [t.cls for t in pick_tops([top, _ragged_run()], 30.0, **kw)] == [RED]
    apart = _ragged_run(centre=(103.0, 136.0), box=_ragged_run().box + [0, 10])
    assert len(pick_tops([top, apart], 30.0, **kw)) == 2  # a die lying next to it
    lit = _ragged_run(value=220.0)  # brighter than the top: no side face in shade
    assert len(pick_tops([top, lit], 30.0, **kw)) == 2


def test_a_doubtful_face_yields_to_a_die_found_there_otherwise():
    face = _ragged_run()
    assert unclaimed([face], [(300.0, 300.0)], 30.0) == [face]
    assert unclaimed([face], [(95.0, 120.0)], 30.0) == []
    assert unclaimed([face], [(103.0, 152.0)], 30.0) == []  # closer than a die's edge


def test_a_side_face_does_not_hide_the_top_found_by_its_pips():
    # a red die with light pips on a red and white check: its top runs into a red
    # square of the cloth, and its green side face, in shade, runs into its shadow
    frame = read_image(SCENES / "img" / "0102.jpg")[:160, :200]
    reading = read_dice(frame)
    assert reading.counts() == (0, 0, 1, 0)
    (die,) = reading.dice
    assert abs(die.centre[0] - 79) < 6 and abs(die.centre[1] - 43) < 6


def test_a_smaller_ragged_face_lying_against_a_top_is_cut_off_by_it():
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = face(value=120.0)
    box = np.array([[116, 92], [128, 92], [128, 108], [116, 108]], np.float32)
    # a bright red piece of a check beside a green die, its outline ragged
    piece = face(cls=RED, bgr=(60.0, 60.0, 170.0), area=500.0, centre=(122.0, 100.0),
                  box=box, aspect=1.33, value=170.0, corners=2.1, whole=False)
    assert [t.cls for t in pick_tops([top, piece], 30.0, **kw)] == [GREEN]
    square = face(**{**piece.__dict__, "corners": 1.4})  # a die's rounded square
    assert len(pick_tops([top, square], 30.0, **kw)) == 2


def test_a_ragged_plain_piece_of_the_tables_colour_beside_a_die_is_cut_off_however_big():
    # fresh renders (seeds 6101 0009 and 0033, 6102 0067, 6103 0024): a patch of felt,
    # wood or a check that a die's outline cuts off, bigger than the die's top: its
    # outline is ragged where the table's is, crisp where the die's edge makes it
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = face(value=200.0)
    box = _box(140.0, 100.0, 36.0, 40.0)
    piece = face(cls=RED, bgr=(60.0, 60.0, 170.0), area=1100.0, centre=(140.0, 100.0),
                 box=box, aspect=1.11, fill=0.7, value=150.0, corners=2.1, mark=0)
    assert [t.cls for t in pick_tops([top, piece], 30.0, cloth={RED}, **kw)] == [GREEN]
    # a colour the table has none of is no piece of it: a die lying against the other
    assert len(pick_tops([top, piece], 30.0, cloth={YELLOW}, **kw)) == 2
    # nor is one that lies clear of every die (other rules judge it)
    far = face(**{**piece.__dict__, "centre": (220.0, 100.0), "box": box + [80.0, 0.0]})
    assert len(pick_tops([top, far], 30.0, cloth={RED}, **kw)) == 2


def test_a_shaded_marked_body_drawn_out_with_no_top_beside_it_is_a_top():
    # suite 0237, fresh render seed 6103 0067: a light die in a deep shadow shows its
    # top and its side face in one grey, drawn out like a side face; a side face hangs
    # from its die's top, so with no top beside it the body is the top
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    body = face(cls=GREY, mark=GREEN, bgr=(100.0, 104.0, 100.0), value=104.0, area=700.0,
                box=_box(100.0, 100.0, 22.0, 33.0), aspect=1.5, corners=1.8, holes=0.25)
    assert [colour_of(t)[0] for t in pick_tops([body], 30.0, **kw)] == ["green"]
    # beside a top, the same body is that die's side face
    top = face(centre=(100.0, 135.0), box=_box(100.0, 135.0, 30.0, 30.0))
    assert [t.centre for t in pick_tops([body, top], 30.0, **kw)] == [top.centre]


def _box(cx: float, cy: float, w: float, h: float) -> np.ndarray:
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                     [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]], np.float32)


def test_a_light_dies_top_mark_stands_for_its_whole_body_against_a_side_mark():
    # a tilted camera sees a light die's green top mark and, on the side face below it
    # in the shade, a red mark: the side's mark lies a mark's width from the top mark,
    # but within the light body the mark finder measured around the top mark
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=16.4 ** 2, min_edge=40.0)
    spot = dict(area=181.0, centre=(100.0, 100.0), box=_box(100, 100, 13.5, 13.5),
                fill=0.71, value=118.0, ring=0.62, edge=193.0, corners=1.2, pips=20.0,
                holes=0.03, max_hole=0.03)
    mark = face(**{**spot, "area": 158.0, "body": 18.2, "body_value": 198.0, "ring": 0.9,
                   "pips": 0.0, "holes": 0.0})
    side = face(cls=RED, bgr=(40.0, 40.0, 120.0), area=192.0, centre=(116.0, 110.0),
                box=_box(116, 110, 16.0, 12.0), aspect=1.33, fill=0.69, value=92.0,
                whole=True, corners=1.54, ring=0.38, pips=22.0, holes=0.1, max_hole=0.1,
                edge=175.0)
    tops = pick_tops([face(**spot), mark, side], 16.4, **kw)
    assert [(t.cls, t.body) for t in tops] == [(GREEN, 18.2)]
    # without the body measured, the spot could be a green die's whole top, and a red
    # die lying against it is a die of its own
    assert len(pick_tops([face(**spot), side], 16.4, **kw)) == 2


def test_the_mark_of_a_top_seen_aslant_still_makes_a_die():
    # a tilted camera sees a light die's top foreshortened, its front face below it
    # about as big: around the green top mark the light body measures 0.62 of the dice's
    # edge (20.8 pixels); the front face's yellow mark, in the shade, measures less
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=20.8 ** 2, min_edge=40.0)
    light = dict(area=15.0, aspect=1.15, fill=0.53, value=198.0, ring=1.0, edge=191.0,
                 corners=1.6, pips=30.0, holes=0.03, max_hole=0.03)
    top = face(**light, centre=(301.0, 41.0), box=_box(301, 41, 4.2, 3.6), body=12.9,
               body_value=255.0)
    front = face(**light, cls=YELLOW, centre=(303.0, 54.0), box=_box(303, 54, 6.0, 4.8),
                 body=10.9, body_value=209.0, bgr=(40.0, 190.0, 210.0))
    tops = pick_tops([top, front], 20.8, **kw)
    assert [t.cls for t in tops] == [GREEN]


def test_a_yellow_middle_clipped_out_of_an_orange_top_is_no_yellow_die():
    # an orange die under a bright gain: the camera clips its top's lit middle to yellow
    # (hue of 30, a crisp square), its rim stays orange and about as bright
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=25.0 ** 2, min_edge=40.0)
    core = face(cls=YELLOW, area=636.0, centre=(100.0, 100.0), box=_box(100, 100, 26, 26),
                value=255.0, bgr=(40.0, 230.0, 250.0), edge=133.0, corners=1.34)
    rim = dict(cls=HUE, area=910.0, centre=(97.0, 101.0), box=_box(97, 101, 33, 32),
               value=221.0, bgr=(44.0, 121.0, 221.0), whole=True, corners=1.47, fill=0.76,
               edge=156.0, pips=38.0, holes=0.44, max_hole=0.3, agree=0.37)
    (top,) = pick_tops([core, face(**rim)], 25.0, **kw)
    assert colour_of(top)[0] == "other"
    # a yellow die's own side faces and shadow around its top are darker
    (top,) = pick_tops([core, face(**{**rim, "value": 130.0})], 25.0, **kw)
    assert colour_of(top)[0] == "yellow"
    # a light die's yellow mark whose light body looks orange under a warm lamp
    mark = face(**{**core.__dict__, "area": 130.0, "box": _box(100, 100, 13, 13),
                   "body": 25.0, "body_value": 212.0, "ring": 0.9})
    (top,) = pick_tops([mark, face(**rim)], 25.0, **kw)
    assert colour_of(top)[0] == "yellow"


def test_of_a_die_seen_aslant_its_lit_top_wins_over_its_bigger_shaded_front():
    # a green die on green felt under a tilted camera: its top is small and bright, its
    # yellow front face below it bigger, darker and ragged; both are candidates of one die
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=23.0 ** 2, min_edge=40.0)
    top = face(area=284.0, centre=(438.0, 32.0), box=_box(438, 32, 18, 14.3), aspect=1.26,
               fill=0.73, value=185.0, edge=94.0, corners=1.6, holes=0.04, pips=55.0)
    front = face(cls=YELLOW, bgr=(30.0, 110.0, 125.0), area=417.0, centre=(436.0, 46.0),
                 box=_box(436, 46, 23, 17.2), aspect=1.34, fill=0.71, value=125.0,
                 edge=93.0, corners=1.94, holes=0.12, pips=18.0)
    assert [t.cls for t in pick_tops([top, front], 23.0, **kw)] == [GREEN]


def test_a_big_ragged_light_face_with_its_mark_off_its_middle_is_no_die():
    # held-out renders (seed 99 0007): a light square of a check with a yellow die's
    # side face reaching into it reads as a light face with a yellow "mark" 0.16 of an
    # edge off its middle, ragged and 1.6 dice big: the light run into the cloth, which
    # only a mark in its middle vouches for (a light die's top is a die big)
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    run = dict(cls=LIGHT, mark=YELLOW, area=1450.0, corners=1.97, mark_off=0.16,
               holes=0.05, pips=60.0, max_hole=0.05, value=196.0, agree=0.82)
    assert pick_tops([face(**run)], 30.0, **kw) == []
    assert len(pick_tops([face(**{**run, "mark_off": 0.05})], 30.0, **kw)) == 1  # centred
    assert len(pick_tops([face(**{**run, "corners": 1.4})], 30.0, **kw)) == 1  # crisp
    assert len(pick_tops([face(**{**run, "area": 950.0})], 30.0, **kw)) == 1  # a die big


def test_drop_is_asked_only_of_the_best_face_of_each_die():
    # a top and a smaller, darker piece of the same die beside it, and a die apart: the
    # drop test (cloth squares, coins, grain: costly) is asked of the two dice's best
    # faces only, and a top it drops leaves its die's lesser face to stand in
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = face(value=200.0)
    box = np.array([[116, 92], [128, 92], [128, 108], [116, 108]], np.float32)
    piece = face(area=500.0, centre=(122.0, 100.0), box=box, aspect=1.33, value=120.0,
                 corners=2.1)
    apart = face(centre=(200.0, 100.0), box=top.box + [100, 0])
    asked: list = []
    tops = pick_tops([top, piece, apart], 30.0, **kw,
                     drop=lambda f: asked.append(f) or False)
    assert sorted(t.centre for t in tops) == [top.centre, apart.centre]
    assert len(asked) == 2 and not any(f is piece for f in asked)
    asked.clear()
    tops = pick_tops([top, piece, apart], 30.0, **kw,
                     drop=lambda f: asked.append(f) or f is top)
    assert sorted(t.centre for t in tops) == [piece.centre, apart.centre]
    assert any(f is piece for f in asked)


def test_a_soft_white_die_with_pips_counts_where_it_stands_out_of_the_table_grain():
    # a white die on a white table: its outline is soft (little contrast), its pips clear
    white = face(cls=LIGHT, bgr=(225.0, 225.0, 225.0), value=225.0, edge=52.0, pips=80.0,
                 holes=0.12, max_hole=0.05)
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    assert pick_tops([white], 30.0, **kw) == []  # soft and colourless: grain, a stain
    assert pick_tops([white], 30.0, soft_die=lambda f: False, **kw) == []  # grain as sharp
    assert len(pick_tops([white], 30.0, soft_die=lambda f: True, **kw)) == 1
    # a soft plain blotch (no pips) stays out whatever the grain
    blotch = replace(white, holes=0.0, pips=0.0)
    assert pick_tops([blotch], 30.0, soft_die=lambda f: True, **kw) == []


def test_a_dark_die_blurred_round_keeps_its_pips_a_plain_disc_does_not():
    from vision.dice_pick import is_top_shaped

    kw = dict(top_area=900.0, max_aspect=1.75, min_fill=0.62)
    dark = face(cls=GREY, bgr=(60.0, 40.0, 55.0), value=60.0, corners=1.16, pips=100.0,
                holes=0.12, max_hole=0.03)  # a purple die's face, its corners soft
    assert is_top_shaped(dark, **kw)
    assert not is_top_shaped(replace(dark, holes=0.0, pips=0.0), **kw)  # a plain disc
    assert not is_top_shaped(replace(dark, corners=1.05), **kw)  # round: a coin's relief


def test_the_die_size_votes_median_and_quartile_are_numpys_bit_for_bit():
    from vision.dice_pick import _median, _upper_quartile

    rng = np.random.default_rng(8)
    for _ in range(3000):
        n = int(rng.integers(1, 40))
        sides = [float(v) for v in np.sqrt(rng.integers(20, 3000, n))]
        if rng.random() < 0.2:
            sides = sides[:2] * n  # ties
        assert _median(sides) == float(np.median(sides))
        assert _upper_quartile(sides) == float(np.percentile(sides, 75))
