"""Headless Chromium on the timed games: two phones agree on a Paper Tales phase timer
although their own clocks disagree, and a Snickerdoodle! claim is checked by the camera
from the host page.

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI. The bench with figures is ``bench/bench_timer_sync.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser_support import unlock_host
from tests.web.test_browser_review import open_host
from companion.camera_link import CardLink
from companion.controls import Controls

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "bypass_csp": True}  # the probes are evaluated scripts
SKEW = """(() => { const real = Date.now; Date.now = () => real() + %f * 1000; })();"""
#: Each page notes when its phase timer first shows each value (performance clock, ms).
OBSERVE = """() => { window.__shown = {};
  new MutationObserver(() => {
    const el = document.getElementById("phase-timer");
    if (el && el.dataset.deadline)
      window.__shown[el.dataset.deadline + "|" + el.textContent] ??= performance.timeOrigin + performance.now();
  }).observe(document.getElementById("board"), {subtree: true, childList: true, characterData: true}); }"""
#: (now on the performance clock, seconds left by the page's server clock), both in s.
LEFT = """() => [(performance.timeOrigin + performance.now()) / 1000,
  Number(document.getElementById("phase-timer").dataset.deadline) - Clock.now()]"""




def open_phone(browser: Any, url: str, skew: float = 0.0) -> Any:
    """A phone-sized page whose own clock is ``skew`` seconds wrong; JS errors collected."""
    context = browser.new_context(**PHONE)
    context.add_init_script(SKEW % skew)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(url)
    if not url.endswith("/login"):
        page.wait_for_selector('#conn[data-status="live"]', state="attached", timeout=5000)
    return page


def test_two_phones_show_the_same_phase_time_within_half_a_second(browser, live_server):
    status, _ = live_server.request("POST", "/api/games", {
        "game": "paper-tales", "players": ["Ann", "Ben", "Cy"],
        "options": {"phase_seconds": {"recruitment": 30}}})
    assert status == 201
    right = open_phone(browser, live_server.url + "/")
    wrong = open_phone(browser, live_server.url + "/", skew=3.7)  # its clock is 3.7 s fast
    phones = (right, wrong)
    for page in phones:
        page.wait_for_selector("#phase-timer")
        page.evaluate(OBSERVE)
    live_server.request("POST", "/api/actions", {"type": "start"})
    for page in phones:
        page.wait_for_selector("#phase-timer[data-deadline]", timeout=2000)
    (t1, left1), (t2, left2) = (page.evaluate(LEFT) for page in phones)
    assert abs((left1 - left2) - (t2 - t1)) < 0.5, "both count from the server's clock"
    for page in phones:  # two changes of the shown seconds on each phone (about 2 s)
        page.wait_for_function("Object.keys(window.__shown).length >= 3", timeout=5000)
    shown = [page.evaluate("() => window.__shown") for page in phones]
    common = set(shown[0]) & set(shown[1])
    assert len(common) >= 2
    for key in common:
        assert abs(shown[0][key] - shown[1][key]) < 500, f"{key} shown apart on the phones"
    assert right.inner_text("#phase-timer") in ("0:28", "0:29", "0:30")  # m:ss, never a bare 28
    assert not right.js_errors and not wrong.js_errors
    for page in phones:
        page.context.close()


def host_page(browser: Any, live_server: Any) -> Any:
    page = open_phone(browser, live_server.url + "/login")
    return unlock_host(page, live_server)


def test_a_snickerdoodle_hand_is_checked_by_the_camera_from_the_host_page(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                               "players": ["Ann", "Ben", "Cy"]})
    companion = live_server.app.extensions["companion"]
    link = CardLink(companion.session)
    companion.camera = link  # the recognition loop's confirm(), without a real camera
    link.on_cards(())
    phone = open_phone(browser, live_server.url + "/")
    host = host_page(browser, live_server)
    host.click("#claim-picker summary")
    host.click('#claim-picker button:text-is("Cy")')
    host.wait_for_selector("#withdraw")
    assert "Cy shows the hand" in host.text_content("#controls")
    phone.wait_for_selector("#claim")
    link.on_cards(("chocolate-chip",) * 4 + ("wild", "half-eaten"))  # no milk
    verdict = "Cy shows: 4 Chocolate Chip and a Wild: that is five, but no milk."
    host.wait_for_selector(f'#claim-verdict:text-is("{verdict}")')
    phone.wait_for_selector(f'#claim-verdict:text-is("{verdict}")')
    assert host.locator("#confirm-camera").count() == 0
    link.on_cards(("chocolate-chip",) * 4 + ("wild", "milk"))
    host.click("#confirm-camera")
    phone.wait_for_selector("#last-claim")
    assert "Cy" in phone.inner_text("#last-claim") and "(checked)" in phone.inner_text("#last-claim")
    _, state = live_server.request("GET", "/api/state")
    assert [p["score"] for p in state["players"]] == [0, 0, 1] and state["claim"] is None
    assert not host.js_errors and not phone.js_errors
    for page in (host, phone):
        page.context.close()


def test_toss_now_from_the_host_is_called_out_on_the_phones(browser, live_server):
    live_server.request("POST", "/api/games", {"game": "toss-your-cookies",
                                               "players": ["Ann", "Ben", "Cy"],
                                               "options": {"countdown_seconds": 30}})
    phone = open_phone(browser, live_server.url + "/")
    live_server.request("POST", "/api/actions", {"type": "toss"})
    phone.wait_for_selector("#countdown")
    assert "go" not in phone.evaluate("Cues.played")
    live_server.request("POST", "/api/actions", {"type": "skip"})  # "Toss! now"
    phone.wait_for_selector('body[data-cues~="go"]', timeout=2000)
    assert phone.text_content("#callout") == "Toss!"
    assert phone.evaluate("Cues.played").count("go") == 1, "called once"
    assert not phone.js_errors
    phone.context.close()


def test_a_host_tap_after_the_timer_button_does_not_undo_it(browser, live_server):
    # the host page's Pause sent "toggle": when the timer button on the table had paused the
    # phase a moment before (the page not yet redrawn), the host's Pause started it again
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "start"})[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="2"] #timer-toggle:text-is("Pause")')
    host.evaluate("Live.source.close()")  # the page misses the next change for a moment
    session = live_server.app.extensions["companion"].session
    assert Controls(session).handle("timer") == "timer: done"  # the button pauses it
    assert not session.state()["timer"]["running"]
    host.click("#timer-toggle")  # still reads "Pause"
    # refused for the version the page showed (before: by the game, "not running")
    host.wait_for_selector("#error:has-text('was just recorded: look again')")
    assert not session.state()["timer"]["running"], "the host's tap restarted the timer"
    assert not host.js_errors
    host.context.close()


def test_a_host_tap_after_the_next_button_does_not_end_the_scramble(browser, live_server):
    # "Toss! now" sent a bare skip: when the next button had called Toss! a moment before
    # (the page not yet redrawn), the host's tap ended the scramble that had just begun
    assert live_server.request("POST", "/api/games", {
        "game": "toss-your-cookies", "players": ["Ann", "Ben", "Cy"],
        "options": {"countdown_seconds": 30, "scramble_seconds": 60}})[0] == 201
    assert live_server.request("POST", "/api/actions", {"type": "toss"})[0] == 200
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="2"] #skip:text-is("Toss! now")')
    host.evaluate("Live.source.close()")  # the page misses the next change for a moment
    session = live_server.app.extensions["companion"].session
    assert Controls(session).handle("next") == "next: done"  # Toss!: the scramble is on
    host.click("#skip")  # still reads "Toss! now"
    # refused for the version the page showed (before: by the game, "The countdown is already over")
    host.wait_for_selector("#error:has-text('was just recorded: look again')")
    assert session.state()["phase"] == "scramble", "the host's tap ended the scramble"
    assert not host.js_errors
    host.context.close()


def test_a_host_tap_after_the_next_button_ends_no_second_phase(browser, live_server):
    # "Next phase →" sent a bare next: a tap a moment after the next button on the table
    # ended Recruitment (the page not yet redrawn) ended Deployment as well
    assert live_server.request("POST", "/api/games", {"game": "paper-tales",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"] #next-phase')
    host.evaluate("Live.source.close()")  # the page misses the next change for a moment
    session = live_server.app.extensions["companion"].session
    assert Controls(session).handle("next") == "next: done"  # Deployment now
    host.click("#next-phase")
    # refused for the version the page showed (before: by the game, "Recruitment is already over")
    host.wait_for_selector("#error:has-text('was just recorded: look again')")
    assert session.state()["phase"] == "deployment", "the host's tap ended a second phase"
    assert not host.js_errors
    host.context.close()


def test_a_phase_timer_not_started_yet_is_not_said_to_be_paused(browser, live_server):
    # before the host started the first phase the phones said "2:00 paused" (ux14)
    live_server.request("POST", "/api/games", {"game": "paper-tales",
                                               "players": ["Ann", "Ben", "Cy"]})
    phone = open_phone(browser, live_server.url + "/")
    words = ".tales-now .countdown-box .step-text"
    phone.wait_for_selector(f"{words}:text-is('not started')")
    live_server.request("POST", "/api/actions", {"type": "start"})
    phone.wait_for_selector(f"{words}:text-is('left')")
    live_server.request("POST", "/api/actions", {"type": "pause"})
    phone.wait_for_selector(f"{words}:text-is('paused')")
    assert not phone.js_errors
    phone.context.close()
