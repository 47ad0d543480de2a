"""The host is told on the host page when the journal was damaged and moved aside on start."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.browser_support import unlock_host
from tests.web.conftest import make_app, serve_live

pytestmark = pytest.mark.browser


def test_the_host_page_says_the_journal_was_damaged(browser, tmp_path: Path) -> None:
    data = tmp_path / "table"
    data.mkdir()
    (data / "companion.db").write_bytes(b"not a database at all " * 400)
    app = make_app(data, SSE_MAX_SECONDS=None, SSE_KEEPALIVE=0.5)
    with serve_live(app) as live:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(live.url + "/host")
        unlock_host(page, live)
        notice = page.wait_for_selector("#journal-notice:not([hidden])", timeout=5000)
        text = notice.inner_text()
        assert "damaged" in text and "companion.db." in text, text
        page.context.close()
