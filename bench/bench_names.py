"""What fitting players' names costs the phone scoreboard on each change.

The server runs in a child process (``bench_web.child_server``). Headless Chromium at
390x844 opens the scoreboard of a game whose players have short names, or long ones
(a hyphenated name of three words, one word of 35 letters); the page re-renders the last
state ``--rounds`` times, timing ``Board.render`` with its layout and then ``fitNames``
(which measures the names, puts pips under them when they have no room and shrinks a name
still too wide) with the layout it causes. Wall-clock milliseconds inside the page, so
read them beside the load average printed with them.

Usage::

    .venv/bin/python bench/bench_names.py [--rounds 200]

Prints JSON per game and names: render median, fitNames median and p90.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os

from bench_web import child_server, post  # same folder: shared set-up

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = {"short": ["Ann", "Ben", "Cleo"],
         "long": ["Bartholomew-Maximilian Longname", "Wolfeschlegelsteinhausenbergerdorff", "Ann"]}

TIME = """(n) => { const board = document.getElementById("board"); const render = [], fit = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now(); Board.render(Live.last, false); board.offsetHeight;
    const b = performance.now(); fitNames(board); board.offsetHeight;
    render.push(b - a); fit.push(performance.now() - b);
  }
  const q = (v, p) => v.sort((x, y) => x - y)[Math.floor(p * (v.length - 1))];
  return {render_median_ms: q(render, .5), fit_median_ms: q(fit, .5), fit_p90_ms: q(fit, .9)}; }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    results = {}
    with child_server() as (port, _child), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for game in ("sorry-21", "toss-up"):
            for kind, players in NAMES.items():
                post(conn, "/api/games", json.dumps({"game": game, "players": players}).encode())
                page = browser.new_context(**PHONE).new_page()
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector(".player-name")
                results[f"{game} {kind}"] = page.evaluate(TIME, args.rounds)
                page.context.close()
        browser.close()
    print(json.dumps({"load_average": os.getloadavg(), **results}, indent=1))


if __name__ == "__main__":
    main()
