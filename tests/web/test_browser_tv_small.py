"""Headless Chromium on /tv at small screens: type readable at arm's length, fewer details.

At the Pi's 800x480 the TV's type followed the screen's height down to a root of 8.9 px
(labels 7.1 px, names 11 px) and a six-player Toss Up! turn still ran off the foot of the
screen (ux14). Now the type has a floor (labels 14 px) and what does not fit at that size
drops out, least important first (tv_drop.js): never whose turn it is, the big number or
the scores. A big screen drops nothing.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser_review import snap
from tests.web.test_browser_review13_results import act

pytestmark = pytest.mark.browser

#: The smallest type on the board (SVG text scales with the chart: left out), what must
#: show, whether the page fits unscrolled, and the blocks left out.
READ = """() => {
  const root = document.documentElement, board = document.getElementById('board');
  const shown = (el) => el.getClientRects().length > 0;
  const texts = [...board.querySelectorAll('*')].filter((el) => shown(el) && !el.closest('svg')
    && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  return {least: Math.min(...texts.map((el) => parseFloat(getComputedStyle(el).fontSize))),
          turn: shown(board.querySelector('#now-name')) && board.querySelector('#now-name').textContent,
          big: shown(board.querySelector('#turn-points')),
          scores: [...board.querySelectorAll('.player-score')].filter(shown).length,
          fits: root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth,
          dropped: document.querySelectorAll('.tv-drop').length};
}"""


@pytest.mark.parametrize("width, height", [(800, 480), (1024, 600), (1920, 1080)])
def test_a_six_player_turn_is_readable_on_a_small_tv(browser, live_server, width, height):
    names = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": names})[0] == 201
    act(live_server, type="roll", green=5, yellow=5, red=0)
    act(live_server, type="bank")
    body = act(live_server, type="roll", green=2, yellow=8, red=0)
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + "/tv")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] .player')
    page.wait_for_timeout(300)  # fitTv has run
    snap(page, f"tv-small-toss-up-six-{width}")
    read = page.evaluate(READ)
    assert read["least"] >= 14 - 0.01, f"{read['least']} px cannot be read across a table"
    assert read["turn"] == "Ben" and read["big"] and read["scores"] == 6
    assert read["fits"], "nobody scrolls a TV"
    if width >= 1920:
        assert read["dropped"] == 0  # room for everything: nothing left out
    else:
        assert read["dropped"] > 0
    assert not page.js_errors
    page.context.close()
