"""What moved the table on, in players' words, for the refusal of a stale tap (and what an
undo took back, for the phones' "Undone: Ann's roll").

Two hosts look at the same turn; the first taps, the second's tap carries the version it
saw and is refused (``session.check_version``). "Your screen showed version 40, the table
is at 41" told the second host nothing they could use (ux14); this says what happened
instead, from the change that came right after the version their screen showed: "Ann's
roll was just recorded: look again before you tap." The change may come from another
phone, the table's buttons, the camera, or this phone's own tap sent again after its answer
was lost on the Wi-Fi, so the sentence does not say where (rev14: "elsewhere" told a host
their own retried tap came from someone else).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

LOOK_AGAIN = "look again before you tap."

#: An action's type as a noun ("Ann's roll"); a type not listed reads as its own words.
NOUNS = {
    "roll": "roll", "bank": "bank", "toss": "toss", "pass": "pass", "play": "card",
    "hazard": "Hazard", "counter": "counter", "no-counter": "no-counter answer",
    "energy-drink": "Energy Drink", "flip": "Toss card flip", "pick": "Toss card pick",
    "sprinklers": "Sprinklers answer", "bully": "Bully", "flat-tire": "Flat Tire",
    "take-back": "SORRY!", "steal": "steal", "block": "Don't Be SORRY!", "accept": "answer",
    "tiebreak": "tiebreaker pile", "snickerdoodle": "Snickerdoodle! hand",
    "claim": "Snickerdoodle! claim", "withdraw": "withdrawn claim", "deploy": "deployment",
    "build": "building", "gold": "Gold", "lp": "Legend Points", "wars": "Wars score",
    "tally": "final tally", "next": "move to the next phase", "start": "timer start",
    "resume": "timer start", "pause": "timer pause", "toggle": "timer tap",
    "add_time": "extra time", "skip": "skip ahead", "correct": "score correction",
    "rename": "new name", "leave": "leaving the table", "timeout": "timer running out",
}


def moved_on(seen: int, kept: Iterable[Mapping[str, Any]]) -> str:
    """The refusal of a tap made on version ``seen``: what the next change was.

    ``kept`` are recent public states (any order); the one at ``seen + 1`` holds that
    change's events and, for an action, the action as the last of its ``recent``. Without
    it (too long ago), a plain sentence.
    """
    states = {s.get("version"): s for s in kept}
    after, before = states.get(seen + 1), states.get(seen)
    if after is None:
        return "The table changed since your screen last showed it: " + LOOK_AGAIN
    kinds = [e.get("kind") for e in after.get("events", [])]
    if "new-game" in kinds:
        return "A new game was just started: " + LOOK_AGAIN
    if "undo" in kinds:
        return "The last action was just undone: " + LOOK_AGAIN
    recent = after.get("recent") or []
    action = recent[-1] if recent else {}
    kind = str(action.get("type", ""))
    if kind == "timeout":
        return "The timer ran out meanwhile: " + LOOK_AGAIN
    said = what(action, (before or after).get("players", []))
    return f"{said[0].upper()}{said[1:]} was just recorded: " + LOOK_AGAIN


def what(action: Mapping[str, Any], players: list[Mapping[str, Any]]) -> str:
    """An action as a noun phrase: "Ann's roll", "Bob's score correction", "the Toss card
    flip" (nobody named); ``players`` are the table's as the action found them."""
    kind = str(action.get("type", ""))
    if kind == "rename" and isinstance(action.get("was"), str):  # by then a seat or the
        return f"{action['was']}'s rename to {action.get('name')}"  # old name says the new one
    noun = NOUNS.get(kind, kind.replace("_", " ").replace("-", " ") or "change")
    who = _who(action, players)
    return f"{who}'s {noun}" if who else f"the {noun}"


def _who(action: Mapping[str, Any], players: list[Mapping[str, Any]]) -> str | None:
    """The player an action is about: its ``player`` (a seat or a name), else whose turn it
    was (``turn``, noted by the session); None when it names nobody."""
    ref = action.get("player", action.get("turn"))
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int):
        return str(players[ref]["name"]) if 0 <= ref < len(players) else None
    if isinstance(ref, str) and ref.strip():
        said = ref.strip().casefold()
        return next((str(p["name"]) for p in players if str(p["name"]).casefold() == said), ref.strip())
    return None
