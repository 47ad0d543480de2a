"""Sorry! Revenge views: the public state as JSON, and what the table waits for.

Read-only helpers for ``sorry_21.public_state``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from companion.games.result import result_json
from companion.games.sorry_21_cards import PAWNS, pawns_home

if TYPE_CHECKING:  # the type only: sorry_21 imports this module
    from companion.games.sorry_21 import State


def state_json(state: State, *, game: str, winners: Sequence[str]) -> dict[str, Any]:
    """The JSON-ready view every phone sees; players and seats by name."""
    names = state.players
    left = {names[s] for s in state.left}
    players = []
    for name, progress in zip(names, state.progress):
        home = pawns_home(progress)
        players.append({"name": name, "score": progress, "home": home, "start": PAWNS - home,
                        "returning": state.longer and progress >= PAWNS,  # all 4 HOME: next flips go back
                        "left": name in left})
    pending, last = state.pending, state.last_round
    return {
        "game": game,
        "players": players,
        "current": None if state.over or state.tied else state.current,
        "over": state.over,
        "winners": list(winners),
        "stage": stage(state),
        "total": state.total,
        "pile": list(state.pile),
        "direction": "clockwise" if state.direction == 1 else "counterclockwise",
        "round": state.round_number,
        "play2_left": state.play2_left,
        "pending": None if pending is None else {
            "kind": pending.kind, "player": names[pending.by],
            "target": None if pending.target is None else names[pending.target]},
        "tiebreak": None if not state.tied and state.champion is None else {
            "players": [names[s] for s in state.tied],
            "piles": {names[s]: t for s, t in state.tiebreak},
            # every round's piles (tied again: played again), this one last
            "rounds": [{names[s]: t for s, t in reports}
                       for reports in state.tiebreak_rounds + (state.tiebreak,) if reports],
            "to_play": [names[s] for s in state.tied
                        if all(s != seat for seat, _ in state.tiebreak)]},
        "last_round": None if last is None else {
            "round": last.number, "how": last.how, "player": names[last.player],
            "flipped": [names[s] for s in last.flipped], "total": last.total,
            # the longer game: whose flip sent a pawn back to START (not HOME)
            "to_start": [names[s] for s in last.flipped if state.history[-1][s] > PAWNS]},
        "longer": state.longer,
        "goal": state.goal,
        "history": [list(progress) for progress in state.history],
        "result": result_json(names, state.progress, winners, over=state.over, left=state.left,
                              rank=lambda s: _rank(state, s), why=_why(state)),
    }


def _distance(total: int) -> int:
    """How far a tiebreaker pile is from 21, a pile over 21 after every pile under it."""
    return 21 - total if total <= 21 else 100 + total


def _rank(state: State, seat: int) -> tuple[int, ...]:
    """The final order: most pawn flips, then, among the players tied on the goal, the
    one who stayed in the tiebreaker longer, then the closer last pile to 21."""
    rounds = [dict(reports) for reports in state.tiebreak_rounds + (state.tiebreak,)
              if reports and state.champion is not None]
    played = [piles[seat] for piles in rounds if seat in piles]
    return (-state.progress[seat], -len(played), _distance(played[-1]) if played else 0)


def _why(state: State) -> str | None:
    """ "Ben wins the tiebreaker: Ben 21, Ann 25 (over 21)." once a tiebreaker decided."""
    if not state.over or state.champion is None:
        return None
    piles = sorted(state.tiebreak, key=lambda report: (_distance(report[1]), report[0]))
    said = ", ".join(f"{state.players[s]} {t}" + (" (over 21)" if t > 21 else "")
                     for s, t in piles)
    return f"{state.players[state.champion]} wins the tiebreaker: {said}."


def stage(state: State) -> str:
    """What the table waits for: play, play-2, twenty-one, sorry, tiebreak or over."""
    if state.over:
        return "over"
    if state.tied:
        return "tiebreak"
    if state.pending is not None:
        return "twenty-one" if state.pending.kind == "claim" else "sorry"
    return "play-2" if state.play2_left else "play"
