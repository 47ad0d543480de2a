"""Toss Your Cookies: roll, pass and toss cookie cards until someone shouts "Snickerdoodle!".

Rules digest: ``docs/rules/toss-your-cookies.md``. The companion does not track the
cards; it runs the table: the setup helper, the rolls (typed from the real dice, or a
virtual roll whose faces ``prepare`` stores in the action), the Toss countdown every
phone calls out together ("One, two, three, Toss!"), the scramble timer, and the tally
of rounds won toward a majority of the agreed number.

Flow: the roller (``current``) rolls. Swap and Pass rolls are done by hand and the dice
go left at once. A Toss roll (or the ``toss`` button) starts the countdown; when it runs
out the session applies ``timeout`` and the scramble timer starts; when that runs out
(another ``timeout``, or ``skip``) the dice go left. A Snickerdoodle claim is taken at
any moment and ends the round. With the camera (a learned deck): the host taps who
shouts "Snickerdoodle!" (``claim``: the table, and any timer, waits), the claimant shows
the hand, and the cards the camera names are offered as the ``snickerdoodle`` with that
``hand`` (``from_cards``), or a sentence says why the hand does not win
(``cards_message``); ``withdraw`` drops a false alarm and the timer runs on.

Actions (JSON; the session adds ``"at"``)::

    {"type": "roll", "action": "toss", "number": 2}     (omit faces for a virtual roll)
    {"type": "toss"} {"type": "pause"} {"type": "resume"} {"type": "skip"}
    {"type": "next"} {"type": "toggle"}                 (the GPIO buttons)
    {"type": "add_time", "seconds": 5} {"type": "timeout"}
    {"type": "snickerdoodle", "player": 2, "hand": ["fortune", "fortune", "wild", ...]}
    {"type": "claim", "player": 2} {"type": "withdraw"}   (a claim checked by the camera)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion import timers
from companion.errors import NotNow
from companion.games import toss_your_cookies_hand as hands
from companion.games import toss_your_cookies_rules as rules
from companion.games.base import (Correct, Event, check_correct, check_options,
                                  check_players, corrected, get_int, get_type,
                                  parse_correct, seat_of, seated)
from companion.games.toss_your_cookies_cards import ACTIONS, CARDS
from companion.games.result import result_json
from companion.games.toss_your_cookies_rules import Call, Claim, LastClaim, Roll, Withdraw
from companion.timers import TimerAction

ID = "toss-your-cookies"
NAME = "Toss Your Cookies"
MIN_PLAYERS = 3
MAX_PLAYERS = 8
#: Option name -> default. ``rounds``: the agreed number (first to a majority of it wins);
#: ``countdown_seconds``: from a Toss roll to "Toss!" (the last 3 are "One, two, three");
#: ``scramble_seconds``: the grab after "Toss!" (0: until ``skip``); ``cookies``: the
#: cookie ids in play, one set per player (default: the first ones of CARDS).
OPTIONS: dict[str, Any] = {"rounds": 3, "countdown_seconds": 5, "scramble_seconds": 10,
                           "cookies": None}
#: One line per option for the new-game form (the host page shows it under the field).
OPTION_HINTS: dict[str, str] = {
    "rounds": "Rounds agreed (1 to 15): the first to win more than half of them wins.",
    "countdown_seconds": "From the Toss roll to \"Toss!\" (3 to 30 seconds).",
    "scramble_seconds": "The grab after \"Toss!\"; 0 lasts until you end it.",
    "cookies": "The cookies in play, one per player, by name: "
               + ", ".join(name.removesuffix(" Cookie") for name in rules.COOKIES.values())
               + " (the first ones by default).",
}
#: The stamp ``prepare`` puts on a journaled claim made under the spent-timer rule.
SPENDS_EXPIRED = "spends_expired"
#: GPIO button -> action (``companion/controls.py``).
BUTTONS: dict[str, dict[str, Any]] = {"next": {"type": "next"}, "timer": {"type": "toggle"}}
@dataclass(frozen=True)
class State:
    """The whole table. ``wins`` (rounds won) follow seat order; ``roller`` is a seat."""

    players: tuple[str, ...]
    wins: tuple[int, ...]
    cookies: tuple[str, ...]
    rounds: int = 3
    countdown_seconds: float = 5.0
    scramble_seconds: float = 10.0
    round: int = 1
    starter: int = 0  # seat that rolled first this round
    roller: int = 0  # seat to roll next (or rolling: the Toss under way)
    rolled_by: int = 0  # seat that made ``last_roll``
    phase: str = "roll"  # "roll", "countdown" or "scramble"
    timer: timers.Timer | None = None
    last_roll: Roll | None = None
    over: bool = False
    history: tuple[tuple[int, ...], ...] = ()  # wins after each round
    claim: int | None = None  # seat that shouted Snickerdoodle! and shows the hand
    claim_paused: bool = False  # the claim paused the running timer (withdraw resumes it)
    last_claim: LastClaim | None = None  # the claim that won the last round

    @property
    def wins_needed(self) -> int:
        """A majority of the agreed number of rounds."""
        return self.rounds // 2 + 1


Action = Roll | TimerAction | Claim | Call | Withdraw | Correct


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> State:
    """Start round 1; the first seat rolls first.

    :raises InvalidAction: on a bad player list or option.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    merged = check_options(options, OPTIONS, NAME)
    rounds = get_int(merged, "rounds", low=1, high=15)
    countdown = timers.parse_seconds(merged, "countdown_seconds", low=3, high=30, from_low=True)
    scramble = timers.parse_seconds(merged, "scramble_seconds", high=120, from_low=True)
    cookies = rules.parse_cookies(merged["cookies"], len(names))
    return State(players=names, wins=(0,) * len(names), cookies=cookies, rounds=rounds,
                 countdown_seconds=countdown, scramble_seconds=scramble)


