"""Replay: no dice reading is offered while a hand is over the table, only once it has left."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import cv2

from companion.camera_link import DiceLink
from companion.recognition import Recognizer
from scenes import dice as scenes
from tests.vision.hand_support import with_arm
from vision.dice import read_dice
from tests.support.table import Table


def render(n_dice: int) -> np.ndarray:
    """One table (seeded), with ``n_dice`` dice on it; 0 gives the empty table."""
    rng = np.random.default_rng([11, 3])
    plan = replace(scenes.make_plan("plain", rng), n_dice=n_dice, surface="laminate")
    data, _ = scenes.render(plan, rng)
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


@pytest.fixture(scope="module")
def frames():
    empty, rolled = render(0), render(10)
    arm = with_arm(rolled, tone=6, sleeve=0, side=0, along=0.2, reach=0.3, angle=15)
    return empty, rolled, arm


def show(recognizer, table, clock, frame, steps, *, fresh):
    """Step the loop ``steps`` times on ``frame`` (a new copy each step when ``fresh``)."""
    for _ in range(steps):
        table.frame = frame.copy() if fresh else frame
        recognizer.step()
        clock.advance(0.1)


@pytest.mark.parametrize("fresh", [False, True], ids=["repeated frame", "new frames"])
def test_no_reading_while_a_hand_is_in_view_then_one_after_it_leaves(session, clock, frames,
                                                                      fresh):
    empty, rolled, arm = frames
    assert read_dice(arm).counts() == read_dice(rolled).counts(), \
        "the arm hides no die: only the hand flag can hold the reading back"
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    show(recognizer, table, clock, empty, 5, fresh=fresh)  # the empty table, learned
    assert not recognizer.hand_watcher.last.hand
    show(recognizer, table, clock, arm, 20, fresh=fresh)  # dice thrown, hand still there
    assert recognizer.hand_watcher.last.hand
    assert session.state().get("dice") is None, "nothing offered while the hand is in view"
    show(recognizer, table, clock, rolled, 15, fresh=fresh)  # the hand has left
    assert not recognizer.hand_watcher.last.hand
    seen = session.state()["dice"]["seen"]
    assert seen == read_dice(rolled).to_dict(), "one reading once the dice are still again"


def test_a_hand_reaching_in_again_holds_back_the_next_roll(session, clock, frames):
    empty, rolled, arm = frames
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    show(recognizer, table, clock, empty, 5, fresh=True)
    show(recognizer, table, clock, rolled, 15, fresh=True)
    dice = session.extras()[1]["dice"]
    assert session.state()["hand"] is False
    show(recognizer, table, clock, arm, 20, fresh=True)  # a hand picks the dice up again
    assert session.extras()[1]["dice"] == dice, "no new decision while the hand is in view"
    assert session.state()["hand"] is True, "the phones are told a hand is in view"


def test_a_replay_of_other_tables_is_never_taken_for_a_hand(session, clock):
    """The demo's replay camera jumps between photos of different tables: each is learned
    afresh (a whole new picture moves far more than an arm coming in)."""
    from pathlib import Path

    from vision.imageio import read_image

    folder = Path(__file__).resolve().parents[2] / "companion" / "demo" / "frames"
    photos = [read_image(p) for p in sorted(folder.glob("*.jpg"))]
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    seen = []
    for photo in photos * 2:
        show(recognizer, table, clock, photo, 8, fresh=True)
        seen.append(session.state()["hand"])
    assert not any(seen), f"a hand was seen on {seen.count(True)} of {len(seen)} photos"
