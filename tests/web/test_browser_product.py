"""Headless Chromium on what a player meets in a first evening with the product: the score
chart when scores are equal, the phase steps on a phone, the recent actions' words.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_browser_review import open_host, open_page, snap

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
