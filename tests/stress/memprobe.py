"""A memory probe inside a ``companion serve`` child: ``python -m tests.stress.memprobe serve ...``.

Used only by the stress harness (``ServeProcess(..., probe=True)``) and the load bench;
``companion serve`` itself knows nothing of it. The probe starts ``tracemalloc`` when
``COMPANION_MEMPROBE_FRAMES`` is a positive number of frames (tracing costs CPU and
memory, so the RSS-only runs leave it off), then runs the ordinary CLI in this process.
A daemon thread answers one JSON line per command line on two inherited pipes
(``COMPANION_MEMPROBE_FDS="<in>,<out>"``):

``mark``    remember the Python heap and object counts as the baseline, then report;
``sample``  resident memory, malloc, SQLite, Python heap and object figures;
``report``  the same with the biggest growths since the mark (slow when tracing).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import runpy
import sys
import tempfile
import threading
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

FDS_ENV = "COMPANION_MEMPROBE_FDS"
FRAMES_ENV = "COMPANION_MEMPROBE_FRAMES"
TOP = 8  # growths listed per report


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _libc() -> Any:
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def malloc_figures() -> dict[str, int]:
    """glibc's view: bytes in use, free but kept, and the number of malloc arenas."""
    libc = _libc()  # another C library (musl, macOS) reports zeros
    out = dict.fromkeys(("malloc_heap_kb", "malloc_mmap_kb", "malloc_used_kb",
                         "malloc_free_kb", "malloc_arenas"), 0)
    if hasattr(libc, "mallinfo2"):
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        out.update(malloc_heap_kb=info.arena // 1024, malloc_mmap_kb=info.hblkhd // 1024,
                   malloc_used_kb=info.uordblks // 1024, malloc_free_kb=info.fordblks // 1024)
    if not hasattr(libc, "malloc_info"):
        return out
    with tempfile.TemporaryFile("w+") as tmp:  # malloc_info writes XML to a FILE*
        libc.fdopen.restype = ctypes.c_void_p
        stream = libc.fdopen(os.dup(tmp.fileno()), b"w")
        libc.malloc_info(0, ctypes.c_void_p(stream))
        libc.fclose(ctypes.c_void_p(stream))
        tmp.seek(0)
        out["malloc_arenas"] = tmp.read().count("<heap nr=")
    return out


def sqlite_figures() -> dict[str, int]:
    """SQLite's own allocator: bytes in use now and at most (all connections)."""
    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
    except OSError:
        return {}
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    lib.sqlite3_memory_highwater.restype = ctypes.c_int64
    return {"sqlite_kb": lib.sqlite3_memory_used() // 1024,
            "sqlite_peak_kb": lib.sqlite3_memory_highwater(0) // 1024}


def proc_figures(pid: int | str = "self") -> dict[str, int]:
    """Resident memory from /proc: RSS, its anonymous part, and private dirty pages."""
    out: dict[str, int] = {}
    wanted = {"VmRSS": "rss_kb", "RssAnon": "rss_anon_kb", "RssFile": "rss_file_kb",
              "Threads": "threads"}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in wanted:
            out[wanted[key]] = int(value.split()[0])
    rollup = Path(f"/proc/{pid}/smaps_rollup")
    if rollup.exists():
        for line in rollup.read_text().splitlines():
            key, _, value = line.partition(":")
            if key == "Private_Dirty":
                out["private_dirty_kb"] = int(value.split()[0])
    return out


class Probe:
    """The figures of this process, and their growth since :meth:`mark`."""

    def __init__(self) -> None:
        self._snapshot: tracemalloc.Snapshot | None = None
        self._types: Counter[str] = Counter()
        self._blocks = 0

    def mark(self) -> dict[str, Any]:
        """Take the baseline (objects by type, a tracemalloc snapshot, pymalloc blocks)."""
        self._snapshot = None
        gc.collect()
        self._types = _type_counts()
        if tracemalloc.is_tracing():
            self._snapshot = _snapshot()
        self._blocks = sys.getallocatedblocks()
        return self.report(diff=False)

    def report(self, diff: bool = True) -> dict[str, Any]:
        """The figures now; with ``diff``, the biggest traced growths since the mark."""
        gc.collect()
        blocks = sys.getallocatedblocks()  # before this report allocates anything
        types = _type_counts()
        out: dict[str, Any] = {**proc_figures(), **malloc_figures(), **sqlite_figures(),
                               "blocks": blocks, "blocks_growth": blocks - self._blocks,
                               "objects": sum(types.values())}
        grown = Counter(types)
        grown.subtract(self._types)
        out["object_growth"] = [(name, n) for name, n in grown.most_common(TOP) if n > 0]
        del types, grown
        if tracemalloc.is_tracing():
            traced, peak = tracemalloc.get_traced_memory()
            out.update(traced_kb=traced / 1024, traced_peak_kb=peak / 1024,
                       tracemalloc_overhead_kb=tracemalloc.get_tracemalloc_memory() // 1024)
            if diff and self._snapshot is not None:
                stats = _snapshot().compare_to(self._snapshot, "traceback")
                # the server's growth: the probe's own allocations are filtered out
                out["traced_diff_bytes"] = sum(stat.size_diff for stat in stats)
                out["traced_top"] = [_describe(stat) for stat in stats[:TOP]]
        return out


def _snapshot() -> tracemalloc.Snapshot:
    return tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__, all_frames=True),
         tracemalloc.Filter(False, __file__, all_frames=True)])


def _describe(stat: tracemalloc.StatisticDiff) -> str:
    frames = [f"{Path(f.filename).name}:{f.lineno}" for f in list(stat.traceback)[::-1][:6]]
    return f"{stat.size_diff:+d} B in {stat.count_diff:+d} blocks at {' < '.join(frames)}"


def _type_counts() -> Counter[str]:
    return Counter(type(o).__name__ for o in gc.get_objects())


def _serve(fd_in: int, fd_out: int) -> None:
    probe = Probe()
    with os.fdopen(fd_in, "r") as commands, os.fdopen(fd_out, "w") as answers:
        for line in commands:
            command = line.strip()
            try:
                if command == "mark":
                    figures = probe.mark()
                else:
                    figures = probe.report(diff=command == "report")
            except Exception as exc:  # report it to the harness rather than die silently
                figures = {"error": f"{type(exc).__name__}: {exc}"}
            answers.write(json.dumps(figures) + "\n")
            answers.flush()


def main() -> None:
    """Start tracing if asked, start the command thread, then run ``companion.cli``."""
    frames = int(os.environ.get(FRAMES_ENV, "0") or 0)
    if frames > 0:
        tracemalloc.start(frames)
    fds = os.environ.get(FDS_ENV)
    if fds:
        fd_in, fd_out = (int(x) for x in fds.split(","))
        threading.Thread(target=_serve, args=(fd_in, fd_out), name="memprobe",
                         daemon=True).start()
    sys.argv = ["companion", *sys.argv[1:]]
    runpy.run_module("companion.cli", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
