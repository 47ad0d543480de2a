"""Headless Chromium on what a new group of players met on the host page (ux14): Confirm
sends the camera's offer it showed, the New game form follows the table's players, an
empty name row between two names is said, Sorry!'s steal reads as one story, the score
chips mark a player who left.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.camera_link import DiceLink
from tests.web.test_browser_review import open_host, snap
from vision.results import DiceReading

pytestmark = pytest.mark.browser


def test_confirm_sends_the_offer_its_button_showed(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})[0] == 201
    companion = live_server.app.extensions["companion"]
    companion.camera = link = DiceLink(companion.session)
    companion.session.set_extra("camera", {"online": True, "status": "camera online"})
    host = open_host(browser, live_server)
    link.on_reading(DiceReading(green=4, yellow=4, red=2))
    host.wait_for_selector("#confirm-camera")
    assert host.inner_text("#confirm-camera") == "Confirm: 4 green · 4 yellow · 2 red"
    with host.expect_request("**/api/camera/confirm") as sent:
        host.click("#confirm-camera")
    assert json.loads(sent.value.post_data)["offer"] == {"type": "roll", "green": 4, "yellow": 4, "red": 2}
    host.wait_for_selector('body[data-version="2"]')
    assert not host.js_errors
    host.context.close()


def _form_names(host: Any) -> list[str]:
    return host.eval_on_selector_all("#player-list input", "els => els.map((e) => e.value)")


def test_the_new_game_form_follows_renames_and_leaves_out_who_left(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben", "Cleo", "Dee"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"]')
    assert _form_names(host) == ["Ann", "Ben", "Cleo", "Dee"]
    assert live_server.request("POST", "/api/actions", {"type": "rename", "player": 1, "name": "Benjamin"})[0] == 200
    assert live_server.request("POST", "/api/actions", {"type": "leave", "player": "Dee"})[0] == 200
    host.wait_for_selector('body[data-version="3"]')
    host.click("#new-game summary")
    snap(host, "uxfix14-newgame-follows")
    assert _form_names(host) == ["Ann", "Benjamin", "Cleo"]
    host.fill("#player-list li:nth-child(3) input", "Cy")  # still the host's to edit ...
    assert live_server.request("POST", "/api/actions", {"type": "rename", "player": 0, "name": "Anna"})[0] == 200
    host.wait_for_selector('body[data-version="4"]')
    # ... and an edit is never overwritten, while a rename still takes its player's row
    # (NewGame.renamed: the typo does not come back with the next game)
    assert _form_names(host) == ["Anna", "Benjamin", "Cy"]
    assert not host.js_errors
    host.context.close()


def test_an_empty_row_between_names_is_said_not_dropped(browser, live_server):
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="0"]')
    host.fill("#player-list li:nth-child(1) input", "Ann")
    host.click("#add-player")
    host.click("#add-player")
    host.fill("#player-list li:nth-child(3) input", "Cleo")
    host.click("#add-player")  # a fourth row, left empty at the end: not a player, no fuss
    host.click("#start")
    host.wait_for_selector("#error:not([hidden])")
    snap(host, "uxfix14-newgame-gap")
    assert host.inner_text("#error") == "Player 2 has no name: type one, or remove the row with ✕."
    assert host.evaluate("document.activeElement.getAttribute('aria-label')") == "Player 2 name"
    assert live_server.request("GET", "/api/state")[1]["game"] is None, "no game started"
    host.fill("#player-list li:nth-child(2) input", "Ben")
    host.click("#start")
    host.wait_for_selector('body[data-version="1"]')
    assert [p["name"] for p in live_server.request("GET", "/api/state")[1]["players"]] == ["Ann", "Ben", "Cleo"]
    assert not host.js_errors
    host.context.close()


def test_a_sorry_steal_reads_as_one_story(browser, live_server):
    # ux14: "Cleo steals Ben's 21" above a section headed "CLEO PLAYED SORRY! ON BEN"
    assert live_server.request("POST", "/api/games", {"game": "sorry-21", "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    for action in ({"type": "play", "card": "slide-21"}, {"type": "steal", "player": "Cleo"}):
        assert live_server.request("POST", "/api/actions", action)[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="3"] #block')
    snap(host, "uxfix14-sorry-steal")
    assert host.inner_text(".turn-who").startswith("Cleo steals Ann's 21")
    title = host.locator(".touch-section:has(#block) .touch-title").text_content()
    assert title == "Cleo steals Ann's 21: does Ann block?"
    assert not host.js_errors
    host.context.close()


def test_the_score_chips_mark_a_player_who_left(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "leave", "player": "Ben"})[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="2"] .status-scores')
    chips = host.locator(".status-scores .mini").all_inner_texts()
    assert [" ".join(c.split()) for c in chips] == ["Ann 0", "Ben 0 · left", "Cleo 0"]
    assert host.locator(".status-scores .mini.left").count() == 1
    assert not host.js_errors
    host.context.close()


@pytest.mark.parametrize("width", [320, 390])
def test_the_history_stats_fit_a_small_phone_and_names_break_between_words(browser, live_server, width):
    long = "Bartholomew-Maximilian Featherstonehaugh"
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", long],
                                                      "options": {"target": 5}})[0] == 201
    for action in ({"type": "roll", "green": 6, "yellow": 4, "red": 0}, {"type": "bank"},
                   {"type": "roll", "green": 1, "yellow": 9, "red": 0}, {"type": "bank"}):
        assert live_server.request("POST", "/api/actions", action)[0] == 200
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(live_server.url + "/history")
    page.wait_for_selector(".stats-table td")
    snap(page, f"uxfix14-history-{width}")
    card = page.locator(".stats-game").bounding_box()
    for cell in page.locator(".stats-table th:visible, .stats-table td").all():
        box = cell.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5, cell.inner_text()
        assert cell.evaluate("el => el.scrollWidth <= el.clientWidth"), cell.inner_text()  # nothing cut
    name = page.locator(f'.stats-table td:text-is("{long}")')
    lines = name.evaluate("el => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))")
    assert lines <= 3, "broken inside words (it took 11 lines at 320 px)"  # 3 words: Bartholomew- Maximilian ...
    page.context.close()


def test_paper_toss_skips_tag_leaves_a_short_name_whole_at_320_px(browser, live_server):
    # ux14: "Ben" was cut to "B…" beside its "skips 1" tag on a 320 px phone
    assert live_server.request("POST", "/api/games", {"game": "paper-toss", "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "flat-tire", "target": "Ben"})[0] == 200
    page = browser.new_context(viewport={"width": 320, "height": 700}).new_page()
    page.goto(live_server.url + "/")
    page.wait_for_selector('#board[data-version="2"] .pending.warn')
    snap(page, "uxfix14-paper-toss-skips-320")
    for name in page.locator(".players .player-name").all():
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth"), name.inner_text()
        assert name.evaluate("el => !el.style.fontSize"), "shrunk to fit"
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.context.close()


def test_the_phones_undone_toast_says_what_was_undone(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "roll", "green": 4, "yellow": 6, "red": 0})[0] == 200
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(live_server.url + "/")
    phone.wait_for_selector('#board[data-version="2"]')
    assert live_server.request("POST", "/api/undo")[0] == 200
    phone.wait_for_selector("#toast:not([hidden])")
    snap(phone, "uxfix14-undone-toast")
    assert phone.inner_text("#toast") == "Undone: Ann's roll"
    phone.context.close()
