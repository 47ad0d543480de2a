"""Load: many phones hold the event stream while the host acts at a steady rate.

Each phone is a thread reading ``GET /api/events`` on its own socket and noting when each
``event: state`` arrived (``time.perf_counter``, same clock for everyone in this
process). The host posts actions at ``rate`` per second on a keep-alive connection and
notes when each acknowledgement arrived. Latency = a phone's receipt - the host's
acknowledgement of the same version (negative when the stream beat the answer).
"""

from __future__ import annotations

import json
import random
import socket
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from companion.session import KEPT_STATES
from tests.stress.harness import ServeProcess

SETTLE = KEPT_STATES + 8  # actions of a fresh game, always the same, before a heap probe


@dataclass
class LoadReport:
    """What the phones saw, and the server's memory around the run."""

    clients: int
    actions: int
    seconds: float
    acked: dict[int, float] = field(default_factory=dict)  # version -> ack time
    seen: list[list[tuple[int, float]]] = field(default_factory=list)  # per client
    rss_start_kb: int = 0
    rss_end_kb: int = 0
    rss_samples_kb: list[int] = field(default_factory=list)  # ``samples`` over the run
    server_cpu_s: float = 0.0
    # With a probing server: its figures (memprobe) at the mark after the warm-up, at
    # each RSS sample and at the end (with the biggest growths since the mark).
    warmup: int = 0
    marked: dict[str, Any] = field(default_factory=dict)
    samples: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)

    def heap_growth(self) -> dict[str, float]:
        """Python heap growth from the mark to the end, in all and per measured action:
        pymalloc blocks, objects the GC tracks and (with tracemalloc) traced bytes."""
        measured = max(1, self.actions - self.warmup)
        out: dict[str, float] = {"actions": measured, "blocks": self.final["blocks_growth"],
                                 "objects": self.final["objects"] - self.marked["objects"]}
        if "traced_diff_bytes" in self.final:
            out["traced_bytes"] = self.final["traced_diff_bytes"]
        for key in ("blocks", "objects", "traced_bytes"):
            if key in out:
                out[f"{key}_per_action"] = out[key] / measured
        return out

    def latencies_ms(self) -> list[float]:
        return [(at - self.acked[v]) * 1000 for client in self.seen for v, at in client
                if v in self.acked]

    def percentile(self, q: float) -> float:
        values = sorted(self.latencies_ms())
        return values[min(len(values) - 1, int(q * len(values)))]

    def problems(self) -> list[str]:
        """Clients that missed a version, saw one twice or out of order, or saw nothing."""
        wanted = sorted(self.acked)
        out = []
        for index, client in enumerate(self.seen):
            versions = [v for v, _ in client if wanted[0] <= v <= wanted[-1]]
            if versions != wanted:
                missing = sorted(set(wanted) - set(versions))
                out.append(f"client {index}: {len(versions)} of {len(wanted)} versions, "
                           f"missing {missing[:5]}, in order {versions == sorted(versions)}")
        return out

    def summary(self) -> str:
        lat = self.latencies_ms()
        return (f"{self.clients} clients, {self.actions} actions in {self.seconds:.1f} s, "
                f"{len(lat)} receipts; latency median {statistics.median(lat):.1f} ms, "
                f"p99 {self.percentile(0.99):.1f} ms, max {max(lat):.1f} ms; server RSS "
                f"{self.rss_start_kb / 1024:.1f} -> {self.rss_end_kb / 1024:.1f} MB (every "
                f"{100 // max(1, len(self.rss_samples_kb))}%: "
                f"{' '.join(f'{kb / 1024:.1f}' for kb in self.rss_samples_kb)}); "
                f"server CPU {self.server_cpu_s:.1f} s")

    def memory_summary(self) -> str:
        """The probe's figures: RSS split, malloc, SQLite and Python heap growth."""
        if not (self.final and self.marked):
            return "no memory probe"
        a, b, heap = self.marked, self.final, self.heap_growth()
        text = (f"mark after {self.warmup} actions -> end ({heap['actions']} more): RSS "
                f"{a['rss_kb'] / 1024:.1f} -> {b['rss_kb'] / 1024:.1f} MB (anon "
                f"{a['rss_anon_kb'] / 1024:.1f} -> {b['rss_anon_kb'] / 1024:.1f}); malloc in use "
                f"{a['malloc_used_kb'] / 1024:.1f} -> {b['malloc_used_kb'] / 1024:.1f} MB, free "
                f"kept {a['malloc_free_kb'] / 1024:.1f} -> {b['malloc_free_kb'] / 1024:.1f} MB "
                f"in {b['malloc_arenas']} arenas; SQLite {a.get('sqlite_kb', 0)} -> "
                f"{b.get('sqlite_kb', 0)} KB; Python heap: {heap['blocks']:+d} pymalloc blocks "
                f"({heap['blocks_per_action']:+.2f} per action), {heap['objects']:+d} objects")
        if "traced_bytes" in heap:
            text += (f"; tracemalloc {a['traced_kb'] / 1024:.2f} -> {b['traced_kb'] / 1024:.2f} "
                     f"MB, snapshot diff {heap['traced_bytes'] / 1024:+.1f} KB "
                     f"({heap['traced_bytes_per_action']:+.1f} B per action)")
        return text


