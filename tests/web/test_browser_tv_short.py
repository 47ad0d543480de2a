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
          chart: Boolean(document.querySelector('#board .chart-card:not(.tv-drop)')),
          join: panel.contains(document.getElementById('tv-join'))
                || document.documentElement.classList.contains('tv-strip')};
}"""


def tv_page(browser: Any, width: int, height: int) -> Any:
    """A page of a ``width`` x ``height`` screen, its JS errors collected in ``js_errors``."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    return page


def show_tv(page: Any, url: str, ready: str) -> None:
    """Open the TV page at ``url`` and wait for ``ready`` and for fitTv to have run."""
    page.goto(url + "/tv")
    page.wait_for_selector(ready)
    page.wait_for_timeout(300)  # fitTv has run


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
    page = tv_page(browser, width, height)
    show_tv(page, live_server.url, f'#board[data-version="{body["version"]}"] .player')
    snap(page, f"tv-short-toss-up-final-{width}")
    layout = page.evaluate(LAYOUT)
    # at 800x480 the chart drops out, the type's floor leaving it no room (tv14): two columns
    assert layout["join"] and layout["chart"] == (width >= 1920)
    assert layout["height"] <= height, f"{layout['height']} px: nobody scrolls a TV"
    assert layout["width"] <= width
    assert layout["columns"] == (3 if width >= 1920 else 2)
    assert not page.js_errors
    page.context.close()


#: The root type size, the CSS size it grows from (the TV's minimum) and the names cut short.
TYPE = """() => {
  const root = document.documentElement;
  return {px: parseFloat(getComputedStyle(root).fontSize),
          minimum: Math.max(17.5, Math.min(20, 0.0185 * innerHeight)),
          cut: [...document.querySelectorAll('#board .player-name')]
            .filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent)};
}"""


def test_eight_cookie_players_and_a_claim_line_fit_the_pi_screen(browser, live_server):
    # One column of eight rows and "Round 2: Ben — the table vouched" under them ran 497 px
    # down the 480 px screen at the smallest type: the spacing gives way, not the type.
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    assert live_server.request("POST", "/api/games", {
        "game": "toss-your-cookies", "players": names})[0] == 201
    act(live_server, type="snickerdoodle", player=0)
    body = act(live_server, type="snickerdoodle", player=1)
    assert not body["over"] and body["last_claim"]["name"] == "Ben"
    page = tv_page(browser, 800, 480)
    show_tv(page, live_server.url, f'#board[data-version="{body["version"]}"] #last-claim')
    snap(page, "tv-short-cookies-eight-claim-800")
    layout, type_size = page.evaluate(LAYOUT), page.evaluate(TYPE)
    assert layout["join"] and not layout["chart"] and layout["columns"] == 2  # chart dropped (tv14)
    assert layout["height"] <= 480, f"{layout['height']} px: nobody scrolls a TV"
    assert layout["width"] <= 800
    assert type_size["px"] >= type_size["minimum"] - 0.01  # never below the TV's minimum
    assert type_size["cut"] == []
    assert not page.js_errors
    page.context.close()
