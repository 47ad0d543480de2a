"""What a crowd of open live streams and racing hosts do to the host's requests.

1. Stream flood: ``--streams`` raw sockets open GET /api/events on a production-sized
   server (web.server's 96 threads) and never read; then the host's GET /api/state and
   POST /api/undo are timed (10 s timeout each) and the streams' first status lines
   counted (200 streaming, 503 refused by the cap, none: still waiting for a thread).
2. Undo race: 4 parallel POST /api/undo carrying the version the host saw, after two
   rolls; how many were applied (one mistake should be undone once).

Usage (the review's sse_flood.py and race.py, as a script)::

    .venv/bin/python bench/bench_flood.py [--streams 110]
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import HEADERS, child_server  # noqa: E402

ROLL = {"type": "roll", "green": 3, "yellow": 4, "red": 3}


def call(port: int, method: str, path: str, body: dict | None = None) -> tuple[int | str, float, dict]:
    """(status or the exception's name, seconds, JSON) of one request, 10 s at most."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    start = time.perf_counter()
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body).encode(),
                     headers=HEADERS)
        response = conn.getresponse()
        data = json.loads(response.read() or b"{}")
        return response.status, time.perf_counter() - start, data
    except OSError as exc:
        return type(exc).__name__, time.perf_counter() - start, {}
    finally:
        conn.close()


def first_status(sock: socket.socket) -> str:
    sock.settimeout(0.5)
    try:
        line = sock.recv(64).split(b"\r\n", 1)[0].decode()
        return line.split(" ")[1] if line else "closed"
    except OSError:
        return "none"


def flood(port: int, count: int) -> dict:
    call(port, "POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    call(port, "POST", "/api/actions", ROLL)
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        socks.append(sock)
    time.sleep(2)
    state = call(port, "GET", "/api/state")
    undo = call(port, "POST", "/api/undo")
    statuses: dict[str, int] = {}
    for sock in socks:
        status = first_status(sock)
        statuses[status] = statuses.get(status, 0) + 1
        sock.close()
    return {"state": [state[0], round(state[1], 3)], "undo": [undo[0], round(undo[1], 3)],
            "streams": statuses}


def race(port: int) -> dict:
    call(port, "POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    call(port, "POST", "/api/actions", ROLL)
    _, _, shown = call(port, "POST", "/api/actions", {**ROLL, "green": 2, "red": 1,
                                                      "yellow": 4})
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(
        call(port, "POST", "/api/undo", {"version": shown["version"]})[0])) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    _, _, after = call(port, "GET", "/api/state")
    return {"undo_statuses": sorted(map(str, results)),
            "rolls_undone": 2 - after["turn"]["rolls"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=110)
    args = parser.parse_args()
    with child_server() as (port, _):
        flooded = flood(port, args.streams)
    with child_server() as (port, _):
        raced = race(port)
    print(json.dumps({"flood": flooded, "race": raced}, indent=2))


if __name__ == "__main__":
    main()
