"""What tells two look-alike references apart (``vision.cards_tell``) when a user
photographed them: laid and lit alike first, then compared on what is left."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision import cards_support as cs
from vision import cards_tell
from vision.cards_match import (DUEL_LEVEL, FINE_BLUR, MatchParams, canonical_size, duel_contrast,
                                features)
from vision.cards_name import _duel as naming_duel
from vision.cards_tell import TELL_LEVEL, tell_parts, telling, telling_of

MARGIN = 0.04
FINE = canonical_size(252 / 352)[1]  # (height, width) of the fine features


def _fine(face: np.ndarray) -> np.ndarray:
    return features(cv2.resize(face, FINE[::-1], interpolation=cv2.INTER_AREA), FINE_BLUR)


def _photographed(face: np.ndarray, *, stretch: float, gamma: float, seed: int) -> np.ndarray:
    """``face`` as a taught capture gives it: cut a little wide or narrow (a stretch across),
    exposed its own way (a tone curve), soft and noisy."""
    h, w = face.shape[:2]
    m = np.float32([[stretch, 0, (1 - stretch) * w / 2], [0, 1, 0.6]])
    out = cv2.warpAffine(face, m, (w, h), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    out = 255 * (out / 255) ** gamma
    out = cv2.GaussianBlur(out, (0, 0), 1.0)
    out += np.random.default_rng(seed).normal(0, 3, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def _rows(mask: np.ndarray) -> tuple[float, float]:
    """First and last row holding a True pixel, as shares of the height."""
    ys = np.nonzero(mask.any(axis=1))[0]
    return ys.min() / mask.shape[0], ys.max() / mask.shape[0]


def test_the_telling_pixels_of_photographed_look_alikes_are_their_title():
    # BANK and BARK photographed apart: one cut 3% wider and exposed brighter than the
    # other. Their plain difference covers the card (every edge, every tone), and a duel
    # judged on it is decided by noise; laid and lit alike, what is left is the title
    faces = cs.faces()
    bank = _fine(_photographed(faces["act-bank"], stretch=1.0, gamma=1.0, seed=1))
    bark = _fine(_photographed(faces["act-bark"], stretch=1.03, gamma=0.85, seed=2))
    plain = ((bank - bark) ** 2).sum(-1)
    assert _rows(plain > DUEL_LEVEL * plain.max())[1] > 0.6  # far below the title band
    told = telling(bank, bark)
    assert told is not None
    where = told[1]
    assert _rows(where > TELL_LEVEL * where.max())[1] < 0.2  # the title band: the top 15%
    clean = telling(_fine(faces["act-bank"]), _fine(faces["act-bark"]))
    assert clean is not None and _rows(clean[1] > TELL_LEVEL * clean[1].max())[1] < 0.2


def test_the_rim_of_a_face_cut_narrower_is_not_telling():
    # DRAW taught from a capture cut 8% narrower than DROP's: laid onto DROP it is stretched
    # across, and its rim (0 in the features) comes to lie inside DROP's; that false edge
    # down both sides is no print, the title's letters are
    faces = cs.faces()
    drop = _fine(_photographed(faces["act-drop"], stretch=1.0, gamma=1.0, seed=1))
    draw = _fine(_photographed(faces["act-draw"], stretch=1.08, gamma=0.85, seed=2))
    told = telling(drop, draw)
    assert told is not None
    where = told[1] > TELL_LEVEL * told[1].max()
    assert _rows(where)[1] < 0.2
    cols = np.nonzero(where.any(axis=0))[0] / where.shape[1]
    assert cols.min() > 0.3 and cols.max() < 0.8  # the middle of the title, not a side


def _shaded(face: np.ndarray, *, depth: float, at: tuple[float, float], spread: float
            ) -> np.ndarray:
    """``face`` under a soft patch of shade: darker by ``depth`` at ``at`` (row, column as
    shares of the face), fading as a Gaussian of ``spread`` times the face's height."""
    h, w = face.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    shade = depth * np.exp(-((ys - at[0] * h) ** 2 + (xs - at[1] * w) ** 2)
                           / (2 * (spread * h) ** 2))
    return np.clip(face * (1 - shade)[:, :, None], 0, 255).astype(np.uint8)


def test_a_patch_of_shade_on_one_taught_photo_is_not_telling():
    # BANK was photographed with a soft shadow over its picture panel, BARK in even light
    # (the taught deck of seed 21): the shade is no print, so the telling pixels are the
    # title's, and a BARK card lying in the same shade is not named BANK by the shade
    faces = cs.faces()
    shade = {"depth": 0.2, "at": (0.45, 0.7), "spread": 0.1}
    bank = _fine(_shaded(_photographed(faces["act-bank"], stretch=1.0, gamma=1.0, seed=1),
                         **shade))
    bark = _fine(_photographed(faces["act-bark"], stretch=1.02, gamma=0.9, seed=2))
    told = telling(bank, bark)
    assert told is not None
    assert _rows(told[1] > TELL_LEVEL * told[1].max())[1] < 0.2  # the title band only
    card = _fine(_shaded(_photographed(faces["act-bark"], stretch=1.01, gamma=0.95, seed=3),
                         **shade))
    seen = np.ones(card.shape[:2], bool)
    margin, _ = naming_duel({"bank": (card, bank), "bark": (card, bark)},
                            {"bank": seen, "bark": seen}, "bank", "bark", MARGIN, 0.0, told)
    assert margin < MARGIN


def test_faces_laid_out_differently_do_not_share_their_print():
    faces = cs.faces()
    assert telling(_fine(faces["hero-fox"]), _fine(faces["hero-comet"])) is None
    assert telling(_fine(faces["num-1"]), _fine(faces["num-4"])) is not None


