"""Headless Chromium on /tv at the Pi's 800x480 touchscreen, mid-game: the board fits.

On a screen under 1000 px wide the panel stood in two columns, the chart under the scores,
and Toss Up!'s final round ran 557 px down a screen nobody scrolls (rev13). Now a short
landscape screen has the three columns a TV has (main, scores, chart with the QR card at
its foot). 1920x1080 must still fit.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_browser_review import snap
from tests.web.test_browser_review13_results import act

pytestmark = pytest.mark.browser

#: What the TV lays out: the page's height, the panel's columns, where the QR card went.
LAYOUT = """() => {
  const panel = document.querySelector('#board > .panel');
  return {height: document.documentElement.scrollHeight,
          width: document.documentElement.scrollWidth,
          columns: getComputedStyle(panel).gridTemplateColumns.split(' ').length,
          chart: Boolean(document.querySelector('#board .chart-card')),
          join: panel.contains(document.getElementById('tv-join'))
                || document.documentElement.classList.contains('tv-strip')};
}"""


def toss_up_final_round(live_server: Any) -> dict:
    """Ann banks 101 (the final round), Ben rolls 3 points and 7 dice to go."""
    assert live_server.request("POST", "/api/games", {
        "game": "toss-up", "players": ["Ann", "Ben", "Cleo", "Dan"]})[0] == 201
    for _ in range(10):
        act(live_server, type="roll", green=10, yellow=0, red=0)
    act(live_server, type="roll", green=1, yellow=9, red=0)
    body = act(live_server, type="bank")
    assert "final" in str(body).lower()
    return act(live_server, type="roll", green=3, yellow=7, red=0)


@pytest.mark.parametrize("width, height", [(800, 480), (1920, 1080)])
def test_toss_ups_final_round_fits_the_tv_unscrolled(browser, live_server, width, height):
    body = toss_up_final_round(live_server)
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + "/tv")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] .player')
    page.wait_for_timeout(300)  # fitTv has run
    snap(page, f"tv-short-toss-up-final-{width}")
    layout = page.evaluate(LAYOUT)
    assert layout["chart"] and layout["join"]
    assert layout["height"] <= height, f"{layout['height']} px: nobody scrolls a TV"
    assert layout["width"] <= width
    assert layout["columns"] == 3
    assert not page.js_errors
    page.context.close()
