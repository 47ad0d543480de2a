"""Headless Chromium on what a first-time user's review found (session 11): a double tap
sends its action once, the "cannot be reached" banner goes when the stream is back, a
Paper Tales tie says it was won on Gold, and the smaller wording points.

A first user double-tapped "Record roll" in Toss Up! and the roll was recorded twice (a
red light then passed the next player's turn silently); a double-tapped Bank said "Ben
must roll before banking"; two Undo taps for one mistake took back two actions.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser_support import unlock_host
from tests.web.test_browser_review import snap

pytestmark = pytest.mark.browser

#: Two taps in one go, before the first request can come back.
DOUBLE_TAP = "(sel) => { const b = document.querySelector(sel); b.click(); b.click(); }"


def open_host(browser: Any, live_server: Any) -> Any:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + "/login")
    return unlock_host(page, live_server)


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'body[data-version="{version}"]')


def test_double_taps_record_one_roll_one_bank_one_undo(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    page = open_host(browser, live_server)
    wait_version(page, 1)
    for _ in range(3):
        page.click("#controls .stepper.green .step.plus")
    for _ in range(4):
        page.click("#controls .stepper.yellow .step.plus")
    for _ in range(3):
        page.click("#controls .stepper.red .step.plus")
    snap(page, "review11-toss-up-counted")
    page.evaluate(DOUBLE_TAP, "#record-roll")
    wait_version(page, 2)
    state = live_server.request("GET", "/api/state")[1]
    assert state["turn"]["rolls"] == 1 and state["version"] == 2

    page.evaluate(DOUBLE_TAP, "#bank")
    wait_version(page, 3)
    assert page.locator("#error").is_hidden()  # no "Ben must roll before banking"
    state = live_server.request("GET", "/api/state")[1]
    assert state["version"] == 3 and state["players"][0]["score"] == 3

    page.evaluate(DOUBLE_TAP, "#undo")
    wait_version(page, 4)
    page.wait_for_timeout(300)  # a second undo, if sent, would land now
    state = live_server.request("GET", "/api/state")[1]
    assert state["version"] == 4 and state["turn"]["rolls"] == 1 and state["current"] == 0
    assert page.js_errors == []


def test_the_host_page_sends_the_version_it_shows(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    page = open_host(browser, live_server)
    wait_version(page, 1)
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/undo")
            or r.url.endswith("/api/actions") else None)
    live_server.request("POST", "/api/actions", {"type": "roll", "green": 3, "yellow": 4, "red": 3})
    wait_version(page, 2)
    with page.expect_response("**/api/actions"):
        page.click("#bank")
    wait_version(page, 3)
    with page.expect_response("**/api/undo"):
        page.click("#undo")
    assert sent == [{"type": "bank", "version": 2}, {"version": 3}]


def test_the_unreachable_banner_goes_when_the_stream_reopens(browser, live_server):
    """The companion is back but nothing changed meanwhile (same version): no new state
    comes, yet the red banner must go once the live stream is open again."""
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    live_server.request("POST", "/api/actions", {"type": "roll", "green": 3, "yellow": 4, "red": 3})
    page = open_host(browser, live_server)
    wait_version(page, 2)
    page.route("**/api/actions", lambda route: route.abort())  # the Wi-Fi drops
    page.click("#bank")
    page.wait_for_selector("#error:has-text('cannot be reached')")
    page.unroute("**/api/actions")
    page.evaluate("() => Live.open()")  # what EventSource does when it reconnects
    page.wait_for_selector("#error", state="hidden")
    assert live_server.request("GET", "/api/state")[1]["version"] == 2


def test_a_paper_tales_tie_says_it_was_won_on_gold(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "paper-tales", "players": ["Ann", "Ben"]})
    live_server.request("POST", "/api/actions", {"type": "gold", "player": 0, "amount": 12})
    while live_server.request("GET", "/api/state")[1]["phase"] != "tally":
        assert live_server.request("POST", "/api/actions", {"type": "next"})[0] == 200
    status, state = live_server.request("POST", "/api/actions",
                                        {"type": "tally", "building_lp": [4, 4]})
    assert status == 200 and state["winners"] == ["Ann"]
    sentence = "Ann wins the tie on Gold: 23 to 11."
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(live_server.url + "/")
    assert phone.text_content("#tie-break") == sentence
    host = open_host(browser, live_server)
    wait_version(host, state["version"])  # "Loading the table…" until the first state arrives
    assert sentence in host.text_content("#status")
    snap(phone, "review11-tales-tie-phone")
    snap(host, "review11-tales-tie-host")


def test_paper_tales_timer_words_and_recent_wars(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "paper-tales", "players": ["Ann", "Ben"],
                                               "options": {"phase_seconds": {"recruitment": 26}}})
    host = open_host(browser, live_server)
    host.wait_for_selector("#host-clock")
    # the first phase waits for Start: its clock stands at the limit, in minutes and
    # seconds, not a bare "26"
    assert host.text_content("#host-clock") == "0:26"
    while live_server.request("GET", "/api/state")[1]["phase"] != "wars":
        assert live_server.request("POST", "/api/actions", {"type": "next"})[0] == 200
    host.wait_for_selector("#no-timer")
    assert host.text_content("#no-timer") == "No timer in this phase"
    assert host.is_disabled("#timer-toggle") and host.is_disabled("#add-time")
    snap(host, "review11-tales-wars-no-timer")
    assert live_server.request("POST", "/api/actions", {"type": "wars", "strengths": [3, 1]})[0] == 200
    host.wait_for_selector("#recent li:has-text('Wars scored')")
    first = host.locator("#recent li .recent-what").first.text_content()
    assert first == "Wars scored: Ann 3, Ben 1"
    assert host.js_errors == []


def test_sorry_play_2_offers_only_number_cards(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "sorry-21", "players": ["Ann", "Ben", "Cy"]})
    assert live_server.request("POST", "/api/actions", {"type": "play", "card": "play-2"})[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector("#play2-hint")
    assert host.text_content("#play2-hint") == "Play 2: only number cards until 2 more are played."
    for card in ("slide-10", "switch", "draw-2", "play-2"):
        assert host.is_disabled(f'#controls button[data-value=\'"{card}"\']'), card
    assert not host.is_disabled('#controls button[data-value=\'"number-5"\']')
    assert host.locator("#controls summary:has-text('SORRY!')").count() == 0
    snap(host, "review11-sorry-play-2")
    host.click('#controls button[data-value=\'"number-5"\']')
    host.wait_for_selector("#play2-hint:has-text('until 1 more is played')")
    assert host.js_errors == []
