"""Headless Chromium on what a first real user met: the history page on a phone, the new
game form's options, Paper Tales' Unit picker and recent actions, the Sorry! total.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser_support import unlock_host
pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
#: The page's width in CSS pixels. A mobile browser widens its layout viewport (and
#: zooms the page out) to fit content that is too wide, so `innerWidth` would grow with it.
PAGE_WIDTH = "document.documentElement.scrollWidth"


def snap(page: Any, name: str) -> None:
    """A full-page screenshot into $COMPANION_SHOTS, when set (to look at)."""
    if os.environ.get("COMPANION_SHOTS"):
        folder = Path(os.environ["COMPANION_SHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def open_page(browser: Any, url: str) -> Any:
    """A phone-sized page; JavaScript errors collected in ``page.js_errors``."""
    page = browser.new_context(**PHONE).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(url)
    return page


def open_host(browser: Any, live_server: Any) -> Any:
    page = open_page(browser, live_server.url + "/login")
    return unlock_host(page, live_server)


def finish_toss_up(live_server: Any, players: list[str]) -> None:
    """A two-player Toss Up! game to 5 won by the first player."""
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": players,
                                                      "options": {"target": 5}})[0] == 201
    for action in ({"type": "roll", "green": 6, "yellow": 4, "red": 0}, {"type": "bank"},
                   {"type": "roll", "green": 1, "yellow": 9, "red": 0}, {"type": "bank"}):
        assert live_server.request("POST", "/api/actions", action)[0] == 200
    assert live_server.request("GET", "/api/state")[1]["over"]


def test_the_history_page_fits_a_phone(browser, live_server):
    finish_toss_up(live_server, ["Bartholomew-Maximilian Longname", "Cleo"])
    page = open_page(browser, live_server.url + "/history")
    page.wait_for_selector(".stats-table")
    snap(page, "review-history-phone")
    assert page.evaluate(PAGE_WIDTH) <= 390, "the phone would show the page zoomed out"
    best = page.locator(".stats-table td").last.bounding_box()  # the last column, Best
    assert best["x"] + best["width"] <= 390, "the table's columns are cut off"
    assert not page.js_errors
    page.context.close()


def test_only_the_newest_unfinished_game_is_still_playing(browser, live_server):
    for players in (["Ann", "Ben"], ["Cy", "Di"]):  # the second game replaces the first
        assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                          "players": players})[0] == 201
    page = open_page(browser, live_server.url + "/history")
    page.wait_for_selector(".games-list li")
    newest, left = (page.inner_text(f".games-list li:nth-child({n}) .label") for n in (1, 2))
    assert newest.lower().endswith("still playing")
    assert left.lower().endswith("not finished")
    assert not page.js_errors
    page.context.close()


def test_new_game_options_are_fields_a_host_can_read(browser, live_server):
    host = open_host(browser, live_server)
    host.select_option("#game-select", "paper-tales")
    shown = host.locator("#options input").evaluate_all("inputs => inputs.map(i => i.value)")
    assert not [v for v in shown if v.startswith("{") or v == "null"], shown
    labels = host.locator("#options .option-group label").all_inner_texts()
    assert labels[:3] == ["Recruitment", "Deployment", "Wars"], "the phases in play order"
    host.fill('#options input[name="recruitment"]', "45")
    names = host.locator("#player-list input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Ben")
    snap(host, "review-options-paper-tales")
    host.click("#start")
    host.wait_for_selector("#next-phase")
    state = live_server.request("GET", "/api/state")[1]
    assert state["timer"]["duration"] == 45
    assert state["phase_seconds"]["deployment"] == 90, "the other phases keep their defaults"

    host.click("#new-game summary") if not host.is_visible("#game-select") else None
    host.select_option("#game-select", "toss-your-cookies")
    cookies = host.locator('#options input[name="cookies"]')
    assert cookies.input_value() == "", "empty: the game's default cookies"
    host.click("#add-player")
    host.locator("#player-list input").nth(2).fill("Cy")
    host.click("#start")
    host.click("#start")  # the second tap ends the running game
    host.wait_for_selector("#virtual-roll")
    state = live_server.request("GET", "/api/state")[1]
    assert state["game"] == "toss-your-cookies" and len(state["setup"]["cookies"]) == 3
    assert not host.js_errors
    host.context.close()


#: The texts of the buttons matching a selector that break a word across lines (more line
#: boxes than words), e.g. "adventu/rer" in a narrow grid cell.
SPLIT_WORDS = """buttons => buttons.filter(b => {
  const range = document.createRange(); range.selectNodeContents(b);
  const lines = new Set([...range.getClientRects()].map(r => Math.round(r.bottom))).size;
  return lines > b.textContent.trim().split(/\\s+/).length;
}).map(b => b.textContent)"""


def test_paper_tales_units_are_named_whole_and_recent_says_who(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "next"})[0] == 200  # Deployment
    host = open_host(browser, live_server)
    deploy = host.locator("section.touch-section", has_text="Deployment")
    deploy.locator("button.choice", has_text="Ann").click()
    deploy.locator("summary").click()
    units = host.locator('.choices[aria-label="Unit"] button')
    names = units.all_inner_texts()
    assert "Cave Spirit" in names and "Relic of Wisdom" in names and "cave-spirit" not in names
    assert units.evaluate_all(SPLIT_WORDS) == []
    snap(host, "review-paper-tales-units")
    units.filter(has_text="Cave Spirit").click()
    assert host.inner_text('.choices button:has-text("Front:")') == "Front: Cave Spirit"
    host.click("#deploy")
    host.wait_for_selector("#recent li:has-text('Ann deploys Cave Spirit')")
    ledger = host.locator("section.touch-section", has_text="Gold and Legend Points")
    ledger.locator("button.choice", has_text="Ben").click()
    ledger.locator("button", has_text="+1 LP").click()
    host.wait_for_selector("#recent li:has-text('+1 LP for Ben')")
    assert "seat" not in host.inner_text("#recent")
    assert not host.js_errors
    host.context.close()


def test_paper_toss_hazards_are_whole_words_on_a_phone(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "paper-toss",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "toss"})[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector('.choices[aria-label="Hazard card"]')
    assert host.locator(".choices button").evaluate_all(SPLIT_WORDS) == []
    host.context.close()


def test_a_paused_cookies_countdown_offers_resume_not_a_refused_plus_30(browser, live_server):
    assert live_server.request("POST", "/api/games", {
        "game": "toss-your-cookies", "players": ["Ann", "Ben", "Cy"],
        "options": {"countdown_seconds": 30}})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "toss"})[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector("#add-time:enabled")  # running: more time is fine
    host.click("#timer-toggle")
    host.wait_for_selector('body[data-version="3"]')
    assert host.inner_text("#timer-toggle") == "Resume"
    assert host.is_disabled("#add-time"), "the game refuses time for a paused countdown"
    host.click("#timer-toggle")
    host.wait_for_selector('body[data-version="4"]')
    assert host.inner_text("#timer-toggle") == "Pause" and host.is_enabled("#add-time")
    assert not host.js_errors
    host.context.close()


def test_the_sorry_total_says_how_far_to_go(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector("#pile-total")
    assert phone.inner_text(".sorry-now .step-text") == "21 to go"  # not "21 to 21"
    assert live_server.request("POST", "/api/actions", {"type": "play", "card": "number-8"})[0] == 200
    phone.wait_for_selector('#board[data-version="2"]')
    assert phone.inner_text(".sorry-now .step-text") == "13 to go"
    phone.context.close()


#: How many lines an element's text takes.
LINES = """el => { const range = document.createRange(); range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map(r => Math.round(r.bottom))).size; }"""


@pytest.mark.parametrize("where, viewport", [("/tv", {"width": 1366, "height": 768}),
                                             ("/", {"width": 390, "height": 844})])
def test_paper_tales_phase_names_stay_whole(browser, live_server, where, viewport):
    # "Recruitmen/t" on a 1366 x 768 television
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(live_server.url + where)
    for version, phase in enumerate(["Recruitment", "Deployment", "Wars", "Income",
                                     "Construction", "Aging"], start=1):
        page.wait_for_selector(f'#board[data-version="{version}"]')
        assert page.inner_text("#phase-name") == phase
        assert page.locator("#phase-name").evaluate(LINES) == 1, phase
        assert live_server.request("POST", "/api/actions", {"type": "next"})[0] == 200
    page.context.close()


def test_recent_actions_read_as_table_words(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "paper-toss",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    for action in ({"type": "toss"}, {"type": "flip", "cards": ["sprinklers"]},
                   {"type": "sprinklers", "discard": True}, {"type": "bully", "target": "Ann"},
                   {"type": "flat-tire", "target": "Cy"}):
        assert live_server.request("POST", "/api/actions", action)[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="6"]')
    recent = host.inner_text("#recent")
    for said in ("Sprinklers: a second card discarded, +1", "Bully on Ann", "Flat Tire on Cy"):
        assert said in recent
    assert "discard true" not in recent and "flat-tire" not in recent
    assert host.inner_text(".turn-meta") == "Toss or pass"  # not "step: turn"

    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "play", "card": "slide-15"})[0] == 200
    host.wait_for_selector('body[data-version="8"]')
    assert host.inner_text("#recent li .recent-what") == "Ann plays Slide 15"  # not "Play slide-15"
    assert not host.js_errors
    host.context.close()


def test_a_phone_says_in_words_when_it_lost_the_companion(browser, live_server):
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector('#conn[data-status="live"]', timeout=5000)
    text = phone.locator("#conn .conn-text")
    assert text.bounding_box()["width"] <= 1, "live: the green dot alone"
    for status, said in (("reconnecting", "Reconnecting"), ("offline", "Offline")):
        phone.evaluate(f"Live.setStatus('{status}')")  # what a Wi-Fi drop sets
        assert text.inner_text() == said
        assert text.bounding_box()["width"] > 40, f"{status}: only an orange dot on a phone"
    assert phone.evaluate(PAGE_WIDTH) <= 390
    phone.context.close()


def test_the_chart_of_a_finished_paper_tales_game_has_no_fifth_turn(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    version = 1
    while live_server.request("GET", "/api/state")[1]["phase"] != "tally":
        assert live_server.request("POST", "/api/actions", {"type": "next"})[0] == 200
        version += 1
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector(f'#board[data-version="{version}"]')
    assert phone.locator("#chart .chart-axis").last.text_content() == "turn 4"
    assert live_server.request("POST", "/api/actions", {"type": "tally",
                                                        "building_lp": [3, 1]})[0] == 200
    phone.wait_for_selector(f'#board[data-version="{version + 1}"]')
    assert phone.locator("#chart .chart-axis").last.text_content() == "end"  # was "turn 5"
    phone.context.close()


@pytest.mark.parametrize("game, option, words", [
    ("sorry-21", "longer", "8 flips"),
    ("paper-tales", "auto_advance", "runs out"),
    ("toss-up", "target", "final round"),
])
def test_the_new_game_form_says_what_each_option_does(browser, live_server, game, option, words):
    page = open_host(browser, live_server)
    page.select_option("#game-select", game)
    hint = page.locator(f'#options .field[data-name="{option}"] .hint')
    assert hint.is_visible() and words in hint.inner_text()
    assert not page.js_errors
    page.context.close()


@pytest.mark.parametrize("width", [390, 320])
def test_the_roll_buttons_stay_put_while_the_host_counts_the_dice(browser, live_server, width):
    # "0 of 10 dice counted: 10 to go" took two lines and "6 of 10 ..." one, so Record
    # roll and Bank jumped under the host's thumb between taps
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    page = open_host(browser, live_server)
    page.set_viewport_size({"width": width, "height": 844})
    page.wait_for_selector("#record-roll")
    where = [page.locator("#record-roll").bounding_box()["y"]]
    for colour, taps in (("green", 6), ("yellow", 3), ("red", 1)):
        for _ in range(taps):
            page.click(f".stepper.{colour} .plus")
        where.append(page.locator("#record-roll").bounding_box()["y"])
    assert page.inner_text("#dice-check") == "All 10 dice counted"
    assert len(set(where)) == 1, where
    assert not page.js_errors
    page.context.close()


def test_paper_tales_first_phase_asks_for_its_timer_before_the_next_phase(browser, live_server):
    # Turn 1's Recruitment waits for Start timer, yet Next phase was the big blue button:
    # a host who tapped it to begin skipped Recruitment
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector("#timer-toggle")
    assert "primary" in host.get_attribute("#timer-toggle", "class")
    assert "primary" not in host.get_attribute("#next-phase", "class")
    assert host.inner_text(".turn-meta") == "The timer waits: tap Start timer when everyone is ready"
    host.click("#timer-toggle")
    host.wait_for_selector('body[data-version="2"]')
    assert "primary" not in host.get_attribute("#timer-toggle", "class")
    assert "primary" in host.get_attribute("#next-phase", "class")
    assert host.inner_text(".turn-meta") == "Everyone plays at once"
    assert not host.js_errors
    host.context.close()
