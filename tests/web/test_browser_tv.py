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
