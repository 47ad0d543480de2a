"""Headless Debian Chromium: the host teaches one card through the host page's
"Teach cards" panel, with a real server, a real Recognizer and tables drawn in the test.

Skipped with a reason when /usr/bin/chromium is missing, except under CI, where it fails.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from companion.camera_link import DiceLink
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from tests.vision import cards_support as cs
from web import create_app, make_server

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
PIN = "7531"
#: Mean brightness (0-255) of the middle of the live picture: a light card or brown table.
MIDDLE_BRIGHTNESS = """() => {
  const img = document.getElementById('teach-live');
  if (!img.naturalWidth) return 0;
  const canvas = document.createElement('canvas');
  canvas.width = 48; canvas.height = 36;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0, 48, 36);
  const px = ctx.getImageData(18, 12, 12, 12).data;
  let sum = 0;
  for (let i = 0; i < px.length; i += 4) sum += (px[i] + px[i + 1] + px[i + 2]) / 3;
  return sum / (px.length / 4);
}"""
FITS_WIDTH = ("[...document.querySelectorAll('#teach-card *')].every("
              "e => e.getBoundingClientRect().right <= innerWidth + 1)")


class Table:
    """What lies under the camera; the recognizer reads it when the test says so."""

    frame: np.ndarray | None = None

    def latest(self) -> np.ndarray | None:
        return self.frame




@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Any]:
    """(url, table, recognizer, data folder): the companion served on localhost."""
    data = tmp_path / "data"
    session = Session(Journal(data))
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "PIN": PIN,
                      "SSE_KEEPALIVE": 0.5, "SSE_POLL": 0.05}, session=session,
                     camera=recognizer)
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, name="teach-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}", table, recognizer, data
    finally:
        server.close()
        thread.join(timeout=10)
        session.journal.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $COMPANION_SHOTS (to look at them) or the test's tmp folder."""
    folder = Path(os.environ.get("COMPANION_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_host_teaches_one_card_from_the_host_page(browser, rig, shots):
    url, table, recognizer, data = rig
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/login")
    page.fill("#pin", PIN)
    page.click("text=Unlock")
    page.wait_for_selector('#teach-card[data-ready="yes"]', state="attached")

    table.frame = cs.table(seed=3)  # an empty table first
    recognizer.step()
    page.click("#teach-card summary")
    page.select_option("#teach-game", "sorry-21")
    page.wait_for_selector('#teach-faces button[data-card="slide-15"]')
    assert page.inner_text("#teach-progress") == "0 of 19 cards taught"
    assert page.get_attribute('#teach-faces button[data-card="number-0"]',
                              "aria-pressed") == "true", "the first untaught face is picked"
    assert page.inner_text("#teach-name") == "the 0 card"  # not "Show 0 under the camera"
    page.click('#teach-faces button[data-card="slide-15"]')
    assert page.inner_text("#teach-name") == "Slide to 15"
    page.wait_for_function("() => document.getElementById('teach-live').naturalWidth > 0")
    assert page.evaluate(MIDDLE_BRIGHTNESS) < 120, "the live picture shows the empty table"

    page.click("#teach-capture")
    page.wait_for_selector("#teach-error:not([hidden])")
    assert page.inner_text("#teach-error") == ("No card in view: put one card face up under "
                                               "the camera.")

    table.frame = cs.place(cs.table(seed=4), cs.faces()["hero-comet"],
                           cs.card_corners((470, 370), 330, 24, tilt=0.06))
    recognizer.step()
    page.click("#teach-capture")
    page.wait_for_selector('#teach-faces button[data-card="slide-15"][data-taught="yes"]')
    page.wait_for_function("() => document.getElementById('teach-face').naturalWidth > 0")
    assert page.is_hidden("#teach-error")
    assert page.inner_text("#teach-progress") == "1 of 19 cards taught"
    assert page.inner_text("#teach-capture") == "Capture again"
    assert page.inner_text("#teach-next") == "Next: Slide to 21"
    ratio = page.evaluate("(() => { const i = document.getElementById('teach-face');"
                          " return i.naturalWidth / i.naturalHeight; })()")
    assert 0.6 < ratio < 0.82, "the saved face is the straightened card"
    assert (data / "decks" / "sorry-21" / "slide-15.png").is_file()
    assert page.evaluate(FITS_WIDTH), "nothing in the panel sticks out of a phone screen"
    page.wait_for_function(f"() => ({MIDDLE_BRIGHTNESS})() > 140", timeout=5000)  # the card
    page.locator("#teach-card").screenshot(path=str(shots / "test-teach-panel.png"))
    page.locator("#teach-station").scroll_into_view_if_needed()
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(shots / "test-teach-phone-dark.png"))
    page.emulate_media(color_scheme="light")

    page.click("#teach-next")
    assert page.inner_text("#teach-name") == "Slide to 21"
    page.click('#teach-faces button[data-card="slide-15"]')
    page.click("#teach-delete")
    page.wait_for_selector('#teach-faces button[data-card="slide-15"][data-taught="no"]')
    assert page.inner_text("#teach-progress") == "0 of 19 cards taught"
    assert not (data / "decks" / "sorry-21" / "slide-15.png").exists()
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_game_picked_while_the_first_deck_loads_is_the_one_shown(browser, rig):
    """The panel asks for the first game's deck when it opens; a game the host picks
    before that answer arrives stays shown when the late answer comes."""
    url, _, _, _ = rig
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url + "/login")
    page.fill("#pin", PIN)
    page.click("text=Unlock")
    page.wait_for_selector('#teach-card[data-ready="yes"]', state="attached")
    held: list[Any] = []  # the first deck's answer, held back until the host has picked
    page.route("**/api/decks/*", lambda route: route.continue_()
               if route.request.url.endswith("/sorry-21") else held.append(route))
    page.click("#teach-card summary")
    page.wait_for_selector('#teach-game option[value="sorry-21"]', state="attached")
    page.select_option("#teach-game", "sorry-21")
    page.wait_for_selector('#teach-faces button[data-card="slide-15"]')
    assert held, "the panel asked for the first game's deck when it opened"
    with page.expect_response(lambda r: r.url == held[0].request.url):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 0))")  # its handler has run
    assert page.locator('#teach-faces button[data-card="slide-15"]').count() == 1
    assert page.input_value("#teach-game") == "sorry-21"
    context.close()
