"""Cards the camera names drive card games: a new top card on the Sorry! pile is a play."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.camera_link import CardLink, DiceLink
from companion.errors import NotNow
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from vision.imageio import read_image
from tests.support.table import Table, watch

SUITE = Path(__file__).resolve().parents[2] / "tests" / "data" / "cards-scenes"
#: The rendered suite's synthetic faces stand in for two Sorry! cards.
STAND_INS = {"rune-square": "number-5", "hero-fox": "number-7"}


@pytest.fixture
def decks(tmp_path):
    """A taught Sorry! deck: the stand-in faces saved under Sorry! card ids."""
    folder = tmp_path / "decks" / "sorry-21"
    folder.mkdir(parents=True)
    for face, card in STAND_INS.items():
        shutil.copy(SUITE / "deck" / f"{face}.png", folder / f"{card}.png")
    return tmp_path / "decks"


@pytest.fixture
def session(tmp_path, clock):
    s = Session(Journal(tmp_path / "data"), clock=clock)
    s.start("sorry-21", ["Ann", "Bob"])
    yield s
    s.journal.close()


def test_each_new_top_card_is_offered_and_confirmed(session, decks, clock):
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session),
                            card_link=CardLink(session), decks=decks, clock=clock)
    table.frame = read_image(SUITE / "img" / "0003.jpg")  # the top card: "number-5"
    watch(recognizer, clock)
    assert session.state()["cards"]["offer"] == {"type": "play", "card": "number-5"}
    assert recognizer.confirm()["total"] == 5
    table.frame = read_image(SUITE / "img" / "0004.jpg")  # a 7 lands on the pile
    watch(recognizer, clock)
    assert session.state()["cards"]["offer"] == {"type": "play", "card": "number-7"}
    assert recognizer.confirm()["total"] == 12
    watch(recognizer, clock)
    with pytest.raises(NotNow):
        recognizer.confirm()  # the same card lying there is not played twice


def test_without_a_taught_deck_the_phones_are_told(session, tmp_path, clock):
    table = Table()
    table.frame = read_image(SUITE / "img" / "0003.jpg")
    recognizer = Recognizer(table.latest, session, link=DiceLink(session),
                            card_link=CardLink(session), decks=tmp_path / "none", clock=clock)
    watch(recognizer, clock)
    assert "No deck taught" in session.state()["cards"]["message"]
    assert session.state()["cards"]["for_host"]  # the phones word it for players
    assert recognizer.frames == 0
    # it stays while the game goes on (it said "No known card in view" after the first card)
    session.act({"type": "play", "card": "number-7"})
    watch(recognizer, clock)
    assert "No deck taught" in session.state()["cards"]["message"]


def test_a_sentence_about_the_table_is_withdrawn_when_the_game_moves_on(tmp_path, clock):
    s = Session(Journal(tmp_path / "data"), clock=clock)
    s.start("toss-your-cookies", ["Ann", "Bob", "Cy"])
    try:
        s.act({"type": "claim", "player": 0})
        CardLink(s).on_cards(("wild",))  # "the hand falls short": of this hand, this claim
        assert s.state()["cards"]["message"]
        s.act({"type": "withdraw"})
        assert s.state()["cards"]["message"] is None
    finally:
        s.journal.close()


def test_cards_of_no_interest_offer_nothing(session, clock):
    CardLink(session).on_cards(("not-a-sorry-card",))
    assert session.state()["cards"]["offer"] is None


def test_cards_not_told_from_a_look_alike_are_shown_as_unsure(session, decks, clock, monkeypatch):
    """The phones learn of a card the camera saw but could not name (its two candidates)."""
    from vision.results import CardReading, CardSighting

    corners = ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    named = CardSighting("number-5", "number-5", 0.9, None, 0.1, corners)
    doubt = CardSighting(None, "number-7", 0.4, "number-1", 0.3, corners)

    class Reader:  # the deck's reader, seeing one card named and one in doubt
        def __init__(self, deck):
            self.deck = deck

        def read(self, frame):
            return CardReading(cards=(named,), unsure=(doubt,))

    monkeypatch.setattr("vision.cards_track.CardReader", Reader)
    table = Table()
    table.frame = read_image(SUITE / "img" / "0003.jpg")
    recognizer = Recognizer(table.latest, session, link=DiceLink(session),
                            card_link=CardLink(session), decks=decks, clock=clock)
    watch(recognizer, clock)
    cards = session.state()["cards"]
    assert cards["seen"] == ["number-5"]
    assert cards["unsure"] == [["number-7", "number-1"]]
    assert cards["offer"] == {"type": "play", "card": "number-5"}


def test_a_table_with_every_card_named_has_none_unsure(session):
    CardLink(session).on_cards(("number-5",))
    assert session.state()["cards"]["unsure"] == []


def test_the_no_deck_sentence_goes_with_its_game(session):
    CardLink(session).on_cards((), message="No deck taught for this game yet.")
    session.start("toss-up", ["Ann", "Bob"])
    assert "cards" not in session.state()  # the whole block goes with its game
