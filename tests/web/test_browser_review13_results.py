"""Headless Chromium on session 13's rules review: the winner card in the engine's final
order (a tiebreaker's winner above its loser, a player who left last and marked), the
Sorry! tiebreaker's piles, Toss Up!'s last-event line and final-round words, and the
/tv end screens.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser_support import unlock_host
from tests.web.test_browser_review import open_page, snap

pytestmark = pytest.mark.browser


def act(live_server: Any, **action: Any) -> dict:
    status, body = live_server.request("POST", "/api/actions", action)
    assert status == 200, body
    return body


def sorry_tiebreak(live_server: Any) -> None:
    """Ann and Ben reach 4 pawns in Cy's bust; Ben wins the tiebreaker 21 to Ann's 25."""
    assert live_server.request("POST", "/api/games", {
        "game": "sorry-21", "players": ["Ann", "Ben", "Cy"]})[0] == 201
    for who in ("Ann", "Ben"):
        act(live_server, type="correct", player=who, delta=3, reason="three HOME")
    for value in (10, 10, 5):  # Ann 10, Ben 20, Cy busts at 25
        act(live_server, type="play", card=f"number-{value}")


def final_rows(page: Any) -> list[str]:
    return page.eval_on_selector_all(".final li", "(rows) => rows.map((r) => r.innerText.replace(/\\s+/g, ' ').trim())")


def test_the_winner_card_puts_the_tiebreakers_winner_first_and_says_why(browser, live_server):
    sorry_tiebreak(live_server)
    act(live_server, type="tiebreak", player="Ann", cards=["number-10", "number-10", "number-5"])
    body = act(live_server, type="tiebreak", player="Ben", cards=["slide-21"])
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] .final')
    snap(page, "review13-sorry-tiebreak-end")
    assert final_rows(page) == ["Ben 4", "Ann 4", "Cy 0"]
    assert page.inner_text("#tie-break") == "Ben wins the tiebreaker: Ben 21, Ann 25 (over 21)."
    assert not page.js_errors
    page.context.close()


def test_the_winner_card_lists_a_player_who_left_last_and_marked(browser, live_server):
    assert live_server.request("POST", "/api/games", {
        "game": "toss-up", "players": ["Ann", "Ben", "Cleo", "Dan"],
        "options": {"target": 5}})[0] == 201
    for greens in (6, 8):  # Ann 6 opens the final round, Ben 8
        act(live_server, type="roll", green=greens, yellow=10 - greens, red=0)
        act(live_server, type="bank")
    act(live_server, type="leave", player="Ann")
    for greens in (2, 1):
        act(live_server, type="roll", green=greens, yellow=10 - greens, red=0)
        body = act(live_server, type="bank")
    assert body["over"]
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] .final')
    snap(page, "review13-toss-up-left-end")
    assert final_rows(page) == ["Ben 8", "Cleo 2", "Dan 1", "Ann left 6"]
    assert page.get_attribute(".final li:last-child", "class").split() == ["left"]
    assert not page.js_errors
    page.context.close()


def test_the_sorry_tiebreaker_says_who_plays_a_pile_and_keeps_every_rounds_piles(
        browser, live_server):
    # mid-tiebreaker nothing said who had to play; at game over the tiebreaker card was
    # empty; a second round wiped the first one's piles
    sorry_tiebreak(live_server)
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector('#board[data-version="6"] #tiebreak-now')
    assert "Still to play: Ann, Ben." in page.inner_text("#tiebreak-now")
    act(live_server, type="tiebreak", player="Ann", cards=["number-10", "number-9"])
    page.wait_for_selector('#board[data-version="7"]')
    snap(page, "review13-sorry-tiebreak-mid")
    assert "Still to play: Ben." in page.inner_text("#tiebreak-now")
    act(live_server, type="tiebreak", player="Ben", cards=["slide-15", "number-4"])  # 19 each
    act(live_server, type="tiebreak", player="Ben", cards=["number-2"])
    body = act(live_server, type="tiebreak", player="Ann", cards=["number-10", "number-10"])
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] #winner')
    snap(page, "review13-sorry-tiebreak-rounds")
    assert page.locator("#tiebreak-now").count() == 0
    rounds = page.eval_on_selector_all("#tiebreak .tb-round", "(els) => els.map((e) => e.innerText.replace(/\\s+/g, ' ').trim())")
    assert rounds == ["Round 1 · tied again Ann 19 Ben 19", "Round 2 Ben 2 Ann 20"]
    assert final_rows(page) == ["Ann 4", "Ben 4", "Cy 0"]
    assert not page.js_errors
    page.context.close()


def test_toss_up_says_what_just_happened_and_what_the_final_round_needs(browser, live_server):
    # no trace of a bank or a red light once the dice passed on; the heading kept saying
    # "first past 100 triggers the final round" in the final round and after the game
    assert live_server.request("POST", "/api/games", {
        "game": "toss-up", "players": ["Ann", "Ben", "Cleo"], "options": {"target": 5}})[0] == 201
    act(live_server, type="roll", green=6, yellow=4, red=0)
    body = act(live_server, type="bank")  # Ann 6 opens the final round
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] #last-turn')
    snap(page, "review13-toss-up-final")
    assert page.inner_text("#last-turn") == "Ann banked 6 (total 6)"
    assert "Ben needs 6 to tie, 7 to win" in page.inner_text("#needs")
    assert page.inner_text("#scores-label").lower() == "scores · the highest over 5 wins"
    act(live_server, type="roll", green=2, yellow=8, red=0)
    body = act(live_server, type="roll", green=0, yellow=7, red=1)  # Ben: red light, loses 2
    page.wait_for_selector(f'#board[data-version="{body["version"]}"]')
    assert page.inner_text("#last-turn") == "Ben: red light, 0 this turn (lost 2) · total 0"
    act(live_server, type="roll", green=1, yellow=9, red=0)
    body = act(live_server, type="bank")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] #winner')
    snap(page, "review13-toss-up-over")
    assert page.inner_text("#scores-label").lower() == "final scores"
    host = open_page(browser, live_server.url + "/login")
    unlock_host(host, live_server)
    host.wait_for_selector("#recent li")
    assert "Cleo banks 1 point" in host.inner_text("#recent")
    assert "Ann banks 6 points" in host.inner_text("#recent")
    assert not page.js_errors and not host.js_errors
    page.context.close()
    host.context.close()


def test_the_longer_game_shows_which_way_a_players_pawns_are_going(browser, live_server):
    # Ben on 6 flips (2 HOME, 2 back at START) looked like Cy on 2: the direction was
    # only in the aria-label
    assert live_server.request("POST", "/api/games", {
        "game": "sorry-21", "players": ["Ann", "Ben", "Cy"], "options": {"longer": True}})[0] == 201
    act(live_server, type="correct", player="Ben", delta=6, reason="table")
    body = act(live_server, type="correct", player="Cy", delta=2, reason="table")
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] .pawns')
    snap(page, "review13-sorry-longer")
    rows = page.eval_on_selector_all(".players .player", """(rows) => rows.map((r) => ({
      text: r.querySelector('.pawns').parentElement.innerText.replace(/\\s+/g, ' ').trim(),
      back: r.querySelectorAll('.pawn.back').length, home: r.querySelectorAll('.pawn.home').length}))""")
    assert [(r["home"], r["back"]) for r in rows] == [(0, 0), (2, 2), (2, 0)]
    assert "to START" in rows[1]["text"] and "to START" not in rows[2]["text"]
    assert not page.js_errors
    page.context.close()


#: The TV end screen's layout: the board's columns, the panel's, what is shown, the QR card.
TV_END = """() => {
  const shown = (el) => el && el.getClientRects().length > 0;
  const panel = document.querySelector('#board > .panel');
  const join = document.getElementById('tv-join');
  const chart = document.querySelector('#board .chart-card');
  return {board: getComputedStyle(document.getElementById('board')).gridTemplateColumns.split(' ').length,
          panel: getComputedStyle(panel).gridTemplateColumns.split(' ').length,
          scores: shown(document.querySelector('#board .table')),
          chart: chart ? chart.getBoundingClientRect().width : 0,
          joinInPanel: panel.contains(join), strip: document.documentElement.classList.contains('tv-strip'),
          height: document.documentElement.scrollHeight};
}"""


@pytest.mark.parametrize("width, height", [(1920, 1080), (800, 480)])
def test_the_tv_end_screen_is_the_winner_card_beside_one_column(browser, live_server, width,
                                                                height):
    # at game end the TV showed four columns: the winner card, the scores again, a
    # narrow chart, and the QR card alone in an empty column
    assert live_server.request("POST", "/api/games", {
        "game": "toss-up", "players": ["Ann", "Ben", "Cleo", "Dan"],
        "options": {"target": 5}})[0] == 201
    for greens in (6, 3, 2, 7):
        act(live_server, type="roll", green=greens, yellow=10 - greens, red=0)
        body = act(live_server, type="bank")
    assert body["over"]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(live_server.url + "/tv")
    page.wait_for_selector(f'#board[data-version="{body["version"]}"] #winner')
    page.wait_for_timeout(300)
    snap(page, f"review13-tv-end-{width}")
    layout = page.evaluate(TV_END)
    assert (layout["board"], layout["panel"], layout["scores"]) == (2, 1, False)
    assert layout["chart"] >= width / 4, "the chart has half the screen, not a quarter"
    assert layout["joinInPanel"] or layout["strip"]
    assert layout["height"] <= height, "nobody scrolls a TV"
    assert not page.js_errors
    page.context.close()
