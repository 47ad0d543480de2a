"""Headless Chromium on the /tv page of every game at 1920 x 1080: a television scales the
type up to fill the screen (``fitTv``), so whatever sits beside the text must grow with it.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from tests.web.test_browser_review import snap

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}

#: The Paper Tales "now" card and its reminders list, in CSS pixels.
REMINDERS = """() => { const card = document.querySelector('.tales-now');
  const list = card.querySelector('.reminders'), style = getComputedStyle(card);
  const c = card.getBoundingClientRect(), l = list.getBoundingClientRect();
  const text = document.createRange(); text.selectNodeContents(list.querySelector('li'));
  return {inner: c.left + parseFloat(style.borderLeftWidth),
          content: c.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
          text: text.getBoundingClientRect().left, top: l.top, bottom: l.bottom}; }"""


def start(live_server: Any, game: str, players: list[str], *actions: dict[str, Any]) -> int:
    """Start ``game`` and apply ``actions``; the state's version."""
    status, state = live_server.request("POST", "/api/games", {"game": game, "players": players})
    assert status == 201, state
    for action in actions:
        status, state = live_server.request("POST", "/api/actions", action)
        assert status == 200, state
    return state["version"]


def open_tv(browser: Any, live_server: Any, version: int) -> Any:
    page = browser.new_context(viewport=TV).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + "/tv")
    page.wait_for_selector(f'#board[data-version="{version}"]')
    return page


def ink_columns(page: Any, left: float, right: float, top: float, bottom: float) -> np.ndarray:
    """Columns (page x) between ``left`` and ``right`` holding any pixel unlike the strip's
    own background (its median colour) by more than a faint gradient."""
    x0, x1 = int(np.ceil(left)) + 1, int(np.floor(right))
    png = page.screenshot(clip={"x": x0, "y": top, "width": x1 - x0, "height": bottom - top})
    strip = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR).astype(int)
    background = np.median(strip.reshape(-1, 3), axis=0)
    ink = np.abs(strip - background).max(axis=2) > 60
    return x0 + np.flatnonzero(ink.any(axis=0))


@pytest.mark.parametrize("players", [["Ann", "Ben"], ["Ann", "Ben", "Cleo", "Dmitri", "Eve"]])
def test_paper_tales_reminder_bullets_stay_inside_their_card(browser, live_server, players):
    # The reminders' bullets grew with the TV's type but their indent did not: they sat in
    # the card's padding, at its edge, left of every other line of the card.
    version = start(live_server, "paper-tales", players, {"type": "next"})  # Deployment
    page = open_tv(browser, live_server, version)
    box = page.evaluate(REMINDERS)
    snap(page, f"tv-paper-tales-{len(players)}")
    assert not len(ink_columns(page, box["inner"], box["content"], box["top"], box["bottom"])), \
        "a bullet is drawn in the card's padding"
    bullets = ink_columns(page, box["content"], box["text"], box["top"], box["bottom"])
    assert len(bullets), "the bullets are between the card's content edge and the text"
    assert not page.js_errors
    page.context.close()


#: The current player's ▶ mark and name, in CSS pixels (the glyphs' own boxes).
MARK = """() => { const row = document.querySelector('.player.current');
  const box = (el) => { const r = document.createRange(); r.selectNodeContents(el);
    return r.getBoundingClientRect(); };
  return {mark: box(row.querySelector('.player-mark')).right,
          name: box(row.querySelector('.player-name')).left}; }"""


@pytest.mark.parametrize("game, players", [
    ("toss-up", ["Ann", "Ben", "Cleo", "Dmitri", "Eve", "Fatima"]),
    ("paper-toss", ["Ann", "Ben"]),
    ("toss-your-cookies", ["Ann", "Ben", "Cleo"]),
    ("sorry-21", ["Ann", "Ben", "Cleo", "Dmitri"]),
])
def test_the_turn_mark_keeps_clear_of_the_name_on_a_tv(browser, live_server, game, players):
    # The ▶ column was 22 px wide whatever the type's size: on a TV the mark ran into the name
    version = start(live_server, game, players)
    page = open_tv(browser, live_server, version)
    snap(page, f"tv-{game}")
    where = page.evaluate(MARK)
    assert where["mark"] + 8 <= where["name"], where
    assert not page.js_errors
    page.context.close()


