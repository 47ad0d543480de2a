"""Headless Chromium on session 13's rules review: Paper Tales after an undo across a
phase timer's end, its untimed phases, and the host's Recent list naming players.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.test_browser_review import open_host, open_page, snap

pytestmark = pytest.mark.browser


def run_out(live_server: Any) -> dict:
    """Wait for the running timer's deadline, then tick the session as the server's timer
    loop does (``companion serve`` runs it; the test app does not); the new state."""
    session = live_server.app.extensions["companion"].session
    end = time.monotonic() + 10
    while session.tick() is None and time.monotonic() < end:
        time.sleep(0.05)
    return session.state()


def test_undo_after_a_phase_ran_out_shows_times_up_not_a_running_zero(browser, live_server):
    # auto_advance: start, the minute runs out, undo: the phone showed a red "0 left" and
    # the host a Pause button, the timer "running" with its deadline in the past
    assert live_server.request("POST", "/api/games", {
        "game": "paper-tales", "players": ["Ann", "Ben", "Cy"],
        "options": {"auto_advance": True, "phase_seconds": {"recruitment": 0.5}}})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "start"})[0] == 200
    assert run_out(live_server)["phase"] == "deployment"
    status, undone = live_server.request("POST", "/api/undo")
    assert status == 200 and undone["phase"] == "recruitment"
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector(f'#board[data-version="{undone["version"]}"] #phase-name')
    snap(phone, "review13-undo-timesup-phone")
    box = phone.locator(".countdown-box")
    assert "Time's up!" in box.inner_text() and "left" not in box.inner_text()
    host = open_host(browser, live_server)
    host.wait_for_selector(f'body[data-version="{undone["version"]}"] #timer-toggle')
    snap(host, "review13-undo-timesup-host")
    assert host.inner_text("#timer-toggle") == "Resume"
    assert host.is_disabled("#timer-toggle"), "nothing left to resume"
    assert host.is_enabled("#add-time") and host.is_enabled("#next-phase")
    assert not phone.js_errors and not host.js_errors


@pytest.mark.parametrize("view, size", [("/", (390, 844)), ("/tv", (1920, 1080))])
def test_an_untimed_phase_shows_no_timer_and_no_bar(browser, live_server, view, size):
    # the Wars (untimed by default) showed a big grey dash above "no timer"
    assert live_server.request("POST", "/api/games", {
        "game": "paper-tales", "players": ["Ann", "Ben", "Cy"]})[0] == 201
    for phase in ("recruitment", "deployment"):
        assert live_server.request("POST", "/api/actions", {"type": "next", "phase": phase})[0] == 200
    state = live_server.request("GET", "/api/state")[1]
    assert (state["phase"], state["timer"]) == ("wars", None)
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + view)
    page.wait_for_selector(f'[data-version="{state["version"]}"] .countdown-box')
    snap(page, f"review13-untimed-{'tv' if view == '/tv' else 'phone'}")
    box = page.locator(".countdown-box")
    assert box.locator(".clock").count() == 0
    assert box.inner_text().strip() == "no timer"
    assert not page.js_errors
    page.context.close()


#: Per game: actions naming players by name (any case) and by seat, and the Recent lines
#: the host page must show for them, newest first.
RECENT = {
    "paper-tales": (
        [{"type": "gold", "player": "ann", "amount": 2}, {"type": "next", "phase": "recruitment"},
         {"type": "deploy", "player": "Ben", "front": ["knight"], "back": []},
         {"type": "lp", "player": 2, "amount": 1},
         {"type": "correct", "player": "Cy", "delta": 5, "reason": "found"}],
        ["Correction: Cy +5 (found)", "+1 LP for Cy", "Ben deploys Knight", "Next phase",
         "+2 Gold for Ann"]),
    "toss-your-cookies": (
        [{"type": "correct", "player": 1, "delta": 1, "reason": "last night"},
         {"type": "claim", "player": "cy"}, {"type": "snickerdoodle", "player": "Cy"}],
        ["Snickerdoodle! Cy", "Snickerdoodle? Cy shows the hand",
         "Correction: Ben +1 (last night)"]),
    "paper-toss": (
        [{"type": "leave", "player": 2}, {"type": "toss"},
         {"type": "hazard", "player": 1, "card": "dog"}, {"type": "counter", "card": "food"},
         {"type": "bully", "target": "ann"}],
        ["Bully on Ann", "Counter: Food (Dog)", "Hazard: Ben plays Dog", "Ann tosses",
         "Cy leaves the table"]),
    "sorry-21": (
        [{"type": "play", "card": "number-5"}, {"type": "leave", "player": 2}],
        ["Cy leaves the table", "Ann plays 5"]),
}


@pytest.mark.parametrize("game", sorted(RECENT))
def test_the_recent_list_names_players_given_by_name_or_by_seat(browser, live_server, game):
    # "seat Ann1 deploys Knight", "Correction: seat Ben1 +5", "seat Cy1", "Hazard: 1 plays Dog"
    actions, expected = RECENT[game]
    assert live_server.request("POST", "/api/games", {
        "game": game, "players": ["Ann", "Ben", "Cy"]})[0] == 201
    for action in actions:
        status, state = live_server.request("POST", "/api/actions", action)
        assert status == 200, state
    host = open_host(browser, live_server)
    host.wait_for_selector(f'body[data-version="{state["version"]}"] #recent li')
    snap(host, f"review13-recent-{game}")
    lines = host.locator("#recent .recent-what").all_inner_texts()
    assert lines == expected
    assert not host.js_errors
    host.context.close()


def test_the_host_records_a_fresh_copy_of_an_aged_unit_and_a_temple_paid_in_gold(
        browser, live_server):
    # neither could be entered from the host page (session 13)
    def act(*actions: dict) -> dict:
        for action in actions:
            status, state = live_server.request("POST", "/api/actions", action)
            assert status == 200, state
        return state

    def next_to(phase: str, turn: int) -> dict:
        state = live_server.request("GET", "/api/state")[1]
        while (state["phase"], state["turn"]) != (phase, turn):
            state = act({"type": "next"})
        return state

    assert live_server.request("POST", "/api/games", {
        "game": "paper-tales", "players": ["Ann", "Ben", "Cy"]})[0] == 201
    next_to("deployment", 1)
    act({"type": "deploy", "player": 0, "front": ["knight"], "back": []})
    state = next_to("deployment", 2)
    host = open_host(browser, live_server)
    host.wait_for_selector(f'body[data-version="{state["version"]}"] .touch-section')
    section = host.locator(".touch-section", has=host.locator("h3", has_text="Deployment"))
    section.locator(".choice", has_text="Ann").click()
    host.click("#fresh-copy summary")
    host.locator("#fresh-copy .choice", has_text="Knight (aged)").click()
    snap(host, "review13-fresh-copy-host")
    host.click("#deploy")
    host.wait_for_selector(f'body[data-version="{state["version"] + 1}"]')
    ann = live_server.request("GET", "/api/state")[1]["players"][0]
    assert [(u["unit"], u["aged"]) for u in ann["front"]] == [("knight", False)]
    assert ann["gold"] == 3 - 1 + 2 - 1
    assert host.locator("#recent .recent-what").first.inner_text() == \
        "Ann deploys Knight (fresh Knight)"
    state = next_to("construction", 2)
    host.wait_for_selector(f'body[data-version="{state["version"]}"] .touch-section')
    section = host.locator(".touch-section", has=host.locator("h3", has_text="Construction"))
    section.locator(".choice", has_text="Ann").click()
    section.locator(".choice", has_text="Temple: 2 Gold").click()
    section.locator('.choice[data-value=\'"temple"\']').click()
    host.wait_for_selector(f'body[data-version="{state["version"] + 1}"]')
    snap(host, "review13-temple-gold-host")
    ann = live_server.request("GET", "/api/state")[1]["players"][0]
    assert ann["buildings"]["temple"] == 1 and ann["gold"] == 3 + 2 - 2
    assert host.locator("#recent .recent-what").first.inner_text() == \
        "Ann builds Temple level 1 (2 Gold for its Crystal)"
    assert not host.js_errors
    host.context.close()


@pytest.mark.parametrize("game", ["toss-your-cookies", "paper-tales"])
def test_the_host_renames_a_player_and_a_clash_is_refused_in_one_line(browser, live_server,
                                                                       game):
    assert live_server.request("POST", "/api/games", {
        "game": game, "players": ["Ann", "Bea", "Cy"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"] #rename-card')
    host.click("#rename-card summary")
    host.click('#rename-form button:text-is("Bea")')
    assert host.input_value("#rename-name") == "Bea"
    assert host.is_disabled("#rename-send"), "the same name is no rename"
    host.fill("#rename-name", "Ben")
    host.click("#rename-send")
    host.wait_for_selector('body[data-version="2"]')
    assert [p["name"] for p in live_server.request("GET", "/api/state")[1]["players"]] == [
        "Ann", "Ben", "Cy"]
    assert host.locator("#recent .recent-what").first.inner_text() == "Renamed Bea to Ben"
    assert "Ben" in host.inner_text("#status")
    host.click("#rename-card summary")
    host.click('#rename-form button:text-is("Ben")')
    host.fill("#rename-name", "ann")
    host.click("#rename-send")
    host.wait_for_selector("#error:not([hidden])")
    snap(host, f"review13-rename-{game}")
    assert host.inner_text("#error") == "Ann is already at this table; choose another name."
    assert not host.js_errors
    host.context.close()
