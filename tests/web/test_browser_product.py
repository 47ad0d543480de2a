"""Headless Chromium on what a player meets in a first evening with the product: the score
chart when scores are equal, the phase steps on a phone, the recent actions' words.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.camera_link import CardLink
from tests.web.test_browser_review import finish_toss_up, open_host, open_page, snap

pytestmark = pytest.mark.browser

#: Each chart line's points as [[x, y], ...], in seat order.
LINES = """() => [...document.querySelectorAll('#chart .chart-line')].map(
  l => l.getAttribute('points').split(' ').map(p => p.split(',').map(Number)))"""


def act(live_server: Any, *actions: dict[str, Any]) -> None:
    for action in actions:
        status, body = live_server.request("POST", "/api/actions", action)
        assert status == 200, body


def test_players_with_equal_scores_each_keep_a_visible_line(browser, live_server):
    # Ben's red light leaves him on 0 with Cleo: his line was drawn exactly over hers
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben", "Cleo"]})[0] == 201
    act(live_server, {"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"},
        {"type": "roll", "green": 0, "yellow": 5, "red": 5},
        {"type": "roll", "green": 0, "yellow": 5, "red": 5})
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector('#board[data-version="5"] #chart')
    snap(page, "product-chart-ties")
    ann, ben, cleo = page.evaluate(LINES)
    assert len(ann) == len(ben) == len(cleo) == 4  # start and three turns
    for a, b in zip(ben, cleo):
        assert a[0] == b[0] and abs(a[1] - b[1]) >= 3, "Ben's line hides Cleo's"
    assert len({ann[0][1], ben[0][1], cleo[0][1]}) == 3, "three 0s at the start, three lines"
    grid = page.evaluate("[...document.querySelectorAll('#chart .chart-grid')]"
                         ".map(l => Number(l.getAttribute('y1')))")
    assert ann[-1][1] == pytest.approx(min(grid), abs=0.1), "a score nobody shares stays on its value"
    assert not page.js_errors
    page.context.close()


#: The texts of the elements matching a selector that are cut short (an ellipsis).
CUT = """sel => [...document.querySelectorAll(sel)].filter(e => e.scrollWidth > e.clientWidth)
  .map(e => e.textContent)"""


@pytest.mark.parametrize("where, width, height", [("/", 320, 640), ("/", 390, 844),
                                                  ("/", 844, 390), ("/tv", 1366, 768)])
def test_paper_tales_phase_steps_are_whole_words(browser, live_server, where, width, height):
    # "Recruit…", "Deploy…", "Constru…" on a 390 px phone
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    page = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(live_server.url + where)
    page.wait_for_selector('#board[data-version="1"] .phase-steps')
    steps = page.locator(".phase-steps li")
    assert steps.all_inner_texts() == ["Recruitment", "Deployment", "Wars", "Income",
                                       "Construction", "Aging"]
    assert page.evaluate(CUT, ".phase-steps li") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    snap(page, f"product-phase-steps-{width}x{height}")
    page.context.close()


def test_recent_actions_say_who_tossed_passed_and_rolled(browser, live_server):
    # Paper Toss listed "Toss", "Pass" and Toss Your Cookies "Roll: swap 2": whose?
    assert live_server.request("POST", "/api/games", {"game": "paper-toss",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    act(live_server, {"type": "toss"}, {"type": "flip", "cards": ["good-throw"]},
        {"type": "pass"})
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="4"]')
    recent = host.locator("#recent .recent-what").all_inner_texts()
    assert recent == ["Ben passes", "Flip: Good Throw +1", "Ann tosses"]

    assert live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    act(live_server, {"type": "roll", "action": "swap", "number": 2},
        {"type": "roll", "action": "pass-left", "number": "milk"})
    host.wait_for_selector('body[data-version="7"]')
    recent = host.locator("#recent .recent-what").all_inner_texts()
    assert recent == ["Ben rolls: Pass left Milk", "Ann rolls: Swap 2"]
    snap(host, "product-recent-who")
    assert not host.js_errors
    host.context.close()


def test_the_wrong_pin_message_lines_up_with_the_pin_field(browser, live_server):
    page = open_page(browser, live_server.url + "/login")
    page.fill("#pin", "not-the-pin")
    page.click("text=Unlock")
    page.wait_for_selector(".error")
    assert page.inner_text(".error") == "That PIN is not right."
    error, field = (page.locator(sel).bounding_box() for sel in (".error", "#pin"))
    assert error["x"] == pytest.approx(field["x"], abs=1)
    assert error["width"] == pytest.approx(field["width"], abs=1)
    snap(page, "product-login-wrong-pin")
    page.context.close()


def test_every_card_on_the_host_page_has_its_plus_in_the_same_place(browser, live_server):
    host = open_host(browser, live_server)
    host.wait_for_selector("#join summary")
    aligns = host.evaluate("""[...document.querySelectorAll('.host-main > details > summary')]
      .map(s => [s.parentElement.id, getComputedStyle(s, '::before').textAlign])""")
    assert {align for _, align in aligns} <= {"start", "left"}, aligns
    assert "join" in dict(aligns)
    host.context.close()


@pytest.mark.parametrize("game, before, seen, offer, after", [
    ("sorry-21", [], ("number-7",), "Confirm: Ann plays 7", {"total": 7}),
    ("paper-toss", [{"type": "toss"}], ("good-throw", "dog"), "Confirm: Flip: Good Throw +1",
     {"tokens": [1, 0]}),
])
def test_the_card_the_camera_reads_is_one_tap_on_the_host_page(browser, live_server, game,
                                                               before, seen, offer, after):
    # the camera offered Sorry!'s new top card and Paper Toss's flipped Toss card, but the
    # host page showed neither: only the GPIO button could confirm them
    assert live_server.request("POST", "/api/games", {"game": game,
                                                      "players": ["Ann", "Ben"]})[0] == 201
    act(live_server, *before)
    companion = live_server.app.extensions["companion"]
    link = CardLink(companion.session)
    companion.camera = link  # the recognition loop's confirm(), without a real camera
    companion.session.set_extra("camera", {"online": True, "status": "camera online"})
    host = open_host(browser, live_server)
    host.wait_for_selector("#camera-cards")
    assert host.inner_text("#camera-cards") == "No known card in view."
    link.on_cards(seen)
    host.wait_for_selector("#confirm-camera")
    assert host.inner_text("#confirm-camera") == offer
    snap(host, f"product-camera-offer-{game}")
    host.click("#confirm-camera")
    host.wait_for_selector("#confirm-camera", state="detached")
    state = live_server.request("GET", "/api/state")[1]
    assert {key: state[key] for key in after} == after
    assert not host.js_errors
    host.context.close()


def test_an_offline_camera_says_what_it_last_saw(browser, live_server):
    # "camera offline" beside "The camera sees 3 green..." read as a live picture
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    session = live_server.app.extensions["companion"].session
    session.set_extra("dice", {"seen": {"green": 2, "yellow": 3, "red": 1, "other": 0},
                               "offer": None, "message": None})
    session.set_extra("camera", {"online": False, "status": "camera offline: unplugged"})
    phone = open_page(browser, live_server.url + "/")
    phone.wait_for_selector("#camera-saw .cam-status.off")
    assert phone.text_content("#camera-saw .label") == "The camera last saw"
    host = open_host(browser, live_server)
    host.wait_for_selector("text=Last saw 2 green · 3 yellow · 1 red")
    session.set_extra("camera", {"online": True, "status": "camera online"})
    phone.wait_for_selector("#camera-saw .cam-status.on")
    assert phone.text_content("#camera-saw .label") == "The camera sees"
    host.wait_for_selector("text=Sees 2 green · 3 yellow · 1 red")
    assert not phone.js_errors and not host.js_errors
    for page in (phone, host):
        page.context.close()


def test_the_new_game_form_starts_from_the_options_of_the_game_on_the_table(browser, live_server):
    # after a game to 30 the form offered the players again, but a target of 100
    assert live_server.request("POST", "/api/games", {
        "game": "toss-your-cookies", "players": ["Ann", "Ben", "Cy"],
        "options": {"rounds": 5, "countdown_seconds": 8}})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"]')
    value = lambda name: host.input_value(f'#options [name="{name}"]')  # noqa: E731
    assert (value("rounds"), value("countdown_seconds"), value("scramble_seconds")) == ("5", "8", "10")
    assert [n.input_value() for n in host.locator("#player-list input").all()] == ["Ann", "Ben", "Cy"]

    assert live_server.request("POST", "/api/games", {
        "game": "paper-tales", "players": ["Ann", "Ben"],
        "options": {"phase_seconds": {"recruitment": 45}, "auto_advance": True}})[0] == 201
    host.wait_for_selector('body[data-version="2"]')
    host.click("#new-game summary")
    host.select_option("#game-select", "paper-tales")
    assert (value("recruitment"), value("deployment")) == ("45", "90")
    assert host.is_checked('#options [name="auto_advance"]')
    host.select_option("#game-select", "toss-up")
    assert value("target") == "100", "another game keeps its own defaults"
    assert not host.js_errors
    host.context.close()


def test_score_bars_have_one_length_while_a_turn_is_pending(browser, live_server):
    # the "+3" of the player rolling shortened their bar, and so did a score of two digits:
    # Ann's 10 drew a shorter bar than her score, next to Cy's 0
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    act(live_server, {"type": "roll", "green": 6, "yellow": 4, "red": 0},
        {"type": "roll", "green": 4, "yellow": 0, "red": 0}, {"type": "bank"},
        {"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"},
        {"type": "roll", "green": 3, "yellow": 7, "red": 0})
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector('#board[data-version="7"] .pending')
    tracks = [page.locator(".player .progress").nth(i).bounding_box() for i in range(3)]
    assert {round(t["width"]) for t in tracks} == {round(tracks[0]["width"])}, tracks
    fills = [page.locator(".player .progress-fill").nth(i).bounding_box()["width"] for i in range(2)]
    assert fills[0] == pytest.approx(2 * fills[1], abs=1), "Ann has 10, Ben 5"
    snap(page, "product-bars-pending")
    page.context.close()


def test_the_last_toss_reads_as_done_once_the_dice_go_left(browser, live_server):
    # "Ben rolls the dice" above "Toss 1: everyone picks 1 card..." read as what to do now
    assert live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    page = open_page(browser, live_server.url + "/")
    act(live_server, {"type": "roll", "action": "toss", "number": 1})
    page.wait_for_selector('#board[data-version="2"] #roll-text')
    assert page.inner_text("#roll-text").startswith("Toss 1: everyone picks 1 card")
    act(live_server, {"type": "skip"}, {"type": "skip"})  # "Toss!" now, then the scramble ends
    page.wait_for_selector('#board[data-version="4"] #now-name')
    assert page.inner_text("#now-name") == "Ben"
    assert page.inner_text("#roll-text").startswith("Ann rolled · Toss 1: everyone picks")
    assert not page.js_errors
    page.context.close()


def test_a_sorry_tiebreaker_shows_no_pile_to_play_on(browser, live_server):
    # "Round 2 · pile total 0 · 21 to go" stood above the tiebreaker, as if play went on
    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben", "Cy"]})[0] == 201
    act(live_server, *({"type": "correct", "player": seat, "delta": 3, "reason": "table"}
                       for seat in (0, 1)),
        *({"type": "play", "card": card} for card in ("number-10", "number-10", "number-5")))
    assert live_server.request("GET", "/api/state")[1]["stage"] == "tiebreak"  # Cy busted
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector('#board[data-version="6"] #tiebreak')
    assert page.locator("#pile-total").count() == 0
    assert page.locator("#now-name").count() == 0
    act(live_server, {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-9"]},
        {"type": "tiebreak", "player": "Ben", "cards": ["number-10", "number-5"]})
    page.wait_for_selector("#winner")
    assert page.inner_text(".winner-names") == "Ann"
    assert not page.js_errors
    page.context.close()


@pytest.mark.parametrize("width, height", [(1920, 1080), (1366, 768), (1280, 720)])
def test_the_tv_view_fits_the_screen_without_scrolling(browser, live_server, width, height):
    # a 1366x768 or 720p television showed Toss Up!'s chart and last roll below the fold
    # (nobody scrolls a TV); six players did not fit even at 1080p
    players = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": players})[0] == 201
    act(live_server, {"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"},
        {"type": "roll", "green": 5, "yellow": 4, "red": 1})
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(live_server.url + "/tv")
    page.wait_for_selector('#board[data-version="4"] #chart')
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    snap(page, f"product-tv-{width}x{height}")
    page.context.close()


#: Root type size in px, and the names cut short ("…") on the board.
TV_TYPE = """() => [parseFloat(getComputedStyle(document.documentElement).fontSize),
  [...document.querySelectorAll('#board .player-name, #board .final-name, #board .winner-names')]
    .filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)]"""


@pytest.mark.parametrize("width, height, over", [(1920, 1080, False), (1280, 720, False),
                                                 (1280, 720, True)])
def test_the_tv_type_grows_to_fill_the_screen(browser, live_server, width, height, over):
    # the TV's type was sized for six players of the longest game: with five, a 1080p TV
    # left the lower half empty and names 30 px high, small across a room
    if over:
        finish_toss_up(live_server, ["Ann", "Ben"])
    else:
        assert live_server.request("POST", "/api/games", {
            "game": "toss-up", "players": ["Ann", "Ben", "Cleo", "Dee", "Eve"]})[0] == 201
        act(live_server, {"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"})
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(live_server.url + "/tv")
    page.wait_for_selector("#board #chart")
    root, cut = page.evaluate(TV_TYPE)
    snap(page, f"product-tv-type-{width}x{height}{'-over' if over else ''}")
    assert root >= 1.25 * min(20, 0.0185 * height), "the type kept the size for six players"
    assert cut == [], "a name was cut short to make the type grow"
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if not over:  # the news of a change hides none of the board's words
        act(live_server, {"type": "roll", "green": 4, "yellow": 4, "red": 2})
        page.wait_for_selector("#toast:not([hidden])")
        assert page.evaluate(TOAST_COVERS) == []
    page.context.close()


#: The board's words the toast lies over.
TOAST_COVERS = """() => { const t = document.getElementById("toast").getBoundingClientRect();
  return [...document.querySelectorAll("#board *")].filter(e => [...e.childNodes].some(
    n => n.nodeType === 3 && n.textContent.trim())).filter(e => { const r = e.getBoundingClientRect();
    return r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom; })
    .map(e => e.textContent); }"""


@pytest.mark.parametrize("game, players", [("toss-your-cookies", ["Ann", "Ben", "Cy"]),
                                           ("sorry-21", ["Ann", "Ben"])])
def test_pips_sit_level_with_the_name_in_rows_without_a_bar(browser, live_server, game, players):
    assert live_server.request("POST", "/api/games", {"game": game, "players": players})[0] == 201
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector('#board[data-version="1"] .player .pawns')
    middle = lambda sel: (lambda b: b["y"] + b["height"] / 2)(  # noqa: E731
        page.locator(f".player >> nth=0 >> {sel}").bounding_box())
    assert middle(".pawns") == pytest.approx(middle(".player-name"), abs=2)
    assert middle(".player-score") == pytest.approx(middle(".player-name"), abs=2)
    page.context.close()
