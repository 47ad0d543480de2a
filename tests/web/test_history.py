"""The history page and its exports: JSON, games CSV, players CSV."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from web.app import get_companion


def win_toss_up(host, players):
    assert host.start(players, options={"target": 5}).status_code == 201
    assert host.roll(6, 4, 0).status_code == 200
    assert host.act(type="bank").status_code == 200
    for _ in players[1:]:
        assert host.roll(0, 5, 5).status_code == 200


def test_history_lists_games_newest_first_with_stats(client, host):
    win_toss_up(host, ["Ann", "Ben"])
    win_toss_up(host, ["Ben", "Ann"])
    host.start(["Cy", "Ann"])
    response = client.get("/api/history")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    data = response.get_json()
    assert [g["finished"] for g in data["games"]] == [False, True, True]
    assert data["games"][1]["players"] == [{"name": "Ben", "score": 6, "winner": True},
                                           {"name": "Ann", "score": 0, "winner": False}]
    stats = {(s["game"], s["player"]): (s["played"], s["wins"], s["average"])
             for s in data["players"]}
    assert stats == {("toss-up", "Ann"): (2, 1, 3.0), ("toss-up", "Ben"): (2, 1, 3.0)}
    assert data["names"] == ["Cy", "Ann", "Ben"]


def test_history_is_empty_before_the_first_game(client):
    assert client.get("/api/history").get_json() == {"games": [], "players": [], "names": []}


@pytest.mark.parametrize("path, mimetype, filename", [
    ("/api/history.json", "application/json", "companion-history.json"),
    ("/api/history.csv", "text/csv", "companion-games.csv"),
    ("/api/history/players.csv", "text/csv", "companion-players.csv"),
])
def test_exports_are_downloads(client, host, path, mimetype, filename):
    win_toss_up(host, ["Ann", "Ben"])
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == mimetype
    assert response.headers["Content-Disposition"] == f'attachment; filename="{filename}"'
    assert "Ann" in response.get_data(as_text=True)


def test_games_csv_rows(client, host):
    win_toss_up(host, ["Ann", "<b>Ben</b>"])
    rows = list(csv.DictReader(io.StringIO(client.get("/api/history.csv").get_data(as_text=True))))
    assert [(r["seat"], r["player"], r["score"], r["winner"]) for r in rows] == [
        ("0", "Ann", "6", "1"), ("1", "<b>Ben</b>", "0", "0")]


def test_history_survives_a_restart(tmp_path, make_app, host_for):
    first = make_app(tmp_path / "d")
    win_toss_up(host_for(first.test_client()), ["Ann", "Ben"])
    again = make_app(tmp_path / "d").test_client()
    assert again.get("/api/history").get_json()["games"][0]["winners"] == ["Ann"]


def test_history_page_is_a_shell_with_the_security_headers(client):
    response = client.get("/history")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    page = response.get_data(as_text=True)
    assert "/api/history.csv" in page and "js/history.js" in page


def test_history_needs_no_pin_but_cannot_be_changed(client):
    assert client.get("/api/history").status_code == 200
    assert client.post("/api/history").status_code == 405


def test_a_history_read_that_finds_the_journal_unreadable_moves_nothing(app, client, host):
    # Each history request opens the journal again; finding it unreadable (a disk going
    # bad under the running companion) it renamed the live file aside and read an empty one.
    win_toss_up(host, ["Ann", "Ben"])
    data = Path(app.config["DATA_DIR"])
    get_companion(app).session.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(data / "companion.db", "r+b") as db:
        db.write(b"not SQLite at all")  # the header: "file is not a database"
    response = client.get("/api/history")
    assert response.status_code == 503
    error = response.get_json()["error"]
    assert "cannot be read" in error and "\n" not in error
    assert sorted(p.name for p in data.iterdir() if "damaged" in p.name) == []
