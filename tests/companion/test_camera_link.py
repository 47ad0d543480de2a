"""Settled dice readings become Toss Up! roll offers, confirmed or applied at once."""

from __future__ import annotations

import pytest

from companion.camera_link import DiceLink
from companion.errors import NotNow
from companion.journal import Journal
from companion.session import Session
from vision.results import DiceReading


@pytest.fixture
def table(tmp_path, clock):
    session = Session(Journal(tmp_path), clock=clock)
    session.start("toss-up", ["Ann", "Bob"])
    yield session
    session.journal.close()


def test_a_matching_reading_is_offered_not_applied(table):
    version = table.state()["version"]
    DiceLink(table).on_reading(DiceReading(green=3, yellow=4, red=3))
    state = table.state()
    assert state["version"] == version, "an offer is not an action"
    assert state["dice"] == {"seen": {"green": 3, "yellow": 4, "red": 3, "other": 0},
                             "offer": {"type": "roll", "green": 3, "yellow": 4, "red": 3},
                             "message": None}


def test_confirm_applies_the_offer_once(table):
    link = DiceLink(table)
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    state = link.confirm()
    assert state["turn"] == {"points": 3, "dice_in_hand": 7, "rolls": 1, "number": 1}
    with pytest.raises(NotNow, match="no roll to confirm"):
        link.confirm()


def test_a_count_mismatch_says_so_and_offers_nothing(table):
    DiceLink(table).on_reading(DiceReading(green=2, yellow=4, red=1, other=2))
    dice = table.state()["dice"]
    assert dice["offer"] is None
    assert dice["message"] == "I see 7 dice, 10 expected."


def test_unsure_is_said_not_guessed(table):
    DiceLink(table).on_reading(None)
    assert "not sure" in table.state()["dice"]["message"]


def test_an_offer_goes_stale_when_the_game_moves_on(table):
    link = DiceLink(table)
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    table.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})  # the host typed it
    before = table.state()
    with pytest.raises(NotNow, match="moved on"):
        link.confirm()
    assert table.state()["version"] == before["version"]


def test_phones_stop_showing_an_offer_once_the_game_moves_on(table):
    # the host typed the roll: no phone may keep "waiting for the host to confirm" it
    link = DiceLink(table)
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    table.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})
    assert table.state()["dice"] == {"seen": {"green": 3, "yellow": 4, "red": 3, "other": 0},
                                     "offer": None, "message": None}
    # a count that did not match the dice in hand then is not said after an undo either
    link.on_reading(DiceReading(green=2, yellow=4, red=1))
    assert table.state()["dice"]["message"] == "I see 7 dice, 9 expected."
    table.undo()
    assert table.state()["dice"]["message"] is None
    # nor does an offer outlive its game
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    table.start("toss-up", ["Cy", "Di"])
    assert table.state()["dice"]["offer"] is None


def test_a_reading_taken_before_an_action_offers_nothing(table):
    link = DiceLink(table)
    state = table.state()
    table.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})  # while the camera looked
    link._publish({"green": 3, "yellow": 4, "red": 3, "other": 0},
                  {"type": "roll", "green": 3, "yellow": 4, "red": 3}, None, state["version"])
    assert table.state()["dice"]["offer"] is None


def test_auto_mode_applies_at_once(table):
    DiceLink(table, auto=True).on_reading(DiceReading(green=10, yellow=0, red=0))
    assert table.state()["turn"]["points"] == 10


def test_offers_wake_the_streams_without_a_new_version(table):
    seq, _ = table.extras()
    version = table.state()["version"]
    DiceLink(table).on_reading(DiceReading(green=3, yellow=4, red=3))
    state, new_seq = table.wait_any(version, seq, timeout=1)
    assert new_seq > seq and state["version"] == version


def test_no_offer_outside_toss_up(tmp_path, clock, open_journal):
    session = Session(open_journal(tmp_path), clock=clock)
    session.start("sorry-21", ["Ann", "Bob"])
    DiceLink(session).on_reading(DiceReading(green=3, yellow=4, red=3))
    assert session.state()["dice"]["offer"] is None


def test_another_game_withdraws_what_the_camera_saw(table):
    # a Paper Tales state still carried the last Toss Up! reading under "dice"
    DiceLink(table).on_reading(DiceReading(green=3, yellow=4, red=3))
    table.start("toss-up", ["Ann", "Bob"])  # the same game again: the dice are still there
    assert table.state()["dice"]["seen"] == {"green": 3, "yellow": 4, "red": 3, "other": 0}
    table.start("paper-tales", ["Ann", "Bob"])
    assert table.state()["dice"] == {"seen": None, "offer": None, "message": None}
