"""A stale tap's refusal says what moved the table on, in players' words (ux14: "your
screen showed version 40, the table is at 41" told the second host nothing)."""

from __future__ import annotations

import pytest

from companion.errors import NotNow
from companion.moved_on import moved_on


def refusal(session, action=None, *, seen):
    """The sentence a tap made on version ``seen`` gets (an undo when ``action`` is None)."""
    with pytest.raises(NotNow) as refused:
        if action is None:
            session.undo(seen)
        else:
            session.act({**action, "version": seen})
    return str(refused.value)


def test_a_second_hosts_roll_is_told_whose_roll_was_recorded(session):
    seen = session.state()["version"]
    session.act({"type": "roll", "green": 4, "yellow": 6, "red": 0, "version": seen})
    assert refusal(session, {"type": "roll", "green": 4, "yellow": 6, "red": 0}, seen=seen) == (
        "Ann's roll was just recorded: look again before you tap.")


def test_the_first_change_after_the_screen_is_the_one_said(session):
    seen = session.state()["version"]
    session.act({"type": "roll", "green": 4, "yellow": 6, "red": 0})
    session.act({"type": "bank"})  # then Ann banks: the screen missed both
    assert refusal(session, {"type": "bank"}, seen=seen).startswith("Ann's roll was just recorded")


def test_an_undo_a_correction_and_a_new_game_are_said(session):
    session.act({"type": "roll", "green": 4, "yellow": 6, "red": 0})
    seen = session.state()["version"]
    session.undo()
    assert refusal(session, seen=seen) == "The last action was just undone: look again before you tap."
    seen = session.state()["version"]
    session.act({"type": "correct", "player": "bob", "delta": 3, "reason": "missed"})
    assert refusal(session, {"type": "bank"}, seen=seen).startswith("Bob's score correction was just")
    seen = session.state()["version"]
    session.start("toss-up", ["Ann", "Bob"])
    assert refusal(session, {"type": "bank"}, seen=seen).startswith("A new game was just started:")


def test_a_rename_names_the_player_by_the_name_the_screen_showed(session):
    seen = session.state()["version"]
    session.act({"type": "rename", "player": 1, "name": "Ben"})
    assert refusal(session, {"type": "bank"}, seen=seen).startswith(
        "Bob's rename to Ben was just recorded")


def test_an_undone_rename_names_the_player_by_the_old_name(session):
    # the undo toast said "Undone: Ben's new name" when the player was Bob again (rev14)
    session.act({"type": "rename", "player": 1, "name": "Ben"})
    assert session.undo()["events"] == [{"kind": "undo", "undone": "Bob's rename to Ben"}]
    session.act({"type": "rename", "player": "bob", "name": "Ben"})  # by the name, as typed
    assert session.undo()["events"] == [{"kind": "undo", "undone": "Bob's rename to Ben"}]


def test_a_screen_older_than_the_states_kept_gets_a_plain_sentence():
    assert moved_on(3, [{"version": 40}]) == (
        "The table changed since your screen last showed it: look again before you tap.")


def test_a_timeout_is_the_timer_not_someone_elsewhere():
    kept = [{"version": 8, "events": [], "recent": [{"type": "timeout", "at": 1.0}], "players": []}]
    assert moved_on(7, kept) == "The timer ran out meanwhile: look again before you tap."


def test_an_undo_says_what_it_took_back(session):
    session.act({"type": "roll", "green": 4, "yellow": 6, "red": 0})
    assert session.undo()["events"] == [{"kind": "undo", "undone": "Ann's roll"}]
    session.act({"type": "correct", "player": 1, "delta": 2, "reason": "missed"})
    assert session.undo()["events"] == [{"kind": "undo", "undone": "Bob's score correction"}]
