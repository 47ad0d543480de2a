"""The long versions of the stress proofs (issue 9), with figures for docs/benchmarks.md.

Usage (from the repository root; everything runs on 127.0.0.1)::

    .venv/bin/python bench/bench_stress.py power --cycles 100
    .venv/bin/python bench/bench_stress.py fuzz --examples 5000
    .venv/bin/python bench/bench_stress.py load --clients 30 --rate 10 --seconds 60
    .venv/bin/python bench/bench_stress.py soak --frames 18000
    .venv/bin/python bench/bench_stress.py start --idle 30
    .venv/bin/python bench/bench_stress.py all

Each prints one summary line per proof and exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.stress.harness import ServeProcess  # noqa: E402


def power(args: argparse.Namespace, folder: Path) -> bool:
    from tests.stress.power import PowerCuts

    with contextlib.closing(PowerCuts(folder / "data", folder / "model", seed=args.seed)) as cuts:
        started = time.perf_counter()
        for _ in range(args.cycles):
            cuts.cycle()
        with ServeProcess(folder / "data") as server:  # the last kill is checked too
            cuts._reconcile(server.client().call("GET", "/api/state")[1])
    r = cuts.report
    restart = sorted(r.restart_seconds)
    print(f"power: {r.cycles} SIGKILL/restart cycles in {time.perf_counter() - started:.0f} s; "
          f"{r.acknowledged} acknowledged changes, {r.refused} refusals, in flight at the kill: "
          f"{r.in_flight_committed} committed + {r.in_flight_lost} not; lost acknowledged: "
          f"{len(r.mismatches)}; damaged journals: {len(list((folder / 'data').glob('*.damaged-*')))};"
          f" restart to listening median {restart[len(restart) // 2]:.2f} s, "
          f"max {restart[-1]:.2f} s")
    return not r.mismatches


def fuzz(args: argparse.Namespace, folder: Path) -> bool:
    from tests.stress.fuzz import run_fuzz

    with ServeProcess(folder / "data") as server:
        started = time.perf_counter()
        report = run_fuzz(f"http://127.0.0.1:{server.port}", args.examples, seed=args.seed)
        errors = "Traceback" in server.log()
    fives = sum(n for status, n in report.by_status.items() if status >= 500)
    print(f"fuzz: {report.requests} schemathesis requests in {time.perf_counter() - started:.0f} s;"
          f" statuses {dict(sorted(report.by_status.items()))}; 5xx: {fives}; broken rules: "
          f"{len(report.problems)}; tracebacks in the server log: {errors}")
    for problem in report.problems[:10]:
        print("  ", problem)
    return fives == 0 and not report.problems and not errors


def load(args: argparse.Namespace, folder: Path) -> bool:
    from tests.stress.load import run_load

    env = dict(item.split("=", 1) for item in args.env)  # checked in main()
    with ServeProcess(folder / "data", probe=True, trace_frames=args.trace, env=env) as server:
        report = run_load(server, clients=args.clients, rate=args.rate, seconds=args.seconds,
                          seed=args.seed, warmup=args.warmup, samples=args.samples)
    problems = report.problems()
    print(f"load: {report.summary()}; clients with a gap or disorder: {len(problems)}")
    print(f"load memory: {report.memory_summary()}")
    for sample in report.samples:
        print(f"  after {sample['actions']:6d} actions: RSS {sample['rss_kb'] / 1024:6.1f} MB, "
              f"anon {sample['rss_anon_kb'] / 1024:6.1f}, malloc used "
              f"{sample['malloc_used_kb'] / 1024:5.1f} free {sample['malloc_free_kb'] / 1024:5.1f}"
              f" mmap {sample['malloc_mmap_kb'] / 1024:4.1f}, SQLite {sample['sqlite_kb']} KB, "
              f"blocks {sample['blocks']}, objects {sample['objects']}"
              + (f", traced {sample['traced_kb'] / 1024:.2f} MB" if 'traced_kb' in sample else ""))
    for line in report.final.get("object_growth", []):
        print(f"  objects grown: {line}")
    for line in report.final.get("traced_top", []):
        print(f"  traced: {line}")
    return not problems and report.percentile(0.99) < 100


def soak(args: argparse.Namespace, folder: Path) -> bool:
    from tests.stress.soak import run_soak

    report = run_soak(args.frames, folder / "soak")
    print(f"soak: {report.summary()}")
    return report.rss_end_kb - report.rss_start_kb < 10 * 1024


def start(args: argparse.Namespace, folder: Path) -> bool:
    from tests.stress.soak import DEMO_FRAMES, measure_start

    ok = True
    for camera in ("none", f"replay:{DEMO_FRAMES}"):
        server, report = measure_start(folder / f"start-{len(camera)}", camera=camera)
        try:
            cpu0 = server.cpu_seconds()
            threading.Event().wait(args.idle)  # idle: nobody connected
            idle_cpu = (server.cpu_seconds() - cpu0) / args.idle * 100
            idle = server.rss_kb()
        finally:
            server.kill()
        name = "replay camera (demo)" if camera != "none" else "no camera"
        print(f"start ({name}): launch to listening {report.to_listening_s:.2f} s, to first "
              f"page {report.to_first_page_s:.2f} s; RSS at first page "
              f"{report.rss_first_page_kb / 1024:.1f} MB, after {args.idle:g} s idle "
              f"{idle / 1024:.1f} MB; idle CPU {idle_cpu:.1f}% of one core")
        ok = ok and report.to_first_page_s < 3 and idle < 150 * 1024
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("proof", choices=["power", "fuzz", "load", "soak", "start", "all"])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--examples", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=0.1,
                        help="load: fraction of the actions before the heap is marked")
    parser.add_argument("--samples", type=int, default=10,
                        help="load: memory samples taken over the run")
    parser.add_argument("--trace", type=int, default=0, metavar="FRAMES",
                        help="load: run tracemalloc in the server with this many frames")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="load: an environment variable for the server, e.g. "
                             "MALLOC_ARENA_MAX=2 or GLIBC_TUNABLES=glibc.malloc.tcache_count=0")
    parser.add_argument("--frames", type=int, default=18_000)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=random.randrange(10**6))
    args = parser.parse_args()
    for item in args.env:
        if "=" not in item[1:]:
            parser.error(f"--env wants NAME=VALUE, not {item!r}")
    print(f"seed {args.seed}")
    proofs = {"power": power, "fuzz": fuzz, "load": load, "soak": soak, "start": start}
    chosen = list(proofs) if args.proof == "all" else [args.proof]
    ok = True
    with tempfile.TemporaryDirectory(prefix="companion-stress-") as tmp:
        for name in chosen:
            ok = proofs[name](args, Path(tmp) / name) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
