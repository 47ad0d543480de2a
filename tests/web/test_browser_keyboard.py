"""Headless Chromium on the host page with a keyboard only: the control pressed keeps the
focus after the controls are drawn again (ux14: "+ green" Enter x3 counted 1 and focus fell
back to the page), in every game's steppers, player picks and card buttons.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_browser_review import open_host, snap

pytestmark = pytest.mark.browser

FOCUSED_LABEL = "document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent)"


def _host_on(browser: Any, live_server: Any, game: str, players: list[str]) -> Any:
    assert live_server.request("POST", "/api/games", {"game": game, "players": players})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"] #controls:not([hidden])')
    return host


def test_enter_three_times_on_plus_green_counts_three(browser, live_server):
    host = _host_on(browser, live_server, "toss-up", ["Ann", "Ben"])
    host.focus('button[aria-label="One more green"]')
    for _ in range(3):
        host.keyboard.press("Enter")
    snap(host, "uxfix14-kbd-green")
    assert host.inner_text("#count-green") == "3"
    assert host.evaluate(FOCUSED_LABEL) == "One more green"
    assert not host.js_errors
    host.context.close()


def test_a_disabled_plus_hands_focus_on_not_to_the_page(browser, live_server):
    # the last die counted disables every "+": focus goes to the next control, not <body>
    host = _host_on(browser, live_server, "toss-up", ["Ann", "Ben"])
    host.focus('button[aria-label="One more red"]')
    for _ in range(10):
        host.keyboard.press("Enter")
    assert host.inner_text("#count-red") == "10"
    # not onto Record roll (rev14): one Enter more (a key held down) would have recorded it
    assert host.evaluate(FOCUSED_LABEL) == "One red fewer"
    host.focus("#record-roll")
    host.keyboard.press("Enter")  # records the roll: a red light, Ben's turn
    host.wait_for_selector('body[data-version="2"]')
    assert host.evaluate("document.activeElement !== document.body")
    assert not host.js_errors
    host.context.close()


def test_a_second_enter_after_record_roll_does_not_bank(browser, live_server):
    # Record roll comes back disabled (nothing counted): focus went on to Bank, so a
    # second Enter banked the turn nobody chose to end; it goes to the next roll's count
    host = _host_on(browser, live_server, "toss-up", ["Ann", "Ben"])
    host.focus('button[aria-label="One more green"]')
    for _ in range(4):
        host.keyboard.press("Enter")
    host.focus('button[aria-label="One more yellow"]')
    for _ in range(6):
        host.keyboard.press("Enter")
    host.focus("#record-roll")
    host.keyboard.press("Enter")  # Ann rolled 4 green, 6 yellow: 4 points, 6 dice in hand
    host.wait_for_selector('body[data-version="2"]')
    assert host.evaluate(FOCUSED_LABEL) == "One more green"
    host.keyboard.press("Enter")
    assert host.inner_text("#count-green") == "1"
    state = live_server.request("GET", "/api/state")[1]
    assert (state["current"], state["turn"]["points"]) == (0, 4), "not banked"
    assert not host.js_errors
    host.context.close()


def test_paper_tales_amount_and_player_pick_keep_focus(browser, live_server):
    host = _host_on(browser, live_server, "paper-tales", ["Ann", "Ben", "Cy"])
    host.focus('button[aria-label="Amount plus 1"]')
    host.keyboard.press("Enter")
    host.keyboard.press("Enter")
    assert host.evaluate(FOCUSED_LABEL) == "Amount plus 1"
    assert host.inner_text(".touch-section:has(.stepper) .step-count") == "3"
    ben = '.touch-section:has(.stepper) button.choice:text-is("Ben")'
    host.focus(ben)
    host.keyboard.press("Enter")
    assert host.get_attribute(ben, "aria-pressed") == "true"
    assert host.evaluate(FOCUSED_LABEL) == "Ben"
    host.keyboard.press("Tab")  # on from Ben, not from the top of the page
    assert host.evaluate(FOCUSED_LABEL) == "Cy"
    assert not host.js_errors
    host.context.close()


def test_a_sorry_number_card_keeps_focus_across_the_new_state(browser, live_server):
    host = _host_on(browser, live_server, "sorry-21", ["Ann", "Ben"])
    five = '[aria-label="Number cards"] button:text-is("5")'
    host.focus(five)
    host.keyboard.press("Enter")  # Ann plays 5: the companion answers with version 2
    host.wait_for_selector('body[data-version="2"]')
    assert host.evaluate(FOCUSED_LABEL) == "5"
    host.keyboard.press("Enter")  # Ben plays 5
    host.wait_for_selector('body[data-version="3"]')
    assert live_server.request("GET", "/api/state")[1]["total"] == 10
    assert host.evaluate(FOCUSED_LABEL) == "5"
    assert not host.js_errors
    host.context.close()
