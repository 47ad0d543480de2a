"""Game history: results replayed from the journal, per-player wins and averages, CSV."""

from __future__ import annotations

import csv
import io

import pytest

from companion.games import find_game
from companion.history import (GameResult, known_players, load_results, player_stats,
                               replay_result, result_dict, results_csv, stats_csv)
from companion.journal import GameRecord
from companion.session import Session


def roll(g: int, y: int, r: int) -> dict:
    return {"type": "roll", "green": g, "yellow": y, "red": r}


def play_toss_up(session: Session, players: list[str], first_bank: int) -> None:
    """A game to 5 that the first player wins with ``first_bank`` points (> 5)."""
    session.start("toss-up", players, {"target": 5})
    session.act(roll(first_bank, 10 - first_bank, 0))
    session.act({"type": "bank"})
    for _ in players[1:]:
        session.act(roll(0, 5, 5))  # red light: nothing


def test_a_replayed_result_agrees_with_the_live_game(empty_session):
    play_toss_up(empty_session, ["Ann", "Ben"], 6)
    live = empty_session.state()
    [result] = load_results(empty_session.journal)
    assert result.finished and result.winners == ("Ann",)
    assert result.scores == tuple(p["score"] for p in live["players"]) == (6, 0)
    assert result.name == "Toss Up!" and result.actions == 3 and result.error is None


def test_undone_actions_are_not_in_the_result(empty_session):
    play_toss_up(empty_session, ["Ann", "Ben"], 6)
    empty_session.undo()
    [result] = load_results(empty_session.journal)
    assert not result.finished and result.winners == ()
    assert result.scores == (6, 0) and result.actions == 2


def test_stats_count_finished_games_and_match_names_ignoring_case(empty_session):
    play_toss_up(empty_session, ["Ann", "Ben"], 6)
    play_toss_up(empty_session, ["ben", "Ann"], 8)
    play_toss_up(empty_session, ["Ann", "Cy"], 7)
    empty_session.start("toss-up", ["Ann", "Dee"], {"target": 5})  # still running: not counted
    results = load_results(empty_session.journal)
    assert [r.finished for r in results] == [True, True, True, False]
    stats = {s.player: s for s in player_stats(results)}
    assert set(stats) == {"Ann", "ben", "Cy"}
    ann, ben = stats["Ann"], stats["ben"]
    assert (ann.played, ann.wins, ann.average, ann.best) == (3, 2, round(13 / 3, 2), 7)
    assert (ben.played, ben.wins, ben.average, ben.best) == (2, 1, 4.0, 8)
    assert ann.win_rate == pytest.approx(2 / 3)
    assert [s.player for s in player_stats(results)][0] == "Ann"  # most wins first
    assert known_players(results) == ["Ann", "Dee", "Cy", "ben"]


def test_stats_are_per_game(empty_session):
    play_toss_up(empty_session, ["Ann", "Ben"], 6)
    empty_session.start("sorry-21", ["Ann", "Ben"])
    results = load_results(empty_session.journal)
    results.append(GameResult(id=9, game="sorry-21", name="Sorry! Revenge", players=("Ann", "Ben"),
                              scores=(4, 1), winners=("Ann",), finished=True, started_at=0.0,
                              ended_at=1.0, actions=30))
    games = {(s.game, s.player): s.wins for s in player_stats(results)}
    assert games == {("toss-up", "Ann"): 1, ("toss-up", "Ben"): 0,
                     ("sorry-21", "Ann"): 1, ("sorry-21", "Ben"): 0}


def test_a_journal_that_no_longer_replays_gives_a_sentence_not_a_crash():
    record = GameRecord(1, "toss-up", ["Ann", "Ben"], {}, 0.0, None, None)
    result = replay_result(record, [{"type": "fly"}], find_game("toss-up"))
    assert result.error and "could not be replayed" in result.error
    assert result.scores == (0, 0) and not result.finished
    assert player_stats([result]) == []


def test_csv_has_one_row_per_player_and_defuses_formulas(empty_session):
    play_toss_up(empty_session, ["=SUM(A1)", "Ben"], 6)
    results = load_results(empty_session.journal)
    rows = list(csv.DictReader(io.StringIO(results_csv(results))))
    assert [(r["player"], r["score"], r["winner"]) for r in rows] == [
        ("'=SUM(A1)", "6", "1"), ("Ben", "0", "0")]
    assert rows[0]["game"] == "toss-up" and rows[0]["finished"] == "1"
    stats = list(csv.DictReader(io.StringIO(stats_csv(player_stats(results)))))
    assert stats[0]["player"] == "'=SUM(A1)" and stats[0]["wins"] == "1"


def test_result_dict_is_json_ready(empty_session):
    play_toss_up(empty_session, ["Ann", "Ben"], 6)
    data = result_dict(load_results(empty_session.journal)[0])
    assert data["players"] == [{"name": "Ann", "score": 6, "winner": True},
                               {"name": "Ben", "score": 0, "winner": False}]
    assert data["winners"] == ["Ann"] and "scores" not in data
