"""Toss Up!: ten dice, push your luck, first past 100 triggers the final round.

Rules digest: ``docs/rules/toss-up.md``. Each die has 3 green, 2 yellow and 1 red
face. Greens score and are set aside; a roll with no green but a red ("a red light")
loses the turn's points; a roll of only yellows changes nothing. Once a player ends a
turn with more than ``target`` points, every other player gets one last turn.

Actions (JSON)::

    {"type": "roll", "green": 3, "yellow": 4, "red": 3}
    {"type": "bank"}
    {"type": "leave", "player": 2}
    {"type": "correct", "player": 1, "delta": -2, "reason": "..."}   (any game)

A player who leaves the table (``leave``) keeps their banked total on the board, but
their seat is skipped from then on, they are owed no last turn and cannot win; leaving
on one's own turn loses that turn's points. At least two players must stay.
A final round that ends with nobody still at the table over ``target`` (the opener
left, or a correction took them back) closes, and play goes on in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Union

from companion.errors import IllegalAction, NotNow
from companion.games.base import (CORRECT_DOC, PLAYER, ActionDoc, Correct, Event, check_correct,
                                  check_leave, check_options,
                                  check_players, corrected, get_int, get_player, get_type,
                                  next_seat, parse_correct, seat_of)
from companion.games.result import result_json

ID = "toss-up"
NAME = "Toss Up!"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
DICE = 10
#: Option name -> default. ``target``: a total strictly above it triggers the final round.
OPTIONS: dict[str, Any] = {"target": 100}
#: One line per option for the new-game form (the host page shows it under the field).
OPTION_HINTS: dict[str, str] = {
    "target": "A turn that ends with a total above this opens the final round.",
}

ACTIONS: dict[str, ActionDoc] = {
    "roll": ActionDoc(
        summary="Record a roll of the dice in hand: how many show green, yellow and red.",
        properties={
            "green": {"type": "integer", "minimum": 0, "maximum": DICE},
            "yellow": {"type": "integer", "minimum": 0, "maximum": DICE},
            "red": {"type": "integer", "minimum": 0, "maximum": DICE},
        },
        required=("green", "yellow", "red"),
        example={"type": "roll", "green": 3, "yellow": 4, "red": 3},
    ),
    "bank": ActionDoc(
        summary="Bank the turn's points and pass the dice to the next player.",
        properties={},
        example={"type": "bank"},
    ),
    "leave": ActionDoc(
        summary="A player leaves the table: their total stays, their seat is skipped, "
                "they are owed no last turn and cannot win (on their turn: its points "
                "are lost). Two players must stay.",
        properties={"player": PLAYER},
        required=("player",),
        example={"type": "leave", "player": 2},
    ),
    "correct": CORRECT_DOC,
}

#: Push buttons (see companion/controls.py): button name -> action sent, or "confirm"
#: (apply the roll the camera offers).
BUTTONS: dict[str, Any] = {"bank": {"type": "bank"}, "next": "confirm"}


@dataclass(frozen=True)
class Roll:
    """Faces showing after one roll of the dice in hand."""

    green: int
    yellow: int
    red: int

    @property
    def dice(self) -> int:
        """How many dice were rolled."""
        return self.green + self.yellow + self.red

    @property
    def is_red_light(self) -> bool:
        """True for a red light: no green and at least one red, the turn is over."""
        return self.green == 0 and self.red > 0


@dataclass(frozen=True)
class Bank:
    """Add the turn's points to the player's total; the turn ends."""


@dataclass(frozen=True)
class Leave:
    """A player (by name or seat) leaves the table."""

    player: str | int


Action = Union[Roll, Bank, Leave, Correct]


@dataclass(frozen=True)
class State:
    """The whole table. ``scores`` follow seat order; ``current`` is a seat index."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    target: int = 100
    current: int = 0
    points: int = 0  # this turn's points, not yet banked
    dice_in_hand: int = DICE
    rolls: int = 0  # rolls made this turn
    last_roll: Roll | None = None
    rolled_by: int = 0  # seat that made ``last_roll``
    final_round: bool = False
    final_turns: tuple[int, ...] = ()  # seats still owed a last turn, in order
    over: bool = False
    turn_number: int = 1  # counts turns across the game, from 1
    history: tuple[tuple[int, ...], ...] = ()  # scores after each completed turn
    left: tuple[int, ...] = ()  # seats of the players who left the table, in order
    #: how the last turn ended, for the scoreboard's line: (seat, "bank"/"red-light"/"leave",
    #: points banked, points lost, total after)
    last_turn: tuple[int, str, int, int, int] | None = None


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> State:
    """Start a game with ``players`` in seat order; the first seat rolls first.

    :raises InvalidAction: on a bad player list or option.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    target = get_int(check_options(options, OPTIONS, NAME), "target", low=1, high=10_000)
    return State(players=names, scores=(0,) * len(names), target=target)


def parse_action(data: Mapping[str, Any]) -> Action:
    """Turn an action dict into a Roll or a Bank.

    :raises InvalidAction: if the type is unknown or a count is not a whole number 0-10.
    """
    kind = get_type(data, ACTIONS)
    if kind == "bank":
        return Bank()
    if kind == "correct":
        return parse_correct(data)
    if kind == "leave":
        return Leave(get_player(data, "player"))
    return Roll(*(get_int(data, colour, high=DICE) for colour in ("green", "yellow", "red")))


def check(state: State, action: Action) -> None:
    """Raise if ``action`` cannot be taken now; never changes anything.

    :raises NotNow: the game is over, or a bank before the turn's first roll.
    :raises IllegalAction: a roll whose dice count is not the dice in hand.
    """
    if isinstance(action, Correct):
        check_correct(action, state.players, state.scores, over=state.over)
        return
    if state.over:
        raise NotNow("The game is over; start a new one.")
    if isinstance(action, Leave):
        check_leave(state.players, state.left, seat_of(state.players, action.player),
                    low=MIN_PLAYERS, game=NAME)
        return
    if isinstance(action, Bank):
        if state.rolls == 0:
            raise NotNow(f"{state.players[state.current]} must roll before banking.")
        return
    if action.dice != state.dice_in_hand:
        raise IllegalAction(
            f"{state.players[state.current]} has {state.dice_in_hand} dice in hand, "
            f"but that roll shows {action.dice}: recount, or look for a hidden die."
        )


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Return the state after ``action``; assumes ``check(state, action)`` passed."""
    if isinstance(action, Correct):
        scores, event = corrected(state.players, state.scores, action)
        return replace(state, scores=scores), [event]
    if isinstance(action, Leave):
        return _leave(state, seat_of(state.players, action.player))
    who = state.players[state.current]
    if isinstance(action, Bank):
        total = state.scores[state.current] + state.points
        scores = _with(state.scores, state.current, total)
        events = [Event("bank", {"player": who, "points": state.points, "total": total})]
        ended = (state.current, "bank", state.points, 0, total)
        return _end_turn(replace(state, scores=scores, last_turn=ended), events)

    if action.is_red_light:
        events = [Event("red-light", {"player": who, "lost": state.points})]
        ended = (state.current, "red-light", 0, state.points, state.scores[state.current])
        return _end_turn(replace(state, last_roll=action, rolled_by=state.current,
                                 last_turn=ended), events)

    events = [Event("roll", {"player": who, "green": action.green,
                             "yellow": action.yellow, "red": action.red})]
    if action.green == 0:
        events.append(Event("all-yellow", {"player": who}))
    left = state.dice_in_hand - action.green
    if left == 0:
        left = DICE
        events.append(Event("all-green", {"player": who}))
    state = replace(state, points=state.points + action.green, dice_in_hand=left,
                    rolls=state.rolls + 1, last_roll=action, rolled_by=state.current)
    return state, events


