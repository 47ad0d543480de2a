"""The settling vote: one reading per roll, never during motion or with a hand in view."""

from __future__ import annotations

import numpy as np
import pytest

from vision.results import DiceReading, Die
from vision.settle import CardSettler, DiceSettler, motion_score, motion_scores


def reading(g: int, y: int, r: int, other: int = 0, confidence: float = 0.9) -> DiceReading:
    dice = [Die(outline=((0, 0), (1, 0), (1, 1), (0, 1)), centre=(float(i), 0.0), colour=c,
                confidence=confidence)
            for i, c in enumerate(["green"] * g + ["yellow"] * y + ["red"] * r + ["other"] * other)]
    return DiceReading.from_dice(dice)


def feed_still(settler, clock, readings, step=0.1):
    """Feed still frames 0.1 s apart; return the decisions made."""
    out = []
    for rd in readings:
        clock.advance(step)
        result = settler.feed(rd, motion=0.5)
        if result is not None:
            out.append(result)
    return out


def test_one_reading_per_roll(clock):
    settler = DiceSettler(clock=clock)
    settler.feed(reading(1, 1, 1), motion=30.0)  # dice still rolling
    results = feed_still(settler, clock, [reading(3, 4, 3)] * 20)
    assert len(results) == 1
    assert results[0].settled and results[0].reading.counts() == (3, 4, 3, 0)
    assert results[0].votes >= 3


def test_waits_for_the_table_to_be_still_long_enough(clock):
    settler = DiceSettler(window=3, agree=3, still_frames=3, still_seconds=1.0, clock=clock)
    assert feed_still(settler, clock, [reading(2, 0, 0)] * 5, step=0.1) == []
    assert len(feed_still(settler, clock, [reading(2, 0, 0)] * 7, step=0.1)) == 1


def test_motion_and_hands_reset_the_vote(clock):
    settler = DiceSettler(window=4, agree=4, still_frames=4, still_seconds=0.0, clock=clock)
    assert feed_still(settler, clock, [reading(2, 1, 0)] * 3) == []
    clock.advance(0.1)
    assert settler.feed(reading(2, 1, 0), motion=0.5, hand=True) is None
    assert feed_still(settler, clock, [reading(2, 1, 0)] * 3) == []
    assert len(feed_still(settler, clock, [reading(2, 1, 0)])) == 1


def test_never_while_a_hand_is_in_view(clock):
    settler = DiceSettler(clock=clock)
    for _ in range(30):
        clock.advance(0.1)
        assert settler.feed(reading(5, 0, 0), motion=0.0, hand=True) is None


def test_next_roll_after_motion_gives_a_new_reading(clock):
    settler = DiceSettler(clock=clock)
    first = feed_still(settler, clock, [reading(3, 4, 3)] * 10)
    settler.feed(reading(0, 0, 0), motion=50.0)
    second = feed_still(settler, clock, [reading(2, 2, 3)] * 10)
    assert [r.reading.counts() for r in first + second] == [(3, 4, 3, 0), (2, 2, 3, 0)]


def test_disagreeing_frames_say_unsure_once(clock):
    settler = DiceSettler(window=5, agree=4, clock=clock)
    flicker = [reading(3, 4, 3), reading(4, 3, 3), reading(3, 4, 3), reading(4, 3, 3),
               reading(3, 3, 4)] * 4
    results = feed_still(settler, clock, flicker)
    assert len(results) == 1
    assert results[0].kind == "unsure" and results[0].reading is None and not results[0].settled


def test_unsure_dice_do_not_vote(clock):
    settler = DiceSettler(clock=clock, min_confidence=0.6)
    results = feed_still(settler, clock, [reading(3, 4, 3, confidence=0.3)] * 10)
    assert [r.kind for r in results] == ["unsure"]


def test_an_empty_table_is_not_a_roll(clock):
    settler = DiceSettler(clock=clock)
    assert feed_still(settler, clock, [reading(0, 0, 0)] * 20) == []


