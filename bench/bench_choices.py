"""What fitting the host page's choice buttons to their text costs on each change.

The server runs in a child process (``bench_web.child_server``). Headless Chromium logs in
to the host page of a Paper Toss game whose players have short names, or long ones (a
hyphenated name of three words, one word of 35 letters), at 390x844 (a phone) and
1366x800 (a laptop), opens Correct a score and Bully or Flat Tire (nine player buttons
drawn), and re-renders the last state ``--rounds`` times, timing ``Host.render`` with its
layout and then ``fitAllChoices`` (``web/static/js/touch.js``: fewer columns for a group
whose words have no room, then a smaller type, then "…" on a name) with the layout it
causes. Wall-clock milliseconds inside the page, so read them beside the load average
printed with them.

Usage::

    .venv/bin/python bench/bench_choices.py [--rounds 200]

Prints JSON per screen and names: render median, fitAllChoices median and p90.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os

from bench_web import PIN, child_server, post  # same folder: shared set-up

CHROMIUM = "/usr/bin/chromium"
SCREENS = {"phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                     "has_touch": True},
           "laptop": {"viewport": {"width": 1366, "height": 800}}}
NAMES = {"short": ["Ann", "Ben", "Cleo"],
         "long": ["Bartholomew-Maximilian Longname", "Wolfeschlegelsteinhausenbergerdorff", "Ann"]}

TIME = """(n) => { const render = [], fit = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now(); Host.render(Live.last); document.body.offsetHeight;
    document.querySelector("#controls .touch-more").open = true;
    const b = performance.now(); fitAllChoices(document); document.body.offsetHeight;
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
        for screen, context in SCREENS.items():
            for kind, players in NAMES.items():
                post(conn, "/api/games", json.dumps({"game": "paper-toss",
                                                     "players": players}).encode())
                page = browser.new_context(**context).new_page()
                page.goto(f"http://127.0.0.1:{port}/login")
                page.fill("#pin", PIN)
                page.click("text=Unlock")
                page.wait_for_selector("#controls .touch-more")
                page.click("#correct-card summary")
                results[f"{screen} {kind}"] = page.evaluate(TIME, args.rounds)
                page.context.close()
        browser.close()
    print(json.dumps({"load_average": os.getloadavg(), **results}, indent=1))


if __name__ == "__main__":
    main()
