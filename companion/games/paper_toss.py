"""Paper Toss: toss paper past Hazards; the Toss card decides; first to 10 tokens wins.

Rules digest: ``docs/rules/paper-toss.md``; player docs: ``docs/games/paper-toss.md``.
A turn is a ``pass`` or a ``toss``. A toss opens the Hazard step: other players play
Hazards one at a time and the tosser counters each; the first Hazard left standing
names the *chooser*, who flips two Toss cards and picks the one the tosser applies.
Otherwise one Toss card is flipped (or two with Energy Drink, the tosser picking).
Bully and Flat Tire may be played at any time. The cards, actions and
:func:`parse_action` are in :mod:`companion.games.paper_toss_cards`; the State and the
toss in progress in :mod:`companion.games.paper_toss_state`; the step and the toss as
JSON in :mod:`companion.games.paper_toss_views`.

Rulings kept here (digest rulings first, then the companion's own):

- the first uncountered Hazard ends the Hazard step; its player is the chooser;
- tokens never go below 0 (Window, Bully); the first to reach ``target`` wins at once
  and the count stops there (a Perfect at 9 gives 10, not 11);
- Energy Drink is played at the Resolve step, so no Hazard may follow it;
- Flat Tire on the player whose turn it is skips their *next* turn; Flat Tires add up;
- a player who leaves (between tosses) keeps their tokens; their seat is skipped and no
  card is played by or on them any more; two players must stay.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from companion.errors import IllegalAction, NotNow
from companion.games import paper_toss_views as views
from companion.games.base import (Correct, Event, PlayerRef, check_at_table, check_correct,
                                  check_leave, check_options, check_players, corrected, get_int,
                                  next_seat, seat_of)
from companion.games.paper_toss_cards import (
    ACTIONS, CARDS, HAZARDS, TOSS_EFFECTS, Action, Bully, Counter, EnergyDrink, FlatTire,
    Flip, Leave, NoCounter, Pass, Pick, PlayHazard, Sprinklers, TossPaper, parse_action,
)
from companion.games.paper_toss_state import HazardPlay, State, Toss
from companion.games.result import result_json

ID = "paper-toss"
NAME = "Paper Toss"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
#: Option name -> default. ``target``: tokens that win the game at once.
OPTIONS: dict[str, Any] = {"target": 10}
#: One line per option for the new-game form (the host page shows it under the field).
OPTION_HINTS: dict[str, str] = {"target": "The paper tokens that win the game."}
#: Push buttons (``companion/controls.py``): *next* confirms what the camera offers
#: (the Toss cards turned over), as in Toss Up!.
BUTTONS: dict[str, Any] = {"next": "confirm"}

__all__ = ["ID", "NAME", "MIN_PLAYERS", "MAX_PLAYERS", "OPTIONS", "OPTION_HINTS", "ACTIONS",
           "BUTTONS", "CARDS", "State", "Toss", "HazardPlay", "new_game", "parse_action", "check",
           "apply", "winners", "public_state", "action_from_cards"]


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> State:
    """Start a game in seat order; the first seat (the youngest player) tosses first.

    :raises InvalidAction: on a bad player list or option.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    target = get_int(check_options(options, OPTIONS, NAME), "target", low=1, high=100)
    zeros = (0,) * len(names)
    return State(players=names, tokens=zeros, skips=zeros, target=target)


def check(state: State, action: Action) -> None:
    """Raise if ``action`` cannot be taken now; never changes anything.

    :raises NotNow: the game is over, or the action belongs to another step of the turn.
    :raises IllegalAction: the action breaks a rule (wrong Counter, wrong number of cards).
    """
    if isinstance(action, Correct):  # tokens, at any step; reaching the target is played
        check_correct(action, state.players, state.tokens, over=state.over,
                      limit=state.target, unit="tokens")
        return
    if state.over:
        best = max(range(len(state.players)), key=lambda s: state.tokens[s])
        raise NotNow(f"{state.players[best]} has {state.tokens[best]} tokens already; "
                     "the game is over.")
    if isinstance(action, (Bully, FlatTire)):
        _check_any_time(state, action)
        return
    toss, who = state.toss, state.players[state.current]
    if isinstance(action, Leave):
        seat = seat_of(state.players, action.player)
        if toss is not None:
            raise NotNow(f"{who}'s toss is being played: finish it, then "
                         f"{state.players[seat]} may leave.")
        check_leave(state.players, state.left, seat, low=MIN_PLAYERS, game=NAME)
        return
    if isinstance(action, (Pass, TossPaper)):
        if toss is not None:
            raise NotNow(f"{who}'s toss is still being played.")
        return
    if toss is None:
        raise NotNow(f"Nobody is tossing yet: {who} may toss or pass.")
    _check_toss_step(state, toss, action)


