"""Game history: each journaled game's result, per-player wins and averages, CSV export.

The journal keeps every game (``Journal.games()`` and each game's actions). A result is
the game replayed from its journal (``new_game`` then ``apply`` over the actions), so it
always agrees with what the table saw. Everything here except :func:`load_results` is a
pure function over records.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any, Callable, Iterable

from companion.errors import ActionError
from companion.games import find_game, table_actions
from companion.journal import GameRecord, Journal


@dataclass(frozen=True)
class GameResult:
    """One game as it ended (or stands, when ``finished`` is False).

    ``scores`` follows ``players`` (seat order); ``error`` is a sentence when the game's
    journal could not be replayed (its scores are then all 0).
    """

    id: int
    game: str
    name: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[str, ...]
    finished: bool
    started_at: float
    ended_at: float | None
    actions: int
    error: str | None = None


@dataclass(frozen=True)
class PlayerStats:
    """One player's record in one game (finished games only); names match case-insensitively."""

    game: str
    player: str
    played: int
    wins: int
    average: float
    best: int

    @property
    def win_rate(self) -> float:
        """Wins per game played, 0..1."""
        return self.wins / self.played if self.played else 0.0


def replay_result(record: GameRecord, actions: Iterable[dict[str, Any]],
                  module: ModuleType | None = None) -> GameResult:
    """The result of one journaled game: ``new_game`` folded with ``apply`` over ``actions``
    (a ``rename`` included: the names are the ones the game ended with)."""
    module = module or find_game(record.game)
    count = 0
    error = None
    try:
        state = module.new_game(list(record.players), dict(record.options))
        for data in actions:
            state, _ = table_actions.apply(module, state, table_actions.parse(module, data))
            count += 1
        public = module.public_state(state)
        scores = tuple(int(p["score"]) for p in public["players"])
        players = tuple(p["name"] for p in public["players"])  # as renamed during the game
        winners = tuple(public["winners"]) if public["over"] else ()
        finished = bool(public["over"])
    except (ActionError, ValueError, KeyError, TypeError) as exc:
        error = f"This game's journal could not be replayed ({exc})."
        scores = tuple(0 for _ in record.players)
        players = tuple(record.players)
        winners = tuple(record.winners or ())
        finished = record.winners is not None
    return GameResult(id=record.id, game=record.game, name=str(getattr(module, "NAME", record.game)),
                      players=players, scores=scores, winners=winners,
                      finished=finished, started_at=record.started_at,
                      ended_at=record.ended_at, actions=count, error=error)


def player_stats(results: Iterable[GameResult]) -> list[PlayerStats]:
    """Per game and player: games finished, wins and average final score, most wins first.

    A player is the same across games when the names match ignoring case; the name shown
    is the one of their latest game.
    """
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for result in results:
        if not result.finished or result.error:
            continue
        for name, score in zip(result.players, result.scores):
            row = table.setdefault((result.game, name.casefold()),
                                   {"name": name, "played": 0, "wins": 0, "total": 0, "best": score})
            row["name"] = name
            row["played"] += 1
            row["wins"] += int(name in result.winners)
            row["total"] += score
            row["best"] = max(row["best"], score)
    stats = [PlayerStats(game=game, player=row["name"], played=row["played"], wins=row["wins"],
                         average=round(row["total"] / row["played"], 2), best=row["best"])
             for (game, _), row in table.items()]
    return sorted(stats, key=lambda s: (s.game, -s.wins, -s.win_rate, -s.average, s.player.casefold()))


def known_players(results: Iterable[GameResult]) -> list[str]:
    """Every player name, most recent game first, each once (ignoring case)."""
    seen: dict[str, str] = {}
    for result in sorted(results, key=lambda r: r.id, reverse=True):
        for name in result.players:
            seen.setdefault(name.casefold(), name)
    return list(seen.values())


def result_dict(result: GameResult) -> dict[str, Any]:
    """A result as JSON-ready data, with players as ``[{name, score, winner}]``."""
    data = asdict(result)
    data["players"] = [{"name": n, "score": s, "winner": n in result.winners}
                       for n, s in zip(result.players, result.scores)]
    data["winners"] = list(result.winners)
    del data["scores"]
    return data


def _iso(at: float | None) -> str:
    return "" if at is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def results_csv(results: Iterable[GameResult]) -> str:
    """One CSV row per player per game: game id, game, name, dates, seat, player, score, winner."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game_id", "game", "name", "started", "ended", "finished", "seat",
                     "player", "score", "winner"])
    for r in results:
        for seat, (name, score) in enumerate(zip(r.players, r.scores)):
            writer.writerow([r.id, r.game, r.name, _iso(r.started_at), _iso(r.ended_at),
                             int(r.finished), seat, _safe_cell(name), score,
                             int(name in r.winners)])
    return out.getvalue()


def stats_csv(stats: Iterable[PlayerStats]) -> str:
    """One CSV row per game and player: played, wins, win rate, average and best score."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "player", "played", "wins", "win_rate", "average", "best"])
    for s in stats:
        writer.writerow([s.game, _safe_cell(s.player), s.played, s.wins, round(s.win_rate, 3),
                         s.average, s.best])
    return out.getvalue()


def _safe_cell(text: str) -> str:
    """A name as a spreadsheet cell: a leading = + - @ would make it a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def load_results(journal: Journal,
                 finder: Callable[[str], ModuleType] = find_game) -> list[GameResult]:
    """Every journaled game's result, oldest first (replays each game's journal)."""
    results = []
    for record in journal.games():
        try:
            module = finder(record.game)
        except ActionError:
            continue  # a game this version no longer knows
        actions = [data for _, data in journal.actions(record.id)]
        results.append(replay_result(record, actions, module))
    return results
