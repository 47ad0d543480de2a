"""Headless Chromium on the host's camera preview when the companion has no room for it:
past the cap of open streams it answers 503 + Retry-After, and the page says "busy,
retrying" and opens the picture again by itself once a slot is free.

Drives /usr/bin/chromium (Debian's) through Playwright on a real local server; skipped when
it is missing, except under CI.
"""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.web.conftest import PIN
from tests.web.test_browser_review import open_page, snap
from tests.web.test_browser_table_notices import camera_rig
from tests.web.test_stream_cap import open_stream
from web.streams import RETRY_AFTER

pytestmark = pytest.mark.browser

PICTURE = "() => document.getElementById('preview').naturalWidth > 0"


@pytest.fixture
def crowded(tmp_path: Path) -> Iterator[Any]:
    """(url, port, its StreamSlots): a companion with a camera and room for 2 host streams."""
    with camera_rig(tmp_path / "data", PIN, SSE_MAX_STREAMS=1, SSE_HOST_STREAMS=1) as (
            url, session, app):
        session.start("toss-up", ["Ann", "Ben"])
        session.set_extra("camera", {"online": True, "status": "camera online (opencv:0)"})
        yield url, int(url.rsplit(":", 1)[1]), app.extensions["companion"].streams


def _host_page(browser: Any, url: str) -> Any:
    """The host page, logged in, its camera preview offered (still closed)."""
    page = open_page(browser, url + "/login")
    page.fill("#pin", PIN)
    page.click("text=Unlock")
    page.wait_for_selector("#preview-card:not([hidden])")
    return page


def _fill_the_cap(port: int, slots: Any) -> list[socket.socket]:
    """Open host event streams until the companion refuses one; the ones it let in.

    First waits for the login page's event stream to be let go (the server notices a
    closed stream at its next keep-alive), so only the host page's own stays open.
    """
    deadline = time.monotonic() + 30
    while slots.open != 1:
        assert time.monotonic() < deadline, f"{slots.open} streams open, not the page's one"
        time.sleep(0.05)
    held = []
    while True:
        sock, head = open_stream(port, host=True)
        if not head.startswith(b"HTTP/1.1 200"):
            sock.close()
            assert head.startswith(b"HTTP/1.1 503"), head
            return held
        held.append(sock)
        assert len(held) < 10, "no cap"


def test_a_refused_preview_says_busy_and_comes_back_by_itself(browser, crowded):
    url, port, slots = crowded
    page = _host_page(browser, url)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "preview.mjpeg" in r.url else None)
    phones = _fill_the_cap(port, slots)  # with the page's own event stream
    try:
        page.click("#preview-card summary")
        page.wait_for_selector("#preview-busy", state="visible")
        snap(page, "preview-busy-390x844")
        notice = page.inner_text("#preview-busy")
        assert notice.lower().startswith("busy, retrying")
        waits = [int(n) for n in re.findall(r"in (\d+) s", notice)]
        assert waits and waits[0] >= int(RETRY_AFTER), "Retry-After is honoured"
        assert not page.evaluate(PICTURE)
    finally:
        for phone in phones:
            phone.close()  # the phones went away: their slots are free again
    page.wait_for_function(PICTURE, timeout=30_000)
    assert page.is_hidden("#preview-busy")
    assert sum("frames=1" not in u for u in asked) >= 2, "the picture was asked for again"
    assert not page.js_errors
    page.context.close()


def test_each_refusal_in_a_row_waits_longer_up_to_half_a_minute(browser, crowded):
    url, _, _ = crowded
    page = _host_page(browser, url)
    tries = [0, 3, 4, 5, 9]
    waits = page.evaluate("""(tries) => tries.map((n) => {
        Preview.tries = n; return [Preview.wait("5"), Preview.wait(null)]; })""", tries)
    for (after, bare), low, n in zip(waits, [5, 8, 16, 30, 30], tries):
        assert low <= after <= low * 1.2 + 0.5
        backoff = min(30, 2 ** n)  # no Retry-After: the backoff alone, plus up to a fifth
        assert backoff <= bare <= backoff * 1.2 + 0.5, (n, bare)
    in_ten = page.evaluate("() => { Preview.tries = 1; return Preview.wait("
                           "new Date(Date.now() + 10000).toUTCString()); }")
    assert 9 <= in_ten <= 12.5, "an HTTP date in Retry-After counts too"
    assert not page.js_errors
    page.context.close()


def test_a_retry_refused_another_way_says_why_and_stops_retrying(browser, crowded):
    # busy, then logged out before the retry: "Busy, retrying" stayed up over a hidden
    # picture, with no retry pending
    url, port, slots = crowded
    page = _host_page(browser, url)
    phones = _fill_the_cap(port, slots)
    try:
        page.click("#preview-card summary")
        page.wait_for_selector("#preview-busy", state="visible")
        page.context.clear_cookies()  # the host's login is gone: the retry gets a 401
        page.wait_for_function("() => !/^busy/i.test("
                               "document.getElementById('preview-busy').innerText)",
                               timeout=40_000)
        notice = page.inner_text("#preview-busy")
        assert "log in on the host page" in notice, notice
        assert page.evaluate("() => Preview.timer") is None, "nothing is retried"
        snap(page, "preview-refused-390x844")
    finally:
        for phone in phones:
            phone.close()
    assert not page.js_errors
    page.context.close()
