"""Load: 30 phones hold the event stream while the host acts 10 times a second; every
phone sees every version in order, quickly, and the server's memory stays flat.

The default suite runs 10 s; ``-m slow`` and ``bench/bench_stress.py load`` run 60 s.
"""

from __future__ import annotations

import pytest

from tests.stress.harness import ServeProcess
from tests.stress.load import run_load


def _load(tmp_path, seconds: float, stalled: int = 0) -> None:
    with ServeProcess(tmp_path / "data") as server:
        report = run_load(server, clients=30, rate=10.0, seconds=seconds, stalled=stalled)
        assert "Traceback" not in server.log()
    assert report.actions == int(10 * seconds)
    assert report.problems() == []  # every client: every version, once, in order
    assert len(report.latencies_ms()) == 30 * report.actions
    assert report.percentile(0.99) < 100, report.summary()
    assert report.rss_end_kb - report.rss_start_kb < 15 * 1024, report.summary()


def test_thirty_phones_follow_ten_actions_a_second(tmp_path):
    """... while three more phones hold the stream open and never read it."""
    _load(tmp_path, seconds=10, stalled=3)


@pytest.mark.slow
def test_thirty_phones_for_a_minute(tmp_path):
    _load(tmp_path, seconds=60)
