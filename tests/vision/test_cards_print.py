"""A card is named only when it shows the face's print (its lightness), not its colour alone."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards import read_cards
from vision.cards_match import FINE_BLUR, MatchParams, features
from vision.cards_print import PRINT_SLACK, print_distance, shows_print


def _fine(face: np.ndarray) -> np.ndarray:
    import cv2

    h, w = cs.deck().bank.fine.shape[1:3]
    return features(cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA), FINE_BLUR)


def test_a_face_shows_its_own_print_and_a_back_of_its_colour_does_not():
    faces = cs.faces()
    face = _fine(faces["act-swap"])
    seen = np.ones(face.shape[:2], bool)
    assert print_distance(face, seen, face, keep=0.7) < 0.1
    assert shows_print(face, seen, face, MatchParams())
    # the back's colour where the face's is (chroma kept), its lattice as the lightness
    back = _fine(cs.back())
    coloured_back = np.dstack([back[:, :, :1], face[:, :, 1:]])
    assert print_distance(coloured_back, seen, face, keep=0.7) > (
        MatchParams().max_fine_distance + PRINT_SLACK)
    assert not shows_print(coloured_back, seen, face, MatchParams())


def test_print_distance_refuses_mismatched_features():
    face = _fine(cs.faces()["act-swap"])
    with pytest.raises(ValueError, match="features"):
        print_distance(face, np.ones((3, 3), bool), face, keep=0.7)


@pytest.fixture(scope="module")
def deck120(tmp_path_factory):
    from scenes.card_faces import deck_specs, draw_face
    from vision.deck import load_deck, save_face

    folder = tmp_path_factory.mktemp("deck120")
    for cid, spec in deck_specs(120).items():
        save_face(folder / f"{cid}.png", draw_face(spec))
    return load_deck(folder)


def test_a_table_of_lattice_backs_names_no_face_of_120(deck120):
    # two face-down blue lattice backs on felt: the first pass named extra-57 (a mostly
    # blue face) twice, at fine distance 0.37 and 0.39, no look-alike near to duel it;
    # the backs' lightness lies 0.84-0.88 from the face's
    from scenes.cards import make_plan, render
    from vision.imageio import decode_image

    rng = np.random.default_rng(9)
    plan = dataclasses.replace(make_plan("face-down", rng, sorted(cs.faces()),
                                         size=(1280, 960)), ids=(), n_back=2)
    frame = decode_image(np.frombuffer(render(plan, rng, cs.faces())[0], np.uint8))
    assert read_cards(frame, deck120).ids == ()


def test_the_precision_stress_tables_name_no_card_that_is_not_there():
    # a small version of bench/bench_card_precision.py: backs of several designs, cards
    # of another game and of another deck, and the deck's own faces among them
    from bench.bench_card_precision import tables, wrong_names

    wrong = named = wanted = 0
    for kind in ("backs", "foreign", "mixed"):
        for frame, want, _ in tables(kind, 2, 7, size=(960, 720)):
            got = read_cards(frame, cs.deck()).ids
            wrong += wrong_names(want, got)
            named += sum((Counter(want) & Counter(got)).values())
            wanted += len(want)
    assert wrong == 0
    assert wanted > 0 and named >= wanted - 1  # the deck's own faces are still named


def test_the_stress_tables_refuse_an_unknown_kind():
    from bench.bench_card_precision import tables

    with pytest.raises(ValueError, match="kind must be one of"):
        tables("upside-down", 1, 0)
