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
