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

from tests.web.browser_support import unlock_host
pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}

#: True when no element on the page reaches past the right edge of the phone's screen.
#: (Not `innerWidth`: a mobile browser widens its layout viewport to fit content that is
#: too wide, zooming the page out, so `innerWidth` grows with the very overflow checked.)
FITS_WIDTH = ("[...document.querySelectorAll('body *')].every("
              "e => e.getBoundingClientRect().right <= screen.width + 1)")




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
    """The generic panel and generic host forms come from the registry alone: every game
    has its own now, so the test takes Paper Toss's away in the pages."""
    game = "paper-toss"
    phone.evaluate(f"delete Panels['{game}']")
    status, _ = live_server.request("POST", "/api/games",
                                    {"game": game, "players": ["Ann", "Ben", "<b>Cy</b>"]})
    assert status == 201
    shown_version(phone, 1, timeout=5000)
    assert phone.locator(".panel.generic").count() == 1
    board = phone.inner_text("#board")
    assert "Ann" in board and "<b>Cy</b>" in board
    host = host_page(browser, live_server)
    host.wait_for_selector("#controls button")
    host.evaluate(f"delete HostControls['{game}']; Host.render(Host.state)")
    host.click('#controls button:text-is("toss")')
    shown_version(phone, 2)
    assert live_server.request("GET", "/api/state")[1]["recent"][-1]["type"] == "toss"
    host.context.close()


# -- every game's panel and host controls, cues, themes, join QR ------------------------

GAME_STEPS = {
    # game: (players, options, host button to tap, what the phone shows after it)
    "toss-up": (["Ann", "Ben"], {}, None, None),
    "paper-toss": (["Ann", "Ben", "Cy"], {}, "#toss", "#step-text"),
    "sorry-21": (["Ann", "Ben", "Cy"], {}, '.choices[aria-label="Number cards"] button:text-is("7")',
                 "#pile-total"),
    "toss-your-cookies": (["Ann", "Ben", "Cy"], {"countdown_seconds": 30}, "#toss-now",
                          "#countdown"),
    "paper-tales": (["Ann", "Ben", "Cy"], {}, "#timer-toggle", "#phase-timer"),
}


def host_page(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/login")
    unlock_host(page, live_server)
    page.js_errors = errors
    return page


@pytest.mark.parametrize("game", sorted(GAME_STEPS))
def test_every_game_has_a_panel_and_host_controls(browser, phone, live_server, shots, game):
    players, options, button, shown = GAME_STEPS[game]
    status, _ = live_server.request("POST", "/api/games",
                                    {"game": game, "players": players, "options": options})
    assert status == 201
    shown_version(phone, 1, timeout=5000)
    assert phone.locator(f".panel.{game}").count() == 1, "the game's own panel is shown"
    assert phone.locator(".player-name").all_inner_texts() == players
    host = host_page(browser, live_server)
    host.wait_for_selector("#controls button")
    assert host.locator("#controls .generic-actions").count() == 0, "the game's own controls"
    small = host.evaluate("""[...document.querySelectorAll('#controls button')]
        .filter(b => b.offsetParent && b.getBoundingClientRect().height < 44).length""")
    assert small == 0, "every visible host button is a large touch target"
    if button:
        host.click(button)
        shown_version(phone, 2)
        assert phone.locator(shown).count() == 1
    for theme in ("dark", "light"):
        phone.evaluate(f"localStorage.setItem('companion-theme', '{theme}'); Theme.apply()")
        phone.screenshot(path=str(shots / f"panel-{game}-{theme}.png"), full_page=True)
    host.screenshot(path=str(shots / f"host-{game}.png"), full_page=True)
    assert not host.js_errors
    host.context.close()


def test_countdown_is_called_out_and_timers_count_down(browser, phone, live_server):
    live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                               "players": ["Ann", "Ben", "Cy"],
                                               "options": {"countdown_seconds": 3}})
    shown_version(phone, 1, timeout=5000)
    live_server.request("POST", "/api/actions", {"type": "roll", "action": "toss", "number": 1})
    shown_version(phone, 2)
    # a few seconds' countdown is called out as counted: "3", "2", "1" (other timers m:ss)
    first = phone.inner_text("#countdown")
    assert first in ("1", "2", "3")
    # "One", "Two", "Three" then "Toss!", at the server's times (about 3 s)
    phone.wait_for_selector('body[data-cues~="go"]', timeout=6000)
    assert phone.evaluate("Cues.played").count("count") == 3
    assert phone.inner_text("#callout") == "Toss!"