def _check_toss_step(state: State, toss: Toss, action: Action) -> None:
    """The checks for actions inside a toss (Hazards, Counters, flips, picks)."""
    tosser, waiting = state.players[toss.tosser], toss.waiting
    if isinstance(action, PlayHazard):
        seat = _seat(state, action.player)
        if seat == toss.tosser:
            raise IllegalAction(f"{tosser} cannot play a Hazard against their own toss.")
        if toss.stage != "hazards":
            raise NotNow("The Hazard step is over; no more Hazards on this toss.")
        if waiting is not None:
            raise NotNow(f"{state.players[waiting.player]}'s {CARDS[waiting.card]} is "
                         f"waiting for {tosser}'s answer: a Counter or no Counter.")
    elif isinstance(action, (Counter, NoCounter)):
        if waiting is None:
            raise NotNow(f"No Hazard is waiting for {tosser} to counter.")
        if isinstance(action, Counter) and action.card not in ("shortcut",
                                                               HAZARDS[waiting.card]):
            need = CARDS[HAZARDS[waiting.card]]
            raise IllegalAction(f"{CARDS[action.card]} does not counter a "
                                f"{CARDS[waiting.card]}; play {need} or Shortcut.")
    elif isinstance(action, EnergyDrink):
        if toss.energy_drink:
            raise NotNow(f"{tosser} has already played Energy Drink on this toss.")
        if toss.stage != "hazards" or waiting is not None:
            raise IllegalAction("Energy Drink needs a toss with no Hazard standing.")
    elif isinstance(action, Flip):
        if toss.stage not in ("hazards", "flip"):
            raise NotNow(f"The Toss cards of {tosser}'s toss are already flipped.")
        if len(action.cards) != toss.cards_due:
            raise IllegalAction(_flip_count_sentence(state, toss, len(action.cards)))
    elif isinstance(action, Pick):
        if toss.stage != "pick":
            raise NotNow("There are no two flipped Toss cards to pick from.")
        if action.card not in toss.flipped:
            a, b = (CARDS[c] for c in toss.flipped)
            raise IllegalAction(f"Pick one of the two flipped cards: {a} or {b}.")
    elif isinstance(action, Sprinklers) and toss.stage != "sprinklers":
        raise NotNow("Sprinklers has not been flipped for this toss.")


def _flip_count_sentence(state: State, toss: Toss, got: int) -> str:
    """Why the number of flipped cards is wrong, in table words."""
    if toss.cards_due == 1:
        return f"With no Hazard standing, one Toss card is flipped, not {got}."
    waiting = toss.waiting
    if waiting is not None:
        hazard = f"{state.players[waiting.player]}'s {CARDS[waiting.card]}"
        return (f"{hazard} is waiting: {state.players[toss.tosser]} counters it, or "
                f"{state.players[waiting.player]} flips two Toss cards, not {got}.")
    assert toss.chooser is not None
    return f"{state.players[toss.chooser]} flips two Toss cards and picks one, not {got}."


def _check_any_time(state: State, action: Bully | FlatTire) -> None:
    target = _seat(state, action.target)
    if action.by is not None and _seat(state, action.by) == target:
        card = "Bully" if isinstance(action, Bully) else "Flat Tire"
        raise IllegalAction(f"{state.players[target]} cannot play {card} on themself.")


