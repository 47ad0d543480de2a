"""Card naming scored on the recorded suites: the rendered scenes and real Pinochle photos.

The floors below are today's measured figures less a small margin, so that a regression
fails; the targets (98% exact sets on the rendered suite, 90% on the real photos) are not
reached yet, see docs/benchmarks.md. Precision is held at its target: a card that is not
on the table (another game's, face down, or a look-alike) must never be named.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from vision.cards import read_cards
from vision.deck import load_deck
from vision.imageio import read_image

DATA = Path(__file__).resolve().parents[1] / "data"


def _score(suite: Path) -> dict[str, float]:
    labels = json.loads((suite / "labels.json").read_text(encoding="utf-8"))
    assert labels["kind"] == "cards"
    deck = load_deck(suite / labels["deck"])
    exact = tp = fp = fn = 0
    for name, label in labels["images"].items():
        want = Counter(label["cards"])
        got = Counter(read_cards(read_image(suite / name), deck).ids)
        exact += got == want
        tp += sum((want & got).values())
        fp += sum((got - want).values())
        fn += sum((want - got).values())
    return {"exact": exact / len(labels["images"]), "precision": tp / max(tp + fp, 1),
            "recall": tp / max(tp + fn, 1), "wrong": fp}


@pytest.fixture(scope="module")
def scenes() -> dict[str, float]:
    return _score(DATA / "cards-scenes")


@pytest.fixture(scope="module")
def pinochle() -> dict[str, float]:
    return _score(DATA / "cards-pinochle")


@pytest.fixture(scope="module")
def kennard() -> dict[str, float]:
    return _score(DATA / "cards-kennard")


@pytest.fixture(scope="module")
def knoll() -> dict[str, float]:
    return _score(DATA / "cards-knoll")


def test_rendered_suite_never_names_a_card_that_is_not_there(scenes):
    # face-down cards, cards of another game and look-alikes included
    assert scenes["wrong"] == 0


def test_rendered_suite_exact_sets_and_recall_floor(scenes):
    assert scenes["exact"] >= 0.975  # measured 1.0 (80/80)
    assert scenes["recall"] >= 0.99  # measured 1.0


def test_real_pinochle_photos_precision(pinochle):
    assert pinochle["precision"] >= 0.98


def test_real_pinochle_photos_floor(pinochle):
    assert pinochle["exact"] >= 0.89  # measured 0.910 (61/67); one image of slack
    assert pinochle["recall"] >= 0.935  # measured 0.944


def test_a_real_52_card_deck_never_names_a_card_that_is_not_there(kennard):
    # a deck nobody designed for us (Kennard's CC0 faces) on rendered tables: six of
    # hearts and of diamonds, neighbouring ranks, court cards, aces that are nearly blank
    assert kennard["wrong"] == 0


def test_a_real_52_card_deck_floor(kennard):
    assert kennard["exact"] >= 0.9  # measured 10/11 (0.909; the nines' pips told one by one)
    assert kennard["recall"] >= 0.95  # measured 0.957 (22/23)


def test_a_second_real_deck_never_names_a_card_that_is_not_there(knoll):
    # other art again (Byron Knoll's public-domain faces: large pips reaching the edges,
    # a narrower card); 0010 lies on a red and white checkered cloth whose squares,
    # outlined as cards, came within the gate of the five of hearts and ace of diamonds
    assert knoll["wrong"] == 0


def test_a_second_real_deck_floor(knoll):
    assert knoll["exact"] >= 0.8  # measured 10/12 (0.833)
    assert knoll["recall"] >= 0.9  # measured 0.923 (24/26)


def test_suites_are_in_the_contract_format():
    for name in ("cards-scenes", "cards-pinochle", "cards-kennard", "cards-knoll"):
        labels = json.loads((DATA / name / "labels.json").read_text(encoding="utf-8"))
        assert labels["kind"] == "cards" and labels["deck"] == "deck"
        for path, label in labels["images"].items():
            assert (DATA / name / path).is_file()
            assert isinstance(label["cards"], list)
    assert (DATA / "cards-pinochle" / "LICENSE.txt").is_file()
    assert (DATA / "cards-pinochle" / "SOURCE.md").is_file()
    assert (DATA / "cards-kennard" / "LICENSE").is_file()
    assert (DATA / "cards-kennard" / "SOURCE.md").is_file()
    assert (DATA / "cards-knoll" / "LICENSE").is_file()
    assert (DATA / "cards-knoll" / "SOURCE.md").is_file()
