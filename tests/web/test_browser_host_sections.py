"""Headless Chromium on the host page's folded sections ("Bully or Flat Tire", "Add a
Unit", "Snickerdoodle! Who claims the round?"): one the host opened stays open while the
page is drawn again for the same turn, and an accepted action folds it. The links above
the host and history pages sit over their column on a laptop; the new game form's
hints are whole on a phone; "cannot be reached" goes once the companion answers again, and
the camera's picture streams again.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.web.browser_support import unlock_host
from tests.web.test_browser_review import open_host
from web import make_server

pytestmark = pytest.mark.browser

IS_OPEN = "sel => document.querySelector(sel).open"


def test_news_from_the_camera_leaves_an_open_section_open(browser, live_server):
    # Bully or Flat Tire snapped shut under the host's finger whenever the camera's news
    # (or a hand over the table, in Toss Your Cookies' scramble) redrew the page
    assert live_server.request("POST", "/api/games", {"game": "paper-toss",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"]')
    host.click("#controls .touch-more summary")
    session = live_server.app.extensions["companion"].session
    session.set_extra("camera", {"online": True, "status": "camera online"})
    host.wait_for_selector("#controls .touch-title:text-is('Camera · watching')")
    assert host.evaluate(IS_OPEN, "#controls .touch-more")
    session.set_extra("hand", True)
    host.wait_for_selector("#controls .hint:has-text('A hand is over the table')")
    assert host.evaluate(IS_OPEN, "#controls .touch-more")
    host.click("#controls .touch-more .choice:text-is('Ben')")  # Bully on Ben: accepted
    host.wait_for_selector('body[data-version="2"]')
    assert not host.evaluate(IS_OPEN, "#controls .touch-more")
    assert not host.js_errors
    host.context.close()


def test_adding_units_keeps_the_unit_list_open(browser, live_server):
    # Paper Tales' "Add a Unit to the front" folded after every Unit tapped
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "next"})[0] == 200  # Deployment
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="2"]')
    deploy = host.locator("section.touch-section", has_text="Deployment")
    deploy.locator("button.choice", has_text="Ann").click()
    deploy.locator("summary").click()
    units = host.locator('.choices[aria-label="Unit"] button')
    units.nth(0).click()
    units.nth(1).click()  # still open: a second Unit in one go
    front = host.inner_text('.choices button:has-text("Front:")')
    assert front.count(",") == 1, front
    assert host.evaluate(IS_OPEN, "#controls .touch-more")
    assert not host.js_errors
    host.context.close()


@pytest.mark.parametrize("path, main", [("/login", ".host-main"), ("/history", ".history-main")])
def test_the_links_above_a_page_sit_over_its_column_on_a_laptop(browser, live_server, path, main):
    # on a 1366 px laptop "Scoreboard" sat at the screen's left edge and "Log out" at its
    # right, 330 px away from the column of cards they belong to
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    page = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    page.goto(live_server.url + path)
    if path == "/login":
        unlock_host(page, live_server)
    column = page.locator(main).bounding_box()
    links = [a.bounding_box() for a in page.locator(".subnav a, .subnav button").all()]
    assert links and all(column["x"] <= box["x"] and box["x"] + box["width"]
                         <= column["x"] + column["width"] for box in links)
    page.context.close()


#: Inputs of `sel` whose placeholder is wider than the room inside them (cut off).
CUT_PLACEHOLDERS = """sel => [...document.querySelectorAll(sel)].filter(el => {
  if (!el.placeholder || !el.offsetParent) return false;
  const style = getComputedStyle(el);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return pen.measureText(el.placeholder).width > room;
}).map(el => el.placeholder)"""


def test_the_new_game_forms_hints_are_whole_on_a_phone(browser, live_server):
    # Toss Your Cookies' Cookies field read "Default; or names separated by c"
    page = open_host(browser, live_server)
    page.wait_for_selector("#game-select option", state="attached")
    page.select_option("#game-select", "toss-your-cookies")
    page.wait_for_selector('#options .field[data-name="cookies"]')
    assert page.evaluate(CUT_PLACEHOLDERS, "#new-game input") == []
    assert "separated by commas" in page.inner_text('#options .field[data-name="cookies"]')
    assert not page.js_errors
    page.context.close()


def test_cannot_be_reached_goes_once_the_companion_answers_again(browser, live_server):
    # after a restart the page said "Live" under "The companion cannot be reached."
    assert live_server.request("POST", "/api/games", {"game": "sorry-21",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"]')
    host.route("**/api/actions", lambda route: route.abort())  # the Pi is restarting
    host.click('#controls .choices[aria-label="Number cards"] .choice:text-is("7")')
    host.wait_for_selector("#error:has-text('cannot be reached')")
    host.unroute("**/api/actions")
    assert live_server.request("POST", "/api/actions", {"type": "play", "card": "number-3"})[0] == 200
    host.wait_for_selector('body[data-version="2"]')  # the companion is back
    assert host.is_hidden("#error")
    assert not host.js_errors
    host.context.close()



def test_the_camera_picture_streams_again_when_the_companion_is_back(browser, live_server,
                                                                     make_app):
    # after a restart (or a Wi-Fi drop) an open Camera preview stayed black for good: its
    # stream had ended with the old process, and nothing opened it again
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    live_server.app.extensions["companion"].session.set_extra(
        "camera", {"online": True, "status": "camera online"})
    picture = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    host = open_host(browser, live_server)
    host.route("**/api/camera/preview.mjpeg*",  # one picture per stream, enough to count them
               lambda route: route.fulfill(status=200, content_type="image/jpeg", body=picture))
    host.wait_for_selector("#preview-card:not([hidden])")
    with host.expect_request("**/api/camera/preview.mjpeg*"):
        host.click("#preview-card summary")
    host.wait_for_selector("#conn[data-status=live]")
    live_server.server.close()  # the companion goes away: the streams end
    host.wait_for_selector("#conn:not([data-status=live])")
    restarted = make_app(Path(live_server.app.config["DATA_DIR"]), SSE_MAX_SECONDS=None)
    restarted.extensions["companion"].session.set_extra(
        "camera", {"online": True, "status": "camera online"})
    again = make_server(restarted, "127.0.0.1", live_server.port, threads=8)
    thread = threading.Thread(target=again.run, name="live-server-again", daemon=True)
    try:
        with host.expect_request("**/api/camera/preview.mjpeg*", timeout=20000):
            thread.start()  # and is back on the same address
        host.wait_for_selector("#conn[data-status=live]")
        assert host.evaluate("document.getElementById('preview-card').open")
    finally:
        again.close()
        thread.join(timeout=10)
    assert not host.js_errors
    host.context.close()


#: Words of the action rows' buttons that a line break cuts in two ("vouche|s").
BROKEN_WORDS = """() => [...document.querySelectorAll('.action-row > .btn')].flatMap(b => {
  const text = b.firstChild, range = document.createRange(), broken = [];
  let at = 0;
  for (const word of b.textContent.split(/\\s+/).filter(Boolean)) {
    at = text.textContent.indexOf(word, at);
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    if (range.getClientRects().length > 1 || b.scrollWidth > b.clientWidth) broken.push(word);
    at += word.length;
  }
  return broken;
})"""


#: Whether an input's text fits inside its padding (measured in a span with its font).
TEXT_FITS = """el => {
  const style = getComputedStyle(el), span = document.createElement("span");
  span.style.font = style.font;
  span.textContent = el.value;
  document.body.append(span);
  const width = span.getBoundingClientRect().width;
  span.remove();
  return width <= el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}"""


def test_a_small_phone_keeps_the_hosts_words_and_names_whole(browser, live_server):
    # on a 320 px phone "The table vouches" broke as "vouche|s", the title read "Host ·
    # Toss …", and the new game form's name fields showed four letters ("Gran") beside
    # their three buttons
    assert live_server.request("POST", "/api/games", {
        "game": "toss-your-cookies", "players": ["Ann", "Ben", "Cleo"],
        "options": {"countdown_seconds": 30}})[0] == 201
    for action in ({"type": "toss"}, {"type": "claim", "player": 1}):
        assert live_server.request("POST", "/api/actions", action)[0] == 200
    page = browser.new_context(viewport={"width": 320, "height": 640}).new_page()
    page.goto(live_server.url + "/login")
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="3"] #vouch')
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.eval_on_selector("#title", "t => t.scrollWidth <= t.clientWidth && "
                                 "t.scrollHeight <= t.clientHeight"), "'Host · Toss …'"
    page.click("#new-game summary")
    name = page.locator("#player-list input").first
    name.fill("Grandpa")
    assert name.evaluate(TEXT_FITS), "the name is cut off"
    page.context.close()
