"""Headless Chromium on what the pages say of the camera, game by game: Paper Tales is kept
by taps alone, so nothing on its pages pretends the camera reads it; an offline camera
is not said to show a live picture; without a deck the pages say so.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser_review import open_host, open_page, snap

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game, reads", [("paper-tales", False), ("toss-up", True),
                                         ("sorry-21", True)])
def test_the_host_page_says_when_the_camera_reads_nothing(browser, live_server, game, reads):
    # Paper Tales' host page showed the camera preview and offered to teach its 42 Units,
    # though the camera never reads a Paper Tales card
    assert live_server.request("POST", "/api/games", {"game": game,
                                                      "players": ["Ann", "Ben"]})[0] == 201
    live_server.app.extensions["companion"].session.set_extra(
        "camera", {"online": True, "status": "camera online"})
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"]')
    host.wait_for_selector("#preview-card", state="visible")
    host.click("#preview-card summary")
    if game == "sorry-21":  # Teach cards only for a game whose cards the camera reads
        host.click("#teach-card summary")
        host.wait_for_selector("#teach-game option", state="attached")
    snap(host, f"camera-host-{game}")
    assert host.is_visible("#preview-idle") is not reads
    if not reads:
        assert host.inner_text("#preview-idle").startswith(
            "The camera reads nothing in Paper Tales: the host taps what happens.")
    if game == "sorry-21":
        teachable = host.locator("#teach-game option").all_inner_texts()
        assert "Paper Tales" not in teachable and "Sorry! Revenge" in teachable
    else:
        assert host.is_hidden("#teach-card")
    assert not host.js_errors
    host.context.close()


def test_the_paper_tales_phone_shows_no_camera(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    live_server.app.extensions["companion"].session.set_extra(
        "camera", {"online": True, "status": "camera online"})
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector('#board[data-version="1"] .player-name')
    assert phone.locator("#camera-saw").count() == 0
    assert "camera" not in phone.inner_text("#board").lower()
    assert not phone.js_errors
    phone.context.close()


def test_an_offline_camera_is_not_said_to_show_a_live_picture(browser, live_server):
    # Toss Up!'s host said "The live picture is in Camera preview below." under
    # "Camera · offline"
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    session = live_server.app.extensions["companion"].session
    session.set_extra("camera", {"online": True, "status": "camera online"})
    host = open_host(browser, live_server)
    host.wait_for_selector("#camera-live")
    session.set_extra("camera", {"online": False, "status": "camera offline: unplugged"})
    host.wait_for_selector("#controls .touch-title:text-is('Camera · offline')")
    assert host.locator("#camera-live").count() == 0
    assert "camera offline: unplugged" in host.inner_text("#controls")
    assert not host.js_errors
    host.context.close()


def test_without_a_deck_the_pages_say_so_not_that_no_card_is_in_view(browser, live_server):
    # Sorry!'s host said "No known card in view." above "No deck taught for this game
    # yet...", and the phones "No card of this deck in view", as if the camera were reading
    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    session = live_server.app.extensions["companion"].session
    session.set_extra("camera", {"online": True, "status": "camera online"})
    no_deck = "No deck taught for this game yet: open Teach cards on the host page."
    session.set_extra("cards", {"seen": [], "offer": None, "message": no_deck, "unsure": [],
                                "for_host": True})
    host = open_host(browser, live_server)
    phone = open_page(browser, live_server.url + "/")
    host.wait_for_selector(f"#controls .hint:text-is('{no_deck}')")
    # the phones say it for players, not the host's instructions (review 11)
    plain = "The camera does not know this game's cards yet: the host can teach them."
    phone.wait_for_selector(f"#camera-message:text-is(\"{plain}\")")
    assert host.locator("#camera-cards").count() == 0
    assert phone.locator("#camera-cards").count() == 0
    session.set_extra("cards", {"seen": [], "offer": None, "message": None, "unsure": []})
    host.wait_for_selector("#camera-cards:text-is('No known card in view.')")  # a deck, no card
    phone.wait_for_selector("#camera-cards:text-is('No card of this deck in view')")
    assert not host.js_errors and not phone.js_errors
    for page in (host, phone):
        page.context.close()
