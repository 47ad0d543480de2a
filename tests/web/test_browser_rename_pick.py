"""Headless Chromium on the host's "Rename a player": each pick shows the picked player's
name, and the field counts a name's length as the other name fields do (Names.watch).

Drives /usr/bin/chromium (Debian's) through Playwright; skipped when it is missing, except
under CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import MAX_NAME
from tests.web.test_browser_review import open_host, snap

pytestmark = pytest.mark.browser


def _rename_form(browser: Any, live_server: Any) -> Any:
    assert live_server.request("POST", "/api/games", {
        "game": "toss-your-cookies", "players": ["Ann", "Bea", "Cy"]})[0] == 201
    host = open_host(browser, live_server)
    host.wait_for_selector('body[data-version="1"] #rename-card')
    host.click("#rename-card summary")
    return host


def test_picking_another_player_shows_that_players_name(browser, live_server):
    # tap Ann, then Bea: the field kept "Ann" and sent Bea -> Ann, refused
    host = _rename_form(browser, live_server)
    host.click('#rename-form button:text-is("Ann")')
    assert host.input_value("#rename-name") == "Ann"
    host.click('#rename-form button:text-is("Bea")')
    assert host.input_value("#rename-name") == "Bea"
    host.fill("#rename-name", "Ben")
    host.click('#rename-form button:text-is("Cy")')  # another pick: a fresh field
    assert host.input_value("#rename-name") == "Cy"
    host.fill("#rename-name", "Cyd")
    host.click("#rename-send")
    host.wait_for_selector('body[data-version="2"]')
    assert [p["name"] for p in live_server.request("GET", "/api/state")[1]["players"]] == [
        "Ann", "Bea", "Cyd"]
    assert not host.js_errors
    host.context.close()


def test_the_new_name_field_counts_characters_and_refuses_one_too_many(browser, live_server):
    host = _rename_form(browser, live_server)
    host.click('#rename-form button:text-is("Ann")')
    counter = host.locator("#rename-form .name-count")
    host.fill("#rename-name", "A" * MAX_NAME)
    assert counter.is_visible() and counter.text_content() == f"{MAX_NAME}/{MAX_NAME}"
    assert not host.is_disabled("#rename-send")
    host.fill("#rename-name", "A" * (MAX_NAME + 1))
    assert counter.text_content() == f"{MAX_NAME + 1}/{MAX_NAME}: too long"
    assert host.get_attribute("#rename-name", "aria-invalid") == "true"
    assert host.is_disabled("#rename-send")
    snap(host, "mend13-rename-too-long")
    assert not host.js_errors
    host.context.close()


def test_a_rename_by_seat_names_the_player_and_the_host_forgets_the_old_name(
        browser, live_server):
    # Recent read "Renamed seat 2 to Ben", and the next game's form and this phone's
    # remembered names still offered the typo "Bea"
    host = _rename_form(browser, live_server)
    host.evaluate("""localStorage.setItem("companion-names",
                                          JSON.stringify(["Ann", "Bea", "Cy", "Zed"]))""")
    status, _ = live_server.request("POST", "/api/actions",
                                    {"type": "rename", "player": 1, "name": "Ben"})
    assert status == 200
    host.wait_for_selector('body[data-version="2"]')
    assert host.locator("#recent .recent-what").all_inner_texts()[0] == "Renamed Bea to Ben"
    assert host.eval_on_selector_all("#player-list input", "els => els.map((e) => e.value)") == [
        "Ann", "Ben", "Cy"]
    assert host.evaluate('JSON.parse(localStorage.getItem("companion-names"))') == [
        "Ann", "Ben", "Cy", "Zed"]
    assert live_server.request("POST", "/api/undo", {})[0] == 200  # the rename was the typo
    host.wait_for_selector('body[data-version="3"]')
    assert host.eval_on_selector_all("#player-list input", "els => els.map((e) => e.value)") == [
        "Ann", "Bea", "Cy"]
    assert host.evaluate('JSON.parse(localStorage.getItem("companion-names"))') == [
        "Ann", "Bea", "Cy", "Zed"]
    assert not host.js_errors
    host.context.close()
