"""Helpers shared by the browser tests (real headless Chromium on a real local server)."""

from __future__ import annotations

from typing import Any


def unlock_host(page: Any, live_server: Any) -> Any:
    """Log ``page`` (open on the login page) in as the host; the host page once it is up."""
    page.fill("#pin", live_server.app.config["PIN"])
    page.click("text=Unlock")
    page.wait_for_selector("#new-game-form", state="attached")
    return page
