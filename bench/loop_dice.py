"""The dice camera loop over replayed rolls: CPU per second, latency, decisions.

    .venv/bin/python bench/loop_dice.py [--rolls 12] [--cache FILE.npy] [--against DIR]
        [--settler W,A,F,S[,Q]]

Replays rendered rolls (``tests/support/rolls.py``: the empty table, an arm throwing,
the dice tumbling and sliding to rest, 3 s still, an arm picking them up) through
``companion.recognition.Recognizer.step`` as the camera loop runs it, 10 steps to a
second of table time (a fake clock), one core (OpenCV limited to one thread), CPU time
per step via ``time.process_time``. Prints JSON: CPU per second of table time, overall
and per phase; dice reads; for each roll the decision (settled counts or unsure), the
frames and CPU ms from the first still frame to it, and the wall time that would take on
a Pi 4 (CPU x5, 0.1 s between frames).

``--against DIR`` (repeatable) runs the same rolls again in a child process with DIR
first on the path (DIR holding another ``companion`` and ``vision``, e.g. main's: ``git
-C /work/main archive main companion vision | tar -x -C DIR``) and prints each beside
this checkout's, with whether the decisions (and the frames they came at) are the same.
``--settler`` tries other settler parameters in this checkout (window, agree,
still_frames, still_seconds and optionally quick; no quick vote when left out).
``--cache FILE.npy`` keeps the rendered rolls for the next run (rendered when missing).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONDITIONS = ("plain", "felt", "wood-light", "laminate", "warm", "dim", "clusters",
              "mark-style")
PI = 5.0  # a Pi 4 core against this machine's (4-6x)
STEP = 0.1  # seconds between loop steps (Recognizer.interval)


class _Session:
    """The little of a session the loop uses: a Toss Up! game, extras dropped."""

    game = None

    def state(self) -> dict[str, Any]:
        return {"game": "toss-up"}

    def set_extra(self, key: str, value: Any) -> None:
        pass


class _Link:
    """Records each decision with the step it came at."""

    def __init__(self) -> None:
        self.made: list[tuple[int, Any]] = []
        self.step = 0

    def on_reading(self, reading: Any) -> None:
        self.made.append((self.step, None if reading is None else list(reading.counts())))


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def render(n_rolls: int, cache: Path) -> None:
    """Render the rolls once into `cache` (an .npy stack of frames and a .json beside it)."""
    import numpy as np

    sys.path.append(str(ROOT))  # tests.support; after any checkout put first on the path
    from tests.support.rolls import render_roll

    rolls = [render_roll(seed, condition=CONDITIONS[seed % len(CONDITIONS)])
             for seed in range(1, n_rolls + 1)]
    np.save(cache, np.stack([f for r in rolls for f in r.frames]))
    meta = [{"frames": len(r.frames), "first_still": r.first_still, "picked_up": r.picked_up,
             "label": [r.label[c] for c in ("green", "yellow", "red", "other")]} for r in rolls]
    cache.with_suffix(".json").write_text(json.dumps(meta))


def run(cache: Path, settler: str | None = None) -> dict[str, Any]:
    """Replay the cached rolls through this path's Recognizer; the figures as a dict."""
    import cv2
    import numpy as np

    import companion.recognition as recognition

    cv2.setNumThreads(1)
    stack = np.load(cache, mmap_mode="r")
    meta = json.loads(cache.with_suffix(".json").read_text())
    reads: list[int] = []
    real_read = recognition.read_dice

    def counted(frame: Any, **kwargs: Any) -> Any:
        reads.append(link.step)
        return real_read(frame, **kwargs)

    recognition.read_dice = counted  # type: ignore[assignment]
    starts = [sum(m["frames"] for m in meta[:k]) for k in range(len(meta))]
    current: list[Any] = [None]
    clock, link = _Clock(), _Link()
    loop = recognition.Recognizer(lambda: current[0], _Session(),  # type: ignore[arg-type]
                                  link=link, clock=clock)  # type: ignore[arg-type]
    if settler:
        from vision.settle import DiceSettler

        w, a, f, sec, *q = settler.split(",")
        quick = int(q[0]) if q and q[0] != "none" else None
        loop.settler = DiceSettler(window=int(w), agree=int(a), still_frames=int(f),
                                   still_seconds=float(sec), quick=quick, clock=clock)
    cpu = []
    for i in range(len(stack)):
        current[0], link.step = np.array(stack[i]), i  # a frame of its own, as a camera gives
        started = time.process_time()
        loop.step()
        cpu.append(time.process_time() - started)
        clock.now += STEP
    return {"code": str(Path(recognition.__file__).parents[1]), "steps": len(stack),
            "cpu": cpu, "reads": reads, "decisions": link.made,
            "rolls": [{"start": s, "first_still": s + m["first_still"],
                       "picked_up": s + m["picked_up"], "end": s + m["frames"],
                       "condition": CONDITIONS[k % len(CONDITIONS)], "label": m["label"]}
                      for k, (s, m) in enumerate(zip(starts, meta), start=1)]}


