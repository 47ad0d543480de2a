"""Hunt timing races in tests: run pytest on some tests N times in a row, optionally while
the whole pytest process group is frozen (SIGSTOP) for random moments, as a busy machine
deschedules a process, and count the runs each test failed.

Usage (from the repository root; never with ``-n``, never the whole suite)::

    .venv/bin/python bench/flaky.py --runs 20 tests/web/test_sse.py tests/web/test_preview.py
    .venv/bin/python bench/flaky.py --runs 5 --stutter 0.6 --gap 0.1 tests/companion/test_timers.py

A frozen moment stops the servers and browsers the tests start too (they share the group).
Prints one line per run and, at the end, each failing test with its count; exits 1 if any
run failed.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


def run_once(tests: list[str], *, stutter: float, gap: float, rng: random.Random
             ) -> tuple[int, str, int]:
    """One pytest run; (exit status, its output, how many times it was frozen)."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1")}
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-rfE", *tests], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    stops = 0
    try:
        while stutter > 0 and proc.poll() is None:
            time.sleep(rng.uniform(0.02, gap))
            try:
                os.killpg(proc.pid, signal.SIGSTOP)
                time.sleep(rng.uniform(0.02, stutter))
            finally:
                os.killpg(proc.pid, signal.SIGCONT)
            stops += 1
        out, _ = proc.communicate()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGCONT)
            proc.kill()
            proc.wait()
    return proc.returncode, out, stops


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="+", help="pytest node ids or paths")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--stutter", type=float, default=0.0,
                        help="freeze the run for up to this many seconds at a time (0: never)")
    parser.add_argument("--gap", type=float, default=0.6,
                        help="at most this many seconds between two freezes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    failures: collections.Counter[str] = collections.Counter()
    for index in range(1, args.runs + 1):
        status, out, stops = run_once(args.tests, stutter=args.stutter, gap=args.gap, rng=rng)
        tail = out.strip().splitlines()[-1] if out.strip() else "(no output)"
        print(f"run {index}: exit {status}, {stops} freezes: {tail}", flush=True)
        for test in _FAILED.findall(out):
            failures[test] += 1
            print(f"  failed: {test}", flush=True)
    for test, count in failures.most_common():
        print(f"{count}/{args.runs} {test}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
