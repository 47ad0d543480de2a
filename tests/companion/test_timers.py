"""Timers as values: times are plain numbers passed in, so no clock and no sleeps."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import timers as t
from companion.errors import InvalidAction

T0 = 1_700_000_000.0  # an epoch second, as the session stamps them


def test_a_new_timer_is_stopped_with_its_whole_duration():
    timer = t.new_timer(60)
    assert not timer.running
    assert t.remaining(timer, T0) == 60.0
    assert t.remaining(timer, T0 + 500) == 60.0, "a stopped timer does not run"


def test_start_sets_an_absolute_deadline_and_counts_down():
    timer = t.start(t.new_timer(60), at=T0)
    assert timer.deadline == T0 + 60
    assert t.remaining(timer, T0 + 15) == 45.0
    assert t.remaining(timer, T0 + 90) == 0.0, "never negative"
    assert t.is_expired(timer, T0 + 60) and not t.is_expired(timer, T0 + 59.9)


def test_pause_keeps_the_time_left_and_resume_continues_from_it():
    timer = t.pause(t.start(t.new_timer(60), at=T0), at=T0 + 20)
    assert (timer.running, timer.left) == (False, 40.0)
    timer = t.resume(timer, at=T0 + 1000)
    assert timer.deadline == T0 + 1040


def test_start_and_pause_are_idempotent():
    running = t.start(t.new_timer(30), at=T0)
    assert t.start(running, at=T0 + 10) == running
    paused = t.pause(running, at=T0 + 5)
    assert t.pause(paused, at=T0 + 9) == paused


def test_add_time_moves_the_deadline_or_the_paused_remainder():
    running = t.add_time(t.start(t.new_timer(30), at=T0), 15, at=T0 + 10)
    assert running.deadline == T0 + 45 and running.duration == 45
    paused = t.add_time(t.pause(running, at=T0 + 40), 10, at=T0 + 50)
    assert (paused.running, paused.left) == (False, 15.0)


def test_add_time_to_an_expired_running_timer_counts_from_now():
    timer = t.add_time(t.start(t.new_timer(10), at=T0), 5, at=T0 + 100)
    assert timer.deadline == T0 + 105


def test_skip_ends_the_timer_with_nothing_left():
    timer = t.skip(t.start(t.new_timer(60), at=T0), at=T0 + 1)
    assert not timer.running and t.remaining(timer, T0 + 2) == 0.0


def test_json_gives_deadlines_as_epoch_seconds_and_the_remainder_when_paused():
    timer = t.start(t.new_timer(60), at=T0)
    assert t.timer_json(timer) == {"duration": 60.0, "running": True,
                                   "deadline": T0 + 60, "remaining_at_pause": None}
    assert t.timer_json(t.pause(timer, T0 + 6))["remaining_at_pause"] == 54.0
    assert t.timer_json(None) is None
    json.dumps(t.timer_json(timer))


def test_a_restart_from_the_stored_value_resumes_the_running_timer():
    """The timer is journaled as data: a value rebuilt later has the same deadline."""
    stored = t.timer_json(t.start(t.new_timer(60), at=T0))
    rebuilt = t.Timer(duration=stored["duration"], left=0.0, deadline=stored["deadline"])
    assert t.remaining(rebuilt, T0 + 42) == 18.0


@given(st.lists(st.tuples(st.sampled_from(["start", "pause", "add", "skip"]),
                          st.floats(0, 100), st.floats(0, 50)), max_size=30))
def test_any_sequence_keeps_the_timer_consistent(ops):
    timer, now = t.new_timer(60), T0
    for op, step, extra in ops:
        now += step
        before = t.remaining(timer, now)
        if op == "start":
            timer = t.start(timer, now)
        elif op == "pause":
            timer = t.pause(timer, now)
        elif op == "add":
            timer = t.add_time(timer, extra, now)
            assert t.remaining(timer, now) == pytest.approx(before + extra, abs=1e-6)
            continue
        else:
            timer = t.skip(timer, now)
            assert t.remaining(timer, now) == 0.0
            continue
        assert t.remaining(timer, now) == pytest.approx(before, abs=1e-6), "start/pause keep it"
        assert 0.0 <= t.remaining(timer, now + 1) <= timer.duration + 1e-9


def test_turn_clock_charges_only_the_active_seat():
    clock = t.switch_to(t.new_turn_clock(3, 300), 0, at=T0)
    clock = t.switch_to(clock, 1, at=T0 + 40)
    assert t.clock_remaining(clock, 0, T0 + 100) == 260.0
    assert t.clock_remaining(clock, 1, T0 + 100) == 240.0
    assert t.clock_remaining(clock, 2, T0 + 100) == 300.0
    assert t.clock_deadline(clock) == T0 + 40 + 300


def test_turn_clock_stops_and_never_goes_negative():
    clock = t.stop_clock(t.switch_to(t.new_turn_clock(2, 10), 1, at=T0), at=T0 + 25)
    assert clock.active is None and clock.budgets == (10.0, 0.0)
    assert t.clock_deadline(clock) is None
    assert t.clock_json(clock) == {"budgets": [10.0, 0.0], "active": None, "since": None,
                                   "deadline": None}


def test_turn_clock_refuses_a_missing_seat():
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        t.switch_to(t.new_turn_clock(2, 10), 2, at=T0)


@pytest.mark.parametrize("data", [{}, {"at": "now"}, {"at": True}, {"at": -1},
                                  {"at": float("nan")}])
def test_an_action_without_a_valid_time_stamp_is_refused(data):
    with pytest.raises(InvalidAction, match="time stamp"):
        t.parse_at(data)


@pytest.mark.parametrize("value", [0, -5, 4000, "10", None, float("inf")])
def test_seconds_must_be_a_positive_number_in_range(value):
    with pytest.raises(InvalidAction, match="'seconds'"):
        t.parse_seconds({"seconds": value}, "seconds")
