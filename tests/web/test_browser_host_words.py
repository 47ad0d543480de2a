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
