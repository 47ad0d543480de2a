"""Paper Toss views: what the table waits for and a toss, as JSON.

Read-only helpers for ``paper_toss.public_state``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the types only: paper_toss imports this module
    from companion.games.paper_toss import State, Toss


def step(state: State) -> str:
    """What the table waits for: over, turn, hazards, counter, flip, pick, sprinklers."""
    if state.over:
        return "over"
    if state.toss is None:
        return "turn"
    if state.toss.waiting is not None:
        return "counter"
    return state.toss.stage


def toss_view(state: State, toss: Toss | None) -> dict[str, Any] | None:
    """A toss (in progress or the last one) as JSON, players by name; None for no toss."""
    if toss is None:
        return None
    names = state.players
    waiting = toss.waiting
    return {
        "tosser": names[toss.tosser],
        "stage": toss.stage,
        "hazards": [{"player": names[h.player], "card": h.card, "counter": h.counter}
                    for h in toss.hazards],
        "waiting_hazard": None if waiting is None else
        {"player": names[waiting.player], "card": waiting.card},
        "chooser": None if toss.chooser is None else names[toss.chooser],
        "energy_drink": toss.energy_drink,
        "cards_due": toss.cards_due if toss.stage in ("hazards", "flip") else 0,
        "flipped": list(toss.flipped),
        "result": toss.result,
        "change": toss.gained if toss.stage == "done" else None,
    }
