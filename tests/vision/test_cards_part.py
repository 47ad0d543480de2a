"""The outline search on a part of a frame (``vision.cards_part``): thresholded as the
whole frame is, it finds inside the part what the whole search finds there."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from tests.vision import cards_support as cs
from vision.cards_find import FindParams, find_card_quads
from vision.cards_part import view_quads, work_view
from vision.imageio import read_image

PINOCHLE = Path(__file__).resolve().parents[1] / "data" / "cards-pinochle"
BOX = (450, 120, 920, 650)  # around num-4, frame pixels (x0, y0, x1, y1)


def _table() -> np.ndarray:
    fox = cs.place(cs.table(seed=4), cs.faces()["hero-fox"], cs.card_corners((300, 360), 300, 8))
    return cs.place(fox, cs.faces()["num-4"], cs.card_corners((680, 380), 300, -12))


def _inside(quads: list[np.ndarray], box: tuple[int, int, int, int], d: float = 40
            ) -> list[bytes]:
    """The outlines lying inside ``box``, ``d`` pixels away from its edges, as keys."""
    x0, y0, x1, y1 = box
    return sorted(np.round(q, 2).tobytes() for q in quads
                  if (q[:, 0] >= x0 + d).all() and (q[:, 0] <= x1 - d).all()
                  and (q[:, 1] >= y0 + d).all() and (q[:, 1] <= y1 - d).all())


def test_the_whole_frame_gives_the_outline_search_s_outlines():
    for frame, aspect in [(_table(), cs.deck().aspect),
                          (read_image(PINOCHLE / "img" / "IMG_2470.jpg"), 0.7)]:
        want = find_card_quads(frame, aspect)
        got = view_quads(work_view(frame), aspect)
        assert len(got) == len(want) > 0
        assert all(np.array_equal(g, w) for g, w in zip(got, want))


def test_a_part_finds_what_the_whole_search_finds_there():
    # contours only: the segment corners come from a randomised Hough transform
    params = FindParams(segment_corners=False)
    frame = _table()
    whole = _inside(find_card_quads(frame, cs.deck().aspect, params=params), BOX)
    part = _inside(view_quads(work_view(frame, params), cs.deck().aspect, BOX, params=params),
                   BOX)
    assert len(whole) >= 2 and part == whole
    # the same part searched as a frame of its own (its own Otsu level, local window and
    # kernel) finds other outlines
    x0, y0, x1, y1 = BOX
    alone = find_card_quads(np.ascontiguousarray(frame[y0:y1, x0:x1]), cs.deck().aspect,
                            params=replace(params, work_side=round(640 * (x1 - x0) / 960),
                                           min_card_frac=0.004 * 960 * 720 / (470 * 530)))
    assert _inside([q + np.float32([x0, y0]) for q in alone], BOX) != whole


def test_the_card_white_level_is_the_whole_frame_s():
    frame = _table()
    view = work_view(frame)
    assert 0 < view.level < 255
    dark = frame.copy()
    dark[:, :300] //= 3  # a shadow over part of the table moves the whole frame's level
    assert work_view(dark).level != view.level


def test_a_second_search_at_another_aspect_traces_nothing_again(monkeypatch):
    # the masks, their contours and the edge segments do not depend on the card's aspect:
    # the search at a measured aspect (cards_aspect) reuses what the first one traced
    import vision.cards_part as part

    frame = read_image(PINOCHLE / "img" / "IMG_2470.jpg")
    fresh = {a: view_quads(work_view(frame), a) for a in (0.7, 0.62)}
    calls = []
    real = part.card_masks
    monkeypatch.setattr(part, "card_masks", lambda *a, **k: calls.append(1) or real(*a, **k))
    view = work_view(frame)
    for a in (0.7, 0.62, 0.7):
        got = view_quads(view, a)
        assert len(got) == len(fresh[a]) > 0
        assert all(np.array_equal(g, w) for g, w in zip(got, fresh[a]))
    assert len(calls) == 1
    view_quads(view, 0.62, (40, 40, 300, 400))  # another part is traced afresh
    assert len(calls) == 2
