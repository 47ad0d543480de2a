"""The stages of the card reader (``vision.cards_stages``): which outlines get named."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import vision.cards_stages as stages
from tests.vision import cards_support as cs
from vision.cards import CardParams
from vision.results import CardSighting


def _outlines(n: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``n`` coarse stages of one place: outlines a pixel or two apart, closest first."""
    out = []
    for k in range(n):
        quad = cs.card_corners((400 + k, 300 + k), 300, 5)
        out.append((np.array([0.2 + 0.01 * k], np.float32), quad, np.zeros((1, 1, 3), np.uint8)))
    return out


def _fake_fine(answers: list[str | None], tried: list[np.ndarray]):
    """A fine stage answering from ``answers`` in turn (None: unsure) and noting outlines."""
    def fine(frame, coarse, deck, params, *, usable=None):
        tried.append(coarse[1])
        cid = answers[len(tried) - 1]
        corners = tuple((float(x), float(y)) for x, y in coarse[1])
        return (CardSighting(card_id=cid, best_guess="num-5", confidence=0.9 if cid else 0.4,
                             runner_up="num-6", distance=0.3, corners=corners),
                stages.Evidence(margin=0.5 if cid else 0.01, support=0.9))
    return fine


def test_an_unsure_card_gets_a_second_outline_and_then_no_more(monkeypatch):
    frame = np.zeros((600, 800, 3), np.uint8)
    tried: list[np.ndarray] = []
    monkeypatch.setattr(stages, "fine_stage", _fake_fine([None, "num-5", None], tried))
    found = stages.name_stages(frame, _outlines(3), cs.deck(), CardParams())
    assert [s.card_id for s, _ in found] == [None, "num-5"]  # named on the second try
    assert len(tried) == 2  # once named, the place is done

    tried.clear()
    monkeypatch.setattr(stages, "fine_stage", _fake_fine([None, None, "num-5"], tried))
    found = stages.name_stages(frame, _outlines(3), cs.deck(), CardParams())
    assert len(tried) == stages.UNSURE_TRIES  # two unsure looks at one place are enough
    assert [s.card_id for s, _ in found] == [None, None]


def test_an_outline_like_one_that_named_nothing_is_not_tried_again(monkeypatch):
    tried: list[np.ndarray] = []

    def nothing(frame, coarse, deck, params, *, usable=None):
        tried.append(coarse[1])
        return None

    monkeypatch.setattr(stages, "fine_stage", nothing)
    assert stages.name_stages(np.zeros((600, 800, 3), np.uint8), _outlines(3), cs.deck(),
                              CardParams()) == []
    assert len(tried) == 1


def _fake_lean(answers: list[tuple[str | None, str, float]]):
    """A fine stage answering (card_id, best guess, duel margin) in turn."""
    calls: list[int] = []

    def fine(frame, coarse, deck, params, *, usable=None):
        cid, guess, margin = answers[len(calls)]
        calls.append(1)
        corners = tuple((float(x), float(y)) for x, y in coarse[1])
        return (CardSighting(card_id=cid, best_guess=guess, confidence=0.9 if cid else 0.4,
                             runner_up=None, distance=0.3, corners=corners),
                stages.Evidence(margin=margin, support=0.9))
    return fine


def test_a_second_try_that_names_the_other_look_alike_stays_unsure(monkeypatch):
    frame = np.zeros((600, 800, 3), np.uint8)
    # the first outline's duel leaned to BANK (too little to name it); the second names
    # BARK: the two outlines of one card disagree, so the card is unsure
    monkeypatch.setattr(stages, "fine_stage", _fake_lean([(None, "act-bank", 0.02),
                                                          ("act-bark", "act-bark", 0.05)]))
    found = stages.name_stages(frame, _outlines(2), cs.deck(), CardParams())
    assert [s.card_id for s, _ in found] == [None, None]
    assert found[1][0].best_guess == "act-bark" and found[1][0].confidence < 0.5
    # a first duel that leaned to no face (its best guess lost on the telling patch) does
    # not stand against a second try that names a card
    monkeypatch.setattr(stages, "fine_stage", _fake_lean([(None, "act-bank", -0.02),
                                                          ("act-bark", "act-bark", 0.05)]))
    found = stages.name_stages(frame, _outlines(2), cs.deck(), CardParams())
    assert [s.card_id for s, _ in found] == [None, "act-bark"]


def _sighting(cid: str | None, guess: str, distance: float, centre: tuple[float, float],
              height: float) -> CardSighting:
    corners = cs.card_corners(centre, height, 5)
    return CardSighting(card_id=cid, best_guess=guess, confidence=0.9 if cid else 0.4,
                        runner_up=None, distance=distance,
                        corners=tuple((float(x), float(y)) for x, y in corners))


def test_a_looser_outline_naming_the_look_alike_of_a_closer_unsure_one_is_doubted():
    # a closer fit of the card (distance 0.09) leaned to FIVE without naming it; an
    # outline of the same card askew by a tenth (IoU ~0.7, too far for the second-try
    # rule) fits FIRE at 0.28: the two disagree on the look-alike
    close = (_sighting(None, "act-five", 0.09, (400, 300), 300), stages.Evidence(0.03, 0.99))
    loose = _sighting("act-fire", "act-fire", 0.28, (415, 315), 280)
    assert 0.55 < stages.iou(close[0].corners, loose.corners) < 0.8
    assert stages.is_contradicted(loose, [close], CardParams().same_card_iou)
    assert stages.doubt(loose).card_id is None and stages.doubt(loose).best_guess == "act-fire"
    # not when the unsure fit was the looser one, leaned to no face, or lies elsewhere
    worse = (replace(close[0], distance=0.3), close[1])
    leaning_nowhere = (close[0], stages.Evidence(-0.03, 0.99))
    elsewhere = (_sighting(None, "act-five", 0.09, (700, 300), 300), close[1])
    for other in (worse, leaning_nowhere, elsewhere):
        assert not stages.is_contradicted(loose, [other], CardParams().same_card_iou)
    # nor when the unsure fit leaned to the very face named
    same = (replace(close[0], best_guess="act-fire"), close[1])
    assert not stages.is_contradicted(loose, [same], CardParams().same_card_iou)


def test_a_second_look_naming_the_look_alike_of_a_closer_unsure_first_look_is_doubted(
        monkeypatch):
    import vision.cards as cards

    close = (_sighting(None, "act-five", 0.09, (400, 300), 300), stages.Evidence(0.03, 0.99))
    loose = (_sighting("act-fire", "act-fire", 0.28, (415, 315), 280),
             stages.Evidence(0.05, 0.86))
    monkeypatch.setattr(cards, "view_quads", lambda *a, **k: [])
    monkeypatch.setattr(cards, "name_stages", lambda *a, **k: [close])
    monkeypatch.setattr(cards, "hidden_pass", lambda *a, **k: [])
    looks: list[int] = []

    def vouched(*a, **k):  # FIRE's keypoints vouch for an outline once
        looks.append(1)
        return [loose] if len(looks) == 1 else []

    monkeypatch.setattr(cards, "vouched", vouched)
    frame = np.zeros((600, 800, 3), np.uint8)
    reading = cards.read_keyed(frame, cs.deck(), [(np.array(loose[0].corners), "act-fire")])
    assert reading.cards == ()
    assert [s.best_guess for s in reading.unsure] == ["act-fire"]
