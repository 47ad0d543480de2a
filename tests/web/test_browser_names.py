"""Headless Chromium on long player names: on a phone and on a TV they break between words,
never inside one, and never push the page wider than the screen.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser_support import unlock_host
from tests.web.test_browser_review import snap

pytestmark = pytest.mark.browser

LONG = ["Bartholomew-Maximilian Longname", "Wolfeschlegelsteinhausenbergerdorff", "Ann"]

#: The names (text of `sel`) with a word drawn on two lines: each word's text, as a
#: Range, has one box per line it is drawn on (a word cut short by "…" keeps one box).
BROKEN = """sel => [...document.querySelectorAll(sel)].filter(el => {
  const text = el.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return false;
  const words = [...text.data.matchAll(/[^\\s-]+-?/g)];
  return words.some(m => {
    const r = document.createRange();
    r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
    return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1;
  });
}).map(el => el.textContent)"""

#: The right edge of the rightmost box of the page's content.
RIGHT = """() => Math.max(...[...document.querySelectorAll('main > *, main .card, main section')]
  .map(el => el.getBoundingClientRect().right))"""


def play(live_server: Any, game: str, *actions: dict[str, Any]) -> None:
    assert live_server.request("POST", "/api/games", {"game": game, "players": LONG})[0] == 201
    for action in actions:
        status, body = live_server.request("POST", "/api/actions", action)
        assert status == 200, body


def open_at(browser: Any, url: str, width: int, height: int) -> Any:
    phone = width < 800
    page = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                               has_touch=phone).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(url)
    return page


GAMES = [("sorry-21", [{"type": "play", "card": "number-7"}]),
         ("toss-up", [{"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"},
                      {"type": "roll", "green": 3, "yellow": 5, "red": 2}]),
         ("toss-your-cookies", []), ("paper-tales", [])]


@pytest.mark.parametrize("game, actions", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("where, width, height", [("/", 390, 844), ("/tv", 1366, 768)])
def test_long_names_break_between_words_on_phones_and_tvs(browser, live_server, game, actions,
                                                          where, width, height):
    # "Wolfeschl|egelsteinh|ausenberg|erdorff" beside Sorry!'s pawns on a phone, and
    # "...hausenberg|erdorff" on a TV; a long name in the chart's legend pushed every card
    # of the phone's board past the screen's right edge
    play(live_server, game, *actions)
    page = open_at(browser, live_server.url + where, width, height)
    page.wait_for_selector(f'#board[data-version="{1 + len(actions)}"] .player-name')
    snap(page, f"names-{game}-{width}x{height}")
    assert page.evaluate(BROKEN, ".player-name, .now-name, .now-who") == []
    assert page.locator(".player-name").evaluate_all("els => els.map(e => e.title)") == LONG
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(RIGHT) <= width - 8, "a card reaches the screen's edge"
    assert not page.js_errors
    page.context.close()


def test_pips_go_under_names_that_have_no_room_beside_them(browser, live_server):
    play(live_server, "sorry-21")
    page = open_at(browser, live_server.url + "/", 390, 844)
    page.wait_for_selector('#board[data-version="1"] .players.stacked')
    for row in page.locator(".player").all():
        name, pawns = (row.locator(sel).bounding_box() for sel in (".player-name", ".pawns"))
        assert pawns["y"] >= name["y"] + name["height"] - 1, "pips under the name"
    page.context.close()


def test_the_winner_screen_keeps_long_names_whole_words(browser, live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": LONG[:2],
                                                      "options": {"target": 5}})[0] == 201
    for action in ({"type": "roll", "green": 6, "yellow": 4, "red": 0}, {"type": "bank"},
                   {"type": "roll", "green": 1, "yellow": 9, "red": 0}, {"type": "bank"}):
        assert live_server.request("POST", "/api/actions", action)[0] == 200
    page = open_at(browser, live_server.url + "/", 390, 844)
    page.wait_for_selector("#winner")
    snap(page, "names-winner-390x844")
    assert page.evaluate(BROKEN, ".winner-names, .final-name, .player-name") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for score in page.locator(".final-score").all():  # the standings' scores stay in view
        box = score.bounding_box()
        assert box["x"] + box["width"] <= 390 - 8
    rows = page.locator(".final li").all()
    lefts = {round(row.locator(".final-name").evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects()[0].left; }"))
        for row in rows}
    assert len(lefts) == 1, "every name in the standings starts at the same left edge"
    page.context.close()


@pytest.mark.parametrize("game, actions", [("paper-toss", [{"type": "toss"}, {"type": "flip", "cards": ["good-throw"]}, {"type": "pass"}]),
                                           ("sorry-21", [])])
def test_the_host_page_fits_a_phone_with_long_names(browser, live_server, game, actions):
    # the Recent list's "Wolfeschlegelsteinhausenbergerdorff passes" widened the page's one
    # column: the Undo and Pass buttons were cut off at the phone's right edge
    play(live_server, game, *actions)
    page = open_at(browser, live_server.url + "/login", 390, 844)
    unlock_host(page, live_server)
    page.wait_for_selector(f'body[data-version="{1 + len(actions)}"]')
    snap(page, f"names-host-{game}-390x844")
    assert page.evaluate(RIGHT) <= 390 - 8, "a card reaches the screen's edge"
    undo = page.locator("#undo").bounding_box()
    assert undo["x"] + undo["width"] <= 390
    assert page.evaluate(BROKEN, ".mini-name, .choice") == []
    assert not page.js_errors
    page.context.close()


def test_a_corrected_name_leaves_no_stale_refusal_on_the_host_page(browser, live_server):
    # "Two players have the same name." stayed up while the form, names since corrected,
    # asked to tap again to end the running game
    play(live_server, "toss-up")
    page = open_at(browser, live_server.url + "/login", 390, 844)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="1"]')
    page.click("#new-game summary")
    names = page.locator("#player-list input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("ann")
    names.nth(2).fill("")
    page.click("#start")
    page.click("#start")  # the second tap ends the running game: refused
    page.wait_for_selector("#error:text-is('Two players have the same name.')")
    names.nth(1).fill("Ben")
    page.click("#start")
    assert page.inner_text("#start") == "Tap again to end the current game"
    assert page.is_hidden("#error")
    page.click("#start")
    page.wait_for_selector('body[data-version="2"]')
    assert [p["name"] for p in live_server.request("GET", "/api/state")[1]["players"]] == ["Ann", "Ben"]
    assert not page.js_errors
    page.context.close()


def test_the_history_page_keeps_long_names_inside_a_phone(browser, live_server):
    # the games list's "Wolfeschlegelsteinhausenbergerdorff 0" made the page 398 px wide
    play(live_server, "paper-toss")
    page = open_at(browser, live_server.url + "/history", 390, 844)
    page.wait_for_selector(".games-list .history-line")
    snap(page, "names-history-390x844")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(BROKEN, ".history-line span") == []
    assert not page.js_errors
    page.context.close()


#: Elements of the board drawn past the screen's right edge (less a margin), or whose text
#: spills out of them.
SPILLED = """(w) => [...document.querySelectorAll('main *')].filter(e => {
  const r = e.getBoundingClientRect(), style = getComputedStyle(e);
  const spills = e.scrollWidth > e.clientWidth + 1 && style.overflowX === "visible" && style.display !== "inline";
  return r.width > 0 && (r.right > w - 8 || spills);
}).map(e => e.className + ": " + e.textContent.slice(0, 40))"""

SENTENCES = [("paper-toss", [{"type": "toss"}, {"type": "hazard", "player": LONG[1], "card": "dog"}]),
             ("toss-up", [{"type": "roll", "green": 10, "yellow": 0, "red": 0}] * 10
              + [{"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"}])]


@pytest.mark.parametrize("game, actions", SENTENCES, ids=[g for g, _ in SENTENCES])
@pytest.mark.parametrize("width, height", [(320, 640), (390, 844)])
def test_sentences_with_a_long_name_stay_inside_their_cards(browser, live_server, game, actions,
                                                            width, height):
    # "...answers Wolfeschlegelsteinhausenbergerdorff's Dog" and the Hazard's row ran past
    # the card's edge, cutting off "stands"; so did Toss Up!'s "Still to play: ..." banner
    play(live_server, game, *actions)
    page = open_at(browser, live_server.url + "/", width, height)
    page.wait_for_selector(f'#board[data-version="{1 + len(actions)}"]')
    snap(page, f"names-sentences-{game}-{width}x{height}")
    assert page.evaluate(SPILLED, width) == []
    assert page.evaluate(BROKEN, ".hz-answer") == []
    assert not page.js_errors
    page.context.close()


#: The names drawn cut short (an ellipsis).
CUT = """sel => [...document.querySelectorAll(sel)].filter(e => e.scrollWidth > e.clientWidth)
  .map(e => e.textContent)"""


@pytest.mark.parametrize("width, height", [(1366, 768), (1280, 720)])
def test_the_tv_at_game_over_leaves_the_scores_room_for_names(browser, live_server, width,
                                                              height):
    # beside the winner the scores had a quarter of the screen: "Ann" and "Finn" were "…"
    players = ["Ann", "Benedict", "Cleo", "Dan", "Eve", "Finn"]
    assert live_server.request("POST", "/api/games", {"game": "toss-up", "players": players,
                                                      "options": {"target": 5}})[0] == 201
    for seat in range(len(players)):
        for action in ({"type": "roll", "green": 6 if seat == 0 else 1,
                        "yellow": 4 if seat == 0 else 9, "red": 0}, {"type": "bank"}):
            assert live_server.request("POST", "/api/actions", action)[0] == 200
    page = open_at(browser, live_server.url + "/tv", width, height)
    page.wait_for_selector("#winner")
    snap(page, f"names-tv-over-{width}x{height}")
    assert page.evaluate(CUT, ".player-name, .final-name, .legend-name") == []
    assert page.evaluate("document.documentElement.scrollHeight") <= height, "nobody scrolls a TV"
    assert not page.js_errors
    page.context.close()


#: The buttons of `sel` drawn on the screen whose text runs past their edge (cut off).
CLIPPED = """sel => [...document.querySelectorAll(sel)]
  .filter(el => el.offsetParent && el.scrollWidth > el.clientWidth).map(el => el.textContent)"""
NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => done()))"
#: The buttons of `sel` cut off without an ellipsis and a title holding their whole text.
UNMARKED = """sel => [...document.querySelectorAll(sel)]
  .filter(el => el.offsetParent && el.scrollWidth > el.clientWidth
                && !(el.matches('.choice-cut') && el.title === el.textContent)).map(el => el.textContent)"""


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 800), (1920, 1080)])
def test_the_host_pages_choices_show_long_names_whole(browser, live_server, width, height):
    # the player buttons of Bully, Flat Tire and Correct a score read "Barth… Maxim…
    # Longn…" on a phone and "Wolfeschlegelsteinha…" on a laptop and a TV
    play(live_server, "paper-toss")
    page = open_at(browser, live_server.url + "/login", width, height)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="1"]')
    page.click("#correct-card summary")
    page.click("#controls .touch-more summary")  # drawn closed: fitted when it opens
    snap(page, f"names-host-choices-{width}x{height}")
    shown = page.locator(".choice:visible")
    assert sorted(shown.all_inner_texts()) == sorted(LONG * 3)
    assert page.evaluate(CLIPPED, ".choice") == []
    assert page.evaluate(BROKEN, ".choice") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 320, "height": 640})  # a narrower screen: fitted again
    page.evaluate(NEXT_FRAME)  # (on its resize event, before the frame is drawn)
    page.wait_for_function(f"sel => ({UNMARKED})(sel).length === 0", arg=".choice", timeout=5000)
    assert page.evaluate(BROKEN, ".choice") == []
    assert not page.js_errors
    page.context.close()


@pytest.mark.parametrize("width", [390, 320])
def test_the_teach_cards_list_keeps_card_names_whole_words(browser, live_server, width):
    # "Gingerbrea|d Man" in Toss Your Cookies' list of faces on a phone
    page = open_at(browser, live_server.url + "/login", width, 844)
    unlock_host(page, live_server)
    page.click("#teach-card summary")
    page.wait_for_selector("#teach-game option", state="attached")
    page.select_option("#teach-game", "toss-your-cookies")
    page.wait_for_selector('.teach-faces button[title="gingerbread"]')
    snap(page, f"names-teach-{width}")
    assert page.evaluate(BROKEN, ".teach-faces button") == []
    assert page.evaluate(CLIPPED, ".teach-faces button") == []
    assert not page.js_errors
    page.context.close()


def test_a_players_stepper_puts_a_long_name_above_its_buttons(browser, live_server):
    # Paper Tales' Wars strengths read "Bartho… Maxim… Longn…" and "Wolfes…" beside their
    # − 0 + on a phone, under a "no timer" the size of a clock
    play(live_server, "paper-tales", {"type": "next"}, {"type": "next"})  # Wars: no timer
    page = open_at(browser, live_server.url + "/login", 390, 844)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="3"]')
    wars = page.locator("section.touch-section", has_text="Wars")
    labels = wars.locator(".stepper-label")
    assert labels.all_inner_texts() == LONG
    assert page.evaluate(CLIPPED, ".stepper-label") == []
    assert page.evaluate(BROKEN, ".stepper-label") == []
    stacked = wars.locator(".stepper").evaluate_all("els => els.map(e => e.matches('.stacked'))")
    assert stacked == [True, True, True], "every name alike on a row of its own"
    size = page.eval_on_selector(".timer-big .clock", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size < 40, "'no timer' is a word, not a clock"
    assert not page.js_errors
    page.context.close()


def test_steppers_with_short_labels_keep_their_one_row(browser, live_server):
    play(live_server, "toss-up")
    page = open_at(browser, live_server.url + "/login", 390, 844)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="1"] .stepper.green')
    assert page.locator(".stepper.stacked").count() == 0
    page.context.close()


@pytest.mark.parametrize("width", [320, 390])
def test_the_host_pages_score_chips_stay_inside_their_card(browser, live_server, width):
    # on a 320 px phone "Bartholomew-Maximilian Longname 0" ran past the Scores card and
    # the screen's edge, its score out of sight
    play(live_server, "paper-toss")
    page = open_at(browser, live_server.url + "/login", width, 640)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="1"] #status .mini')
    card = page.locator("#status").bounding_box()
    for chip in page.locator("#status .mini").all():
        box = chip.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"], chip.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#status .mini").evaluate_all("els => els.map(e => e.title)") == LONG
    page.context.close()


def test_the_recent_list_stays_inside_its_card_on_a_small_phone(browser, live_server):
    # "Snickerdoodle? Wolfeschlegelsteinhausenbergerdorff shows the hand" pushed the Recent
    # list 180 px past a 320 px phone's edge, its time out of sight
    play(live_server, "toss-your-cookies", {"type": "claim", "player": 1})
    page = open_at(browser, live_server.url + "/login", 320, 640)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="2"] #recent li')
    card = page.locator("#undo-card").bounding_box()
    for part in page.locator("#recent li, #recent li > *").all():
        box = part.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"], part.inner_text()
    assert page.inner_text("#recent li .recent-what").replace("\n", " ") == (
        f"Snickerdoodle? {LONG[1]} shows the hand")
    page.context.close()
