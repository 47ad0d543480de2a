"""Replayed rendered rolls: the loop reads no frame while the dice slide, and decides once
they rest, with what the renderer put on the table."""

from __future__ import annotations

import pytest

from companion.camera_link import DiceLink
from companion.recognition import Recognizer
from tests.support.rolls import SLIDE, render_roll
from tests.support.table import Table
from vision.dice import read_dice


@pytest.fixture(scope="module")
def roll():
    return render_roll(3, condition="plain", still=12)


def test_a_roll_is_read_only_once_the_dice_rest(session, clock, roll, monkeypatch):
    reads, steps = [], []

    def counted(frame, **kwargs):
        reads.append(len(steps))
        return read_dice(frame, **kwargs)

    monkeypatch.setattr("companion.recognition.read_dice", counted)
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    for i, frame in enumerate(roll.frames):
        steps.append(i)
        table.frame = frame
        recognizer.step()
        if i < roll.first_still:
            assert session.state().get("dice") is None, f"decided at frame {i}, dice moving"
        clock.advance(0.1)
    empty = [i for i in reads if i < roll.first_still - len(SLIDE)]
    assert len(empty) == 5, f"the empty table is read for one vote, then left: {empty}"
    moving = [i for i in reads if roll.first_still - len(SLIDE) <= i < roll.first_still]
    assert moving == [], f"frames {moving} of the dice sliding were read"
    dice = session.extras()[1]["dice"]
    assert dice["seen"] == {k: roll.label[k] for k in ("green", "yellow", "red", "other")}
    assert dice["offer"] is not None, "the ten dice in hand are offered as the roll"
    assert len([i for i in reads if i >= roll.first_still]) <= 5, "read until decided"
    assert session.state()["hand"] is True, "the arm picking the dice up is seen"
