"""Settled dice readings become Toss Up! roll offers, confirmed or applied at once."""

from __future__ import annotations

import pytest

from companion.camera_link import DiceLink
from companion.errors import NotNow
from companion.session import Session
from vision.results import DiceReading


def test_a_matching_reading_is_offered_not_applied(session):
    version = session.state()["version"]
    DiceLink(session).on_reading(DiceReading(green=3, yellow=4, red=3))
    state = session.state()
    assert state["version"] == version, "an offer is not an action"
    assert state["dice"] == {"seen": {"green": 3, "yellow": 4, "red": 3, "other": 0},
                             "offer": {"type": "roll", "green": 3, "yellow": 4, "red": 3},
                             "message": None}


def test_confirm_applies_the_offer_once(session):
    link = DiceLink(session)
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    state = link.confirm()
    assert state["turn"] == {"points": 3, "dice_in_hand": 7, "rolls": 1, "number": 1}
    with pytest.raises(NotNow, match="no roll to confirm"):
        link.confirm()


def test_a_count_mismatch_says_so_and_offers_nothing(session):
    DiceLink(session).on_reading(DiceReading(green=2, yellow=4, red=1, other=2))
    dice = session.state()["dice"]
    assert dice["offer"] is None
    assert dice["message"] == "I see 7 dice, 10 expected."


def test_unsure_is_said_not_guessed(session):
    DiceLink(session).on_reading(None)
    assert "not sure" in session.state()["dice"]["message"]


def test_an_offer_goes_stale_when_the_game_moves_on(session):
    link = DiceLink(session)
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    session.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})  # the host typed it
    before = session.state()
    with pytest.raises(NotNow, match="moved on"):
        link.confirm()
    assert session.state()["version"] == before["version"]


def test_phones_stop_showing_an_offer_once_the_game_moves_on(session):
    # the host typed the roll: no phone may keep "waiting for the host to confirm" it
    link = DiceLink(session)
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    session.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})
    assert session.state()["dice"] == {"seen": {"green": 3, "yellow": 4, "red": 3, "other": 0},
                                     "offer": None, "message": None}
    # a count that did not match the dice in hand then is not said after an undo either
    link.on_reading(DiceReading(green=2, yellow=4, red=1))
    assert session.state()["dice"]["message"] == "I see 7 dice, 9 expected."
    session.undo()
    assert session.state()["dice"]["message"] is None
    # nor does an offer outlive its game
    link.on_reading(DiceReading(green=3, yellow=4, red=3))
    session.start("toss-up", ["Cy", "Di"])
    assert session.state()["dice"]["offer"] is None


def test_a_reading_taken_before_an_action_offers_nothing(session):
    link = DiceLink(session)
    state = session.state()
    session.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})  # while the camera looked
    link._publish({"green": 3, "yellow": 4, "red": 3, "other": 0},
                  {"type": "roll", "green": 3, "yellow": 4, "red": 3}, None, state["version"])
    assert session.state()["dice"]["offer"] is None


def test_auto_mode_applies_at_once(session):
    DiceLink(session, auto=True).on_reading(DiceReading(green=10, yellow=0, red=0))
    assert session.state()["turn"]["points"] == 10


def test_offers_wake_the_streams_without_a_new_version(session):
    seq, _ = session.extras()
    version = session.state()["version"]
    DiceLink(session).on_reading(DiceReading(green=3, yellow=4, red=3))
    state, new_seq = session.wait_any(version, seq, timeout=1)
    assert new_seq > seq and state["version"] == version


def test_no_offer_outside_toss_up(tmp_path, clock, open_journal):
    session = Session(open_journal(tmp_path), clock=clock)
    session.start("sorry-21", ["Ann", "Bob"])
    DiceLink(session).on_reading(DiceReading(green=3, yellow=4, red=3))
    assert "dice" not in session.state()  # only Toss Up!'s pages read the block


def test_another_game_withdraws_what_the_camera_saw(session):
    # a Paper Tales state still carried the last Toss Up! reading under "dice"
    DiceLink(session).on_reading(DiceReading(green=3, yellow=4, red=3))
    session.start("toss-up", ["Ann", "Bob"])  # the same game again: the dice are still there
    assert session.state()["dice"]["seen"] == {"green": 3, "yellow": 4, "red": 3, "other": 0}
    session.start("paper-tales", ["Ann", "Bob"])
    assert "dice" not in session.state()  # was an empty Toss Up! block
    assert session.extras()[1] == {}


def test_a_confirm_for_an_offer_the_camera_changed_since_is_refused(session):
    # ux14: the screen showed 4/4/2, the camera then read 7/1/2 (same version) and the tap
    # applied 7/1/2; the host's screen now sends what it showed
    link = DiceLink(session)
    link.on_reading(DiceReading(green=4, yellow=4, red=2))
    shown = session.state()["dice"]["offer"]
    link.on_reading(DiceReading(green=7, yellow=1, red=2))
    before = session.state()
    with pytest.raises(NotNow, match="The camera's reading changed: look again"):
        link.confirm(shown)
    assert session.state()["version"] == before["version"], "nothing applied"
    now = session.state()["dice"]["offer"]
    assert now == {"type": "roll", "green": 7, "yellow": 1, "red": 2}, "the new offer stays up"
    assert link.confirm(now)["recent"][-1]["green"] == 7


def test_a_confirm_that_says_nothing_of_the_offer_applies_the_camera_s(session):
    link = DiceLink(session)  # older clients and the table's button send no offer
    link.on_reading(DiceReading(green=4, yellow=4, red=2))
    link.on_reading(DiceReading(green=7, yellow=1, red=2))
    assert link.confirm()["recent"][-1]["green"] == 7
