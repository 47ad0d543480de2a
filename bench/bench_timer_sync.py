"""Timer sync across phones: Paper Tales phase timers and the Toss Your Cookies countdown.

The real ``companion serve`` runs in a child process (camera off, its timer thread on),
30 plain SSE clients hold ``/api/events`` and several headless Chromium pages at phone
size, each in its own context, show the scoreboard. Each page's own clock is set wrong
on purpose (``Date.now`` shifted by a few seconds, as phones' clocks are): the pages
count down from the server's deadlines with the server's ``now``, so what they show
must agree anyway. Every time is read from the pages' ``performance.timeOrigin +
performance.now()`` (or ``time.time()`` for the SSE clients), the same machine's clock.

1. Paper Tales: one whole turn (6 phases) on phase timers with ``auto_advance``, plus
   a pause, a resume and added time in Deployment. Two measures of the remaining time
   shown on the pages:
   - *shown*: the moment each page's ``#phase-timer`` shows each value (a
     MutationObserver); for each (deadline, value) shown on every page, the spread of
     those moments across pages: how far apart the phones' displays are;
   - *model*: every ~200 ms each page's ``deadline - Clock.now()``, brought to a common
     instant with the page's own timestamp; the spread across pages.
2. Toss Your Cookies: the Toss button (``{"type": "toss"}``) a number of times; for each,
   the moment the countdown state reaches each page (its ``#board`` version) and each SSE
   client, and the moment each page calls out "Toss!"; the spread of both across phones,
   and how many pages never called "Toss!" (``Calls.sync`` in ``web/static/js/timer.js``
   cancels a call that a newer state drops, and the scramble state can arrive a few ms
   before the page's own "Toss!" timer fires; ``Calls.sync`` keeps a call that is due
   within 0.25 s for that reason).

Usage::

    .venv/bin/python bench/bench_timer_sync.py [--pages 5] [--clients 30] [--phase 6] [--tosses 10]

Prints JSON (milliseconds) and the load average.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_web import CHROMIUM, Client, connect_phones, percentile  # noqa: E402  (same folder)
from tests.stress.harness import ServeProcess  # noqa: E402

PIN = "97531"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "bypass_csp": True}  # the bench's probes are evaluated scripts
#: How wrong each page's own clock is (seconds), as phones' clocks are.
SKEWS = (0.0, 2.5, -1.3, 0.7, -3.9, 1.1, -0.4, 3.3)
PHASES = ("recruitment", "deployment", "wars", "income", "construction", "aging")

SKEW_SCRIPT = """(() => { const skew = %f * 1000; const real = Date.now;
  Date.now = () => real() + skew; })();"""

PROBES = """() => {
  const stamp = () => performance.timeOrigin + performance.now();
  window.__shown = {}; window.__versions = {}; window.__calls = [];
  const board = document.getElementById("board");
  new MutationObserver(() => {
    window.__versions[board.dataset.version] ??= stamp();
    const el = document.getElementById("phase-timer");
    if (!el || !el.dataset.deadline) return;
    window.__shown[el.dataset.deadline + "|" + el.textContent] ??= stamp();
  }).observe(board, {subtree: true, childList: true, characterData: true, attributes: true,
                     attributeFilter: ["data-version"]});
  const call = Calls.call.bind(Calls);
  Calls.call = (say) => { window.__calls.push([say, stamp()]); call(say); };
}"""

MODEL = """() => { const el = document.getElementById("phase-timer");
  const t = performance.timeOrigin + performance.now();
  if (!el || !el.dataset.deadline) return null;
  return [t, Number(el.dataset.deadline) - Clock.now(), el.dataset.deadline]; }"""

#: When the page last called out "Toss!", or null.
TOSS_CALLED = """() => (window.__calls.filter(c => c[0] === "Toss!").pop() || [0, 0])[1] || null"""


@contextlib.contextmanager
def companion_server() -> Iterator[int]:
    """``companion serve`` in a child process on a fresh data folder; yields its port."""
    with tempfile.TemporaryDirectory() as tmp, ServeProcess(Path(tmp) / "data", pin=PIN) as server:
        yield server.port


def request(port: int, method: str, path: str, body: Any = None) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json",
                              "Authorization": f"Bearer {PIN}"})
        response = conn.getresponse()
        data = json.loads(response.read())
    finally:
        conn.close()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {data}")
    return data


def until(check: Any, timeout: float, what: str) -> Any:
    """Poll ``check()`` until it returns a truthy value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise SystemExit(f"timed out waiting for {what}")


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median_ms": round(statistics.median(values), 1),
            "p90_ms": round(percentile(values, 0.9), 1), "max_ms": round(max(values), 1)}


def open_pages(chromium: Any, port: int, count: int) -> list[Any]:
    pages = []
    for i in range(count):
        context = chromium.new_context(**PHONE)
        context.add_init_script(SKEW_SCRIPT % SKEWS[i % len(SKEWS)])
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector('#conn[data-status="live"]')
        page.evaluate(PROBES)
        pages.append(page)
    return pages


