"""Measure the web layer through the real waitress server on localhost.

1. Action round trip: POST /api/actions (an all-yellow Toss Up! roll, always legal) over
   one keep-alive connection, a few hundred times; median and p99 wall time, and the
   server's CPU time per action.
2. SSE fan-out: 30 clients hold /api/events; for each action, the time from the POST's
   acknowledgement (response read by the host) to each client's receipt of that version.
   Negative values mean the stream beat the acknowledgement.

The server runs in a child process (its own interpreter, as in production) with the
production sizing from ``web.server``. Usage::

    .venv/bin/python bench/bench_web.py [--actions 300] [--clients 30] [--rounds 50] [--browser]

With ``--browser`` a phone-sized headless Chromium page on the scoreboard is timed too
(from sending the POST to the page showing the new version), while the 30 clients stay
connected.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
CHROMIUM = "/usr/bin/chromium"  # Debian's package, driven by Playwright (never downloaded)
ROLL = json.dumps({"type": "roll", "green": 0, "yellow": 10, "red": 0}).encode()
HEADERS = {"Content-Type": "application/json", "Authorization": f"Bearer {PIN}"}


def serve(data_dir: str, port_file: str, pin: str = PIN) -> None:
    """Child process: run the app on a free port and write the port to ``port_file``."""
    sys.path.insert(0, str(ROOT))
    from web import create_app, make_server

    app = create_app({"DATA_DIR": data_dir, "PIN": pin})
    server = make_server(app, "127.0.0.1", 0)
    Path(port_file).write_text(str(server.port))
    server.run()


@contextlib.contextmanager
def child_server(pin: str = PIN) -> Iterator[tuple[int, subprocess.Popen]]:
    """A production-sized server in a child process on a fresh data folder: (port, child)."""
    with tempfile.TemporaryDirectory() as tmp:
        port_file = Path(tmp) / "port"
        child = subprocess.Popen([sys.executable, __file__, "--serve", tmp, str(port_file), pin])
        try:
            deadline = time.monotonic() + 30
            while not port_file.exists() or not port_file.read_text():
                if time.monotonic() > deadline or child.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)
            yield int(port_file.read_text()), child
        finally:
            child.terminate()
            child.wait(timeout=10)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def post(conn: http.client.HTTPConnection, path: str, body: bytes) -> dict:
    conn.request("POST", path, body=body, headers=HEADERS)
    response = conn.getresponse()
    data = json.loads(response.read())
    if response.status >= 300:
        raise SystemExit(f"{path}: {response.status} {data}")
    return data


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def round_trip(port: int, count: int, pid: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _ in range(10):  # warm up
        post(conn, "/api/actions", ROLL)
    times = []
    cpu0 = cpu_seconds(pid)
    for _ in range(count):
        start = time.perf_counter()
        post(conn, "/api/actions", ROLL)
        times.append(time.perf_counter() - start)
    cpu = cpu_seconds(pid) - cpu0
    conn.close()
    return {"median_ms": statistics.median(times) * 1e3, "p99_ms": percentile(times, .99) * 1e3,
            "server_cpu_ms_per_action": cpu / count * 1e3}


class Client(threading.Thread):
    """One phone: holds the stream and stamps the receipt time of every version.

    ``clock`` gives the stamps (default ``time.perf_counter``; epoch milliseconds when they
    are compared with browser pages' ``performance.timeOrigin + performance.now()``).
    """

    def __init__(self, port: int, ready: threading.Barrier,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(daemon=True)
        self.port, self.ready, self.clock = port, ready, clock
        self.seen: dict[int, float] = {}
        self.changed = threading.Condition()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        self.ready.wait()
        while True:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                now = self.clock()
                with self.changed:
                    self.seen[int(line[4:])] = now
                    self.changed.notify_all()

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        with self.changed:
            if not self.changed.wait_for(lambda: version in self.seen, timeout):
                raise SystemExit(f"a client never saw version {version}")
            return self.seen[version]


def connect_phones(port: int, count: int,
                   clock: Callable[[], float] = time.perf_counter) -> list[Client]:
    """``count`` phones (:class:`Client`) holding the event stream, once all are connected."""
    ready = threading.Barrier(count + 1)
    phones = [Client(port, ready, clock) for _ in range(count)]
    for phone in phones:
        phone.start()
    ready.wait(timeout=30)
    return phones


def browser_latency(port: int, rounds: int) -> dict:
    """Time from sending the POST to a phone-sized Chromium page showing the new version.

    Both clocks are this machine's wall clock (Python's time.time, the page's Date.now).
    """
    from playwright.sync_api import sync_playwright

    observe = """() => { window.__seen = {}; const board = document.getElementById("board");
      new MutationObserver(() => { window.__seen[board.dataset.version] = Date.now(); })
        .observe(board, {attributes: true, attributeFilter: ["data-version"]}); }"""
    latencies = []
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                              args=["--no-sandbox", "--disable-gpu"])
        page = chromium.new_page(viewport={"width": 390, "height": 844},
                                 bypass_csp=True)  # the bench's probes are evaluated scripts
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("#board[data-version]")
        page.evaluate(observe)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(rounds):
            sent = time.time() * 1e3
            version = post(conn, "/api/actions", ROLL)["version"]
            shown = page.wait_for_function("v => window.__seen[v]", arg=str(version),
                                           timeout=10_000)
            latencies.append(shown.json_value() - sent)
        conn.close()
        chromium.close()
    return {"browser_send_to_shown_median_ms": statistics.median(latencies),
            "browser_send_to_shown_p99_ms": percentile(latencies, .99)}


def fan_out(port: int, clients: int, rounds: int, pid: int, with_browser: bool) -> dict:
    phones = connect_phones(port, clients)
    rss_streams = rss_mb(pid)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    after_ack, after_send = [], []
    for _ in range(rounds):
        sent = time.perf_counter()
        version = post(conn, "/api/actions", ROLL)["version"]
        acked = time.perf_counter()
        for phone in phones:
            received = phone.wait_for(version)
            after_ack.append(received - acked)
            after_send.append(received - sent)
    conn.close()
    browser = browser_latency(port, rounds) if with_browser else {}
    return {"clients": clients, "rounds": rounds, **browser,
            "ack_to_receipt_median_ms": statistics.median(after_ack) * 1e3,
            "ack_to_receipt_p99_ms": percentile(after_ack, .99) * 1e3,
            "send_to_receipt_median_ms": statistics.median(after_send) * 1e3,
            "send_to_receipt_p99_ms": percentile(after_send, .99) * 1e3,
            "server_rss_mb_with_streams": rss_streams}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--browser", action="store_true",
                        help="also time a Chromium page (needs /usr/bin/chromium)")
    parser.add_argument("--serve", nargs=3, metavar=("DATA_DIR", "PORT_FILE", "PIN"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(*args.serve)
        return
    with child_server() as (port, child):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        post(conn, "/api/games", json.dumps({"game": "toss-up",
                                             "players": ["Ann", "Ben"]}).encode())
        conn.close()
        results = {"server_rss_mb_idle": rss_mb(child.pid),
                   "round_trip": round_trip(port, args.actions, child.pid),
                   "fan_out": fan_out(port, args.clients, args.rounds, child.pid,
                                      args.browser)}
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