def test_an_empty_still_table_is_read_for_one_window_then_only_after_motion(clock):
    settler = DiceSettler(clock=clock)
    needed = []
    for _ in range(20):
        needed.append(settler.can_use_reading(motion=0.5))
        clock.advance(0.1)
        settler.feed(reading(0, 0, 0) if needed[-1] else None, motion=0.5)
    assert needed == [True] * 5 + [False] * 15
    settler.feed(None, motion=40.0)  # dice thrown
    assert [r.reading.counts() for r in feed_still(settler, clock, [reading(2, 1, 0)] * 5)] \
        == [(2, 1, 0, 0)]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="agree"):
        DiceSettler(window=3, agree=4)


def test_motion_score():
    a = np.full((120, 160, 3), 100, np.uint8)
    b = a.copy()
    assert motion_score(a, b) == 0.0
    b[:, :80] = 200
    assert motion_score(a, b) == pytest.approx(50.0, abs=1.0)
    assert motion_score(None, b) == 255.0
    assert motion_score(a[:60], b) == 255.0


def feed_cards(settler, frames, *, motion=0.5, hand=False):
    """Feed card ids frame by frame; return the sets reported."""
    return [out for ids in frames
            if (out := settler.feed(ids, motion=motion, hand=hand)) is not None]


def test_cards_are_reported_once_when_settled():
    settler = CardSettler()
    assert feed_cards(settler, [("two",)] * 10) == [("two",)]
    assert feed_cards(settler, [("five", "two")] * 10) == [("five", "two")]


def test_cards_under_a_hand_or_moving_are_never_reported():
    settler = CardSettler()
    assert feed_cards(settler, [("two",)] * 10, hand=True) == []
    assert feed_cards(settler, [("two",)] * 10, motion=50.0) == []
    assert feed_cards(settler, [("two",)] * 10) == [("two",)]


def test_cards_that_disagree_give_nothing():
    settler = CardSettler()
    assert feed_cards(settler, [("two",), ("three",)] * 6) == []


def test_only_still_frames_of_an_undecided_roll_need_their_reading(clock):
    settler = DiceSettler(clock=clock)
    assert settler.can_use_reading(motion=0.5)
    assert not settler.can_use_reading(motion=30.0), "moving dice: the vote is cleared anyway"
    assert not settler.can_use_reading(motion=0.5, hand=True), "a hand over the table"
    assert settler.feed(None, motion=30.0) is None, "a moving frame needs no reading"
    assert len(feed_still(settler, clock, [reading(3, 4, 3)] * 10)) == 1
    assert not settler.can_use_reading(motion=0.5), "decided: wait for the next roll"
    clock.advance(0.1)
    assert settler.feed(None, motion=0.5) is None
    settler.feed(None, motion=30.0)
    assert settler.can_use_reading(motion=0.5), "motion: a new roll awaits its decision"


def test_a_needed_reading_cannot_be_left_out(clock):
    settler = DiceSettler(clock=clock)
    with pytest.raises(ValueError, match="needs this still frame's reading"):
        settler.feed(None, motion=0.5)


def test_leaving_out_the_unneeded_readings_changes_no_decision(clock):
    """Two settlers over the same rolls, one fed every reading, one only the needed ones."""
    rng = np.random.default_rng(5)
    frames = []  # (reading, motion, hand): rolls, hands, flickering reads, empty tables
    for _ in range(40):
        counts = [tuple(int(v) for v in rng.integers(0, 4, 3)) for _ in range(3)]
        frames += [(reading(*counts[0]), 20.0, bool(rng.random() < 0.5))] * int(rng.integers(1, 4))
        frames += [(reading(*counts[int(rng.integers(0, 3))]), float(rng.uniform(0, 4)), False)
                   for _ in range(int(rng.integers(2, 15)))]
    every, needed = DiceSettler(clock=clock), DiceSettler(clock=clock)
    out_every, out_needed, read = [], [], 0
    for i, (rd, motion, hand) in enumerate(frames):
        clock.advance(0.1)
        out_every.append(every.feed(rd, motion=motion, hand=hand))
        use = needed.can_use_reading(motion=motion, hand=hand)
        read += use
        out_needed.append(needed.feed(rd if use else None, motion=motion, hand=hand))
    assert sum(r is not None for r in out_every) >= 20, "the rolls are decided"
    assert out_needed == out_every, "the same decisions, at the same frames"
    assert read < len(frames) * 0.8, f"{read} of {len(frames)} frames read"