def _seat(state: State, ref: PlayerRef) -> int:
    """The seat of a player a card is played by or on; one who left is refused."""
    seat = seat_of(state.players, ref)
    check_at_table(state.players, state.left, seat)
    return seat


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Return the state after ``action``; assumes ``check(state, action)`` passed."""
    if isinstance(action, Correct):
        tokens, event = corrected(state.players, state.tokens, action)
        return replace(state, tokens=tokens), [event]
    if isinstance(action, (Bully, FlatTire)):
        return _apply_any_time(state, action)
    who = state.players[state.current]
    if isinstance(action, Leave):
        seat = seat_of(state.players, action.player)
        events = [Event("leave", {"player": state.players[seat], "tokens": state.tokens[seat]})]
        state = replace(state, left=state.left + (seat,))
        return _end_turn(state, events) if seat == state.current else (state, events)
    if isinstance(action, Pass):
        return _end_turn(state, [Event("pass", {"player": who})])
    if isinstance(action, TossPaper):
        return replace(state, toss=Toss(tosser=state.current)), [Event("toss", {"player": who})]
    toss = state.toss
    assert toss is not None
    if isinstance(action, PlayHazard):
        seat = _seat(state, action.player)
        toss = replace(toss, hazards=toss.hazards + (HazardPlay(seat, action.card),))
        return replace(state, toss=toss), [Event("hazard", {
            "player": state.players[seat], "card": action.card, "tosser": who})]
    if isinstance(action, Counter):
        last = replace(toss.hazards[-1], counter=action.card)
        toss = replace(toss, hazards=toss.hazards[:-1] + (last,))
        return replace(state, toss=toss), [Event("counter", {
            "player": who, "card": action.card, "hazard": last.card})]
    if isinstance(action, NoCounter):
        return _hazard_stands(state, toss)
    if isinstance(action, EnergyDrink):
        toss = replace(toss, stage="flip", chooser=toss.tosser, energy_drink=True)
        return replace(state, toss=toss), [Event("energy-drink", {"player": who})]
    if isinstance(action, Flip):
        return _flip(state, toss, action.cards)
    if isinstance(action, Pick):
        state, events = _resolve(state, toss, action.card)
        chooser = state.players[toss.chooser if toss.chooser is not None else toss.tosser]
        return state, [Event("pick", {"player": chooser, "card": action.card})] + events
    assert isinstance(action, Sprinklers)
    gained = 1 if action.discard else 0
    return _finish_toss(state, replace(toss, gained=gained),
                        [Event("sprinklers", {"player": who, "discard": action.discard})])


def _hazard_stands(state: State, toss: Toss) -> tuple[State, list[Event]]:
    """Ruling: the first uncountered Hazard ends the Hazard step; its player chooses."""
    hazard = toss.hazards[-1]
    toss = replace(toss, stage="flip", chooser=hazard.player)
    return replace(state, toss=toss), [Event("hazard-stands", {
        "player": state.players[hazard.player], "card": hazard.card})]


def _flip(state: State, toss: Toss, cards: tuple[str, ...]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    if toss.waiting is not None:  # two cards turned over: the Hazard was not countered
        state, events = _hazard_stands(state, toss)
        assert state.toss is not None
        toss = state.toss
    toss = replace(toss, flipped=cards)
    events.append(Event("flip", {"cards": list(cards)}))
    if len(cards) == 2:
        return replace(state, toss=replace(toss, stage="pick")), events
    state, more = _resolve(state, toss, cards[0])
    return state, events + more


def _resolve(state: State, toss: Toss, card: str) -> tuple[State, list[Event]]:
    """Apply Toss card ``card`` to the tosser; Sprinklers first asks for the discard."""
    toss = replace(toss, result=card)
    if card == "sprinklers":
        return replace(state, toss=replace(toss, stage="sprinklers")), []
    return _finish_toss(state, replace(toss, gained=TOSS_EFFECTS[card]), [])


def _finish_toss(state: State, toss: Toss, events: list[Event]) -> tuple[State, list[Event]]:
    """Change the tosser's tokens (0 to target), then end the turn."""
    seat = toss.tosser
    before = state.tokens[seat]
    after = min(max(before + toss.gained, 0), state.target)
    toss = replace(toss, stage="done", gained=after - before)
    state = replace(state, tokens=_with(state.tokens, seat, after), last_toss=toss)
    events.append(Event("tokens", {"player": state.players[seat], "card": toss.result,
                                   "change": after - before, "tokens": after}))
    return _end_turn(state, events)


