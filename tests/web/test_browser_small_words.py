"""Headless Chromium on small things a player meets on the scoreboards: Toss Your Cookies'
roll toast says the two dice as the table says them; the TV shows no phone buttons.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser_review import open_page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("roll, toast", [
    ({"action": "swap", "number": "milk"}, "Ann rolled Swap · Milk"),
    ({"action": "pass-left", "number": 2}, "Ann rolled Pass left · 2"),
    ({"action": "pass-right", "number": "all"}, "Ann rolled Pass right · All"),
])
def test_the_roll_toast_says_the_dice_in_the_tables_words(browser, live_server, roll, toast):
    # "Ann rolled swap milk", "Ann rolled pass left 2"
    assert live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector('#board[data-version="1"]')
    assert live_server.request("POST", "/api/actions", {"type": "roll", **roll})[0] == 200
    phone.wait_for_selector(f'#toast:text-is("{toast}")')
    assert not phone.js_errors
    phone.context.close()


def test_the_tv_shows_no_buttons_for_the_phones(browser, live_server):
    # Sorry!'s "Say totals: off" button sat on the TV, which nobody taps
    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    tv = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    tv.goto(live_server.url + "/tv")
    tv.wait_for_selector('#board[data-version="1"] #pile-total')
    assert tv.locator("#speech").count() == 1 and tv.is_hidden("#speech")
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector("#speech")
    assert phone.is_visible("#speech"), "phones keep it"
    for page in (tv, phone):
        page.context.close()