def summary(raw: dict[str, Any]) -> dict[str, Any]:
    """CPU per second of table time, per phase, and each roll's decision and latency."""
    cpu, decided = raw["cpu"], dict(raw["decisions"])
    phases: dict[str, list[float]] = {"moving": [], "still, undecided": [], "still, decided": []}
    rolls = []
    for roll in raw["rolls"]:
        made = [(i, d) for i, d in raw["decisions"] if roll["first_still"] <= i < roll["end"]]
        early = [(i, d) for i, d in raw["decisions"] if roll["start"] <= i < roll["first_still"]]
        at = made[0][0] if made else roll["picked_up"]
        for i in range(roll["start"], roll["end"]):
            phase = ("moving" if i < roll["first_still"] or i >= roll["picked_up"]
                     else "still, undecided" if i <= at else "still, decided")
            phases[phase].append(cpu[i])
        ms = 1000 * sum(cpu[roll["first_still"]:at + 1])
        rolls.append({
            "condition": roll["condition"], "label": roll["label"],
            "decided": made[0][1] if made else "none",
            "before still": [d for _, d in early],
            "frames": at - roll["first_still"] + 1, "cpu_ms": round(ms, 1),
            "pi_s": round((at - roll["first_still"]) * STEP + PI * cpu[at], 2)})
    seconds = raw["steps"] * STEP
    outcome = {"right": 0, "wrong": 0, "unsure": 0, "none": 0, "decided while moving": 0}
    for roll in rolls:
        made = roll["decided"]
        outcome["decided while moving"] += len(roll["before still"])
        outcome["none" if made == "none" else "unsure" if made is None
                else "right" if made == roll["label"] else "wrong"] += 1
    return {
        "code": raw["code"], "steps": raw["steps"], "reads": len(raw["reads"]),
        "cpu_ms_per_s": round(1000 * sum(cpu) / seconds, 1),
        "cpu_ms_per_step_median": round(1000 * statistics.median(cpu), 2),
        "phases_ms_per_s": {k: round(1000 * sum(v) / (len(v) * STEP), 1) if v else 0
                            for k, v in phases.items()},
        "phase_steps": {k: len(v) for k, v in phases.items()},
        "decisions": len(decided), "outcome": outcome, "rolls": rolls}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=12)
    ap.add_argument("--against", type=Path, action="append", default=[],
                    help="another checkout's companion and vision (may be repeated)")
    ap.add_argument("--settler", help="window,agree,still_frames,still_seconds[,quick] "
                    "(this checkout; quick none when left out)")
    ap.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cache", type=Path, help="where the rendered rolls are kept (.npy); "
                    "rendered when missing (default: a temporary file)")
    args = ap.parse_args(argv)
    if args.raw:
        print(json.dumps(run(args.cache, args.settler)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp) / "rolls.npy"
        if not cache.exists():
            render(args.rolls, cache)
        print(json.dumps(_compare(cache, args.against, args.settler), indent=1))
    return 0


def _compare(cache: Path, against: list[Path], settler: str | None) -> dict[str, Any]:
    """This checkout's figures, and each other checkout's beside them."""
    this = _child(ROOT, cache, settler)
    report: dict[str, Any] = {"this": summary(this)}
    for other_code in against:
        other = _child(other_code.resolve(), cache)
        report[str(other_code)] = {
            **summary(other),
            "same decisions as this": [d for _, d in this["decisions"]]
            == [d for _, d in other["decisions"]],
            "same decision frames as this": this["decisions"] == other["decisions"]}
    report["load"] = os.getloadavg()
    return report


def _child(code: Path, cache: Path, settler: str | None = None) -> dict[str, Any]:
    """Run the rolls in a child interpreter with `code` first on the path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), str(ROOT)])}
    extra = ["--settler", settler] if settler else []
    out = subprocess.run([sys.executable, __file__, "--raw", "--cache", str(cache), *extra],
                         env=env, check=True, capture_output=True, text=True).stdout
    raw: dict[str, Any] = json.loads(out)
    return raw


if __name__ == "__main__":
    sys.exit(main())
