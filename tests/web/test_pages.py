"""The pages: scoreboard, TV mode, host page, join QR code, manifest, per-game scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from web.qr import join_url, qr_svg, terminal_qr

STATIC = Path(__file__).parents[2] / "web" / "static"
GAMES = ["toss_up", "paper_toss", "sorry_21", "toss_your_cookies", "paper_tales"]


@pytest.mark.parametrize("host_header, lan, public, expected", [
    ("192.168.1.20:8000", "10.0.0.2", None, "http://192.168.1.20:8000/"),
    ("localhost:8000", "192.168.1.20", None, "http://192.168.1.20:8000/"),
    ("127.0.0.1:8000", "192.168.1.20", None, "http://192.168.1.20:8000/"),
    ("pi.local", "192.168.1.20", None, "http://192.168.1.20/"),
    ("localhost:8000", None, None, "http://localhost:8000/"),  # no network: keep it
    ("[::1]:8000", None, None, "http://[::1]:8000/"),
    ("anything", "10.0.0.2", "http://table.example:9000", "http://table.example:9000/"),
])
def test_join_url_is_by_ip(host_header, lan, public, expected):
    assert join_url(host_header, lan=lan, public_url=public) == expected


def test_qr_svg_is_a_standalone_svg_naming_the_address():
    svg = qr_svg("http://192.168.1.20:8000/")
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert "<title>http://192.168.1.20:8000/</title>" in svg
    assert "<script" not in svg and "style=" not in svg


def test_terminal_qr_is_square_text_blocks():
    text = terminal_qr("http://192.168.1.20:8000/")
    lines = text.splitlines()
    assert set(text) <= {"█", "▀", "▄", " ", "\n"}
    assert len({len(line) for line in lines}) == 1
    width = len(lines[0])
    assert len(lines) == (width + 1) // 2  # two module rows per line
    assert lines[0] == "█" * width  # the quiet zone is light
    assert terminal_qr("http://10.0.0.1/") != text


def test_join_svg_uses_the_configured_public_url(tmp_path, make_app):
    client = make_app(tmp_path / "d", PUBLIC_URL="http://10.1.2.3:8000").test_client()
    response = client.get("/join.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert "<title>http://10.1.2.3:8000/</title>" in response.get_data(as_text=True)


def test_join_svg_follows_the_host_header(client):
    response = client.get("/join.svg", headers={"Host": "192.168.7.7:8123"})
    assert "<title>http://192.168.7.7:8123/</title>" in response.get_data(as_text=True)


def test_host_page_shows_the_join_address_and_qr(client, pin):
    page = client.get("/host", headers={"Host": "192.168.7.7:8000",
                                        "Authorization": f"Bearer {pin}"}).get_data(as_text=True)
    assert 'src="/join.svg"' in page and "http://192.168.7.7:8000/" in page
    assert "js/touch.js" in page


@pytest.mark.parametrize("path", ["/", "/tv", "/?tv=1"])
def test_scoreboard_pages_load_every_game_panel(client, path):
    response = client.get(path)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for game in GAMES:
        assert f"js/panels/{game}.js" in page
    for script in ("theme.js", "cues.js", "timer.js", "chart.js", "scoreboard.js"):
        assert f"js/{script}" in page
    assert ('class="scoreboard tv"' in page) == (path != "/")
    assert 'rel="manifest"' in page


def test_every_game_has_a_panel_and_host_controls():
    for game in GAMES:
        assert (STATIC / "js" / "panels" / f"{game}.js").is_file()
        assert (STATIC / "js" / "host" / f"{game}.js").is_file()


def test_manifest_is_installable(client):
    with client.get("/static/manifest.webmanifest") as response:
        assert response.status_code == 200
        manifest = json.loads(response.get_data(as_text=True))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as response:
            assert response.status_code == 200


def test_no_inline_scripts_or_styles_in_templates():
    """The CSP allows only the page's own files: no inline <script> code or style attributes."""
    for template in (STATIC.parent / "templates").glob("*.html"):
        text = template.read_text()
        assert "style=" not in text, template.name
        for chunk in text.split("<script")[1:]:
            head = chunk.split(">", 1)[0]
            assert "src=" in head or 'type="application/json"' in head, template.name


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_a_mistyped_address_in_a_browser_gets_a_page_not_raw_json(client):
    # a phone that opened /scorebord showed {"error":"There is nothing at this address."}
    answer = client.get("/scorebord", headers={"Accept": BROWSER})
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert "There is nothing at this address." in page and 'href="/"' in page
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path, accept", [
    ("/api/nothing", BROWSER),  # the API always answers JSON
    ("/scorebord", "*/*"),  # a script, curl
    ("/static/js/nothing.js", "*/*"),
    ("/scorebord", "application/json"),
])
def test_everything_but_a_browsers_page_gets_json(client, path, accept):
    answer = client.get(path, headers={"Accept": accept})
    assert answer.status_code == 404
    assert answer.get_json() == {"error": "There is nothing at this address."}


def test_every_games_options_say_what_they_do_in_the_catalog():
    # The new-game form showed "Longer" or "Auto advance" beside a bare checkbox: the host
    # had to know the docs to guess what it changes.
    from web.pages import game_catalog

    for game in game_catalog():
        hints = game["option_hints"]
        assert set(hints) == set(game["options"]), game["id"]
        assert all(isinstance(text, str) and text.endswith(".") for text in hints.values())
