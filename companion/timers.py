"""Timers as values: phase timers, countdowns and a per-player turn clock.

A timer is part of a game's journaled state, so it holds no clock of its own: every
function takes the moment of the action, ``at`` (seconds since the epoch, float, as the
session stamps it on every action). A running timer stores its absolute ``deadline``;
a stopped one stores the seconds it had left. Phones get the deadline and count down
locally, and a companion restarted from its journal finds the same deadline, so a
running timer resumes correctly (and fires at once if the deadline passed meanwhile).

    >>> t = start(new_timer(60), at=1000.0)
    >>> remaining(t, 1015.0)
    45.0
    >>> remaining(pause(t, at=1015.0), 2000.0)
    45.0

The per-player :class:`TurnClock` is the chess-clock variant: each seat has its own
budget, and only the active seat's budget runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion.errors import InvalidAction

__all__ = [
    "Timer", "new_timer", "start", "pause", "resume", "add_time", "skip", "remaining",
    "is_expired", "timer_json", "TurnClock", "new_turn_clock", "switch_to", "stop_clock",
    "clock_remaining", "clock_deadline", "clock_json", "TimerAction", "parse_at",
    "parse_seconds",
]


@dataclass(frozen=True)
class Timer:
    """A countdown of ``duration`` seconds.

    Running: ``deadline`` is the epoch second it reaches zero, ``left`` is unused (0).
    Stopped (never started, paused or expired): ``deadline`` is None and ``left`` holds
    the seconds remaining. ``duration`` grows with added time, for progress bars.
    """

    duration: float
    left: float
    deadline: float | None = None

    @property
    def running(self) -> bool:
        """True while the timer counts down."""
        return self.deadline is not None


def new_timer(seconds: float) -> Timer:
    """Return a stopped timer set to ``seconds`` (0 or more)."""
    seconds = max(0.0, float(seconds))
    return Timer(duration=seconds, left=seconds)


def remaining(timer: Timer, now: float) -> float:
    """Seconds left at ``now``; never negative, never more than the duration.

    The bound also absorbs float rounding: a deadline of ``at + left`` read back at
    ``at`` can give ``left`` plus a few ulps.
    """
    if timer.deadline is None:
        return min(timer.left, timer.duration)
    return min(timer.duration, max(0.0, timer.deadline - now))


def is_expired(timer: Timer, now: float) -> bool:
    """True when the timer has no time left at ``now``."""
    return remaining(timer, now) <= 0.0


def start(timer: Timer, at: float) -> Timer:
    """Run the timer from ``at`` with the time it has left (a running timer is unchanged)."""
    if timer.deadline is not None:
        return timer
    return Timer(duration=timer.duration, left=0.0, deadline=at + timer.left)


#: Resuming is starting again with what was left.
resume = start


def pause(timer: Timer, at: float) -> Timer:
    """Stop the timer at ``at``, keeping the time left (a stopped timer is unchanged)."""
    if timer.deadline is None:
        return timer
    return Timer(duration=timer.duration, left=remaining(timer, at))


def add_time(timer: Timer, seconds: float, at: float) -> Timer:
    """Give the timer ``seconds`` more (an expired running timer restarts from ``at``)."""
    seconds = max(0.0, float(seconds))
    duration = timer.duration + seconds
    if timer.deadline is None:
        return Timer(duration=duration, left=timer.left + seconds)
    return Timer(duration=duration, left=0.0, deadline=max(timer.deadline, at) + seconds)


def skip(timer: Timer, at: float) -> Timer:
    """End the timer now: stopped with no time left."""
    return replace(timer, left=0.0, deadline=None)


def timer_json(timer: Timer | None) -> dict[str, Any] | None:
    """The JSON view phones count down from.

    ``{"duration": 60.0, "running": true, "deadline": 1700000060.0,
    "remaining_at_pause": null}``; a stopped timer has ``deadline`` null and
    ``remaining_at_pause`` the seconds it kept.
    """
    if timer is None:
        return None
    return {
        "duration": timer.duration,
        "running": timer.running,
        "deadline": timer.deadline,
        "remaining_at_pause": None if timer.running else timer.left,
    }


@dataclass(frozen=True)
class TurnClock:
    """A chess clock: one time budget per seat, only the ``active`` seat's runs.

    ``budgets`` are the seconds each seat had when its clock last stopped;
    ``since`` is the epoch second the active seat's clock started.
    """

    budgets: tuple[float, ...]
    active: int | None = None
    since: float = 0.0


def new_turn_clock(seats: int, seconds: float) -> TurnClock:
    """Return a stopped clock giving each of ``seats`` players ``seconds``."""
    return TurnClock(budgets=(max(0.0, float(seconds)),) * seats)


def stop_clock(clock: TurnClock, at: float) -> TurnClock:
    """Charge the active seat for its time up to ``at`` and stop every clock."""
    if clock.active is None:
        return clock
    used = max(0.0, at - clock.since)
    seat = clock.active
    left = max(0.0, clock.budgets[seat] - used)
    budgets = clock.budgets[:seat] + (left,) + clock.budgets[seat + 1:]
    return TurnClock(budgets=budgets)


def switch_to(clock: TurnClock, seat: int | None, at: float) -> TurnClock:
    """Stop the active seat's clock at ``at`` and start ``seat``'s (None: all stopped)."""
    stopped = stop_clock(clock, at)
    if seat is None:
        return stopped
    if not 0 <= seat < len(clock.budgets):
        raise ValueError(f"seat must be 0 to {len(clock.budgets) - 1}, not {seat}")
    return replace(stopped, active=seat, since=at)


def clock_remaining(clock: TurnClock, seat: int, now: float) -> float:
    """Seconds ``seat`` has left at ``now``; never negative."""
    if clock.active != seat:
        return clock.budgets[seat]
    return max(0.0, clock.budgets[seat] - (now - clock.since))


def clock_deadline(clock: TurnClock) -> float | None:
    """Epoch second the active seat runs out of time, or None when stopped."""
    if clock.active is None:
        return None
    return clock.since + clock.budgets[clock.active]


def clock_json(clock: TurnClock) -> dict[str, Any]:
    """JSON view: seconds left per seat at the last switch, the active seat, its deadline."""
    return {"budgets": list(clock.budgets), "active": clock.active,
            "since": clock.since if clock.active is not None else None,
            "deadline": clock_deadline(clock)}


# -- timer actions and reading times from action dicts --------------------------------

@dataclass(frozen=True)
class TimerAction:
    """A timed game's timer action ``kind`` at ``at`` (epoch seconds).

    Each game names its kinds (``start``, ``pause``, ``add_time``, ``timeout``, ...);
    ``seconds`` is the time an ``add_time`` adds; ``phase``, when given, the phase the
    action was meant for (a game refuses it in another).
    """

    kind: str
    at: float
    seconds: float = 0.0
    phase: str | None = None


def parse_at(data: Mapping[str, Any]) -> float:
    """The session's time stamp ``at`` (epoch seconds), or InvalidAction."""
    value = data.get("at")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            math.isfinite(value) and value >= 0):
        raise InvalidAction("The action has no valid time stamp 'at' (seconds since the epoch).")
    return float(value)


def parse_seconds(data: Mapping[str, Any], key: str, *, low: float = 0.0,
                high: float = 3600.0, from_low: bool = False) -> float:
    """A number of seconds, ``low`` < value <= ``high`` (``low`` <= value with
    ``from_low``), or InvalidAction naming it."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            math.isfinite(value) and (low <= value if from_low else low < value)
            and value <= high):
        span = f"from {low:g} to {high:g}" if from_low else f"above {low:g} and at most {high:g}"
        raise InvalidAction(f"'{key}' must be a number of seconds {span}.")
    return float(value)
