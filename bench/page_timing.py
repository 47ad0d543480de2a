"""Timing a page's re-render and the fitting that follows it, in headless Chromium.

Shared by ``bench_names.py`` and ``bench_choices.py`` (``bench_tv.py`` uses its set-up,
``chromium_and_server``): the server runs in a child process (``bench_web.child_server``);
for each case a game is started, a fresh browser context opens the page, and the page
re-renders the last state ``--rounds`` times, timing the render with its layout and then
the fitting with the layout it causes. Wall-clock milliseconds inside the page, so the
JSON printed carries the load average beside them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from bench_web import CHROMIUM, child_server, post  # same folder: shared set-up

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = {"short": ["Ann", "Ben", "Cleo"],
         "long": ["Bartholomew-Maximilian Longname", "Wolfeschlegelsteinhausenbergerdorff", "Ann"]}

#: One case: (label in the output, browser context options, game id, players).
Case = tuple[str, dict[str, Any], str, list[str]]


def fit_timer(render: str, fit: str, *, setup: str = "") -> str:
    """The page function ``(n) => {...}`` that times ``render`` then ``fit`` ``n`` times.

    ``render`` and ``fit`` are JavaScript statements (each ending with a layout read);
    ``setup`` runs once before the loop. The function returns the render median and the
    fit median and p90, in milliseconds.
    """
    return f"""(n) => {{ {setup}const render = [], fit = [];
  for (let i = 0; i < n; i++) {{
    const a = performance.now(); {render}
    const b = performance.now(); {fit}
    render.push(b - a); fit.push(performance.now() - b);
  }}
  const q = (v, p) => v.sort((x, y) => x - y)[Math.floor(p * (v.length - 1))];
  return {{render_median_ms: q(render, .5), fit_median_ms: q(fit, .5), fit_p90_ms: q(fit, .9)}}; }}"""


def run(description: str, cases: Iterable[Case], open_page: Callable[[Any, int], None],
        timer: str) -> None:
    """Parse ``--rounds``, time ``timer`` on each case's page and print the JSON results.

    ``open_page(page, port)`` brings a new page to the state the timer expects.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    results = {}
    with chromium_and_server() as (browser, conn, port):
        for label, context, game, players in cases:
            post(conn, "/api/games", json.dumps({"game": game, "players": players}).encode())
            page = browser.new_context(**context).new_page()
            open_page(page, port)
            results[label] = page.evaluate(timer, args.rounds)
            page.context.close()
    print_results(results)


@contextmanager
def chromium_and_server() -> Iterator[tuple[Any, http.client.HTTPConnection, int]]:
    """(headless Chromium, a connection to a child server, its port); all closed after."""
    from playwright.sync_api import sync_playwright

    with child_server() as (port, _child), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        yield browser, conn, port
        browser.close()


def print_results(results: dict[str, Any]) -> None:
    """Print the results as JSON, the machine's load average beside them."""
    print(json.dumps({"load_average": os.getloadavg(), **results}, indent=1))
