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

from bench_web import PIN  # same folder: shared set-up
from page_timing import NAMES, PHONE, fit_timer, run  # same folder: shared set-up

SCREENS = {"phone": PHONE, "laptop": {"viewport": {"width": 1366, "height": 800}}}

TIME = fit_timer('Host.render(Live.last); document.body.offsetHeight;\n'
                 '    document.querySelector("#controls .touch-more").open = true;',
                 'fitAllChoices(document); document.body.offsetHeight;')


def _open_host(page, port: int) -> None:
    page.goto(f"http://127.0.0.1:{port}/login")
    page.fill("#pin", PIN)
    page.click("text=Unlock")
    page.wait_for_selector("#controls .touch-more")
    page.click("#correct-card summary")


def main() -> None:
    cases = [(f"{screen} {kind}", context, "paper-toss", players)
             for screen, context in SCREENS.items() for kind, players in NAMES.items()]
    run(__doc__.splitlines()[0], cases, _open_host, TIME)


if __name__ == "__main__":
    main()
