"""The recognition loop on recorded frames: one offer per roll, after the dice settle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.camera_link import DiceLink
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from vision.imageio import read_image
from tests.support.table import Table

FRAMES = Path(__file__).resolve().parents[2] / "companion" / "demo" / "frames"


def labelled_frames():
    labels = json.loads((FRAMES / "labels.json").read_text())["images"]
    return [(read_image(FRAMES / name), label) for name, label in sorted(labels.items())]


@pytest.fixture
def session(tmp_path, clock):
    s = Session(Journal(tmp_path), clock=clock)
    s.start("toss-up", ["Ann", "Bob"])
    yield s
    s.journal.close()


def run(recognizer, clock, steps, seconds=0.1):
    for _ in range(steps):
        recognizer.step()
        clock.advance(seconds)


def test_a_still_table_gives_one_offer_for_the_roll(session, clock):
    frames = [(f, lab) for f, lab in labelled_frames()
              if lab["green"] + lab["yellow"] + lab["red"] == 10 and not lab.get("other")]
    assert frames, "the demo frames include full 10-dice rolls"
    frame, label = frames[0]
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    table.frame = frame
    run(recognizer, clock, 3)
    assert session.state().get("dice") is None, "no decision before the table is still long enough"
    run(recognizer, clock, 12)
    offer = session.state()["dice"]["offer"]
    assert offer == {"type": "roll", "green": label["green"], "yellow": label["yellow"],
                     "red": label["red"]}
    assert recognizer.frames == 1, "the same frame is read once, then counted as still"
    seq, _ = session.extras()
    run(recognizer, clock, 10)
    assert session.extras()[0] == seq, "one decision per roll, not one per frame"


def test_a_new_roll_gives_a_new_decision_after_motion(session, clock):
    (first, _), (second, _) = labelled_frames()[:2]
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    table.frame = first
    run(recognizer, clock, 15)
    seq, before = session.extras()
    table.frame = second
    run(recognizer, clock, 15)
    new_seq, after = session.extras()
    assert new_seq > seq, "the next roll is decided too"
    assert after["dice"] != before["dice"]
    assert after["dice"]["seen"] in (None, recognizer.snapshot()[1].to_dict())


def test_nothing_is_read_outside_a_dice_game(tmp_path, clock):
    session = Session(Journal(tmp_path), clock=clock)
    session.start("sorry-21", ["Ann", "Bob"])
    table = Table()
    table.frame = labelled_frames()[0][0]
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    run(recognizer, clock, 15)
    assert recognizer.frames == 0 and "dice" not in session.state()
    assert recognizer.snapshot()[0] is table.frame, "the preview still sees the table"
