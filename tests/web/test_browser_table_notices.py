"""Headless Chromium on what the table is told: whose roll the phones show once the dice
have passed on, the host's camera preview while the camera is offline, and a name too long
for the host's buttons on a small phone.

Drives /usr/bin/chromium (Debian's) through Playwright on a real local server; skipped when
it is missing, except under CI.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from companion.camera_link import DiceLink
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from tests.web.browser_support import unlock_host
from tests.web.test_browser_names import BROKEN, LONG, open_at, play
from tests.web.test_browser_review import open_page, snap
from web import create_app, make_server

pytestmark = pytest.mark.browser

PIN = "8642"
OFFLINE = "camera offline: no frames from opencv:0 for 5 s; retrying every 2 s"
#: How much of the picture's area (0-1) the offline notice covers.
COVERED = """() => {
  const a = document.getElementById('preview').getBoundingClientRect();
  const b = document.getElementById('preview-offline').getBoundingClientRect();
  const w = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
  const h = Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  return w * h / (a.width * a.height);
}"""


def act(live_server: Any, *actions: dict[str, Any]) -> None:
    for action in actions:
        status, body = live_server.request("POST", "/api/actions", action)
        assert status == 200, body


def test_the_phones_say_whose_last_roll_it_was(browser, live_server):
    # "Last roll of the previous turn" while Ben was up: whose? Ann's
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    act(live_server, {"type": "roll", "green": 4, "yellow": 5, "red": 1}, {"type": "bank"})
    page = open_page(browser, live_server.url + "/")
    page.wait_for_selector('#board[data-version="3"] #last-roll-label')
    snap(page, "notices-last-roll-390x844")
    assert page.text_content("#last-roll-label") == "Ann's last roll"
    assert page.text_content("#now-name") == "Ben"
    act(live_server, {"type": "roll", "green": 2, "yellow": 8, "red": 0})
    page.wait_for_selector('#board[data-version="4"] #last-roll-label')
    assert page.text_content("#last-roll-label") == "Ben's last roll"
    assert not page.js_errors
    page.context.close()


class Table:
    """What lies under the camera: a plain grey table."""

    frame = np.full((480, 640, 3), 110, np.uint8)

    def latest(self) -> np.ndarray:
        return self.frame


@contextlib.contextmanager
def camera_rig(data: Path, pin: str = PIN, **config: Any) -> Iterator[Any]:
    """(url, session, app): a companion with a camera that has taken one picture, served
    on localhost; `config` goes to the app (over quick keep-alives)."""
    session = Session(Journal(data))
    recognizer = Recognizer(Table().latest, session, link=DiceLink(session))
    recognizer.step()
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "PIN": pin,
                      "SSE_KEEPALIVE": 0.5, "SSE_POLL": 0.05, **config}, session=session,
                     camera=recognizer)
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, name="notices-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}", session, app
    finally:
        server.close()
        thread.join(timeout=10)
        session.journal.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Any]:
    """(url, session): a companion with a camera that has taken one picture, on localhost."""
    with camera_rig(tmp_path / "data") as (url, session, _):
        yield url, session


@pytest.mark.parametrize("width, height", [(390, 844), (320, 640), (1366, 800)])
def test_the_preview_says_the_camera_is_offline_and_what_to_do(browser, rig, width, height):
    # the preview kept showing the last picture, a thin strip at its foot the only sign
    url, session = rig
    session.start("toss-up", ["Ann", "Ben"])
    session.set_extra("camera", {"online": True, "status": "camera online (opencv:0)"})
    phone = width < 800
    page = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                               has_touch=phone).new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(url + "/login")
    page.fill("#pin", PIN)
    page.click("text=Unlock")
    page.click("#preview-card summary")
    page.wait_for_function("() => document.getElementById('preview').naturalWidth > 0")
    assert page.is_hidden("#preview-offline")

    session.set_extra("camera", {"online": False, "status": OFFLINE})
    page.wait_for_selector("#preview-offline", state="visible")
    snap(page, f"notices-preview-offline-{width}x{height}")
    notice = page.inner_text("#preview-offline")
    assert notice.lower().startswith("camera offline")
    assert OFFLINE in notice and "cable" in notice, "what is wrong and what to do"
    assert page.evaluate(COVERED) > 0.9, "the notice covers the stale picture"
    clipped = page.eval_on_selector("#preview-offline", "e => e.scrollHeight > e.clientHeight")
    assert not clipped, "the whole notice is readable without scrolling it"

    session.set_extra("camera", {"online": True, "status": "camera online (opencv:0)"})
    page.wait_for_selector("#preview-offline", state="hidden")
    assert page.eval_on_selector("#preview", "e => e.classList.contains('stale')") is False
    assert not page.js_errors
    page.context.close()


#: Each element of `sel` drawn on the screen: [its text, cut off?, its class, its title].
DRAWN = """sel => [...document.querySelectorAll(sel)].filter(el => el.offsetParent)
  .map(el => [el.textContent, el.scrollWidth > el.clientWidth, el.className, el.title])"""


@pytest.mark.parametrize("game, actions, where", [
    ("paper-toss", [], "#correct-card .choice"),
    ("paper-tales", [{"type": "next"}, {"type": "next"}], ".stepper-label")])  # Wars: strengths
def test_a_name_too_long_for_a_small_phone_ends_in_an_ellipsis(browser, live_server, game,
                                                              actions, where):
    # on a 320 px phone "Wolfeschlegelsteinhausenbergerd|orff" broke inside the word on the
    # host's buttons, where every other place cuts a name short with "…" and a title
    play(live_server, game, *actions)
    page = open_at(browser, live_server.url + "/login", 320, 640)
    unlock_host(page, live_server)
    page.wait_for_selector(f'body[data-version="{1 + len(actions)}"]')
    page.click("#correct-card summary")
    snap(page, f"notices-cut-name-{game}-320x640")
    drawn = [d for d in page.evaluate(DRAWN, where) if d[0] in LONG]  # the players' names
    assert [text for text, *_ in drawn] == LONG
    assert page.evaluate(BROKEN, where) == []
    for text, cut, classes, title in drawn:
        if text == LONG[1]:  # 35 letters: no room even at 70%
            assert cut and "choice-cut" in classes.split() and title == text
        else:
            assert not cut and "choice-cut" not in classes.split(), text
    page.set_viewport_size({"width": 1366, "height": 800})  # room again: the whole name
    page.wait_for_function(f"sel => ({DRAWN})(sel).every(([, cut, cls]) => !cut && !cls.includes('choice-cut'))",
                           arg=where, timeout=5000)
    assert not page.js_errors
    page.context.close()


def test_whose_turn_on_the_host_page_stays_inside_its_card_on_a_small_phone(browser, live_server):
    # "Wolfeschlegelsteinh" ran past the Toss Up! controls' card, "rolls" out of sight
    play(live_server, "toss-up", {"type": "roll", "green": 4, "yellow": 5, "red": 1},
         {"type": "bank"})
    page = open_at(browser, live_server.url + "/login", 320, 640)
    unlock_host(page, live_server)
    page.wait_for_selector('body[data-version="3"] #controls .turn-who')
    assert page.text_content("#controls .turn-who") == LONG[1] + " rolls"
    card = page.locator("#controls").bounding_box()
    words = page.eval_on_selector("#controls .turn-who", """e => {
      const r = document.createRange(); r.selectNodeContents(e);
      return Math.max(...[...r.getClientRects()].map(b => b.right)); }""")
    assert words <= card["x"] + card["width"], "the name runs past the card's edge"
    assert not page.js_errors
    page.context.close()
