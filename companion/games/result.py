"""A finished game's result as every screen shows it: winners, final order, and why.

The winner card on the phones and on /tv listed the players by score then seat, so a
tiebreaker's loser stood above its winner (Sorry! players tied on 4 pawns, Paper Tales'
tie won on Gold) and a player who had left could head the list. The order is a rule of
each game, so the engine says it: ``public_state(state)["result"]`` is None until the
game is over, then::

    {"winners": ["Ben"],
     "order": [{"name": "Ben", "score": 4, "won": true, "left": false}, ...],
     "why": "Ben wins the tiebreaker: 21, Ann 25 (over 21)."}   # or null

``order``: the winners first, then the others still at the table in the game's own
order (``rank``: a sort key per seat, smallest first; by default the highest score
first), then the players who left the table, in the same order among themselves.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

Rank = Callable[[int], Any]


def result_json(names: Sequence[str], scores: Sequence[int], winners: Sequence[str], *,
                over: bool, left: Sequence[int] = (), rank: Rank | None = None,
                why: str | None = None) -> dict[str, Any] | None:
    """The ``result`` field of a public state: None while the game runs (see module doc)."""
    if not over:
        return None
    key = rank or (lambda seat: -scores[seat])
    won = set(winners)

    def place(seat: int) -> tuple[Any, ...]:
        return (names[seat] not in won, seat in left, key(seat), seat)

    order = sorted(range(len(names)), key=place)
    return {"winners": list(winners),
            "order": [{"name": names[s], "score": scores[s], "won": names[s] in won,
                       "left": s in left} for s in order],
            "why": why}
