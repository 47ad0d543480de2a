"""Headless Chromium on small things a player meets on the scoreboards: Toss Your Cookies'
roll toast says the two dice as the table says them; the TV shows no phone buttons; the
Sorry! host page says who made the 21 that waits; a folded card's title is level with its +; the goal reads "first to 1 wins", not "1 wins".

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.browser_support import unlock_host
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


def test_the_host_page_says_it_is_loading_until_the_table_arrives(browser, live_server):
    # on a busy Pi the host page first showed two empty cards and a Recent list with no
    # actions, as if the table were empty
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    page = open_page(browser, live_server.url + "/login")
    page.fill("#pin", live_server.app.config["PIN"])
    held, released = [], []

    def hold(route):  # the live stream (and the state) do not answer until released
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/events", hold)
    page.route("**/api/state", hold)
    page.click("text=Unlock")
    page.wait_for_selector("#new-game-form", state="attached")
    assert page.inner_text("#status") == "Loading the table…"
    assert page.is_hidden("#controls") and page.is_hidden("#undo-card")
    released.append(True)
    for route in held:
        route.continue_()
    page.wait_for_selector('body[data-version="1"]')
    assert "Ann" in page.inner_text("#status")
    assert page.is_visible("#controls") and page.is_visible("#undo-card")
    assert not page.js_errors
    page.context.close()


def test_the_sorry_host_page_heads_a_waiting_21_with_who_made_it(browser, live_server):
    # "Ann plays · total 21" above "Cleo made 21: steal it with SORRY!?"
    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    for card in ("number-7", "number-10", "number-4"):  # Cleo's 4 makes 21
        assert live_server.request("POST", "/api/actions", {"type": "play", "card": card})[0] == 200
    host = open_page(browser, live_server.url + "/login")
    unlock_host(host, live_server)
    host.wait_for_selector('body[data-version="4"]')
    assert host.inner_text("#controls .turn-who") == "Cleo made 21 · total 21"
    assert not host.js_errors
    host.context.close()


def test_a_folded_cards_title_is_level_with_its_plus(browser, live_server):
    # Toss Your Cookies' "SETUP" sat 3 px above the middle of its "+"
    assert live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector("details.setup summary .label")
    title = phone.locator("details.setup summary .label").bounding_box()
    row = phone.locator("details.setup summary").bounding_box()
    assert abs((title["y"] + title["height"] / 2) - (row["y"] + row["height"] / 2)) <= 1
    phone.context.close()


@pytest.mark.parametrize("game, options, label", [
    ("paper-toss", {"target": 1}, "Paper Tokens · first to 1 wins"),
    ("sorry-21", {}, "Pawns HOME · first to 4 wins"),
])
def test_the_scores_say_what_wins(browser, live_server, game, options, label):
    # "Paper Tokens · 1 wins", "Pawns HOME · 4 wins"
    assert live_server.request("POST", "/api/games", {"game": game, "players": ["Ann", "Ben"],
                                                      "options": options})[0] == 201
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector(".table .label")
    assert phone.inner_text(".table .label").lower() == label.lower()  # drawn in capitals
    phone.context.close()
