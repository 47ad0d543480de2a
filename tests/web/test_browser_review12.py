"""Headless Chromium on session 11's review: "Teach cards" only where the running game
uses cards the camera reads, and the TV page's two columns for a big table.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser_review import open_host, snap

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game, offered", [(None, True), ("toss-up", False),
                                           ("paper-tales", False), ("sorry-21", True),
                                           ("toss-your-cookies", True)])
def test_teach_cards_is_offered_only_for_a_game_whose_cards_the_camera_reads(
        browser, live_server, game, offered):
    # Toss Up! (dice) and Paper Tales (kept by taps) offered a "Teach cards" panel
    if game is not None:
        assert live_server.request("POST", "/api/games", {
            "game": game, "players": ["Ann", "Ben", "Cy"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector(f'body[data-version="{1 if game else 0}"]')
    snap(host, f"review12-teach-{game}")
    assert host.is_visible("#teach-card") is offered
    assert not host.js_errors
    host.context.close()


def test_teach_cards_goes_when_a_dice_game_starts_and_its_live_picture_stops(
        browser, live_server):
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="0"]')
    host.click("#teach-card summary")
    host.wait_for_selector("#teach-game option", state="attached")
    assert live_server.request("POST", "/api/games", {
        "game": "toss-up", "players": ["Ann", "Ben"]})[0] == 201
    host.wait_for_selector('body[data-version="1"]')
    assert host.is_hidden("#teach-card")
    assert host.evaluate("document.getElementById('teach-card').open") is False
    assert host.get_attribute("#teach-live", "src") is None
    assert not host.js_errors
    host.context.close()


#: Per scores list on the page: how many columns its rows stand in, and its rows' bottom.
SCORE_COLUMNS = """() => [...document.querySelectorAll('.players')].map((list) => {
  const rows = [...list.children].map((li) => li.getBoundingClientRect());
  return {columns: new Set(rows.map((r) => Math.round(r.left))).size,
          bottom: Math.max(...rows.map((r) => r.bottom))}; })"""
EIGHT = ["Ann", "Bartholomew", "Cy", "Dorothea", "Eli", "Francesca", "Gus", "Hildegard"]


@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)])
def test_eight_players_on_the_tv_stand_in_two_columns(browser, live_server, size):
    # one column of eight rows left the type as small as the screen's height allowed
    # (8.9 px on the Pi's 800x480) beside half a screen of empty columns
    assert live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                                      "players": EIGHT})[0] == 201
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + "/tv")
    page.wait_for_selector('#board[data-version="1"] .player')
    snap(page, f"review12-tv-8-{width}")
    lists = page.evaluate(SCORE_COLUMNS)
    assert [entry["columns"] for entry in lists] == [2]
    assert lists[0]["bottom"] <= height, "every score on the screen"
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert not page.js_errors
    page.context.close()


@pytest.mark.parametrize("game, players", [("toss-up", 3), ("sorry-21", 4), ("paper-toss", 2)])
def test_a_small_table_keeps_one_column_of_scores_on_the_tv(browser, live_server, game,
                                                           players):
    assert live_server.request("POST", "/api/games", {"game": game,
                                                      "players": EIGHT[:players]})[0] == 201
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(live_server.url + "/tv")
    page.wait_for_selector('#board[data-version="1"] .player')
    assert [entry["columns"] for entry in page.evaluate(SCORE_COLUMNS)] == [1]
    page.context.close()


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one character seen


def test_the_name_field_takes_forty_characters_as_a_person_counts_them(browser, live_server):
    # the field's maxlength counted UTF-16 units: a family emoji took 11 of its 40
    host = open_host(browser, live_server)
    field = host.locator("#player-list input").first
    field.fill("")
    field.focus()
    host.keyboard.insert_text(FAMILY * 40)
    assert field.input_value() == FAMILY * 40
    assert not host.js_errors
    host.context.close()
