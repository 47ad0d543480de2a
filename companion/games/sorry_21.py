"""Sorry! Revenge card game: race the play pile to exactly 21 and flip your pawns HOME.

Rules digest: ``docs/rules/sorry-21.md``; player docs: ``docs/games/sorry-21.md``.
Each turn puts one card on the play pile (numbers add, slides set the total). The card
that makes exactly 21 wins the round: one pawn flips HOME, unless another player steals
it with SORRY!. Over 21 busts: every other player flips a pawn HOME. The next player
starts the next round. First with all 4 pawns HOME wins; players who get there at once
play a tiebreaker. The cards, actions and :func:`parse_action` are in
:mod:`companion.games.sorry_21_cards`; the State in :mod:`companion.games.sorry_21_state`;
the state as JSON in :mod:`companion.games.sorry_21_views`.

A player's *progress* counts the pawn flips they have earned: pawns HOME in the normal
game (goal 4); in the longer game 5-8 count pawns flipped back to START (goal 8).

Rulings (each explained in the docs): a steal decides the round, blocked or not; a 21
or a SORRY! waits for an answer, and the next card played means nobody answered unless
that ends the game; a take-back is the turn's card and keeps the pile; 21 or a bust ends
the round at once, even inside a Play 2; in the longer game every flip earned moves a
player on and a take-back sets one back; a tied tiebreaker is played again; a player who
leaves (between cards) is skipped, flips no pawn and is no SORRY!'s player or target.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games.base import (Correct, Event, check_at_table, check_correct, check_leave,
                                  check_options, check_players, corrected, next_seat, seat_of)
from companion.games import sorry_21_views as views
from companion.games.sorry_21_cards import (
    ACTIONS, CARDS, NUMBERS, PAWNS, PILE_CARDS, SLIDES, Accept, Action, Block, Leave, Play,
    Steal, TakeBack, TiebreakPile, pawns_home, parse_action, pile_total,
)
from companion.games.sorry_21_state import Pending, RoundEnd, State

ID = "sorry-21"
NAME = "Sorry! Revenge"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: Option name -> default. ``longer``: the longer game (all pawns HOME, then back to START).
OPTIONS: dict[str, Any] = {"longer": False}
#: One line per option for the new-game form (the host page shows it under the field).
OPTION_HINTS: dict[str, str] = {
    "longer": "The longer game, 8 flips: once all 4 pawns are HOME, each flip sends one back "
              "to START.",
}
#: Push buttons (``companion/controls.py``): *next* confirms what the camera offers
#: (the new top card on the play pile), as in Toss Up!.
BUTTONS: dict[str, Any] = {"next": "confirm"}

__all__ = ["ID", "NAME", "MIN_PLAYERS", "MAX_PLAYERS", "OPTIONS", "OPTION_HINTS", "ACTIONS",
           "BUTTONS", "CARDS", "State", "Pending", "RoundEnd", "new_game", "parse_action", "check",
           "apply", "winners", "public_state", "pile_total", "pawns_home", "action_from_card"]


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> State:
    """Start a game in seat order; every pawn on START, the first seat plays first.

    :raises InvalidAction: on a bad player list or option.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = check_options(options, OPTIONS, NAME)
    if not isinstance(options["longer"], bool):
        raise InvalidAction("'longer' must be true or false.")
    return State(players=names, progress=(0,) * len(names), longer=options["longer"])


