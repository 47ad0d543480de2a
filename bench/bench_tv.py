"""What growing the TV's type to fill the screen costs each redraw, and what it gives.

The server runs in a child process (``bench_web.child_server``). Headless Chromium opens
``/tv`` at 1920x1080 and 1280x720 for Toss Up! with four and six players (a turn under
way) and at game over with two; the page redraws the last state ``--rounds`` times,
timing ``Board.render``, whose ``fitTv`` tries a few type sizes, each with ``fitNames``
and a layout. Wall-clock milliseconds inside the page, so read them beside the load
average printed with them. Also printed: the root type size the CSS gives (``base_px``)
and the one the fit chose (``fitted_px``).

Usage::

    .venv/bin/python bench/bench_tv.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import json

from bench_web import post  # same folder: shared set-up
from page_timing import chromium_and_server, print_results

TURN = [{"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"},
        {"type": "roll", "green": 5, "yellow": 4, "red": 1}]
OVER = [{"type": "roll", "green": 6, "yellow": 4, "red": 0}, {"type": "bank"},
        {"type": "roll", "green": 1, "yellow": 9, "red": 0}, {"type": "bank"}]
TABLES = {"4 players": (["Ann", "Ben", "Cleo", "Dee"], {}, TURN),
          "6 players": (["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"], {}, TURN),
          "game over": (["Ann", "Ben"], {"target": 5}, OVER)}

TIME = """(n) => { const root = document.documentElement, times = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now(); Board.render(Live.last, false); root.offsetHeight;
    times.push(performance.now() - a);
  }
  const q = (v, p) => v.sort((x, y) => x - y)[Math.floor(p * (v.length - 1))];
  const fitted = parseFloat(getComputedStyle(root).fontSize);
  root.style.fontSize = document.body.style.fontSize = "";
  const base = parseFloat(getComputedStyle(root).fontSize);
  return {render_median_ms: q(times, .5), render_p90_ms: q(times, .9),
          base_px: base, fitted_px: fitted}; }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    results = {}
    with chromium_and_server() as (browser, conn, port):
        for table, (players, options, actions) in TABLES.items():
            post(conn, "/api/games", json.dumps({"game": "toss-up", "players": players,
                                                 "options": options}).encode())
            for action in actions:
                post(conn, "/api/actions", json.dumps(action).encode())
            for width, height in ((1920, 1080), (1280, 720)):
                page = browser.new_context(viewport={"width": width, "height": height}).new_page()
                page.goto(f"http://127.0.0.1:{port}/tv")
                page.wait_for_selector("#board #chart")
                results[f"{table} {width}x{height}"] = page.evaluate(TIME, args.rounds)
                page.context.close()
    print_results(results)


if __name__ == "__main__":
    main()
