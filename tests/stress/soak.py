"""Long runs: the camera loop over the replay camera, accelerated, and ``companion serve``
start-up and idle memory.

The soak drives the real pieces ``companion serve`` wires (``CaptureThread`` over a
``ReplayCamera``, ``Recognizer`` with an auto-applying ``DiceLink``, a ``Session`` on a
journal) one step at a time on a simulated clock of 0.1 s per frame, the recognizer's
own pace, so 30 minutes of table time is 18,000 frames with no waiting.
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.stress.harness import ROOT, ServeProcess, rss_kb

DEMO_FRAMES = ROOT / "companion" / "demo" / "frames"
FRAME_SECONDS = 0.1  # the recognizer looks 10 times a second


@dataclass
class SoakReport:
    """What the accelerated camera loop cost and did."""

    frames: int
    cpu_ms_per_frame: float
    rss_start_kb: int
    rss_end_kb: int
    peak_rss_kb: int
    versions: int  # changes the camera made to the table (auto-applied rolls, new games)

    def summary(self) -> str:
        minutes = self.frames * FRAME_SECONDS / 60
        return (f"{self.frames} frames ({minutes:.0f} min of table time): "
                f"{self.cpu_ms_per_frame:.1f} ms CPU per frame (capture + recognition), "
                f"RSS {self.rss_start_kb / 1024:.1f} -> {self.rss_end_kb / 1024:.1f} MB "
                f"(peak {self.peak_rss_kb / 1024:.1f}), {self.versions} table changes")


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run_soak(frames: int, data_dir: Path, *, frames_dir: Path = DEMO_FRAMES,
             warmup: int = 20, hold_fps: float = 1.0) -> SoakReport:
    """Run the capture + recognition loop over ``frames`` replayed frames.

    The replay shows each recorded image for ``1 / hold_fps`` simulated seconds (dice lie
    still between throws), so the settler can decide and the link apply rolls.
    """
    from companion.camera_link import DiceLink
    from companion.journal import Journal
    from companion.recognition import Recognizer
    from companion.session import Session
    from hardware.capture import CaptureThread
    from hardware.replay import ReplayCamera

    clock = _Clock()
    session = Session(Journal(data_dir))
    session.start("toss-up", ["Ann", "Ben", "Cleo"])
    camera = ReplayCamera(frames_dir, fps=hold_fps, clock=clock, loop=True,
                          log=lambda line: None)
    capture = CaptureThread(lambda: camera, clock=clock, log=lambda line: None)
    recognizer = Recognizer(capture.latest, session, clock=clock, interval=FRAME_SECONDS,
                            link=DiceLink(session, auto=True))
    try:
        for index in range(warmup + frames):
            if index == warmup:
                rss_start, cpu_start = rss_kb_self(), time.process_time()
                version_start = session.state()["version"]
            capture.step()
            recognizer.step()
            clock.now += FRAME_SECONDS
            _host_moves(session)
        cpu = time.process_time() - cpu_start
        return SoakReport(frames=frames, cpu_ms_per_frame=cpu / frames * 1000,
                          rss_start_kb=rss_start, rss_end_kb=rss_kb_self(),
                          peak_rss_kb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                          versions=session.state()["version"] - version_start)
    finally:
        capture.stop()
        camera.close()
        session.journal.close()


def _host_moves(session: Any) -> None:
    """What the host does between camera rolls: bank (the recorded throws are all of
    ten dice), or start the next game when one ends."""
    from companion.errors import ActionError

    state = session.state()
    if state["over"]:
        session.start("toss-up", ["Ann", "Ben", "Cleo"])
    elif state["turn"]["dice_in_hand"] != 10:
        try:
            session.act({"type": "bank"})
        except ActionError:
            pass


def rss_kb_self() -> int:
    import os

    return rss_kb(os.getpid())


@dataclass
class StartReport:
    """``companion serve`` from launch to its first page, and its memory.

    The times are wall clock (what a player waits on an idle machine); ``cpu_to_first_page_s``
    is the CPU the process used until then, which a busy machine does not inflate.
    """

    to_listening_s: float
    to_first_page_s: float
    rss_first_page_kb: int
    cpu_to_first_page_s: float = 0.0
    rss_idle_kb: int = 0
    idle_cpu_percent: float = 0.0


def measure_start(data_dir: Path, *, camera: str) -> tuple[ServeProcess, StartReport]:
    """Launch ``companion serve`` and fetch ``/``; the process is left running."""
    server = ServeProcess(data_dir, camera=camera)
    client = server.client()
    status, _ = client.call("GET", "/")
    first_page = time.perf_counter()
    assert status == 200
    return server, StartReport(to_listening_s=server.announced - server.started,
                               to_first_page_s=first_page - server.started,
                               rss_first_page_kb=server.rss_kb(),
                               cpu_to_first_page_s=server.cpu_seconds())
