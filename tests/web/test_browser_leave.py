"""Headless Chromium: a Toss Up! player leaves the table from the host page, and every
scoreboard shows them as gone.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser_review import open_host, open_page, snap

pytestmark = pytest.mark.browser


def test_the_host_taps_who_leaves_and_the_scoreboard_shows_them_gone(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    host = open_host(browser, live_server)
    host.click("#leave-picker summary")
    host.click("#leave-picker button:has-text('Ben')")
    host.wait_for_selector("#recent li:has-text('Ben leaves the table')")
    state = live_server.request("GET", "/api/state")[1]
    assert [p["left"] for p in state["players"]] == [False, True, False]
    # with two players left, nobody else may leave: the picker is gone
    assert host.locator("#leave-picker").count() == 0
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