def test_the_cookies_setup_helper_is_open_on_a_tv(browser, live_server):
    # A folded "+ Setup" on a television that nobody can tap open
    version = start(live_server, "toss-your-cookies", ["Ann", "Ben", "Cleo", "Dmitri", "Eve"])
    page = open_tv(browser, live_server, version)
    snap(page, "tv-cookies-setup")
    helper = page.locator("details.setup")
    assert helper.get_attribute("open") is not None
    marker = "getComputedStyle(document.querySelector('details.setup > summary'), '::before').content"
    assert page.evaluate(marker) == "none"  # no "–" inviting a tap that cannot be made
    assert page.get_by_text("5 sets of 6, 2 wild, 2 half-eaten and the milk").is_visible()
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")  # still fits
    assert not page.js_errors
    page.context.close()


#: The join QR card, the chart card and every other card of the board, in CSS pixels.
BOXES = """() => { const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const cards = [...document.querySelectorAll('#board .panel > * , #board .panel > .main > *, #board .panel > .side > *')]
    .filter((el) => !el.matches('.main, .side, .tv-join') && getComputedStyle(el).display !== 'contents');
  const chart = document.querySelector('#chart');
  return {join: box(document.querySelector('.tv-join')), chart: chart && box(chart),
          cards: cards.map(box), width: innerWidth, height: innerHeight,
          scrolls: document.documentElement.scrollHeight > innerHeight}; }"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and \
        a["top"] < b["bottom"] and b["top"] < a["bottom"]


def toss_up_turns(turns: int) -> list[dict[str, Any]]:
    """Whole turns (two rolls and a bank each), then the next player's first roll."""
    actions: list[dict[str, Any]] = []
    for n in range(turns):
        actions += [{"type": "roll", "green": 6, "yellow": 3, "red": 1},
                    {"type": "roll", "green": 1 + n % 3, "yellow": 3 - n % 3, "red": 0},
                    {"type": "bank"}]
    return [*actions, {"type": "roll", "green": 5, "yellow": 4, "red": 1}]


# 1920x1080 only: at 1280x720 the type's floor (17.5 px, tv14) leaves no room for the chart,
# which drops out (test_browser_tv_small.py); the code then stands where it fits
@pytest.mark.parametrize("size", [TV])
@pytest.mark.parametrize("players", [3, 6])
def test_the_join_code_sits_under_toss_ups_chart_not_in_a_strip_of_its_own(
        browser, live_server, players, size):
    # The QR code had a strip of its own down the right edge, 250 px wide with nothing
    # above it; under the chart it leaves that width to the cards and their type.
    names = ["Ann", "Bartholomew", "Cleo", "Dmitri", "Eve", "Fatima"][:players]
    version = start(live_server, "toss-up", names, *toss_up_turns(2 * players))
    page = browser.new_context(viewport=size).new_page()
    page.goto(live_server.url + "/tv")
    page.wait_for_selector(f'#board[data-version="{version}"]')
    boxes = page.evaluate(BOXES)
    snap(page, f"tv-join-{players}-{size['width']}")
    join, chart = boxes["join"], boxes["chart"]
    assert chart["right"] >= boxes["width"] - 60, "the cards leave a strip at the right edge"
    assert chart["left"] - 2 <= join["left"] and join["right"] <= chart["right"] + 2
    assert join["top"] >= chart["bottom"], "the QR code is under the chart"
    assert join["bottom"] <= boxes["height"] and not boxes["scrolls"]
    assert not any(overlaps(join, card) for card in boxes["cards"])
    page.context.close()


def test_five_paper_tales_realms_keep_the_join_code_clear_of_every_card(browser, live_server):
    # Both columns are full there: the code keeps its strip beside them, covering nothing
    version = start(live_server, "paper-tales", ["Ann", "Bartholomew", "Cleo", "Dmitri", "Eve"],
                    {"type": "start"}, {"type": "next"})
    page = open_tv(browser, live_server, version)
    boxes = page.evaluate(BOXES)
    assert boxes["join"]["bottom"] <= boxes["height"] and not boxes["scrolls"]
    assert not any(overlaps(boxes["join"], card) for card in boxes["cards"])
    assert not page.js_errors
    page.context.close()


@pytest.mark.parametrize("size", [{"width": 800, "height": 480}, {"width": 720, "height": 400}])
def test_on_a_small_screen_the_join_code_stays_on_screen(browser, live_server, size):
    # 800x480 is the Pi's own touchscreen: the board fits nowhere even at the base type
    # size, and a column's foot fell below the bottom of a page that is never scrolled
    names = ["Ann", "Bartholomew", "Cleo", "Dmitri", "Eve"]
    version = start(live_server, "toss-up", names, *toss_up_turns(10))
    page = browser.new_context(viewport=size).new_page()
    page.goto(live_server.url + "/tv")
    page.wait_for_selector(f'#board[data-version="{version}"]')
    join = page.evaluate(BOXES)["join"]
    assert 0 <= join["top"] and join["bottom"] <= size["height"], join
    page.context.close()
