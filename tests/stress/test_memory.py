"""Memory under load: the Python heap of a real ``companion serve`` does not grow with actions.

The server runs under the memory probe (``tests/stress/memprobe.py``). Phones hold the
stream while the host acts; after a warm-up (new games, banks, the session's kept states
filled) the heap is marked with every phone caught up, and measured again the same way at
the end, each time after the same moves of a new game (``load.SETTLE``), so the states the
session keeps are alike. A leak of anything per action (a journal row, a state, an SSE
message, per-request data) would grow the heap by several blocks per action; what remains
is noise and one-time allocations. The slow test also runs tracemalloc in the server.

RSS is not asserted here: it also grows while glibc's per-thread caches fill, which is
bounded (see docs/benchmarks.md, "## Stress"); ``test_load.py`` keeps a loose bound on it.
The default suite runs 300 measured actions; ``-m slow`` runs 3,000, traced.
"""

from __future__ import annotations

import pytest

from tests.stress.harness import ServeProcess
from tests.stress.load import run_load

RATE = 40.0  # actions a second asked for (a traced server manages fewer)
WARMUP = 100  # actions before the mark
# pymalloc blocks (objects up to 512 bytes) an action may leave behind, after a slack for
# one-time allocations (caches filled on first use); one leaked action dict is ~6 blocks
SLACK_BLOCKS, BLOCKS_PER_ACTION = 1000, 1.0
# traced bytes (tracemalloc, every allocator) the same way: a leaked state is ~2,000
SLACK_BYTES, BYTES_PER_ACTION = 64 * 1024, 16.0


def _heap(tmp_path, measured: int, clients: int, trace_frames: int = 0) -> dict[str, float]:
    total = WARMUP + measured
    with ServeProcess(tmp_path / "data", probe=True, trace_frames=trace_frames) as server:
        report = run_load(server, clients=clients, rate=RATE, seconds=total / RATE,
                          warmup=WARMUP / total, samples=1)
        assert "Traceback" not in server.log()
    assert report.problems() == []
    assert report.warmup == WARMUP and report.actions == total
    heap = report.heap_growth()
    assert heap["blocks"] < SLACK_BLOCKS + BLOCKS_PER_ACTION * measured, report.memory_summary()
    # containers tracked by the garbage collector do not pile up either
    assert heap["objects"] < SLACK_BLOCKS // 2 + measured // 10, report.final["object_growth"]
    return heap


def test_python_heap_stays_flat_under_load(tmp_path):
    _heap(tmp_path, measured=300, clients=5)


@pytest.mark.slow
def test_python_heap_stays_flat_over_3000_actions_traced(tmp_path):
    heap = _heap(tmp_path, measured=3000, clients=10, trace_frames=3)
    assert heap["traced_bytes"] < SLACK_BYTES + BYTES_PER_ACTION * 3000, heap


def test_journal_page_cache_is_capped(tmp_path):
    """Writing far more than the cap of pages leaves SQLite's memory within the cap."""
    from companion.journal import CACHE_KIB, Journal

    used = _sqlite_memory_used()
    journal = Journal(tmp_path)
    try:
        game = journal.start_game("toss-up", ["Ann", "Ben"], {}, 0.0)
        for n in range(CACHE_KIB):  # rows of ~4 KB: 4 x the cap in all
            journal.append(game, {"type": "bank", "note": "x" * 4000, "n": n}, float(n))
        assert len(list(journal.actions(game))) == CACHE_KIB
        grown_kib = (_sqlite_memory_used() - used) / 1024
    finally:
        journal.close()
    assert grown_kib < CACHE_KIB * 1.5, f"SQLite grew by {grown_kib:.0f} KiB"


def _sqlite_memory_used() -> int:
    """Bytes SQLite holds in this process (the library the sqlite3 module loaded)."""
    import ctypes
    import sqlite3  # noqa: F401  (loads libsqlite3 first)

    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
    except OSError:
        pytest.skip("no shared libsqlite3 to ask (SQLite linked into Python)")
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return int(lib.sqlite3_memory_used())
