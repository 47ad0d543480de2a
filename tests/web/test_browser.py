"""Headless Debian Chromium through Playwright: the phone scoreboard follows the host live,
and a whole short game is played from the host page.

Never downloads a browser: it drives /usr/bin/chromium (apt's ``chromium``). Skipped with a
reason when that is missing, except under CI (the env var CI set), where it fails.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def phone(browser, live_server) -> Iterator[Any]:
    """A phone-sized page on the scoreboard that fails the test on any script dialog."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    yield page
    context.close()
    assert not dialogs, f"a script ran from player data: {dialogs}"
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where screenshots go: $COMPANION_SHOTS (to look at them) or the test's tmp folder."""
    folder = Path(os.environ.get("COMPANION_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shown_version(page: Any, version: int, timeout: float = 1000) -> None:
    page.wait_for_selector(f'#board[data-version="{version}"]', timeout=timeout)


def test_phone_scoreboard_follows_the_host_within_a_second(phone, live_server, shots):
    shown_version(phone, 0, timeout=5000)
    assert "Waiting for a game" in phone.inner_text("#board")
    phone.wait_for_selector('#conn[data-status="live"]', timeout=5000)
    status, _ = live_server.request("POST", "/api/games",
                                    {"game": "toss-up", "players": ["Ann", "<script>"]})
    assert status == 201
    shown_version(phone, 1)
    assert phone.inner_text("#now-name") == "Ann"
    assert phone.locator(".player-name").nth(1).inner_text() == "<script>"

    for version, roll, points in [(2, (3, 4, 3), "3"), (3, (2, 3, 2), "5")]:
        status, _ = live_server.request("POST", "/api/actions", {
            "type": "roll", "green": roll[0], "yellow": roll[1], "red": roll[2]})
        posted = time.monotonic()
        assert status == 200
        shown_version(phone, version)  # fails after 1 s
        assert time.monotonic() - posted < 1.0
        assert phone.inner_text("#turn-points") == points
    assert phone.inner_text("#dice-in-hand") == "5"
    phone.screenshot(path=str(shots / "test-phone-scoreboard.png"), full_page=True)

    live_server.request("POST", "/api/actions", {"type": "roll", "green": 0, "yellow": 2,
                                                 "red": 3})
    shown_version(phone, 4)
    assert phone.inner_text("#now-name") == "<script>"
    assert "red light" in phone.inner_text("#toast")


def test_stale_versions_are_ignored_and_wakeup_resyncs(phone, live_server):
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    shown_version(phone, 1, timeout=5000)
    # an old state arriving late (a slow fetch) must not replace a newer one
    phone.evaluate("""Live.accept({game: null, version: 0, players: [], current: null,
                                   over: false, winners: []})""")
    assert phone.get_attribute("#board", "data-version") == "1"
    # after phone sleep the page refetches the state (and reopens the stream if needed)
    phone.evaluate("Live.source.close(); Live.source = null")
    live_server.request("POST", "/api/actions", {"type": "roll", "green": 1, "yellow": 9,
                                                 "red": 0})
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    shown_version(phone, 2, timeout=3000)
    live_server.request("POST", "/api/actions", {"type": "bank"})
    shown_version(phone, 3, timeout=3000)  # the reopened stream delivers again


def tap(page: Any, label: str, times: int) -> None:
    for _ in range(times):
        page.click(f'[aria-label="{label}"]')


def enter_roll(host: Any, green: int, yellow: int, red: int) -> None:
    tap(host, "One more green", green)
    tap(host, "One more yellow", yellow)
    tap(host, "One more red", red)
    host.click("#record-roll")


def test_a_whole_game_from_the_host_page(browser, phone, live_server, shots):
    context = browser.new_context(**PHONE)
    host = context.new_page()
    host.goto(live_server.url + "/host")
    host.fill("#pin", "0000")
    host.click("text=Unlock")
    assert "not right" in host.inner_text(".error")
    host.fill("#pin", live_server.app.config["PIN"])
    host.click("text=Unlock")
    host.wait_for_selector("#new-game-form")

    names = host.locator("#player-list input")
    names.nth(0).fill("Ben")
    names.nth(1).fill("Ben")
    host.click("#start")
    host.wait_for_selector("#error:not([hidden])")
    assert "same name" in host.inner_text("#error")
    names.nth(1).fill("Ann")
    host.click('#player-list li:nth-child(2) [aria-label="Move up"]')  # Ann sits first
    host.click("#add-player")
    names.nth(2).fill("Cleo")
    host.fill('#options input[name="target"]', "5")
    host.click("#start")
    host.wait_for_selector("#record-roll")
    shown_version(phone, 1)
    assert host.inner_text(".turn-who") == "Ann rolls"
    assert [p.inner_text() for p in phone.locator(".player-name").all()] == ["Ann", "Ben",
                                                                             "Cleo"]

    tap(host, "One more green", 6)
    assert host.is_disabled("#record-roll") and host.is_disabled("#bank")
    assert "6 of 10" in host.inner_text("#dice-check")
    tap(host, "One more yellow", 4)
    assert host.inner_text("#dice-check") == "All 10 dice counted"
    host.click("#record-roll")
    shown_version(phone, 2)
    assert phone.inner_text("#turn-points") == "6"
    host.click("#bank")  # Ann has 6 > 5: Ben and Cleo get one last turn each
    shown_version(phone, 3)
    assert "final round" in phone.inner_text(".banner").lower()

    enter_roll(host, 2, 8, 0)
    shown_version(phone, 4)
    host.click("#undo")
    shown_version(phone, 5)
    assert phone.inner_text("#turn-points") == "0"
    enter_roll(host, 3, 7, 0)
    host.click("#bank")
    shown_version(phone, 7)
    enter_roll(host, 0, 5, 5)  # Cleo runs a red light: the game ends
    shown_version(phone, 8)
    assert phone.inner_text(".winner-names") == "Ann"
    assert "Game over" in host.inner_text("#status")
    host.screenshot(path=str(shots / "test-host-over.png"), full_page=True)
    phone.screenshot(path=str(shots / "test-phone-winner.png"), full_page=True)
    state = live_server.request("GET", "/api/state")[1]
    assert state["over"] and state["winners"] == ["Ann"]
    assert [p["score"] for p in state["players"]] == [6, 3, 0]
    context.close()


def test_a_game_without_its_own_panel_still_shows_and_plays(browser, phone, live_server):
    """The generic panel and generic host forms come from the registry alone."""
    game = "paper-toss"
    static = Path(__file__).parents[2] / "web" / "static" / "js"
    if (static / "host" / "paper_toss.js").exists():
        pytest.skip("paper-toss has its own host controls now")
    status, _ = live_server.request("POST", "/api/games",
                                    {"game": game, "players": ["Ann", "Ben", "<b>Cy</b>"]})
    assert status == 201
    shown_version(phone, 1, timeout=5000)
    board = phone.inner_text("#board")
    assert "Ann" in board and "<b>Cy</b>" in board
    context = browser.new_context(**PHONE)
    host = context.new_page()
    host.goto(live_server.url + "/login")
    host.fill("#pin", live_server.app.config["PIN"])
    host.click("text=Unlock")
    host.click('#controls button:text-is("toss")')
    shown_version(phone, 2)
    assert live_server.request("GET", "/api/state")[1]["recent"][-1]["type"] == "toss"
    context.close()
