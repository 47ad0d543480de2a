"""Load: 30 phones hold the event stream while the host acts 10 times a second; every
phone sees every version in order, quickly, and the server's memory stays flat.

The default suite runs 10 s; ``-m slow`` and ``bench/bench_stress.py load`` run 60 s.
"""

from __future__ import annotations

import statistics

import pytest

from tests.stress.harness import ServeProcess
from tests.stress.load import run_load


def _load(tmp_path, seconds: float, stalled: int = 0, p99_ms: float | None = None) -> None:
    with ServeProcess(tmp_path / "data") as server:
        report = run_load(server, clients=30, rate=10.0, seconds=seconds, stalled=stalled)
        assert "Traceback" not in server.log()
    assert report.actions == int(10 * seconds)
    assert report.problems() == []  # every client: every version, once, in order
    assert len(report.latencies_ms()) == 30 * report.actions
    # A stream woken by each change delivers it at once: half the receipts within 20 ms
    # even on a busy machine (measured -0.7 to -0.2 ms at load 20-28); a stream that
    # waited for its next poll (SSE_POLL) instead would take ~250 ms.
    assert statistics.median(report.latencies_ms()) < 20, report.summary()
    if p99_ms is not None:
        assert report.percentile(0.99) < p99_ms, report.summary()
    assert report.rss_end_kb - report.rss_start_kb < 15 * 1024, report.summary()


def test_thirty_phones_follow_ten_actions_a_second(tmp_path):
    """... while three more phones hold the stream open and never read it.

    The tail (p99 < 100 ms) is the slow test's and ``bench_stress.py load``'s, run on a
    quiet machine: at load 20-28 on this 2-core machine the p99 was 180-470 ms.
    """
    _load(tmp_path, seconds=10, stalled=3)


@pytest.mark.slow
def test_thirty_phones_for_a_minute(tmp_path):
    _load(tmp_path, seconds=60, p99_ms=100)
