"""The die size bounded by the dice lying alone on the table (``dice_outline``, used by
``dice_size.die_side_on_table``)."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision.dice_support import face, photo_find_rate
from vision.dice_measure import outer_contours
from vision.dice_outline import lone_dice, outline_floor
from vision.dice_pick import die_side
from vision.dice_size import die_side_on_table

_KW = dict(max_aspect=1.75, min_fill=0.62, min_edge=40.0)


def _top(side: float, at: tuple[float, float], **kw) -> object:
    half = side / 2
    box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]],
                   np.float32) + at
    return face(area=side * side, centre=at, box=box, **kw)


def _mask(squares: list[tuple[tuple[float, float], float]], discs=()) -> np.ndarray:
    mask = np.zeros((240, 640), np.uint8)
    for (x, y), side in squares:
        cv2.rectangle(mask, (round(x - side / 2), round(y - side / 2)),
                      (round(x + side / 2) - 1, round(y + side / 2) - 1), 255, -1)
    for (x, y), r in discs:
        cv2.circle(mask, (round(x), round(y)), round(r), 255, -1)
    return mask


def test_a_lone_dies_square_blob_holds_its_top_and_the_pieces_do_not_count():
    mask = _mask([((100, 100), 30), ((300, 100), 30), ((630, 100), 30), ((500, 100), 60)],
                 discs=[((200, 180), 15)])
    mask[90:110, 380:430] = 255  # a long blob: two dice side by side, or a pencil
    found = [_top(26.0, (100.0, 100.0)), _top(9.0, (95.0, 96.0)),  # a top and its piece
             _top(9.0, (300.0, 100.0)),  # only a piece of the second die
             _top(80.0, (500.0, 100.0))]  # bigger than its blob: the blob is not all of it
    lone = lone_dice(outer_contours(mask), mask.shape, found, min_side=9.0)
    # the disc (a coin, a white die's pip), the long blob and the blob cut by the
    # frame's edge are no lone dice
    assert sorted((round(e), t) for e, t in lone) == [(30, 9.0), (30, 26.0), (60, 0.0)]


def test_pieces_that_outvote_the_dice_lying_alone_do_not_set_the_die_size():
    # five dice on a white table (the votes of a real photo): a navy die alone, its top
    # (19.7) and a piece of it; two white dice alone that give no vote; a red, a white
    # and a blue die in a row, one blob, whose votes are mostly pieces (pips, glare)
    mask = _mask([((60, 100), 26), ((180, 100), 27), ((300, 100), 24)])
    mask[85:115, 400:520] = 255
    found = [_top(19.7, (60.0, 100.0)), _top(11.9, (64.0, 96.0))]
    found += [_top(s, (410.0 + 15.0 * i, 100.0))
              for i, s in enumerate((20.7, 16.7, 7.3, 7.7, 8.1, 8.6))]
    assert abs(die_side(found, 24.0, **_KW) - 10.25) < 0.01  # the median of the pieces
    assert abs(die_side_on_table(found, 24.0, mask, **_KW) - 10.25) < 0.01  # (no outlines)
    side = die_side_on_table(found, 24.0, mask, contours=outer_contours(mask), min_side=9.0,
                             **_KW)
    # the navy top covers 19.7/26 of its blob, and the lone dice's blobs are 26 across
    assert abs(side - 0.8 * 19.7 / 26 * 26) < 0.01


def test_the_outlines_lift_the_size_no_higher_than_the_votes_upper_quartile():
    # the same, but the row's votes all pieces: the floor (15.8) is above every vote
    # but the navy die's, and the size stops at the votes' upper quartile
    mask = _mask([((60, 100), 26), ((180, 100), 27), ((300, 100), 24)])
    mask[85:115, 400:520] = 255
    found = [_top(19.7, (60.0, 100.0))]
    found += [_top(s, (410.0 + 15.0 * i, 100.0)) for i, s in enumerate((7.3, 7.7, 8.1, 8.6))]
    side = die_side_on_table(found, 24.0, mask, contours=outer_contours(mask), min_side=9.0,
                             **_KW)
    assert abs(side - float(np.percentile([19.7, 7.3, 7.7, 8.1, 8.6], 75))) < 0.01


def test_a_top_ringed_by_the_table_is_its_lone_dies_top_however_many_faces_vote():
    # five dice on a white table: a red die alone, its top ringed by the table's white
    # (no vote, for three plain faces vote: pieces of two white dice touching, 14.7-21.3);
    # a navy and a white die alone give no vote
    mask = _mask([((60, 100), 28), ((180, 100), 26), ((300, 100), 24)])
    mask[85:115, 400:480] = 255
    red = _top(23.5, (60.0, 100.0), ring=1.0)
    found = [red] + [_top(s, (410.0 + 25.0 * i, 100.0))
                     for i, s in enumerate((14.7, 14.8, 21.3))]
    assert abs(die_side_on_table(found, 23.0, mask, **_KW) - 14.8) < 0.01
    side = die_side_on_table(found, 23.0, mask, contours=outer_contours(mask), min_side=9.0,
                             **_KW)
    assert abs(side - 0.8 * 23.5 / 28 * 26) < 0.01  # under the votes' upper quartile, 18.05
    # on a checkered cloth a ringed square is the cloth's: no lone die's top
    assert abs(die_side_on_table(found, 23.0, mask, contours=outer_contours(mask),
                                 min_side=9.0, checkered=True, **_KW) - 14.8) < 0.01


def test_votes_above_the_floor_keep_their_median():
    at = [(60.0 + 120.0 * i, 100.0) for i in range(4)]
    mask = _mask([(c, 30) for c in at])
    found = [_top(s, c) for c, s in zip(at, (24.0, 25.0, 26.0, 27.0))]
    side = die_side_on_table(found, 20.0, mask, contours=outer_contours(mask), min_side=9.0,
                             **_KW)
    assert abs(side - 25.5) < 0.01


def test_one_square_blob_alone_bounds_nothing():
    # a block of four dice makes one square blob, its run of one colour a big "top"
    assert outline_floor([(60.0, 58.0)]) == 0.0
    assert outline_floor([(60.0, 58.0), (30.0, 0.0)]) > 0.0
    assert outline_floor([(30.0, 0.0), (31.0, 0.0)]) == 0.0  # no top found to scale by


def test_a_photo_of_five_dice_on_a_white_table_counts_each_die_once():
    # a real photo (the studied half of tests/data/realdice-byler): red, blue and white
    # dice whose votes were mostly their pieces, so two dice were each counted twice
    (hits, false), labelled = photo_find_rate("img/IMG_20191209_100116.jpg")
    assert (hits, false) == (labelled, 0)
