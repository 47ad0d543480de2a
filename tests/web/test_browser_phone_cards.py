"""Headless Chromium on the phone scoreboard of the card games: what the camera read of the
cards on the table, as the host page shows it.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.camera_link import CardLink
from tests.web.test_browser_review import open_host, open_page, snap

pytestmark = pytest.mark.browser


def start(live_server: Any, game: str, *actions: dict[str, Any]) -> Any:
    """A three-player game with ``actions`` played; the app's companion, camera online."""
    assert live_server.request("POST", "/api/games", {"game": game,
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    for action in actions:
        status, body = live_server.request("POST", "/api/actions", action)
        assert status == 200, body
    companion = live_server.app.extensions["companion"]
    companion.session.set_extra("camera", {"online": True, "status": "camera online"})
    return companion


@pytest.mark.parametrize("game, before, seen, shown, offer", [
    ("sorry-21", [], ("number-7",), ["7"], "Waiting for the host to confirm: Ann plays 7"),
    ("paper-toss", [{"type": "toss"}], ("perfect",), ["Perfect"],
     "Waiting for the host to confirm: flip Perfect"),
])
def test_the_phone_shows_the_card_the_camera_named_and_its_offer(browser, live_server, game,
                                                                before, seen, shown, offer):
    # the dice game's phone said what the camera saw; the card games' phones said nothing
    companion = start(live_server, game, *before)
    link = CardLink(companion.session)
    companion.camera = link  # the recognition loop's confirm(), without a real camera
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector("#camera-saw .cam-status.on")
    assert phone.inner_text("#camera-cards") == "No card of this deck in view"
    link.on_cards(seen)
    phone.wait_for_selector("#camera-offer")
    assert phone.locator("#camera-cards .card-face").all_inner_texts() == shown
    assert phone.inner_text("#camera-offer") == offer
    snap(phone, f"phone-camera-cards-{game}")
    host = open_host(browser, live_server)
    host.click("#confirm-camera")
    phone.wait_for_selector("#camera-offer", state="detached")  # applied: no longer waiting
    assert phone.locator("#camera-cards .card-face").all_inner_texts() == shown
    assert not phone.js_errors and not host.js_errors
    for page in (phone, host):
        page.context.close()


def test_the_phone_says_when_the_camera_is_unsure_or_offline(browser, live_server):
    companion = start(live_server, "paper-toss", {"type": "toss"})
    link = CardLink(companion.session)
    phone = open_page(browser, live_server.url + "/")
    host = open_host(browser, live_server)
    link.on_cards((), unsure=(("perfect", "good-throw"),))
    phone.wait_for_selector("#camera-unsure")
    assert phone.inner_text("#camera-unsure") == "Unsure: Perfect or Good Throw?"
    assert phone.inner_text("#camera-cards") == "No card it is sure of"
    assert phone.locator("#camera-offer").count() == 0, "nothing offered on a doubt"
    host.wait_for_selector("#camera-unsure")
    assert host.inner_text("#camera-unsure") == "Unsure: Perfect +2 or Good Throw +1?"  # host words
    companion.session.set_extra("camera", {"online": False, "status": "camera offline: unplugged"})
    phone.wait_for_selector("#camera-saw .cam-status.off")
    assert phone.text_content("#camera-saw .label") == "The camera last saw"
    snap(phone, "phone-camera-cards-unsure-offline")
    assert not phone.js_errors and not host.js_errors
    for page in (phone, host):
        page.context.close()


def test_the_phone_shows_the_hand_the_camera_sees_in_a_snickerdoodle(browser, live_server):
    companion = start(live_server, "toss-your-cookies", {"type": "claim", "player": 1})
    link = CardLink(companion.session)
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector("#claim-seen")
    assert phone.inner_text("#claim-seen") == "Waiting for the hand, face up under the camera."
    cookie = companion.session.state()["setup"]["cookies"][0]
    link.on_cards((cookie["id"],) * 4 + ("wild",), unsure=(("milk", None),))
    phone.wait_for_selector("#claim-verdict")
    name = cookie["name"].removesuffix(" Cookie")
    assert phone.inner_text("#claim-seen") == f"The camera sees: 4 × {name} · Wild"
    assert phone.inner_text("#camera-unsure") == "Unsure: Milk?"
    snap(phone, "phone-camera-cards-snickerdoodle")
    host = open_host(browser, live_server)  # the host page words the hand as the phone does
    host.wait_for_selector("#claim-verdict")
    assert host.inner_text("#claim-seen") == f"The camera sees: 4 × {name} · Wild"
    assert host.inner_text("#camera-unsure") == "Unsure: Milk?"
    assert not phone.js_errors and not host.js_errors
    for page in (phone, host):
        page.context.close()


def test_the_phones_word_a_missing_deck_for_players_in_a_snickerdoodle(browser, live_server):
    # the claim on the phones read "No deck taught ... open Teach cards on the host page, or
    # run companion deck learn --game toss-your-cookies" (ux14): the host's instructions
    companion = start(live_server, "toss-your-cookies", {"type": "claim", "player": 1})
    no_deck = "No deck taught for this game yet: open Teach cards on the host page."
    companion.session.set_extra("cards", {"seen": [], "offer": None, "message": no_deck,
                                          "unsure": [], "for_host": True})
    phone = open_page(browser, live_server.url + "/")
    host = open_host(browser, live_server)
    phone.wait_for_selector("#claim-verdict")
    assert phone.inner_text("#claim-verdict") == (
        "The camera does not know this game's cards yet: the host can teach them.")
    host.wait_for_selector("#claim-verdict")
    assert host.inner_text("#claim-verdict") == no_deck  # the host is told what to do
    assert not phone.js_errors and not host.js_errors
    for page in (phone, host):
        page.context.close()