def check(state: State, action: Action) -> None:
    """Raise if ``action`` cannot be taken now; never changes anything.

    :raises NotNow: the game is over, or the action belongs to another moment.
    :raises IllegalAction: the action breaks a rule (no pawn to take back, wrong card).
    """
    if isinstance(action, Correct):  # pawn flips; the flip that wins is played, not corrected
        check_correct(action, state.players, state.progress, over=state.over,
                      limit=state.goal, unit="pawn flips")
        return
    if state.over:
        raise NotNow(f"{', '.join(winners(state))} won; the game is over.")
    if isinstance(action, TiebreakPile):
        _check_tiebreak(state, action)
        return
    if state.tied:
        names = " and ".join(state.players[s] for s in state.tied)
        raise NotNow(f"{names} are playing the tiebreaker; only their piles count now.")
    if isinstance(action, Leave):
        if state.pending is not None or state.play2_left:
            raise NotNow("Settle what waits first (the 21, the SORRY! or the Play 2); "
                         "then a player may leave.")
        check_leave(state.players, state.left, seat_of(state.players, action.player),
                    low=MIN_PLAYERS, game=NAME)
    elif isinstance(action, (Play, TakeBack)):
        _check_turn(state, action)
    elif isinstance(action, Steal):
        _check_steal(state, seat_of(state.players, action.player))
    elif state.pending is None or (isinstance(action, Block) and state.pending.kind == "claim"):
        raise NotNow("No SORRY! is waiting for an answer." if isinstance(action, Block)
                     else "Nothing is waiting for an answer.")


def _check_turn(state: State, action: Play | TakeBack) -> None:
    """A card played by the player to act, once whatever waits goes through unanswered."""
    if state.pending is not None:
        settled, _ = _settle(state)
        if settled.over or settled.tied:
            raise NotNow(_game_ending_sentence(state))
        state = settled
    who = state.players[state.current]
    if isinstance(action, Play):
        if state.play2_left and action.card not in NUMBERS:
            raise IllegalAction(f"After Play 2, {who} plays {state.play2_left} more number "
                                f"card{'s' if state.play2_left > 1 else ''}, not "
                                f"{CARDS[action.card]}.")
        return
    target = seat_of(state.players, action.target)
    if state.play2_left:
        raise IllegalAction(f"After Play 2, {who} plays number cards, not SORRY!.")
    if target == state.current:
        raise IllegalAction(f"{who} cannot play SORRY! on themself.")
    check_at_table(state.players, state.left, target)
    if state.progress[target] == 0:
        raise IllegalAction(f"{state.players[target]} has no pawn HOME to send back.")


def _check_steal(state: State, seat: int) -> None:
    pending = state.pending
    if pending is not None and pending.kind != "claim":  # a SORRY! waits: say which
        assert pending.target is not None
        on = state.players[pending.target]
        what = f"{on}'s 21" if pending.kind == "steal" else on
        raise NotNow(f"{state.players[pending.by]}'s SORRY! on {what} is waiting: {on} blocks "
                     "it with Don't Be SORRY!, or accept it.")
    if pending is None:
        raise NotNow("A SORRY! steal is only played right after another player makes 21; "
                     "nothing waits for one now.")
    if seat == pending.by:
        raise IllegalAction(f"{state.players[seat]} made the 21; there is nothing to steal.")
    check_at_table(state.players, state.left, seat)


def _check_tiebreak(state: State, action: TiebreakPile) -> None:
    seat = seat_of(state.players, action.player)
    name = state.players[seat]
    if not state.tied:
        raise NotNow("There is no tiebreaker to play.")
    if seat not in state.tied:
        raise IllegalAction(f"{name} is not in the tiebreaker.")
    if any(s == seat for s, _ in state.tiebreak):
        raise NotNow(f"{name} has already played a tiebreaker pile.")