def test_theme_and_mute_are_remembered_per_phone(phone, live_server):
    shown_version(phone, 0, timeout=5000)
    before = phone.get_attribute("html", "data-theme")
    phone.click("#theme")
    phone.click("#mute")
    after = phone.get_attribute("html", "data-theme")
    assert {before, after} == {"dark", "light"}
    phone.reload()
    shown_version(phone, 0, timeout=5000)
    assert phone.get_attribute("html", "data-theme") == after
    assert phone.get_attribute("#mute", "aria-pressed") == "true"
    assert phone.evaluate("Cues.muted") is True


def test_host_page_shows_the_join_qr_and_tv_mode_works(browser, phone, live_server):
    host = host_page(browser, live_server)
    host.wait_for_selector(".join-qr")
    assert host.is_hidden("#preview-card"), "no camera, no preview"
    assert host.evaluate("document.querySelector('.join-qr').naturalWidth") > 100
    assert host.inner_text("#join-url").startswith("http://")
    host.goto(live_server.url + "/tv")
    host.wait_for_selector(".tv-join img", state="attached")
    assert host.evaluate("document.documentElement.classList.contains('tv')")
    host.context.close()


def test_host_corrects_a_score_with_a_reason(browser, phone, live_server):
    live_server.request("POST", "/api/games", {"game": "sorry-21", "players": ["Ann", "Ben"]})
    shown_version(phone, 1, timeout=5000)
    host = host_page(browser, live_server)
    host.click("#correct-card summary")
    host.click('#correct-form button:text-is("Ben")')
    assert host.is_disabled("#correct-send"), "a correction needs a reason"
    host.fill("#correct-reason", "missed a bust")
    host.click("#correct-send")
    shown_version(phone, 2)
    assert phone.locator(".player-score").nth(1).inner_text() == "1"
    assert "missed a bust" in phone.inner_text("#toast")
    host.wait_for_selector('#recent li:first-child:has-text("Correction: Ben +1 (missed a bust)")')
    assert not host.js_errors
    host.context.close()


def test_phone_screenshots_light_dark_landscape_and_tv(browser, live_server, shots):
    """A Toss Up! game in full swing, as the README shows it; also checks the live extras."""
    request = live_server.request
    request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben", "Cleo"],
                                   "options": {"target": 30}})
    for roll in [(4, 5, 1), None, (3, 5, 2), (2, 4, 1), None, (0, 4, 6), (5, 3, 2), None,
                 (3, 6, 1), None, (2, 6, 2), None, (4, 3, 3)]:
        body = {"type": "bank"} if roll is None else dict(zip(("green", "yellow", "red"), roll),
                                                          type="roll")
        assert request("POST", "/api/actions", body)[0] == 200
    session = live_server.app.extensions["companion"].session
    # the real status names the camera spec: a long word that must not widen the page
    session.set_extra("camera", {"online": True, "status": "camera online "
                                 "(replay:/home/pi/companion/companion/demo/frames)"})
    session.set_extra("dice", {"seen": {"green": 2, "yellow": 3, "red": 1, "other": 0},
                               "offer": None, "message": None})
    version = request("GET", "/api/state")[1]["version"]
    for theme in ("light", "dark"):
        context = browser.new_context(**PHONE, color_scheme=theme)
        page = context.new_page()
        page.goto(live_server.url + "/")
        shown_version(page, version, timeout=5000)
        page.wait_for_selector("#camera-saw .chip.red")  # the live extras arrived
        assert page.evaluate(FITS_WIDTH), "nothing sticks out of the phone's screen"
        assert page.get_attribute("html", "data-theme") == theme
        assert page.locator("#chart polyline").count() == 3
        page.screenshot(path=str(shots / f"phone-{theme}.png"))
        page.screenshot(path=str(shots / f"phone-{theme}-full.png"), full_page=True)
        context.close()
    host = host_page(browser, live_server)
    host.wait_for_selector("#record-roll")
    for _ in range(2):
        host.click('[aria-label="One more green"]')
    assert host.is_visible("#preview-card"), "a companion with a camera offers the preview"
    assert "Sees 2 green · 3 yellow · 1 red" in host.inner_text("#controls")
    assert host.inner_text("#camera-waiting") == "Waiting for the next roll to settle."
    recent = host.locator("#recent li .recent-what").all_inner_texts()
    assert recent[0] == "Ann rolls 4 green · 3 yellow · 3 red"
    assert "Cleo rolls 0 green · 4 yellow · 6 red: red light" in recent
    assert "Ben banks 3 points" in recent  # the recent list says what a bank banked
    assert host.evaluate(FITS_WIDTH), "nothing sticks out of the phone's screen"
    host.screenshot(path=str(shots / "host-phone.png"))
    assert not host.js_errors
    host.context.close()
    context = browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(live_server.url + "/")
    shown_version(page, version, timeout=5000)
    page.screenshot(path=str(shots / "phone-landscape.png"))
    page.goto(live_server.url + "/tv")
    page.set_viewport_size({"width": 1280, "height": 720})
    shown_version(page, version, timeout=5000)
    page.screenshot(path=str(shots / "tv.png"))
    context.close()


