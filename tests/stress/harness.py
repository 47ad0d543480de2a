"""Shared by the stress tests and ``bench/bench_stress.py``: a real ``companion serve``
child process on 127.0.0.1, a small keep-alive HTTP client, and a model of the table.

Only loopback addresses are used. Nothing here sleeps to wait for a condition: the
child's readiness is its announcement line, read with a deadline.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PIN = "2468"
_ANNOUNCE = re.compile(rb"Scoreboard \(phones\): http://127\.0\.0\.1:(\d+)/")


class ServeProcess:
    """``companion serve`` in a child process; ``port`` is known once it has announced itself."""

    def __init__(self, data_dir: Path, *, camera: str = "none", pin: str = PIN,
                 env: dict[str, str] | None = None, timeout: float = 60.0,
                 probe: bool = False, trace_frames: int = 0) -> None:
        self.data_dir = Path(data_dir)
        self.log_path = self.data_dir.with_name(self.data_dir.name + "-serve.log")
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        self.started = time.perf_counter()
        self._log = open(self.log_path, "ab")
        module = "tests.stress.memprobe" if probe else "companion.cli"
        command = [sys.executable, "-m", module, "serve", "--host", "127.0.0.1",
                   "--port", "0", "--camera", camera, "--data-dir", str(self.data_dir),
                   "--pin", pin]
        env = {**os.environ, **(env or {})}
        self._probe: tuple[Any, int] | None = None
        child_fds: tuple[int, ...] = ()
        if probe:  # two pipes: commands to the child's probe thread, JSON lines back
            to_child, from_child = os.pipe(), os.pipe()
            child_fds = (to_child[0], from_child[1])
            env["COMPANION_MEMPROBE_FDS"] = f"{to_child[0]},{from_child[1]}"
            env["COMPANION_MEMPROBE_FRAMES"] = str(trace_frames)
            self._probe = (os.fdopen(to_child[1], "w"), from_child[0])
        self.proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=self._log, env=env, pass_fds=child_fds)
        for fd in child_fds:
            os.close(fd)
        self._clients: list[Client] = []
        self.port = self._wait_for_port(timeout)
        self.announced = time.perf_counter()

    def _wait_for_port(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        out = b""
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline - time.monotonic())
            if not ready:
                break
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            if not chunk:
                break
            out += chunk
            found = _ANNOUNCE.search(out)
            if found:
                return int(found.group(1))
        self.kill()
        raise RuntimeError(f"companion serve did not start: {out!r} {self.log()[-2000:]}")

    def client(self, pin: str | None = PIN, timeout: float = 10.0) -> "Client":
        """A keep-alive client; closed with the process."""
        client = Client(self.port, pin=pin, timeout=timeout)
        self._clients.append(client)
        return client

    def rss_kb(self) -> int:
        """Resident memory of the child, in KiB (from /proc)."""
        return rss_kb(self.proc.pid)

    @property
    def probing(self) -> bool:
        """True when started with ``probe=True`` (see :meth:`probe`)."""
        return self._probe is not None

    def probe(self, command: str = "report", timeout: float = 120.0) -> dict[str, Any]:
        """Ask the child's memory probe (``probe=True``): ``mark`` or ``report`` (memprobe)."""
        if self._probe is None:
            raise RuntimeError("this server was started without probe=True")
        ask, answers = self._probe
        ask.write(command + "\n")
        ask.flush()
        line = b""
        deadline = time.monotonic() + timeout
        while not line.endswith(b"\n"):
            ready, _, _ = select.select([answers], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(answers, 65536) if ready else b""
            if not chunk:
                raise RuntimeError(f"the memory probe did not answer {command!r}")
            line += chunk
        return json.loads(line)

    def cpu_seconds(self) -> float:
        """User + system CPU time of the child so far (from /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def log(self) -> str:
        """What the child wrote to stderr (its log lines) so far."""
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, like a power cut (for the process)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self._reap()

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM, as systemd stops the service; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        finally:
            self._reap()

    def _reap(self) -> None:
        for client in self._clients:
            client.close()
        if self._probe is not None:
            self._probe[0].close()
            os.close(self._probe[1])
            self._probe = None
        try:
            self.proc.wait(15)
        finally:
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self._log.close()

    def __enter__(self) -> "ServeProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.kill()


def rss_kb(pid: int) -> int:
    """VmRSS of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


class Client:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1 that speaks the JSON API."""

    def __init__(self, port: int, *, pin: str | None = PIN, timeout: float = 10.0) -> None:
        self.port, self.pin, self.timeout = port, pin, timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def send(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> None:
        """Write one request without reading the answer (see :meth:`receive`)."""
        sent = {"Content-Type": "application/json"}
        if self.pin is not None:
            sent["Authorization"] = f"Bearer {self.pin}"
        sent.update(headers or {})
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        self.conn.request(method, path, body=data, headers=sent)

    def receive(self) -> tuple[int, Any, http.client.HTTPResponse]:
        """(status, parsed JSON or text, response) of the request sent last."""
        response = self.conn.getresponse()
        text = response.read().decode("utf-8", errors="replace")
        is_json = (response.getheader("Content-Type") or "").startswith("application/json")
        return response.status, json.loads(text) if is_json else text, response

    def call(self, method: str, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        self.send(method, path, body, **kw)
        status, data, _ = self.receive()
        return status, data

    def close(self) -> None:
        self.conn.close()


# -- the model: what the table must hold after a restart ----------------------------------

def durable(state: dict[str, Any]) -> dict[str, Any]:
    """The journaled part of a state: no events, clock, live extras or action timestamps."""
    kept = {k: v for k, v in state.items()
            if k not in ("events", "now", "camera", "dice", "cards", "seen", "offer")}
    kept["recent"] = [{k: v for k, v in a.items() if k != "at"} for a in state.get("recent", [])]
    return kept


def next_request(state: dict[str, Any], rng: Any) -> tuple[str, str, Any]:
    """A plausible host request for ``state``: (label, path, body); some are refused."""
    if state.get("game") is None or state.get("over"):
        players = ["Ann", "Ben", "Cleo"][: rng.randint(2, 3)]
        return "start", "/api/games", {"game": "toss-up", "players": players,
                                       "options": {"target": rng.choice([10, 20, 30])}}
    pick = rng.random()
    if pick < 0.08:
        return "undo", "/api/undo", None
    if pick < 0.25:
        return "bank", "/api/actions", {"type": "bank"}
    if pick < 0.28:  # a refused roll: one die too many
        hand = state["turn"]["dice_in_hand"] + 1
        return "bad-roll", "/api/actions", {"type": "roll", "green": hand, "yellow": 0, "red": 0}
    hand = state["turn"]["dice_in_hand"]
    green = rng.randint(0, hand)
    red = rng.randint(0, min(2, hand - green))
    return "roll", "/api/actions", {"type": "roll", "green": green, "yellow": hand - green - red,
                                    "red": red}


def apply_to_model(session: Any, path: str, body: Any) -> None:
    """Do what the server was asked on the in-process model session; refusals raise."""
    if path == "/api/games":
        session.start(body["game"], body["players"], body.get("options"))
    elif path == "/api/undo":
        session.undo()
    else:
        session.act(body)
