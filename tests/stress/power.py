"""Power cuts: play through a real ``companion serve``, SIGKILL it at random moments,
restart on the same data folder and compare with a model of what was acknowledged.

The model is an in-process :class:`Session` on its own folder that performs exactly the
requests the server acknowledged, in order. After a restart the server must report the
model's durable state, version included. A request that was in flight when the process
died may or may not have been committed (the client never heard back); if the version
says it was, it must be exactly that request's effect.
"""

from __future__ import annotations

import http.client
import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import ActionError
from companion.journal import Journal
from companion.session import Session
from tests.stress.harness import ServeProcess, apply_to_model, durable, next_request


@dataclass
class PowerCutReport:
    """What a run of kill/restart cycles saw."""

    cycles: int = 0
    acknowledged: int = 0  # 2xx answers received
    refused: int = 0  # 4xx answers received (the state must not have changed)
    in_flight_committed: int = 0  # unanswered requests that turned out to be on disk
    in_flight_lost: int = 0  # unanswered requests that were not (allowed: never acknowledged)
    mismatches: list[str] = field(default_factory=list)
    restart_seconds: list[float] = field(default_factory=list)


class PowerCuts:
    """Runs kill/restart cycles on ``data_dir``; the model lives in ``model_dir``."""

    def __init__(self, data_dir: Path, model_dir: Path, *, seed: int = 0) -> None:
        self.data_dir = data_dir
        self.rng = random.Random(seed)
        self.model = Session(Journal(model_dir), clock=lambda: 0.0)
        self.pending: tuple[str, Any] | None = None
        self.report = PowerCutReport()

    def close(self) -> None:
        """Close the model's journal (``contextlib.closing`` calls this)."""
        self.model.journal.close()

    def cycle(self) -> None:
        """Start the server, check what survived, play a burst, kill it at a random moment."""
        server = ServeProcess(self.data_dir)
        try:
            self.report.restart_seconds.append(server.announced - server.started)
            client = server.client()
            status, state = client.call("GET", "/api/state")
            assert status == 200, state
            self._reconcile(state)
            self._burst(server, client)
        finally:
            server.kill()
        self.report.cycles += 1

    def _reconcile(self, state: dict[str, Any]) -> None:
        """Compare the restarted server with the model, settling the in-flight request."""
        expected = self.model.state()["version"]
        if self.pending is not None:
            path, body = self.pending
            self.pending = None
            if state["version"] == expected + 1:
                apply_to_model(self.model, path, body)
                self.report.in_flight_committed += 1
            else:
                self.report.in_flight_lost += 1
        if durable(state) != durable(self.model.state()):
            self.report.mismatches.append(
                f"cycle {self.report.cycles}: server {durable(state)} != model "
                f"{durable(self.model.state())}")
            # carry on from what the server has, so one mismatch is not counted forever
            raise AssertionError(self.report.mismatches[-1])

    def _burst(self, server: ServeProcess, client: Any) -> None:
        """Send requests back to back; the process is killed during the burst."""
        count = self.rng.randint(1, 30)
        mode = self.rng.choice(["timer", "after-send", "after-answer"])
        kill_at = self.rng.randrange(count)
        timer = None
        if mode == "timer":  # a random moment: mid-parse, mid-commit, mid-answer ...
            # Only the signal: the process is reaped (and the client closed) on this
            # thread, never under the request the client may be writing or reading.
            timer = threading.Timer(self.rng.uniform(0.0, 0.03 * count), server.proc.kill)
            timer.start()
        try:
            for index in range(count):
                label, path, body = next_request(self.model.state(), self.rng)
                self.pending = (path, body)
                try:
                    client.send("POST", path, body)
                    if mode == "after-send" and index == kill_at:
                        server.proc.kill()  # the request is written; the answer never read
                        return
                    status, answer, _ = client.receive()
                except (OSError, ValueError, http.client.HTTPException):
                    return  # killed meanwhile: the request stays pending
                self.pending = None
                self._acknowledged(label, path, body, status, answer)
                if mode == "after-answer" and index == kill_at:
                    return
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()
            client.close()

    def _acknowledged(self, label: str, path: str, body: Any, status: int,
                      answer: Any) -> None:
        """Bring the model along with an answer the client received."""
        before = self.model.state()
        if status < 400:
            apply_to_model(self.model, path, body)
            self.report.acknowledged += 1
            assert durable(answer) == durable(self.model.state()), (label, answer)
            return
        assert status in (400, 409) and answer["error"], (label, status, answer)
        self.report.refused += 1
        try:
            apply_to_model(self.model, path, body)
        except ActionError:
            assert self.model.state() == before
            return
        raise AssertionError(f"the server refused {label} {body} ({answer}) but the model took it")

