"""Headless Chromium on the host's player-name fields: they count a name's length as the
companion does (characters as a person sees them, companion/graphemes.py), so a family
emoji is one of the 40, and the page never calls a name too long that the companion takes.

Drives /usr/bin/chromium (Debian's) through Playwright on a real local server; skipped when
it is missing, except under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import MAX_NAME, MAX_NAME_CODE_POINTS
from companion.graphemes import graphemes
from tests.web.browser_support import unlock_host
from tests.web.test_browser_review import open_page, snap

pytestmark = pytest.mark.browser

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 7 code points, 11 units
ACCENTED = "e\u0301\u0308"  # e with two combining marks: one character
#: Names whose length the fallback (no Intl.Segmenter) must not count above the companion.
SAMPLES = [
    "Ann", FAMILY * 3 + " Kids", ACCENTED * 5, "\U0001f44d\U0001f3fd Zo\u00eb",
    "\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea\U0001f1ee", "1\ufe0f\u20e3 go", "\u2764\ufe0f",
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Ed",
    "\u1112\u1161\u11ab\u1100\u1173\u11af", "\ud55c\uae00", "a\u200db", "x\u200d\U0001f600",
    "\u0915\u094d\u0937", "\u0e01\u0e33", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
]


def _host(browser: Any, live_server: Any) -> Any:
    page = unlock_host(open_page(browser, live_server.url + "/login"), live_server)
    page.wait_for_selector("#player-list input")
    return page


def _count(page: Any, row: int) -> tuple[bool, str, str | None]:
    """The row's counter: (shown?, its text, the field's aria-invalid)."""
    item = page.locator("#player-list li").nth(row)
    counter = item.locator(".name-count")
    return (counter.is_visible(), counter.text_content() or "",
            item.locator("input").get_attribute("aria-invalid"))


def test_forty_family_emoji_are_forty_characters_and_the_companion_takes_them(
        browser, live_server):
    page = _host(browser, live_server)
    names = page.locator("#player-list input")
    names.nth(0).fill(FAMILY * MAX_NAME)  # 440 UTF-16 units, 280 code points
    names.nth(1).fill(ACCENTED * MAX_NAME)  # 120 code points
    assert _count(page, 0) == (True, f"{MAX_NAME}/{MAX_NAME}", "false")
    assert _count(page, 1) == (True, f"{MAX_NAME}/{MAX_NAME}", "false")
    page.click("#start")
    page.wait_for_selector('body[data-version="1"]')
    status, state = live_server.request("GET", "/api/state")
    assert [p["name"] for p in state["players"]][:2] == [FAMILY * MAX_NAME, ACCENTED * MAX_NAME]
    assert not page.js_errors
    page.context.close()


def test_one_more_is_too_long_on_the_page_and_for_the_companion(browser, live_server):
    page = _host(browser, live_server)
    names = page.locator("#player-list input")
    names.nth(0).fill("Ann")
    assert _count(page, 0) == (False, "3/40", "false")  # short names: no counter
    names.nth(0).fill(FAMILY * (MAX_NAME + 1))
    assert _count(page, 0) == (True, f"{MAX_NAME + 1}/{MAX_NAME}: too long", "true")
    names.nth(1).fill("Ben" + ACCENTED * (MAX_NAME - 3))
    assert _count(page, 1) == (True, f"{MAX_NAME}/{MAX_NAME}", "false")
    names.nth(1).type("x")
    assert _count(page, 1) == (True, f"{MAX_NAME + 1}/{MAX_NAME}: too long", "true")
    snap(page, "names-count-too-long-390x844")
    page.click("#start")
    page.wait_for_selector("#error:has-text('too long')")
    assert live_server.request("GET", "/api/state")[1]["game"] is None
    assert not page.js_errors
    page.context.close()


def test_the_page_counts_as_the_companion_and_its_fallback_never_more(browser, live_server):
    page = _host(browser, live_server)
    assert page.evaluate("() => [Names.MAX, Names.MAX_CODE_POINTS]") == [MAX_NAME,
                                                                        MAX_NAME_CODE_POINTS]
    counted = page.evaluate("names => names.map((n) => [Names.length(n), Names.length(n, null)])",
                            SAMPLES)
    for name, (segmented, fallback) in zip(SAMPLES, counted):
        server = len(graphemes(name.strip()))
        assert fallback <= server, (name, fallback, server)
        assert segmented <= server, (name, segmented, server)
    agreed = sum(seg == len(graphemes(n)) for n, (seg, _) in zip(SAMPLES, counted))
    assert agreed >= len(SAMPLES) - 2, counted  # a Devanagari conjunct: Unicode 15.1 joins it
    assert page.evaluate("() => Names.isTooLong('a'.repeat(40) + '\u0301'.repeat(400))"), \
        "400 code points at most, as the companion"
    page.context.close()
