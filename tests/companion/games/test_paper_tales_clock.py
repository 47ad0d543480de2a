"""Paper Tales run by its phase timers alone: 4 turns x 6 phases, then the tally.

A session on a real journal and the fake clock; only ``start`` and the ticks move the
table (option ``auto_advance``), as a table that lets the timers lead would play.
"""

from __future__ import annotations

import pytest

from companion.journal import Journal
from companion.session import Session

LIMITS = {"recruitment": 60, "deployment": 50, "wars": 10, "income": 5, "construction": 40,
          "aging": 5}


def test_the_timers_alone_carry_the_table_through_four_turns_to_the_tally(empty_session, tmp_path):
    clock = empty_session.clock
    empty_session.start("paper-tales", ["Ann", "Ben", "Cy"],
                        {"auto_advance": True, "phase_seconds": LIMITS})
    state = empty_session.act({"type": "start"})
    seen = []
    while state["phase"] != "tally":
        seen.append((state["turn"], state["phase"]))
        assert state["timer"]["deadline"] == pytest.approx(clock() + LIMITS[state["phase"]])
        clock.advance(LIMITS[state["phase"]] - 0.5)
        assert empty_session.tick() is None, "a phase ended before its time"
        clock.advance(0.5)
        state = empty_session.tick()
        assert empty_session.tick() is None, "one timeout per phase"
    phases = list(LIMITS)
    assert seen == [(t, p) for t in (1, 2, 3, 4) for p in phases]
    assert state["timer"] is None and not state["over"]
    assert [p["gold"] for p in state["players"]] == [3 + 4 * 2] * 3  # four Incomes
    clock.advance(3600)
    assert empty_session.tick() is None  # the tally has no timer: the table enters it
    state = empty_session.act({"type": "tally", "building_lp": [1, 3, 3]})
    assert state["over"] and state["winners"] == ["Ben", "Cy"]  # LP tie, Gold tie: shared
    with Journal(tmp_path) as again:  # the 24 timeouts were journaled like any action
        assert Session(again, clock=clock).state()["version"] == state["version"]
