"""The recognition loop on recorded frames: one offer per roll, after the dice settle."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cv2

from companion.camera_link import DiceLink
from companion.recognition import Recognizer
from companion.session import Session
from vision.imageio import read_image
from tests.support.table import Table

FRAMES = Path(__file__).resolve().parents[2] / "companion" / "demo" / "frames"


def labelled_frames():
    labels = json.loads((FRAMES / "labels.json").read_text())["images"]
    return [(read_image(FRAMES / name), label) for name, label in sorted(labels.items())]


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


def test_nothing_is_read_outside_a_dice_game(tmp_path, clock, open_journal):
    session = Session(open_journal(tmp_path), clock=clock)
    session.start("sorry-21", ["Ann", "Bob"])
    table = Table()
    table.frame = labelled_frames()[0][0]
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    run(recognizer, clock, 15)
    assert recognizer.frames == 0 and "dice" not in session.state()
    assert recognizer.snapshot()[0] is table.frame, "the preview still sees the table"


class Reads:
    """The real dice reader, counting the frames it is asked to read."""

    def __init__(self):
        from vision.dice import read_dice

        self.read_dice, self.frames = read_dice, []

    def __call__(self, frame, **kwargs):
        self.frames.append(frame)
        return self.read_dice(frame, **kwargs)


class Decisions:
    """A link that records each decision (the settled counts, or None for unsure)."""

    def __init__(self):
        self.made = []

    def on_reading(self, reading):
        self.made.append(None if reading is None else reading.counts())


def a_roll(frame, others, rng, *, still=15):
    """The camera's picture changing (other tables flashing by), then `frame` still, with a
    camera's noise on every frame."""
    moving = [cv2.add(other, rng.integers(0, 3, other.shape, dtype=np.uint8)) for other in others]
    rest = [cv2.add(frame, rng.integers(0, 3, frame.shape, dtype=np.uint8))
            for _ in range(still)]
    return moving, rest


def test_dice_are_read_only_on_still_frames_awaiting_a_decision(session, clock, monkeypatch):
    reads = Reads()
    monkeypatch.setattr("companion.recognition.read_dice", reads)
    demo = labelled_frames()
    frame, label = demo[0]
    slide, rest = a_roll(frame, [f for f, _ in demo[1:6]], np.random.default_rng(1))
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session), clock=clock)
    for moving in slide:
        table.frame = moving
        run(recognizer, clock, 1)
    assert reads.frames == [], "nothing read while the dice move"
    assert recognizer.snapshot() == (slide[-1], None), "no stale reading drawn on moving dice"
    for still in rest:
        table.frame = still
        run(recognizer, clock, 1)
    assert session.state()["dice"]["seen"] == {k: label.get(k, 0) for k in
                                               ("green", "yellow", "red", "other")}
    decided = len(reads.frames)
    assert decided == 3, "the still frames of the vote are read (3 agree), then no more"
    assert all(any(f is r for r in rest) for f in reads.frames)
    assert recognizer.frames == len(slide) + len(rest) and recognizer.reads == decided
    frame_now, shown = recognizer.snapshot()
    assert frame_now is rest[-1] and shown is not None and shown.counts()[:3] == (
        label["green"], label["yellow"], label["red"]), "the preview keeps the last reading"
    table.frame = slide[0]  # the dice are picked up and thrown again
    run(recognizer, clock, 2)
    assert len(reads.frames) == decided + 1, "a new roll is read again once still"


def test_the_same_decisions_as_reading_every_frame(session, clock, monkeypatch):
    """Rolls of the demo tables: the loop decides as a loop reading every frame would
    (the same settled counts and unsures, at the same frames), reading far fewer."""
    from vision.dice import read_dice
    from vision.hand import HandWatcher
    from vision.settle import DiceSettler, motion_scores

    reads = Reads()
    monkeypatch.setattr("companion.recognition.read_dice", reads)
    rng = np.random.default_rng(2)
    sequence = []
    demo = [f for f, _ in labelled_frames()]
    for k in range(8):
        others = [demo[int(i)] for i in rng.integers(0, len(demo), int(rng.integers(1, 4)))]
        slide, rest = a_roll(demo[k], others, rng, still=int(rng.integers(8, 20)))
        sequence += slide + rest
    link = Decisions()
    table = Table()
    recognizer = Recognizer(table.latest, session, link=link, clock=clock)
    settler, watcher, previous, expected = DiceSettler(clock=clock), HandWatcher(), None, []
    for frame in sequence:
        change, motion = motion_scores(previous, frame)  # the loop reading every frame
        if change > 30.0:
            watcher.reset()
        hand = watcher.update(frame).hand
        decision = settler.feed(read_dice(frame), motion=motion, hand=hand)
        if decision is not None:
            expected.append(decision.reading.counts() if decision.settled else None)
        previous = frame
        table.frame = frame
        recognizer.step()
        assert link.made == expected
        clock.advance(0.1)
    assert len(expected) >= 5, "the rolls are decided"
    assert len(reads.frames) < len(sequence) / 2, f"{len(reads.frames)} of {len(sequence)} read"
