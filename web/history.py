"""The history of the table: a page and its JSON/CSV exports (anyone on the LAN may read).

``GET /history`` is the page; ``GET /api/history`` the finished and running games with
per-player wins and averages; ``/api/history.json``, ``/api/history.csv`` (one row per
player per game) and ``/api/history/players.csv`` (the statistics) are downloads.
Each request opens its own read connection on the data folder's journal, so reading the
history never waits for, or disturbs, the session writing it: a journal it finds
unreadable is a 503, never moved aside (that is the session's start-up alone).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, make_response, render_template

from companion.history import (GameResult, PlayerStats, known_players, load_results,
                               player_stats, result_dict, results_csv, stats_csv)
from companion.journal import Journal
from web.app import get_companion

bp = Blueprint("history", __name__)

_NO_STORE = {"Cache-Control": "no-store"}


def _results() -> list[GameResult]:
    session = get_companion(current_app).session
    # repair=False: finding the file unreadable, never rename the one the session writes
    with Journal(session.journal.path.parent, repair=False) as journal:
        return load_results(journal)


def _stat_dict(stat: PlayerStats) -> dict[str, Any]:
    return {"game": stat.game, "player": stat.player, "played": stat.played,
            "wins": stat.wins, "win_rate": round(stat.win_rate, 3), "average": stat.average,
            "best": stat.best}


def history_data(results: list[GameResult]) -> dict[str, Any]:
    """The JSON of ``/api/history``: games newest first, player statistics, known names."""
    return {"games": [result_dict(r) for r in reversed(results)],
            "players": [_stat_dict(s) for s in player_stats(results)],
            "names": known_players(results)}


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = make_response(body)
    response.mimetype = mimetype
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers.update(_NO_STORE)
    return response


@bp.get("/history")
def page() -> Response:
    """The history page: results, wins and averages per game, export links."""
    response = make_response(render_template("history.html"))
    response.headers.update({"Cache-Control": "no-cache"})
    return response


@bp.get("/api/history")
def history() -> Any:
    """Every game's result (newest first) and per-player statistics per game."""
    return history_data(_results()), 200, _NO_STORE


@bp.get("/api/history.json")
def export_json() -> Response:
    """The same as ``/api/history``, as a file to download."""
    body = json.dumps(history_data(_results()), ensure_ascii=False, indent=1)
    return _download(body, "application/json", "companion-history.json")


@bp.get("/api/history.csv")
def export_csv() -> Response:
    """One row per player per game, as CSV."""
    return _download(results_csv(_results()), "text/csv", "companion-games.csv")


@bp.get("/api/history/players.csv")
def export_players_csv() -> Response:
    """Per game and player: played, wins, win rate, average and best score, as CSV."""
    return _download(stats_csv(player_stats(_results())), "text/csv", "companion-players.csv")