def _apply_any_time(state: State, action: Bully | FlatTire) -> tuple[State, list[Event]]:
    seat = _seat(state, action.target)
    by = None if action.by is None else state.players[_seat(state, action.by)]
    name = state.players[seat]
    if isinstance(action, Bully):
        tokens = max(state.tokens[seat] - 1, 0)  # ruling: never below 0
        state = replace(state, tokens=_with(state.tokens, seat, tokens))
        return state, [Event("bully", {"player": name, "by": by, "tokens": tokens})]
    skips = state.skips[seat] + 1
    state = replace(state, skips=_with(state.skips, seat, skips))
    return state, [Event("flat-tire", {"player": name, "by": by, "skips": skips})]


def _end_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Close the turn; the game ends on the first to reach the target, else pass left."""
    state = replace(state, toss=None, turn_number=state.turn_number + 1,
                    history=state.history + (state.tokens,))
    if max(state.tokens) >= state.target:
        state = replace(state, over=True)
        events.append(Event("game-over", {"winners": list(winners(state))}))
        return state, events
    seat, skips = state.current, list(state.skips)
    while True:  # ends: each pass over a skipping seat uses up one of its skips
        seat = next_seat(seat, len(state.players), state.left)
        if skips[seat] == 0:
            break
        skips[seat] -= 1
        events.append(Event("skip", {"player": state.players[seat]}))
    events.append(Event("turn", {"player": state.players[seat]}))
    return replace(state, current=seat, skips=tuple(skips)), events


def action_from_cards(state: State, cards: Sequence[str]) -> dict[str, Any] | None:
    """The ``flip`` that the Toss cards seen face up stand for, or None.

    For the camera link: ``cards`` are the card ids read on the table (other faces are
    ignored). When as many Toss cards lie face up as the toss needs now (one, or two
    once there is a chooser), they are the flip; otherwise there is nothing to offer.
    """
    toss = state.toss
    seen = [c for c in cards if c in TOSS_EFFECTS]
    if state.over or toss is None or toss.stage not in ("hazards", "flip"):
        return None
    if len(seen) != toss.cards_due:
        return None
    return {"type": "flip", "cards": seen}


def from_cards(state: State, seen: Sequence[str], before: Sequence[str]) -> dict[str, Any] | None:
    """The camera link's hook: the Toss cards face up now (see :func:`action_from_cards`)."""
    del before  # a flip is what lies face up, whatever lay there before
    return action_from_cards(state, seen)


def winners(state: State) -> tuple[str, ...]:
    """The names of the winners once the game is over, else ().

    Order of decision: the game must be over; then whoever holds ``target`` tokens wins.
    Tokens only rise for the tosser, one toss at a time, and the game stops at once, so
    there is never more than one winner and never a tie to break.
    """
    if not state.over:
        return ()
    return tuple(p for p, t in zip(state.players, state.tokens) if t >= state.target)


def public_state(state: State) -> dict[str, Any]:
    """The JSON-ready view every phone sees."""
    return {
        "game": ID,
        "players": [{"name": n, "score": t, "tokens": t, "skips": s, "left": seat in state.left}
                    for seat, (n, t, s) in enumerate(zip(state.players, state.tokens,
                                                         state.skips))],
        "current": None if state.over else state.current,
        "over": state.over,
        "winners": list(winners(state)),
        "target": state.target,
        "tokens": list(state.tokens),
        "skipped_turns": list(state.skips),
        "step": views.step(state),
        "toss": views.toss_view(state, state.toss),
        "last_toss": views.toss_view(state, state.last_toss),
        "turn_number": state.turn_number,
        "history": [list(tokens) for tokens in state.history],
        "result": result_json(state.players, state.tokens, winners(state), over=state.over,
                              left=state.left),
    }


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]