def test_history_page_shows_wins_and_results(phone, live_server):
    request = live_server.request
    request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "<i>Bo</i>"],
                                   "options": {"target": 5}})
    for body in ({"type": "roll", "green": 6, "yellow": 4, "red": 0}, {"type": "bank"},
                 {"type": "roll", "green": 0, "yellow": 5, "red": 5}):
        assert request("POST", "/api/actions", body)[0] == 200
    phone.goto(live_server.url + "/history")
    phone.wait_for_selector('.stats-game[data-game="toss-up"] tbody tr')
    rows = phone.locator(".stats-table tbody tr").all_inner_texts()
    assert rows[0].split()[:3] == ["Ann", "1", "1"]  # a phone puts the name on a row of its own
    assert rows[1].startswith("<i>Bo</i>")
    assert phone.locator(".history-line .won").inner_text() == "Ann 6"
    request("POST", "/api/games", {"game": "sorry-21", "players": ["Ann", "Cy"]})
    phone.wait_for_selector('.games-list li[data-id="2"]')  # follows the table live


WALKS = {  # actions that take each game through its steps; the host page is checked at each
    "paper-toss": [{"type": "toss"}, {"type": "hazard", "player": "Ben", "card": "dog"},
                   {"type": "no-counter"}],
    "sorry-21": [{"type": "play", "card": "number-10"}, {"type": "play", "card": "number-10"},
                 {"type": "play", "card": "number-1"}, {"type": "steal", "player": "Ann"}],
    "toss-your-cookies": [{"type": "roll", "action": "toss", "number": 2}, {"type": "skip"},
                          {"type": "skip"}],
    "paper-tales": [{"type": "next"}, {"type": "next"}, {"type": "next"}, {"type": "next"}],
}


def test_host_controls_at_every_step(browser, phone, live_server):
    host = host_page(browser, live_server)
    version = 0
    for game, actions in WALKS.items():
        assert live_server.request("POST", "/api/games", {
            "game": game, "players": ["Ann", "Ben", "Cy"]})[0] == 201
        for action in [None, *actions]:
            if action:
                status, state = live_server.request("POST", "/api/actions", action)
                assert status == 200, state
            version += 1
            host.wait_for_selector(f'body[data-version="{version}"]')
            text = host.inner_text("#controls")
            assert "[object" not in text and "undefined" not in text, (game, action, text)
            assert host.locator("#controls button:visible").count() > 0, (game, action)
            shown_version(phone, version)
            assert "[object" not in phone.inner_text("#board"), (game, action)
        if game == "paper-toss":  # Ben's Dog stands: two Toss cards, Ben picks for Ann
            host.click('#controls .choices button:text-is("Perfect +2")')
            host.click('#controls .choices button:text-is("Window −1")')
            host.click("#flip-two")
            version += 1
            host.wait_for_selector(f'body[data-version="{version}"]')
            host.click('#controls .choices button:text-is("Window −1")')
            version += 1
            host.wait_for_selector(f'body[data-version="{version}"]')
            state = live_server.request("GET", "/api/state")[1]
            assert state["last_toss"]["flipped"] == ["perfect", "window"]
            assert state["last_toss"]["result"] == "window" and state["current"] == 1
        if game == "paper-tales":  # deployment: pick a player, then the Unit list opens
            for _ in range(3):  # back to Deployment
                assert live_server.request("POST", "/api/undo")[0] == 200
            version += 3
            host.wait_for_selector(f'body[data-version="{version}"]')
            host.click('#controls .choices button:text-is("Ben")')
            host.click('#controls summary:has-text("Add a Unit")')
            host.click('#controls .choices button:text-is("Archer")')
            host.click("#deploy")
            version += 1
            host.wait_for_selector(f'body[data-version="{version}"]')
            state = live_server.request("GET", "/api/state")[1]
            assert [u["unit"] for u in state["players"][1]["front"]] == ["archer"]
    assert not host.js_errors
    host.context.close()


def test_the_scoreboard_keeps_the_screen_on_where_the_browser_allows(phone):
    phone.wait_for_selector("body[data-wake]", timeout=5000)
    assert phone.get_attribute("body", "data-wake") == "on"
    phone.evaluate("Wake.lock.release()")  # what the browser does when the page is hidden
    phone.wait_for_selector("body[data-wake=off]", timeout=2000)
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone.wait_for_selector("body[data-wake=on]", timeout=2000)