def _leave(state: State, seat: int) -> tuple[State, list[Event]]:
    """``seat`` leaves: owed no last turn; on their own turn the dice pass on at once."""
    lost = state.points if seat == state.current else 0
    events = [Event("leave", {"player": state.players[seat], "total": state.scores[seat],
                              "lost": lost})]
    state = replace(state, left=state.left + (seat,),
                    last_turn=(seat, "leave", 0, lost, state.scores[seat]),
                    final_turns=tuple(s for s in state.final_turns if s != seat))
    if seat == state.current:
        return _end_turn(state, events)
    return state, events


def _end_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Pass the dice on, opening or closing the final round as the rules say."""
    seat = state.current
    final_turns = state.final_turns
    final_round = state.final_round
    n = len(state.players)
    if final_round:
        final_turns = tuple(s for s in final_turns if s != seat)
        if not final_turns and not _anyone_over(state):
            # ruling: the opener left or was corrected back; nobody has won yet
            final_round = False
            events.append(Event("final-round-closed", {"target": state.target}))
    elif state.scores[seat] > state.target and seat not in state.left:
        final_round = True
        final_turns = tuple(s for s in ((seat + k) % n for k in range(1, n))
                            if s not in state.left)
        events.append(Event("final-round", {"player": state.players[seat],
                                            "total": state.scores[seat]}))
    over = final_round and not final_turns
    nxt = next_seat(seat, n, state.left)
    if final_round and final_turns:
        nxt = final_turns[0]
    state = replace(
        state, current=nxt, points=0, dice_in_hand=DICE, rolls=0,
        final_round=final_round, final_turns=final_turns, over=over,
        turn_number=state.turn_number + 1, history=state.history + (state.scores,),
    )
    if over:
        events.append(Event("game-over", {"winners": list(winners(state))}))
    return state, events


def _anyone_over(state: State) -> bool:
    """True when a player still at the table has a total over the target."""
    return any(score > state.target for seat, score in enumerate(state.scores)
               if seat not in state.left)


def winners(state: State) -> tuple[str, ...]:
    """The names of the winners once the game is over, else ().

    Order of decision: the game must be over; only players still at the table count
    (one who left cannot win); the highest total wins; equal highest totals share the
    win (ruling). The highest total is over the target: a final round that ends with
    nobody at the table over it (the opener left, or a correction took them back)
    closes, and play goes on (ruling).
    """
    if not state.over:
        return ()
    staying = [s for s in range(len(state.players)) if s not in state.left]
    best = max(state.scores[s] for s in staying)
    return tuple(state.players[s] for s in staying if state.scores[s] == best)


def note(state: State, data: Mapping[str, Any]) -> dict[str, Any]:
    """What the host's recent list adds to an action taken in ``state``: a bank's points."""
    return {"points": state.points} if data.get("type") == "bank" else {}


def red_light_odds(dice: int) -> dict[str, float]:
    """Chances for a roll of ``dice`` dice: red light, all yellow, and no green at all."""
    no_green = 0.5**dice
    all_yellow = (1 / 3) ** dice
    return {"red_light": no_green - all_yellow, "all_yellow": all_yellow,
            "no_green": no_green, "expected_greens": dice / 2}


def public_state(state: State) -> dict[str, Any]:
    """The JSON-ready view every phone sees."""
    roll = state.last_roll
    return {
        "game": ID,
        "players": [{"name": n, "score": s, "left": seat in state.left}
                    for seat, (n, s) in enumerate(zip(state.players, state.scores))],
        "current": None if state.over else state.current,
        "over": state.over,
        "winners": list(winners(state)),
        "target": state.target,
        "turn": {"points": state.points, "dice_in_hand": state.dice_in_hand,
                 "rolls": state.rolls, "number": state.turn_number},
        "last_roll": None if roll is None else
        {"green": roll.green, "yellow": roll.yellow, "red": roll.red, "by": state.rolled_by},
        "final_round": state.final_round,
        "final_turns": [state.players[s] for s in state.final_turns],
        "odds": red_light_odds(state.dice_in_hand),
        "history": [list(scores) for scores in state.history],
        "last_turn": _last_turn_json(state),
        "needs": _needs(state),
        "result": result_json(state.players, state.scores, winners(state), over=state.over,
                              left=state.left, why=_why(state)),
    }


def _last_turn_json(state: State) -> dict[str, Any] | None:
    """How the last turn ended (a bank, a red light, a player leaving), or None."""
    if state.last_turn is None:
        return None
    seat, how, points, lost, total = state.last_turn
    out = {"player": state.players[seat], "how": how, "points": points, "total": total}
    return out if how == "bank" else {**out, "lost": lost}


def _needs(state: State) -> dict[str, Any] | None:
    """In the final round: the points the player rolling must bank this turn to tie the
    best total still at the table (None unless that total is over the target, since a
    tie under it wins nothing) and to win (over it and over the target); else None."""
    if not state.final_round or state.over:
        return None
    me = state.current
    best = max(score for seat, score in enumerate(state.scores)
               if seat != me and seat not in state.left)
    mine = state.scores[me]
    return {"player": state.players[me],
            "tie": max(best - mine, 0) if best > state.target else None,
            "win": max(max(best, state.target) + 1 - mine, 0)}


def _why(state: State) -> str | None:
    """Why the winner is not simply the highest total on the board: it left the table."""
    if not state.over:
        return None
    top = max(range(len(state.players)), key=lambda s: state.scores[s])
    if top not in state.left or state.players[top] in winners(state):
        return None
    return (f"{state.players[top]} left the table with {state.scores[top]}; "
            "the highest total still at the table wins.")


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]