def paper_tales(port: int, pages: list[Any], phase: float) -> dict[str, Any]:
    """One turn on phase timers; the spread of the remaining time shown across pages."""
    request(port, "POST", "/api/games", {
        "game": "paper-tales", "players": ["Ann", "Ben", "Cy"],
        "options": {"phase_seconds": {p: phase for p in PHASES}, "auto_advance": True}})
    state = request(port, "POST", "/api/actions", {"type": "start"})
    model: list[float] = []
    paused = added = False
    while state.get("turn", 1) == 1:
        stamps = [page.evaluate(MODEL) for page in pages]
        if all(stamps) and len({s[2] for s in stamps}) == 1:  # every page on one deadline
            t0 = stamps[0][0]
            lefts = [left * 1000 + (t - t0) for t, left, _ in stamps]
            model.append(max(lefts) - min(lefts))
        state = request(port, "GET", "/api/state")
        if state["phase"] == "deployment" and not paused:
            request(port, "POST", "/api/actions", {"type": "pause"})
            time.sleep(0.7)
            request(port, "POST", "/api/actions", {"type": "resume"})
            paused = True
        elif state["phase"] == "deployment" and not added and state["timer"]["running"]:
            request(port, "POST", "/api/actions", {"type": "add_time", "seconds": 2})
            added = True
        time.sleep(0.2)
    shown = [page.evaluate("() => window.__shown") for page in pages]
    common = set(shown[0]).intersection(*shown[1:])
    spreads = [max(s[k] for s in shown) - min(s[k] for s in shown) for k in common]
    return {"phases": len(PHASES), "phase_seconds": phase, "pages": len(pages),
            "page_clock_skews_s": [SKEWS[i % len(SKEWS)] for i in range(len(pages))],
            "shown_value_spread_across_pages": summary(spreads),
            "model_remaining_spread_across_pages": summary(model)}


def toss(port: int, pages: list[Any], phones: list[Client], tosses: int) -> dict[str, Any]:
    """The Toss button ``tosses`` times; spreads of countdown arrival and of "Toss!"."""
    request(port, "POST", "/api/games", {
        "game": "toss-your-cookies", "players": ["Ann", "Ben", "Cy", "Di"],
        "options": {"countdown_seconds": 3, "scramble_seconds": 0}})
    pages_spread, all_spread, call_spread, latency = [], [], [], []
    missed = 0
    for _ in range(tosses):
        sent = time.time() * 1000
        version = request(port, "POST", "/api/actions", {"type": "toss"})["version"]
        at_pages = [until(lambda p=p: p.evaluate("v => window.__versions[v]", str(version)),
                          10, "the countdown on a page") for p in pages]
        at_clients = [until(lambda c=c: c.seen.get(version), 10, "an SSE client")
                      for c in phones]
        pages_spread.append(max(at_pages) - min(at_pages))
        everyone = at_pages + at_clients
        all_spread.append(max(everyone) - min(everyone))
        latency.append(max(everyone) - sent)
        until(lambda: request(port, "GET", "/api/state")["phase"] == "scramble", 10,
              "the server's Toss!")
        time.sleep(0.6)  # a page calls "Toss!" up to 0.4 s late, or never
        calls = [c for c in (p.evaluate(TOSS_CALLED) for p in pages) if c is not None]
        missed += len(pages) - len(calls)
        if len(calls) >= 2:
            call_spread.append(max(calls) - min(calls))
        for page in pages:
            page.evaluate("() => { window.__calls = []; }")
        request(port, "POST", "/api/actions", {"type": "skip"})  # end the scramble
    return {"tosses": tosses, "pages": len(pages), "sse_clients": len(phones),
            "countdown_arrival_spread_pages": summary(pages_spread),
            "countdown_arrival_spread_pages_and_clients": summary(all_spread),
            "post_to_last_arrival": summary(latency),
            "toss_callout_spread_pages": summary(call_spread) if call_spread else None,
            "toss_callouts_missed": f"{missed} of {len(pages) * tosses}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--phase", type=float, default=6.0, help="seconds per phase")
    parser.add_argument("--tosses", type=int, default=10)
    args = parser.parse_args()
    if args.pages < 2:
        parser.error("--pages must be 2 or more")
    from playwright.sync_api import sync_playwright

    with companion_server() as port:
        phones = connect_phones(port, args.clients, clock=lambda: time.time() * 1000)
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                                  args=["--no-sandbox", "--disable-gpu"])
            pages = open_pages(chromium, port, args.pages)
            results = {"paper_tales": paper_tales(port, pages, args.phase),
                       "toss_your_cookies": toss(port, pages, phones, args.tosses),
                       "load_average": [round(x, 2) for x in os.getloadavg()]}
            chromium.close()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