def _game_ending_sentence(state: State) -> str:
    """Why no card may be played while a game-ending 21 or steal waits."""
    pending = state.pending
    assert pending is not None and pending.kind != "take-back"
    by = state.players[pending.by]
    if pending.kind == "claim":
        return f"{by}'s 21 would end the game: steal it with SORRY! or accept it first."
    target = state.players[pending.target]  # type: ignore[index]
    return f"{by}'s SORRY! would end the game: {target} blocks it or it is accepted first."


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Return the state after ``action``; assumes ``check(state, action)`` passed."""
    if isinstance(action, Correct):
        progress, event = corrected(state.players, state.progress, action)
        return replace(state, progress=progress), [event]
    events: list[Event] = []
    if isinstance(action, (Play, TakeBack, Accept)) and state.pending is not None:
        state, events = _settle(state)
    if isinstance(action, Play):
        state, more = _play(state, action.card)
    elif isinstance(action, TakeBack):
        target = seat_of(state.players, action.target)
        more = [Event("sorry", {"player": state.players[state.current],
                                "target": state.players[target], "kind": "take-back"})]
        state = replace(state, pending=Pending("take-back", state.current, target),
                        current=_next(state, state.current))
    elif isinstance(action, Steal):
        pending = state.pending
        assert pending is not None
        seat = seat_of(state.players, action.player)
        more = [Event("sorry", {"player": state.players[seat],
                                "target": state.players[pending.by], "kind": "steal"})]
        state = replace(state, pending=Pending("steal", seat, pending.by))
    elif isinstance(action, Block):
        state, more = _block(state)
    elif isinstance(action, Accept):
        more = []
    elif isinstance(action, Leave):
        seat = seat_of(state.players, action.player)
        more = [Event("leave", {"player": state.players[seat]})]
        state = replace(state, left=state.left + (seat,))
        if seat == state.current:
            state = replace(state, current=_next(state, seat))
    else:
        state, more = _tiebreak(state, seat_of(state.players, action.player), action.cards)
    return state, events + more


def _play(state: State, card: str) -> tuple[State, list[Event]]:
    """Put ``card`` on the pile; a 21 waits for a steal, a bust ends the round."""
    seat, who = state.current, state.players[state.current]
    total, direction, owed = state.total, state.direction, state.play2_left
    if card in NUMBERS:
        total, owed = total + NUMBERS[card], max(owed - 1, 0)
    elif card in SLIDES:
        total = SLIDES[card]
    elif card == "switch":
        direction = -direction
    elif card == "play-2":
        owed = 2
    state = replace(state, pile=state.pile + (card,), total=total, direction=direction,
                    play2_left=owed)
    events = [Event("card", {"player": who, "card": card, "total": total})]
    if total == 21:
        events.append(Event("twenty-one", {"player": who}))
        state = replace(state, play2_left=0, pending=Pending("claim", seat),
                        current=_next(state, seat))
        return state, events
    if total > 21:
        events.append(Event("bust", {"player": who, "total": total}))
        others = [s for s in range(len(state.players)) if s != seat and s not in state.left]
        return _end_round(state, "bust", seat, others, events)
    if owed == 0:
        state = replace(state, current=_next(state, seat))
    return state, events


def _settle(state: State) -> tuple[State, list[Event]]:
    """Let whatever waits go through unanswered: the 21 stands, the SORRY! takes effect."""
    pending = state.pending
    assert pending is not None
    if pending.kind == "claim":
        return _end_round(state, "21", pending.by, [pending.by], [])
    if pending.kind == "steal":
        assert pending.target is not None
        return _end_round(state, "steal", pending.target, [pending.by], [])
    assert pending.target is not None
    target = pending.target
    progress = _with(state.progress, target, state.progress[target] - 1)
    state = replace(state, progress=progress, pending=None)
    return state, [Event("pawn", _pawn_data(state, target))]


def _block(state: State) -> tuple[State, list[Event]]:
    """Don't Be SORRY!: a take-back does nothing; a blocked steal leaves the 21 standing."""
    pending = state.pending
    assert pending is not None and pending.target is not None
    events = [Event("blocked", {"player": state.players[pending.target],
                                "by": state.players[pending.by]})]
    if pending.kind == "take-back":
        return replace(state, pending=None), events
    return _end_round(state, "21", pending.target, [pending.target], events)