def _card(top: str, bottom: str) -> np.ndarray:
    """Fine features of a plain card with a word printed near its top and its bottom."""
    img = np.full((352, 252, 3), 246, np.uint8)
    cv2.rectangle(img, (14, 14), (238, 338), (200, 120, 40), 3)
    for word, y in [(top, 90), (bottom, 290)]:
        cv2.putText(img, word, (40, y), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (60, 60, 60), 4)
    return _fine(img)


def test_a_duel_whose_telling_parts_disagree_is_unsure():
    # two faces that differ in two words, and a card with the first face's top word and
    # the second face's bottom word: each part of the telling pixels says another face
    a, b = _card("BANK", "BANK"), _card("BARK", "BARK")
    told = telling(a, b)
    assert told is not None
    seen = np.ones(a.shape[:2], bool)
    for card, sign in [(a, 1), (b, -1)]:  # the faces themselves are told apart
        margin, _ = naming_duel({"a": (card, a), "b": (card, b)}, {"a": seen, "b": seen},
                                "a", "b", MARGIN, 0.0, told)
        assert sign * margin >= MARGIN
    mixed = _card("BANK", "BARK")
    parts = tell_parts(mixed, seen, a, *told)
    assert len(parts) == 2 and max(parts) >= MARGIN and min(parts) <= -MARGIN
    margin, _ = naming_duel({"a": (mixed, a), "b": (mixed, b)}, {"a": seen, "b": seen},
                            "a", "b", MARGIN, 0.0, told)
    assert margin == 0.0


def test_the_memo_of_telling_pixels_drops_only_the_least_recently_used_pair(monkeypatch):
    # room for two pairs: the pair used again is kept when a third comes, the other goes
    faces = cs.faces()
    words = ("bank", "bark", "draw", "drop", "fire", "five")  # three look-alike pairs
    refs = [_fine(faces[f"act-{word}"]) for word in words]
    computed = []

    def counted(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        computed.append((a, b))
        return telling(a, b)

    monkeypatch.setattr(cards_tell, "telling", counted)
    bank = object()
    first = telling_of(bank, 0, 1, refs[0], refs[1])
    assert first is not None
    monkeypatch.setattr(cards_tell, "TOLD_BYTES", 2 * (first[0].nbytes + first[1].nbytes))
    assert telling_of(bank, 2, 3, refs[2], refs[3]) is not None
    assert telling_of(bank, 0, 1, refs[0], refs[1]) is first  # kept, and now the most recent
    # a third pair: (2, 3) is the least recently used
    assert telling_of(bank, 4, 5, refs[4], refs[5]) is not None
    assert len(computed) == 3
    assert telling_of(bank, 0, 1, refs[0], refs[1]) is first
    assert len(computed) == 3
    telling_of(bank, 2, 3, refs[2], refs[3])
    assert len(computed) == 4


def test_the_memo_keeps_what_the_duels_read_bit_for_bit():
    # the laid reference's lightness only, and the same values as :func:`telling` gives
    faces = cs.faces()
    a, b = _fine(faces["act-bank"]), _fine(faces["act-bark"])
    whole = telling(a, b)
    kept = telling_of(object(), 0, 1, a, b)
    assert whole is not None and kept is not None
    assert kept[0].shape == a.shape[:2] + (1,) and kept[0].flags.c_contiguous
    assert np.array_equal(kept[0][:, :, 0], whole[0][:, :, 0])
    assert np.array_equal(kept[1], whole[1])
    seen = np.ones(a.shape[:2], bool)
    query = _fine(_photographed(faces["act-bark"], stretch=1.02, gamma=0.9, seed=3))
    assert cards_tell.tell_duel(query, seen, a, *kept)[0] == \
        cards_tell.tell_duel(query, seen, a, *whole)[0]
    assert tell_parts(query, seen, a, *kept) == tell_parts(query, seen, a, *whole)


def _leaning(a: np.ndarray, b: np.ndarray, share: float, noise: float) -> np.ndarray:
    """Features of a card ``share`` of the way from between ``a`` and ``b`` towards ``a``,
    with smooth noise of ``noise`` (a soft, grainy photo explains its face less well)."""
    grain = np.random.default_rng(3).normal(0, 1, a.shape).astype(np.float32)
    return ((0.5 + share) * a + (0.5 - share) * b
            + cv2.GaussianBlur(grain, (0, 0), 1.5) * noise).astype(np.float32)


def test_a_small_lean_is_a_verdict_only_when_the_winner_shows_its_telling_detail():
    # two cards leaning the same small way (a tenth of a large margin under it) with the
    # telling pixels' contrast clearly agreeing: the one that explains the telling pixels
    # well is named, the one that explains them barely (near ``min_support``) is unsure
    a, b = _card("BANK", "BANK"), _card("BARK", "BARK")
    told = telling(a, b)
    seen = np.ones(a.shape[:2], bool)
    margin = 0.4  # a lean of ~0.25 lies between a quarter of it and it
    verdicts = []
    for share, noise in [(0.3, 0.0), (0.5, 1.5)]:
        card = _leaning(a, b, share, noise)
        (c_a, c_b), patch = cards_tell.tell_duel(card, seen, a, *told)
        assert margin / 4 < c_a - c_b < margin and duel_contrast(card, patch, a, told[0]) > 0.25
        verdicts.append(naming_duel({"a": (card, a), "b": (card, b)}, {"a": seen, "b": seen},
                                    "a", "b", margin, 0.0, told))
    (sure, support_sure), (guess, support_guess) = verdicts
    assert support_sure > 0.95 and MatchParams.min_support < support_guess < 0.9
    assert sure >= margin
    assert abs(guess) < margin
