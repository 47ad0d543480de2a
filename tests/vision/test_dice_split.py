"""Touching dice: merged faces cut into dice, and piles of dice found by their peaks."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice_faces import GREEN, LIGHT, RED, YELLOW, Face
from vision.dice_piles import pile_dice
from vision.dice_split import (guess_side, seam_pieces, seam_sides, several_marks,
                               split_blocks, split_merged)


def _face(w: float, h: float, **kw) -> Face:
    """A candidate whose outline is a w x h rectangle with its corner at (100, 100)."""
    box = np.array([[100, 100], [100 + w, 100], [100 + w, 100 + h], [100, 100 + h]],
                   np.float32)
    base = dict(cls=GREEN, area=w * h, centre=(100 + w / 2, 100 + h / 2), box=box,
                aspect=max(w, h) / min(w, h), fill=0.88, value=200.0, holes=0.0, mark=0,
                agree=0.95, bgr=(40.0, 180.0, 40.0), ring=0.0, edge=160.0, pips=0.0,
                max_hole=0.0, corners=2.2)
    base.update(kw)
    return Face(**base)


def test_two_or_four_dice_of_one_colour_merged_are_cut_into_dice():
    pair = split_merged([_face(60, 30)], 30.0)
    assert sorted(round(p.centre[0]) for p in pair) == [115, 145]
    assert all(abs(p.centre[1] - 115) < 1 and p.aspect < 1.05 for p in pair)
    block = split_merged([_face(60, 60)], 30.0)
    assert sorted((round(p.centre[0]), round(p.centre[1])) for p in block) == [
        (115, 115), (115, 145), (145, 115), (145, 145)]


def test_single_dice_soft_blotches_and_odd_shapes_are_not_cut():
    assert split_merged([_face(30, 30)], 30.0) == []  # one die
    assert split_merged([_face(60, 30, edge=55.0)], 30.0) == []  # a soft patch of table
    assert split_merged([_face(90, 30)], 30.0) == []  # three in a row: not a 1x2 block
    assert split_merged([_face(60, 30, fill=0.6)], 30.0) == []  # ragged


def _spot(code: int, x: float, y: float, share: float = 0.07) -> tuple:
    return (code, x, y, share)


def test_a_block_of_light_dice_gives_one_die_per_mark():
    spots = (_spot(GREEN, 115, 115), _spot(RED, 145, 115), _spot(GREEN, 115, 145),
             _spot(YELLOW, 145, 145))
    block = _face(60, 60, cls=LIGHT, mark=GREEN, spots=spots)
    assert several_marks(block)
    dice = split_blocks([block])
    got = sorted((round(d.centre[0]), round(d.centre[1]), d.mark) for d in dice)
    assert got == [(115, 115, GREEN), (115, 145, GREEN), (145, 115, RED), (145, 145, YELLOW)]
    assert all(d.marks == 1 and d.mark_off < 0.1 for d in dice)


def test_a_die_with_coloured_pips_is_not_a_block():
    pips = (_spot(RED, 110, 110, 0.03), _spot(RED, 150, 110, 0.03), _spot(RED, 110, 150, 0.2))
    die = _face(60, 60, cls=LIGHT, mark=RED, spots=pips)
    assert not several_marks(die)
    assert split_blocks([die]) == [die]


def _mask_of(frame: np.ndarray, table=(150, 150, 155)) -> np.ndarray:
    diff = np.abs(frame.astype(np.int16) - np.array(table, np.int16)).max(axis=2)
    return (diff > 40).astype(np.uint8) * 255


def test_touching_dice_in_one_blob_are_found_by_their_peaks():
    frame = ds.table()
    for x, y, angle in ((200, 200, 10), (238, 222, 35)):  # lying against each other
        ds.die(frame, (x, y), 36, ds.BLACK, pips=5, angle=angle, shadow=False)
    found = pile_dice(_mask_of(frame), frame, 36.0, [])
    centres = sorted((round(c[0]), round(c[1])) for _, c, _, _ in found)
    assert len(centres) == 2
    assert np.hypot(centres[0][0] - 200, centres[0][1] - 200) <= 6
    assert np.hypot(centres[1][0] - 238, centres[1][1] - 222) <= 6
    assert len(pile_dice(_mask_of(frame), frame, 36.0, [(200.0, 200.0)])) == 1


def test_a_peak_of_the_table_s_own_colour_is_no_die_of_a_pile():
    frame = ds.table()
    for x, y, angle in ((200, 200, 10), (238, 222, 35)):
        ds.die(frame, (x, y), 36, ds.BLACK, pips=5, angle=angle, shadow=False)
    mask = _mask_of(frame)
    table = np.array(ds.table()[0, 0], np.float64)

    def black_is_table(bgr, centre):
        return bool(np.abs(np.array(bgr) - table).max() < 30)

    def black_is_the_table(bgr, centre):  # a black table: the "pile" is table
        return max(bgr) < 90

    assert len(pile_dice(mask, frame, 36.0, [], is_table=black_is_table)) == 2
    assert pile_dice(mask, frame, 36.0, [], is_table=black_is_the_table) == []


def test_a_cloth_crossing_beside_a_die_is_no_die_of_its_pile():
    # a die lying on a check in a hard shadow: the foreground blob takes in the checks
    # beside it, whose crossing spreads in brightness as a die's pips do, but in a few
    # big pieces reaching across the square
    frame = ds.table()
    frame[196:236, 222:262] = (70, 70, 72)
    frame[196:216, 242:262] = frame[216:236, 222:242] = (205, 205, 210)
    ds.die(frame, (200, 216), 36, ds.BLACK, pips=5, angle=20, shadow=False)
    assert pile_dice(_mask_of(frame), frame, 36.0, [(200.0, 216.0)]) == []
    # a die showing a one there is a die: its pip lies clear of its square's border
    ds.die(frame, (240, 216), 36, ds.BLACK, pips=1, angle=5, shadow=False)
    (found,) = pile_dice(_mask_of(frame), frame, 36.0, [(200.0, 216.0)])
    assert np.hypot(found[1][0] - 240, found[1][1] - 216) <= 6


def test_pencils_cards_and_plain_blobs_are_not_piles():
    frame = ds.table()
    cv2.line(frame, (50, 100), (400, 130), (30, 30, 30), 30)  # a long dark bar
    cv2.rectangle(frame, (300, 250), (470, 420), (235, 235, 235), -1)  # a card
    cv2.circle(frame, (360, 330), 8, (20, 20, 20), -1)  # something printed on it
    cv2.rectangle(frame, (100, 300), (172, 336), (40, 40, 40), -1)  # a plain token
    assert pile_dice(_mask_of(frame), frame, 36.0, []) == []


def test_touching_dice_of_one_colour_are_counted_apart():
    frame = ds.table()
    ds.die(frame, (420, 300), 36, ds.RED, pips=3, angle=20)
    ds.die(frame, (150, 350), 36, ds.GREEN, pips=2, angle=50)
    # two green dice edge to edge, the seam between them lost: one 2x1 run of green
    c, s = np.cos(np.radians(15)), np.sin(np.radians(15))
    corners = np.array([[-36, -18], [36, -18], [36, 18], [-36, 18]]) @ [[c, s], [-s, c]]
    cv2.fillConvexPoly(frame, np.round(corners * 1.06 + (220, 180)).astype(np.int32),
                       (22, 72, 18), cv2.LINE_AA)
    cv2.fillConvexPoly(frame, np.round(corners + (220, 180)).astype(np.int32), ds.GREEN,
                       cv2.LINE_AA)
    assert read_dice(frame).counts() == (3, 0, 1, 0)


def _block_image(na: int, nb: int, edge: int = 30, seam: int = 4, angle: float = 0.0
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(blob mask, brightness) of na x nb light dice with dark seams, turned by ``angle``;
    each die's face holds a dark mark in its middle."""
    w, h = na * edge + (na - 1) * seam, nb * edge + (nb - 1) * seam
    luma = np.full((h, w), 90, np.uint8)
    for i in range(na):
        for j in range(nb):
            x, y = i * (edge + seam), j * (edge + seam)
            luma[y:y + edge, x:x + edge] = 230
            cv2.circle(luma, (x + edge // 2, y + edge // 2), edge // 5, 60, -1)
    pad = 20
    luma = cv2.copyMakeBorder(luma, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    mask = cv2.copyMakeBorder(np.full((h, w), 255, np.uint8), pad, pad, pad, pad,
                              cv2.BORDER_CONSTANT, value=0)
    turn = cv2.getRotationMatrix2D((luma.shape[1] / 2, luma.shape[0] / 2), angle, 1.0)
    size = (luma.shape[1], luma.shape[0])
    return (cv2.warpAffine(mask, turn, size, flags=cv2.INTER_NEAREST),
            cv2.warpAffine(luma, turn, size, flags=cv2.INTER_LINEAR))


def test_a_block_of_touching_dice_splits_along_its_dark_seams():
    for angle in (0.0, 17.0, 40.0):
        assert seam_pieces(*_block_image(2, 2, angle=angle)) == 4
        assert seam_pieces(*_block_image(2, 1, angle=angle)) == 2
        assert seam_pieces(*_block_image(1, 2, angle=angle)) == 2


def test_one_die_with_a_mark_or_a_side_face_is_not_split():
    mask, luma = _block_image(1, 1, edge=60)
    assert seam_pieces(mask, luma) == 1  # a dark mark in the middle is no seam
    side = luma.copy()
    side[side > 0] = 230
    side[20:80, 20:35] = 90  # a dark side face along one edge: dark on one side only
    assert seam_pieces(mask, side) == 1
    plain = np.where(mask > 0, 200, 0).astype(np.uint8)  # a plain block: no seams
    assert seam_pieces(mask, plain) == 1


def test_the_die_size_guess_counts_a_block_as_its_dice():
    mask, luma = _block_image(2, 2)
    x, y, w, h = cv2.boundingRect(mask)
    stats = np.array([[x, y, w, h, cv2.countNonZero(mask)]], np.int32)
    sides = seam_sides(stats, mask, luma)
    assert len(sides) == 4
    assert 28 <= sides[0] <= 36  # a die's edge (30) and its share of the seams, not 64


def test_a_speck_smaller_than_any_die_does_not_set_the_die_size():
    # fresh render seed 6101 0032: one die on a check, and beside it a speck of the
    # check's edge 5 pixels wide but holding 14 of them; the die far bigger than the only
    # other blob was taken for glare or a card, and the die size for the speck's
    raw = np.zeros((240, 320), np.uint8)
    cv2.rectangle(raw, (60, 100), (83, 123), 255, -1)  # the die's blob, 24 pixels
    raw[200:205, 250:255] = 255
    raw[200, 250:254] = 0
    raw[201:204, 250] = 0
    raw[204, 251:255] = 0  # a 5 x 5 speck of 14 pixels
    side = guess_side(raw, lambda: raw, min_side=4.5, max_side=140.0)
    assert 22 <= side <= 26


def test_a_ragged_blob_is_not_split_whatever_its_lines():
    mask, luma = _block_image(2, 2)
    x, y, w, h = cv2.boundingRect(mask)
    ragged = mask.copy()
    ragged[y:y + h // 2, x:x + w // 2] = 0  # three dice's worth: an L, not a clean block
    ragged[y + h // 2:y + h // 2 + 4, x:x + 6] = 255
    assert seam_pieces(mask, luma) == 4
    assert seam_pieces(ragged, luma) == 1


def test_two_dice_of_one_colour_with_pips_merged_are_cut_into_dice():
    # a pair's pips are holes in its run, not of its colour: 0.69 of it green, 0.16 pips
    pips = dict(agree=0.69, holes=0.16, pips=51.0, max_hole=0.1)
    assert len(split_merged([_face(60, 30, **pips)], 30.0)) == 2
    # without pips that stand out, so little of its own colour is a blotch of the table
    assert split_merged([_face(60, 30, **{**pips, "pips": 10.0})], 30.0) == []
    assert split_merged([_face(60, 30, agree=0.69, holes=0.0)], 30.0) == []
