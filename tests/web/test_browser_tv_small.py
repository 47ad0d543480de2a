"""Headless Chromium on /tv at small screens: type readable at arm's length, fewer details.

At the Pi's 800x480 the TV's type followed the screen's height down to a root of 8.9 px
(labels 7.1 px, names 11 px) and a six-player Toss Up! turn still ran off the foot of the
screen (ux14). Now the type has a floor (labels 14 px) and what does not fit at that size
drops out, least important first (tv_drop.js): never whose turn it is, the big number or
the scores. A big screen drops nothing. A game's end screen fits too (the winner's cup and
a tiebreaker's piles can go).

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.games import sorry_21

from tests.web.test_browser_review import snap
from tests.web.test_browser_review13_results import act
from tests.web.test_browser_tv_short import show_tv, tv_page

pytestmark = pytest.mark.browser

#: The smallest type on the board (SVG text scales with the chart: left out), what must
#: show, whether the page fits unscrolled, and the blocks left out.
READ = """() => {
  const root = document.documentElement, board = document.getElementById('board');
  const shown = (el) => Boolean(el) && el.getClientRects().length > 0;
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
    page = tv_page(browser, width, height)
    show_tv(page, live_server.url, f'#board[data-version="{body["version"]}"] .player')
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


def finished_sorry() -> dict:
    """Sorry! Revenge won on a tiebreaker (Cy busts; Ann goes over 21, Ben hits it): the
    winner card, the piles and the round's line, as /api/state gives them."""
    state = replace(sorry_21.new_game(["Ann", "Ben", "Cy", "Dee"]), progress=(3, 3, 1, 3),
                    total=20, current=2)
    for data in ({"type": "play", "card": "number-5"},
                 {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-9"]},
                 {"type": "tiebreak", "player": "Ben", "cards": ["number-10", "number-9"]},
                 {"type": "tiebreak", "player": "Dee", "cards": ["number-10", "number-2"]},
                 {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-10",
                                                                 "number-5"]},
                 {"type": "tiebreak", "player": "Ben", "cards": ["slide-21"]}):
        state, _ = sorry_21.apply(state, sorry_21.parse_action(data))
    assert state.over
    return {**sorry_21.public_state(state), "version": 7, "name": "Sorry! Revenge",
            "events": [], "recent": []}


def test_a_tiebreaker_end_screen_fits_the_pi_screen_readably(browser, live_server):
    # With the type's floor it ran 696 px down the 480 px screen, the piles in a 115 px
    # column (names broken letter by letter) and the QR card over the round's line.
    body = json.dumps(finished_sorry())
    stream = "retry: 100000\nevent: state\ndata: " + body + "\n\n"
    page = tv_page(browser, 800, 480)
    page.route("**/api/events", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream"}, body=stream))
    page.route("**/api/state", lambda route: route.fulfill(
        status=200, content_type="application/json", body=body))
    show_tv(page, live_server.url, "#winner")
    snap(page, "tv-small-sorry-end-800")
    read = page.evaluate(READ)
    assert read["least"] >= 14 - 0.01 and read["fits"]
    assert page.evaluate("() => document.querySelector('.winner-names').textContent") == "Ben"
    names = page.evaluate("""() => [...document.querySelectorAll('#board *')]
      .filter((el) => el.getClientRects().length && /^(Ann|Ben|Dee)$/.test(el.textContent)
        && el.children.length === 0 && !el.matches('.winner-names')).map((el) => el.getBoundingClientRect().height)""")
    assert names and all(h < 1.6 * min(names) for h in names), "a name broken over lines"
    assert not page.js_errors
    page.context.close()
