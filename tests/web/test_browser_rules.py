"""Headless Chromium on rulings the pages must show: a Toss Up! player leaves the table
from the host page and every scoreboard shows them as gone; the longer Sorry! game says
which flips sent a pawn back to START.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser_review import open_host, open_page, snap

pytestmark = pytest.mark.browser


def _leaves_from_the_host_page(browser, live_server, game: str, who: str):
    """Ann, Ben and Cleo play ``game``; ``who`` leaves through the host page's picker,
    which then goes (two players stay). The host page, for more."""
    assert live_server.request("POST", "/api/games", {"game": game,
                                                      "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    host = open_host(browser, live_server)
    host.click("#leave-picker summary")
    host.click(f"#leave-picker button:has-text('{who}')")
    host.wait_for_selector(f"#recent li:has-text('{who} leaves the table')")
    state = live_server.request("GET", "/api/state")[1]
    assert [p["left"] for p in state["players"]] == [p == who for p in ("Ann", "Ben", "Cleo")]
    assert host.locator("#leave-picker").count() == 0  # two players stay
    return host


def test_the_host_taps_who_leaves_and_the_scoreboard_shows_them_gone(browser, live_server):
    host = _leaves_from_the_host_page(browser, live_server, "toss-up", "Ben")
    state = live_server.request("GET", "/api/state")[1]
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    rows = phone.locator(".player")
    assert rows.nth(1).evaluate("e => e.classList.contains('left')")
    assert phone.locator(".player.left").count() == 1
    after = rows.nth(1).locator(".player-name").evaluate(
        "e => getComputedStyle(e, '::after').content")
    assert "left" in after
    snap(phone, "leave-phone")
    assert not host.js_errors and not phone.js_errors
    host.context.close()
    phone.context.close()


def test_the_longer_sorry_game_says_a_flip_sent_a_pawn_back_to_start(browser, live_server):
    # "pawn HOME for Ben" was shown when Ben's flip sent a pawn back to START
    assert live_server.request("POST", "/api/games", {"game": "sorry-21", "players": [
        "Ann", "Ben", "Cy"], "options": {"longer": True}})[0] == 201
    for action in ({"type": "correct", "player": 1, "delta": 4, "reason": "all HOME"},
                   {"type": "play", "card": "number-10"}, {"type": "play", "card": "number-10"},
                   {"type": "play", "card": "number-5"}):
        status, state = live_server.request("POST", "/api/actions", action)
        assert status == 200, state
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    assert phone.inner_text("#last-round") == (
        "Round 1: Cy busted at 25 · pawn HOME for Ann · pawn back to START for Ben")
    # the score is flips earned (8 win), not pawns HOME: "first to 8 wins" misled
    assert phone.inner_text(".sorry-21 .table .label") == (
        "PAWN FLIPS · ALL 4 HOME, THEN ALL 4 BACK TO START WINS")
    assert not phone.js_errors
    phone.context.close()


def test_a_paper_toss_player_leaves_between_tosses_from_the_host_page(browser, live_server):
    host = _leaves_from_the_host_page(browser, live_server, "paper-toss", "Cleo")
    host.click("text=Bully or Flat Tire")
    bully = host.locator(".touch-sub").first
    assert bully.locator("button:has-text('Cleo')").is_disabled()
    assert not host.js_errors
    host.context.close()


def test_a_sorry_player_leaves_between_cards_from_the_host_page(browser, live_server):
    host = _leaves_from_the_host_page(browser, live_server, "sorry-21", "Ben")
    assert not host.js_errors
    host.context.close()


def test_a_player_who_left_is_never_shown_leading(browser, live_server):
    # Cy left with 30 and Ann has 20: Cy's dimmed row was shown as the leader, Ann's was not
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    for action in ({"type": "correct", "player": 2, "delta": 30, "reason": "a lost bank"},
                   {"type": "correct", "player": 0, "delta": 20, "reason": "a lost bank"},
                   {"type": "leave", "player": 2}):
        status, state = live_server.request("POST", "/api/actions", action)
        assert status == 200, state
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    rows = phone.locator(".player")
    classes = [rows.nth(i).evaluate("e => [...e.classList]") for i in range(3)]
    assert "left" in classes[2] and "leading" not in classes[2]
    assert "leading" in classes[0] and "leading" not in classes[1]
    assert not phone.js_errors
    phone.context.close()