class _Phone(threading.Thread):
    """One SSE client: records (version, receipt time) of every state message."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.seen: list[tuple[int, float]] = []
        self.want = 0
        self._news = threading.Condition()
        self.done = threading.Event()
        self.connected = threading.Event()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Accept: text/event-stream\r\n\r\n")

    def run(self) -> None:
        reader = self.sock.makefile("rb")
        try:
            kind = None
            for raw in reader:
                line = raw.rstrip(b"\r\n")
                if line.startswith(b"retry:"):
                    self.connected.set()
                elif line.startswith(b"event: "):
                    kind = line[7:]
                elif line.startswith(b"data: ") and kind == b"state":
                    version = json.loads(line[6:])["version"]
                    with self._news:
                        self.seen.append((version, time.perf_counter()))
                        self._news.notify_all()
                    if self.want and version >= self.want:
                        break
        except (OSError, ValueError):  # ValueError: the last line, cut short by a hang-up
            pass
        finally:
            reader.close()
            self.connected.set()
            self.done.set()
            with self._news:
                self._news.notify_all()

    def caught_up(self, version: int, timeout: float = 10.0) -> bool:
        """Wait until this phone has seen ``version`` (False if it stopped or timed out)."""
        with self._news:
            return self._news.wait_for(lambda: (self.seen and self.seen[-1][0] >= version)
                                       or self.done.is_set(), timeout) and not self.done.is_set()

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def run_load(server: ServeProcess, *, clients: int = 30, rate: float = 10.0,
             seconds: float = 10.0, seed: int = 0, stalled: int = 0,
             warmup: float = 0.1, samples: int = 10) -> LoadReport:
    """Hold ``clients`` streams while posting ``rate`` actions a second for ``seconds``.

    ``stalled`` more phones open the stream and never read it (a phone gone to sleep
    with the page open): the others must not notice. With a probing server, the heap is
    marked after the first ``warmup`` fraction of the actions (at least ``SETTLE``) and
    reported at the end, each time after the same ``SETTLE`` moves of a new game.
    """
    rng = random.Random(seed)
    host = server.client()
    status, state = host.call("POST", "/api/games", {"game": "toss-up",
                                                     "players": ["Ann", "Ben", "Cleo"]})
    assert status == 201, state
    sleepers = [_stalled_stream(server.port) for _ in range(stalled)]
    phones = [_Phone(server.port) for _ in range(clients)]
    for phone in phones:
        phone.start()
    for phone in phones:
        assert phone.connected.wait(30), "a stream did not open"
    report = LoadReport(clients=clients, actions=0, seconds=seconds,
                        rss_start_kb=server.rss_kb())
    cpu_start = server.cpu_seconds()
    pace = threading.Event()  # never set: its wait() is the pacing timer
    start = time.perf_counter()
    total = int(rate * seconds)
    report.warmup = max(SETTLE, int(total * warmup)) if server.probing else 0
    # Before each probe, the same moves of a new game: the states kept then are alike.
    settle = (report.warmup - SETTLE, total - SETTLE) if server.probing else ()
    moves = rng
    for index in range(total):
        pace.wait(max(0.0, start + index / rate - time.perf_counter()))
        if index in settle:
            moves = random.Random(seed)
        path, body = _next(state, moves, fresh=index in settle)
        status, answer = host.call("POST", path, body)
        acked = time.perf_counter()
        assert status in (200, 201), answer
        state = answer
        report.acked[answer["version"]] = acked
        report.actions += 1
        if server.probing and report.actions == report.warmup:
            report.marked = _quiet_probe(server, phones, answer["version"], "mark")
            moves = rng
        if report.actions % max(1, total // samples) == 0:
            report.rss_samples_kb.append(server.rss_kb())
            if server.probing:
                report.samples.append({"actions": report.actions, **server.probe("sample")})
    report.seconds = time.perf_counter() - start
    last = max(report.acked)
    if server.probing:
        report.final = _quiet_probe(server, phones, last, "report")
    for phone in phones:
        phone.want = last
    for phone in phones:
        if not (phone.seen and phone.seen[-1][0] >= last):
            phone.done.wait(10)
        phone.close()
        phone.join(10)
        report.seen.append(list(phone.seen))
    report.server_cpu_s = server.cpu_seconds() - cpu_start
    report.rss_end_kb = server.rss_kb()
    for sleeper in sleepers:
        sleeper.close()
    return report


def _quiet_probe(server: ServeProcess, phones: list[_Phone], version: int,
                 command: str) -> dict[str, Any]:
    """The probe's figures once every phone has ``version``: no send is in flight."""
    for phone in phones:
        phone.caught_up(version)
    return server.probe(command)


def _stalled_stream(port: int) -> socket.socket:
    """A stream request whose answer is never read (a tiny receive buffer, soon full)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return sock


def _next(state: dict[str, Any], rng: random.Random, fresh: bool = False
          ) -> tuple[str, Any]:
    """A legal host request: a roll of the dice in hand, a bank, or a new game (``fresh``)."""
    if state["over"] or fresh:
        return "/api/games", {"game": "toss-up", "players": ["Ann", "Ben", "Cleo"]}
    hand = state["turn"]["dice_in_hand"]
    if state["turn"]["points"] and rng.random() < 0.3:
        return "/api/actions", {"type": "bank"}
    green = rng.randint(0, hand)
    red = rng.randint(0, min(2, hand - green))
    return "/api/actions", {"type": "roll", "green": green, "yellow": hand - green - red,
                            "red": red}
