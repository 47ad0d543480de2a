"""Paper Tales views: a realm, the Wars, the ability order and the phase reminders as JSON.

Read-only helpers for ``paper_tales.public_state``.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import listed
from companion.games.paper_tales_ledger import (
    BACK_SPOTS, BUILDINGS, TEMPLE_INCOME, Placed, Realm, WarsResult, income, realm_strength,
)
from companion.games.paper_tales_units import UNITS, unit_strength


def _placed_json(placed: Placed, tokens: int) -> dict[str, Any]:
    unit = UNITS[placed.unit]
    return {"unit": unit.id, "name": unit.name, "aged": placed.aged, "cost": unit.cost,
            "strength": unit_strength(unit, aged=placed.aged, realm_age_tokens=tokens),
            "note": unit.note}


def realm_json(name: str, realm: Realm, *, deployed: bool, built: bool) -> dict[str, Any]:
    """One player's entry in the public state; ``score`` is their LP."""
    tokens = sum(1 for p in realm.front + realm.back if p.aged)
    return {
        "name": name, "score": realm.lp, "gold": realm.gold,
        "buildings": dict(zip(BUILDINGS, realm.buildings)),
        "front_spots": realm.front_spots, "back_spots": BACK_SPOTS,
        "front": [_placed_json(p, tokens) for p in realm.front],
        "back": [_placed_json(p, tokens) for p in realm.back],
        "strength": realm_strength(realm), "deployed": deployed, "built": built,
    }


def ability_order(players: tuple[str, ...], realms: tuple[Realm, ...]) -> list[list[str]]:
    """Who resolves abilities first: most LP, then least Gold; each group still tied is
    settled at random by the table."""
    keys = sorted({(-r.lp, r.gold) for r in realms})
    return [[p for p, r in zip(players, realms) if (-r.lp, r.gold) == key] for key in keys]


def wars_json(result: WarsResult) -> dict[str, Any]:
    """This turn's Wars: strength, Wars won and LP gained per seat."""
    return {"strengths": list(result.strengths), "won": list(result.won),
            "lp": list(result.lp)}


def reminders(phase: str, turn: int, players: tuple[str, ...],
              realms: tuple[Realm, ...], *, temple_income: bool = True) -> list[str]:
    """What the table should remember in this phase, as sentences (``temple_income``:
    the game's rules add a level-1 Temple's Gold, see ``paper_tales.RULES``)."""
    two = len(players) == 2
    if phase == "recruitment":
        way = "left" if turn % 2 else "right"
        deal = ("Deal 9 Units each; keep 1, discard 1, pass the rest" if two
                else "Deal 5 Units each; keep 1 and pass the rest")
        out = [f"{deal} to the {way}, until everyone has kept 5."]
        return out + (["Then add the Unit you kept from last turn."] if turn > 1 else [])
    if phase == "deployment":
        return ["Place Units face down, reveal together, pay each new Unit's cost "
                "(Units in play never cost again).",
                "Keep at most one Unit you did not play for next turn; discard the rest."]
    if phase == "wars":
        rule = ("At least your opponent's strength wins 1 War, at least twice wins 2."
                if two else "Compare Front strength with both neighbours; "
                            "higher or equal wins.")
        return [rule, "Each War won is 3 LP; a Front of 0 never wins."]
    if phase == "income":
        temples = [who for who, r in zip(players, realms)
                   if income(r, temple=temple_income) > 2]
        out = ["Everyone gained 2 Gold; add Income abilities as Gold entries."]
        if temples:
            whose = listed([f"{who}'s" for who in temples])
            out.append(f"{whose} Temple{'s' if len(temples) > 1 else ''} gave "
                       f"{TEMPLE_INCOME} more{' each' if len(temples) > 1 else ''}.")
        return out
    if phase == "construction":
        return ["One action each: build (Land cost 2 Gold per Building owned) "
                "or upgrade a level-1 Building to level 2."]
    if phase == "aging":
        dying = [f"{who}'s {UNITS[p.unit].name}" for who, r in zip(players, realms)
                 for p in r.front + r.back if p.aged]
        first = f"Dying now: {', '.join(dying)}." if dying else "No Unit dies this turn."
        return [first, "Then every Unit left in play gains an Age token."]
    return ["Add each player's Building LP to finish the game (tie: most Gold wins)."]


def tie_break(players: tuple[str, ...], realms: tuple[Realm, ...],
              winners: tuple[str, ...]) -> str | None:
    """The sentence that explains a tied end, or None when the most LP alone decided.

    The rules: most LP wins; tie: most Gold left; still tied: shared victory. "Ann wins
    the tie on Gold: 23 to 12" names the winner's Gold and the best Gold of the others
    tied with them on LP; "Ann & Ben share the win: tied on LP and on Gold (5)".
    """
    if not winners:
        return None
    best_lp = max(r.lp for r in realms)
    tied = [(p, r) for p, r in zip(players, realms) if r.lp == best_lp]
    if len(tied) < 2:
        return None
    gold = max(r.gold for _, r in tied)
    if len(winners) > 1:
        return f"{' & '.join(winners)} share the win: tied on LP and on Gold ({gold})."
    runner_up = max(r.gold for p, r in tied if p not in winners)
    return f"{winners[0]} wins the tie on Gold: {gold} to {runner_up}."
