"""Update latency from a tap on the host page to a second browser showing it, 30 phones on.

The server runs in a child process (its own interpreter, production sizing of
``web.server``). 30 plain SSE clients hold ``/api/events`` (they read every change, as
phones do). Two headless Chromium pages at phone size, in separate contexts: the host
page (logged in with the PIN) and the scoreboard. Each round the host page counts ten
yellow dice on its steppers and taps "Record roll" (a Toss Up! roll that is always
legal); the time runs from that tap (inside the host page) to the scoreboard page's
``#board`` showing the new version (a MutationObserver), both read from the pages'
``performance.timeOrigin + performance.now()``, the same machine's clock. It includes
the host page's fetch, the server (rules, SQLite commit with fsync, JSON), the SSE
fan-out to 32 streams and the scoreboard's rendering.

Usage::

    .venv/bin/python bench/bench_latency.py [--rounds 60] [--clients 30]

Prints JSON: median, p90, p99 and max in milliseconds, and the load average.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import time
from typing import Any

from bench_web import CHROMIUM, child_server, connect_phones, percentile  # same folder

PIN = "13579"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "bypass_csp": True}  # the bench's probes are evaluated scripts

OBSERVE = """() => { window.__seen = {}; const board = document.getElementById("board");
  new MutationObserver(() => {
    window.__seen[board.dataset.version] = performance.timeOrigin + performance.now();
  }).observe(board, {attributes: true, attributeFilter: ["data-version"]}); }"""

TAP = """() => { for (let i = 0; i < 10; i++)
    document.querySelector('[aria-label="One more yellow"]').click();
  const t = performance.timeOrigin + performance.now();
  document.getElementById("record-roll").click();
  return t; }"""


def start_game(port: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/api/games", body=json.dumps({"game": "toss-up",
                                                         "players": ["Ann", "Ben"]}),
                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {PIN}"})
    response = conn.getresponse()
    response.read()
    conn.close()
    if response.status != 201:
        raise SystemExit(f"could not start a game: {response.status}")


def wait_value(page: Any, script: str, arg: Any, timeout: float = 10.0) -> Any:
    """Poll ``script(arg)`` in ``page`` until it returns a value (no sleeping in the page)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(script, arg)
        if value is not None:
            return value
        time.sleep(0.002)
    raise SystemExit(f"the page never showed {arg}")


def measure(port: int, rounds: int, clients: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    phones = connect_phones(port, clients)
    latencies = []
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--disable-gpu"])
        board = chromium.new_context(**PHONE).new_page()
        board.goto(f"http://127.0.0.1:{port}/")
        board.wait_for_selector('#conn[data-status="live"]')
        board.evaluate(OBSERVE)
        host = chromium.new_context(**PHONE).new_page()
        host.goto(f"http://127.0.0.1:{port}/login")
        host.fill("#pin", PIN)
        host.click("text=Unlock")
        host.wait_for_selector("#record-roll")
        for _ in range(rounds + 3):  # the first 3 warm up
            version = int(host.get_attribute("body", "data-version")) + 1
            tapped = host.evaluate(TAP)
            shown = wait_value(board, "v => window.__seen[v] ?? null", str(version))
            wait_value(host, "v => document.body.dataset.version === v ? 1 : null",
                       str(version))
            latencies.append(shown - tapped)
        chromium.close()
    latencies = latencies[3:]
    behind = sum(1 for p in phones if max(p.seen, default=-1) < version)
    return {"rounds": rounds, "sse_clients": clients, "clients_behind_at_end": behind,
            "tap_to_second_browser_median_ms": round(statistics.median(latencies), 1),
            "p90_ms": round(percentile(latencies, .90), 1),
            "p99_ms": round(percentile(latencies, .99), 1),
            "max_ms": round(max(latencies), 1),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--clients", type=int, default=30)
    args = parser.parse_args()
    with child_server(PIN) as (port, _):
        start_game(port)
        print(json.dumps(measure(port, args.rounds, args.clients), indent=2))


if __name__ == "__main__":
    main()