def _end_round(state: State, how: str, player: int, flips: list[int],
               events: list[Event]) -> tuple[State, list[Event]]:
    """Flip pawns, clear the pile, and start the next round after ``player``'s seat."""
    progress = list(state.progress)
    for seat in flips:
        progress[seat] += 1
    state = replace(
        state, progress=tuple(progress), pile=(), total=0, play2_left=0, pending=None,
        current=_next(state, player), round_number=state.round_number + 1,
        history=state.history + (tuple(progress),),
        last_round=RoundEnd(state.round_number, how, player, tuple(flips), state.total))
    events.append(Event("round-over", {"how": how, "player": state.players[player],
                                       "flipped": [state.players[s] for s in flips]}))
    events += [Event("pawn", _pawn_data(state, s)) for s in flips]
    done = tuple(s for s in range(len(progress)) if progress[s] >= state.goal)
    if len(done) == 1:
        state = replace(state, over=True)
        events.append(Event("game-over", {"winners": list(winners(state))}))
    elif done:
        state = replace(state, tied=done, tiebreak=())
        events.append(Event("tiebreak", {"players": [state.players[s] for s in done]}))
    return state, events


def _tiebreak(state: State, seat: int, cards: tuple[str, ...]) -> tuple[State, list[Event]]:
    """Record one tied player's pile; once all are in, decide or play the tiebreaker again."""
    total = pile_total(cards)
    reports = state.tiebreak + ((seat, total),)
    events = [Event("tiebreak-pile", {"player": state.players[seat], "total": total})]
    if len(reports) < len(state.tied):
        return replace(state, tiebreak=reports), events
    under = [t for _, t in reports if t <= 21]
    leaders = tuple(s for s, t in reports if under and t == max(under)) or state.tied
    if len(leaders) > 1:  # ruling: tied again (or all over 21) -> they play again
        events.append(Event("tiebreak", {"players": [state.players[s] for s in leaders]}))
        return replace(state, tied=leaders, tiebreak=(),
                       tiebreak_rounds=state.tiebreak_rounds + (reports,)), events
    state = replace(state, tied=(), tiebreak=reports, champion=leaders[0], over=True)
    events.append(Event("game-over", {"winners": list(winners(state))}))
    return state, events


def action_from_card(state: State, card: str) -> dict[str, Any] | None:
    """The action a card newly seen on top of the play pile stands for, or None.

    For the camera link: a pile card is a ``play`` by the player to act. SORRY! and
    Don't Be SORRY! need the host to say whom they target, so they give None.
    """
    if state.over or state.tied or card not in PILE_CARDS:
        return None
    return {"type": "play", "card": card}


def from_cards(state: State, seen: Sequence[str], before: Sequence[str]) -> dict[str, Any] | None:
    """The camera link's hook: the play pile now shows ``seen`` (it showed ``before``).

    The pile's top card is the one card the camera names there; a new top card is a
    ``play`` (see :func:`action_from_card`).
    """
    if len(seen) != 1 or list(seen) == list(before):
        return None
    return action_from_card(state, seen[0])


def winners(state: State) -> tuple[str, ...]:
    """The names of the winners once the game is over, else ().

    Order of decision: the game must be over; a tiebreaker's winner (several players
    reached the goal in the same bust) wins alone; otherwise the one player who reached
    the goal wins. Exactly one winner, always.
    """
    if not state.over:
        return ()
    if state.champion is not None:
        return (state.players[state.champion],)
    return tuple(p for p, n in zip(state.players, state.progress) if n >= state.goal)


def _next(state: State, seat: int) -> int:
    """The next seat still at the table after ``seat``, in the direction of play."""
    return next_seat(seat, len(state.players), state.left, step=state.direction)


def _pawn_data(state: State, seat: int) -> dict[str, Any]:
    home = pawns_home(state.progress[seat])
    return {"player": state.players[seat], "home": home, "start": PAWNS - home}


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


def public_state(state: State) -> dict[str, Any]:
    """The JSON-ready view every phone sees (built in :mod:`companion.games.sorry_21_views`)."""
    return views.state_json(state, game=ID, winners=winners(state))