def test_a_few_small_dice_moving_raise_the_peak_not_the_mean():
    """Two dice of 24 pixels sliding on a 640x480 table: the whole picture barely changes,
    the tiles they cross do; camera noise alone raises neither."""
    rng = np.random.default_rng(3)
    table = np.full((480, 640, 3), (40, 70, 90), np.uint8)  # brown felt

    def frame(x):
        out = table.copy()
        for left, top in ((x, 100), (400 - x, 300)):
            out[top:top + 24, left:left + 24] = (40, 200, 40)
        noise = rng.normal(0.0, 3.0, out.shape)
        return np.clip(out + noise, 0, 255).astype(np.uint8)

    before, after, again = frame(100), frame(130), frame(130)
    mean, peak = motion_scores(before, after)
    assert mean < 2.0 and peak > 8.0, (mean, peak)  # the settler's max_motion is 4
    still = motion_scores(after, again)
    assert max(still) < 1.0, still
    assert motion_scores(None, after) == (255.0, 255.0)
    assert motion_score(before, after) == pytest.approx(mean)


def test_three_agreeing_still_frames_decide_without_waiting_for_the_window(clock):
    settler = DiceSettler(clock=clock)  # window 5, agree 4, quick 3
    settler.feed(None, motion=50.0)  # the dice land; the next frames are still
    landed = clock()
    results = feed_still(settler, clock, [reading(3, 4, 3)] * 3)
    assert [(r.reading.counts(), r.votes, r.window) for r in results] == [((3, 4, 3, 0), 3, 3)]
    assert results[0].at - landed == pytest.approx(0.3, abs=1e-6), \
        "0.3 s after the frame the first still frame matched"
    settler.feed(None, motion=50.0)
    flicker = [reading(3, 4, 3), reading(4, 3, 3), reading(3, 4, 3), reading(3, 4, 3)]
    assert feed_still(settler, clock, flicker) == [], "3 of 4 agree: the fifth frame decides"
    results = feed_still(settler, clock, [reading(3, 4, 3)])
    assert [(r.reading.counts(), r.votes, r.window) for r in results] == [((3, 4, 3, 0), 4, 5)]
    settler = DiceSettler(quick=None, clock=clock)
    settler.feed(None, motion=50.0)
    results = feed_still(settler, clock, [reading(3, 4, 3)] * 4)
    assert [(r.votes, r.window) for r in results] == [(4, 4)], "without quick: 4 of 5"


def test_a_vote_of_half_the_window_or_less_waits_for_the_whole_window(clock):
    settler = DiceSettler(window=4, agree=2, still_frames=1, still_seconds=0.0, clock=clock)
    early = feed_still(settler, clock, [reading(1, 0, 0)] * 2 + [reading(0, 2, 0)] * 1)
    assert early == [], "two more frames could still tie the vote"
    assert [r.votes for r in feed_still(settler, clock, [reading(0, 2, 0)])] == [2]


def test_the_same_counts_as_the_full_window_decides(clock):
    """Random rolls (each frame the roll's counts, or a misread one time in five): the
    first three frames agreeing decide; else the vote over the whole first window."""
    rng = np.random.default_rng(8)
    for _ in range(300):
        counts = [tuple(int(v) for v in rng.integers(1, 4, 3)) for _ in range(2)]
        frames = [reading(*counts[int(rng.random() < 0.2)]) for _ in range(8)]
        settler = DiceSettler(clock=clock)
        settler.feed(None, motion=50.0)
        results = feed_still(settler, clock, frames)
        window = [r.counts() for r in frames[:5]]
        top = max(window, key=window.count)
        quick = len(set(window[:3])) == 1
        expected = ("settled", top) if quick or window.count(top) >= 4 else ("unsure", None)
        assert [(r.kind, r.reading and r.reading.counts()) for r in results] == [expected]
        assert results[0].window == (3 if quick else 5)