def prepare(state: State, data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """Roll a virtual roll's dice from ``rng``, so the journal stores the faces.

    A roll is virtual when both faces are left out, or when it says ``"virtual": true``
    (then only the faces left out are rolled). A roll with one face left out is not
    filled: ``parse_action`` refuses it, since a die the table forgot to enter is not a
    die to invent. Any other action dict comes back as a plain copy. Called by the
    session before journaling; ``parse_action`` then sees an ordinary roll (marked
    ``"virtual": true``).
    """
    out = dict(data) if isinstance(data, Mapping) else data
    if isinstance(out, dict) and out.get("type") == "claim":
        out[SPENDS_EXPIRED] = True  # made under the rule (see rules.Call.spends_expired)
    if isinstance(out, dict) and out.get("type") == "roll":
        missing = [face for face in ("action", "number") if face not in out]
        if len(missing) == 2 or (missing and out.get("virtual") is True):
            out["virtual"] = True
            if "action" in missing:
                out["action"] = rng.choice(rules.ACTION_FACES)
            if "number" in missing:
                out["number"] = rng.choice(rules.NUMBER_FACES)
    return out


def parse_action(data: Mapping[str, Any]) -> Action:
    """Turn an action dict into an action value.

    :raises InvalidAction: unknown type, unknown die face or card, missing ``at``.
    """
    kind = get_type(data, ACTIONS)
    if kind == "correct":
        return parse_correct(data)
    if kind == "snickerdoodle":
        return rules.parse_claim(data, CARDS)
    at = timers.parse_at(data)
    if kind == "claim":
        return Call(rules.parse_claim(data, CARDS).player, at,
                    spends_expired=data.get(SPENDS_EXPIRED) is True)
    if kind == "withdraw":
        return Withdraw(at)
    if kind == "roll":
        return rules.parse_roll(data, at)
    if kind == "skip":
        return TimerAction(kind, at, phase=rules.parse_skip_phase(data))
    seconds = timers.parse_seconds(data, "seconds", high=120) if kind == "add_time" else 0.0
    return TimerAction("start" if kind == "resume" else kind, at, seconds)


def check(state: State, action: Action) -> None:
    """Raise if ``action`` cannot be taken now; never changes anything.

    :raises NotNow: game over, a roll during a Toss, no timer in that state.
    :raises IllegalAction: a claimed hand that is not five of one cookie plus the milk.
    :raises IllegalAction: nobody at the table is the player a claim names.
    """
    if isinstance(action, Correct):  # rounds won; the round that wins the game is played
        check_correct(action, state.players, state.wins, over=state.over,
                      limit=state.wins_needed, unit="rounds won")
        return
    if state.over:
        raise NotNow("The game is over; start a new one.")
    if isinstance(action, Claim):
        seat_of(state.players, action.player)
        if action.hand is not None:
            rules.winning_cookie(action.hand, state.cookies, len(state.players))
        return
    if isinstance(action, (Call, Withdraw)):
        rules.check_call(action, state.claim, state.players)
        return
    if state.claim is not None:
        raise NotNow(f"{state.players[state.claim]} claims Snickerdoodle!: check the hand "
                     f"(or withdraw the claim) first.")
    if isinstance(action, TimerAction):
        action = _resolve(state, action)
    if isinstance(action, Roll) or action.kind == "toss":
        if state.phase != "roll":
            raise NotNow(f"Finish the Toss first: the {state.phase} is on.")
        return
    rules.check_timer(state.timer, state.phase, action)


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Return the state after ``action``; assumes ``check(state, action)`` passed."""
    if isinstance(action, Claim):
        return _claim(state, seated(action, state.players))
    if isinstance(action, Call):
        return _call(state, seated(action, state.players))
    if isinstance(action, Withdraw):
        return _call(state, action)
    if isinstance(action, Correct):
        wins, event = corrected(state.players, state.wins, action)
        return replace(state, wins=wins), [event]
    who = state.players[state.roller]
    if isinstance(action, Roll):
        events = [Event("roll", {"player": who, "action": action.action,
                                 "number": action.number, "virtual": action.virtual,
                                 "text": rules.roll_text(action, who)})]
        state = replace(state, last_roll=action, rolled_by=state.roller)
        if action.action != "toss":
            return _pass_dice(state), events
        return _countdown(state, action.at, events)
    action = _resolve(state, action)
    kind, at, timer = action.kind, action.at, state.timer
    if kind == "toss":
        roll = Roll("toss", None, at)
        events = [Event("roll", {"player": who, "action": "toss", "number": None,
                                 "virtual": False, "text": rules.roll_text(roll, who)})]
        return _countdown(replace(state, last_roll=roll, rolled_by=state.roller), at, events)
    if kind in ("timeout", "skip"):
        if state.phase == "countdown":
            return _scramble(state, at)
        return _pass_dice(replace(state, timer=None)), [Event("scramble-over", {
            "text": "Anyone with fewer than 7 cards picks freely from whoever has more."})]
    assert timer is not None
    if kind == "pause":
        new = timers.pause(timer, at)
    elif kind == "start":
        new = timers.start(timer, at)
    elif timer.running:
        new = timers.add_time(timer, action.seconds, at)
    else:  # time was up (held after an undo): the added time runs, as on the running 0
        new = timers.start(timers.add_time(timer, action.seconds, at), at)
    event = Event("timer", {"op": kind, "phase": state.phase, "deadline": new.deadline,
                            "remaining_at_pause": None if new.running else new.left})
    return replace(state, timer=new), [event]


def _resolve(state: State, action: TimerAction) -> TimerAction:
    """What the buttons mean now: ``next`` is toss or skip, ``toggle`` is pause or start."""
    if action.kind == "next":
        return replace(action, kind="toss" if state.phase == "roll" else "skip")
    if action.kind == "toggle":
        running = state.timer is not None and state.timer.running
        return replace(action, kind="pause" if running else "start")
    return action


def _countdown(state: State, at: float, events: list[Event]) -> tuple[State, list[Event]]:
    timer = timers.start(timers.new_timer(state.countdown_seconds), at)
    toss_at = at + state.countdown_seconds
    events.append(Event("countdown", {"deadline": toss_at,
                                      "calls": rules.countdown_calls(toss_at)}))
    return replace(state, phase="countdown", timer=timer), events


def _scramble(state: State, at: float) -> tuple[State, list[Event]]:
    timer = None
    if state.scramble_seconds > 0:
        timer = timers.start(timers.new_timer(state.scramble_seconds), at)
    event = Event("toss", {"at": at, "deadline": None if timer is None else timer.deadline})
    return replace(state, phase="scramble", timer=timer), [event]


def _pass_dice(state: State) -> State:
    return replace(state, phase="roll", timer=None,
                   roller=(state.roller + 1) % len(state.players))


def _call(state: State, action: Call | Withdraw) -> tuple[State, list[Event]]:
    """Open a claim (pausing a running timer) or withdraw it (resuming that timer)."""
    timer = state.timer
    if isinstance(action, Call):
        running = timer is not None and timer.running
        if running:
            timer = timers.pause(timer, action.at)  # type: ignore[arg-type]
        # a timer already past its deadline is spent, not paused: a withdraw leaves it
        # at 0, as on the state ``hold`` shows, so held and replayed states agree
        paused = running and not (action.spends_expired and timer.left <= 0)  # type: ignore[union-attr]
        who = state.players[action.player]
        return replace(state, claim=action.player, claim_paused=paused, timer=timer), [
            Event("claim", {"player": who, "text": f"Snickerdoodle! {who} shows the hand."})]
    if state.claim_paused and timer is not None:
        timer = timers.start(timer, action.at)
    who = state.players[state.claim]  # type: ignore[index]
    return replace(state, claim=None, claim_paused=False, timer=timer), [
        Event("withdraw", {"player": who, "deadline": None if timer is None else timer.deadline})]


def _claim(state: State, action: Claim) -> tuple[State, list[Event]]:
    cookie, text = None, None
    if action.hand is not None:
        cookie, text = hands.hand_verdict(action.hand, state.cookies, len(state.players))
    wins = list(state.wins)
    wins[action.player] += 1
    n = len(state.players)
    over = wins[action.player] >= state.wins_needed
    who = state.players[action.player]
    events = [Event("snickerdoodle", {"player": who, "cookie": cookie,
                                      "checked": action.hand is not None,
                                      "round": state.round, "wins": wins[action.player]})]
    state = replace(state, wins=tuple(wins), history=state.history + (tuple(wins),),
                    timer=None, over=over, last_roll=None, phase="roll", claim=None,
                    claim_paused=False, last_claim=LastClaim(action.player, action.hand, text))
    if over:
        return state, events + [Event("game-over", {"winners": list(winners(state))})]
    starter = (state.starter + 1) % n
    state = replace(state, round=state.round + 1, starter=starter, roller=starter)
    return state, events + [Event("round", {"round": state.round,
                                            "roller": state.players[starter]})]


def deadline(state: State) -> float | None:
    """Epoch second the countdown or scramble runs out, or None (the session's timeout)."""
    if state.over or state.timer is None:
        return None
    return state.timer.deadline


def hold(state: State, at: float) -> State:
    """The state with its countdown or scramble timer run out at ``at``: stopped at 0.

    The session calls it after an undo takes back that timer's end (the countdown or
    scramble comes back with its deadline in the past): phones then show time's up, not
    a running 0, and the host moves on with ``skip``/``next`` or ``add_time``. Every
    action accepted here gives the same state as on the running timer (``pause`` and
    ``start`` are refused here; added time runs from now either way; a claim takes the
    timer as spent, see ``_call``), so replaying the journal, which holds no hold, agrees.
    """
    if state.over or state.timer is None or not state.timer.running:
        return state
    return replace(state, timer=timers.skip(state.timer, at))


def winners(state: State) -> tuple[str, ...]:
    """The names of the winners once the game is over, else ().

    Order of decision: the game must be over, which happens the moment one player's
    rounds won reach a majority of the agreed number (``rounds // 2 + 1``). Each round
    has exactly one winner, so no tie can arise. Ruling: if the agreed rounds are played
    without anyone reaching that majority (3 players winning one each), play goes on.
    """
    if not state.over:
        return ()
    return tuple(p for p, w in zip(state.players, state.wins) if w >= state.wins_needed)


def public_state(state: State) -> dict[str, Any]:
    """The JSON-ready view every phone sees; timers as absolute epoch deadlines."""
    timer = state.timer
    calls = None
    if state.phase == "countdown" and timer is not None and timer.running:
        calls = rules.countdown_calls(timer.deadline)  # type: ignore[arg-type]
    roll = state.last_roll
    return {
        "game": ID,
        "players": [{"name": n, "score": w} for n, w in zip(state.players, state.wins)],
        "current": (state.roller if state.phase == "roll" and state.claim is None
                    and not state.over else None),
        "over": state.over,
        "winners": list(winners(state)),
        "round": state.round,
        "rounds": state.rounds,
        "wins_needed": state.wins_needed,
        "phase": state.phase,
        "roller": state.roller,
        "starter": state.starter,
        "last_roll": None if roll is None else {
            "action": roll.action, "number": roll.number, "virtual": roll.virtual,
            "milk": roll.number == "milk",
            "by": state.rolled_by,
            "text": rules.roll_text(roll, state.players[state.rolled_by])},
        "timer": timers.timer_json(timer),
        "calls": calls,
        "setup": rules.setup(state.cookies, len(state.players), CARDS),
        "countdown_seconds": state.countdown_seconds,
        "scramble_seconds": state.scramble_seconds,
        "history": [list(w) for w in state.history],
        "claim": None if state.claim is None else {
            "player": state.claim, "name": state.players[state.claim],
            "paused": state.claim_paused},
        "last_claim": hands.last_claim_json(state.last_claim, state.players,
                                            state.round - (0 if state.over else 1)),
        "result": result_json(state.players, state.wins, winners(state), over=state.over),
    }


def from_cards(state: State, seen: Sequence[str], before: Sequence[str]
               ) -> dict[str, Any] | None:
    """The camera link's hook: during an open claim, a winning hand in view is offered.

    The offer is ``{"type": "snickerdoodle", "player": <claimant>, "hand": [...]}``;
    see :mod:`companion.games.toss_your_cookies_hand` for the flow.
    """
    return hands.from_cards(state, seen, before, tuple(CARDS))


def cards_message(state: State, seen: Sequence[str], before: Sequence[str]) -> str | None:
    """The camera link's sentence for the cards in view: why a shown hand wins or not."""
    return hands.cards_message(state, seen, before, tuple(CARDS))
