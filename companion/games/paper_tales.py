"""Paper Tales: 4 turns of 6 simultaneous phases, tracked with phase timers and a ledger.

Rules digest: ``docs/rules/paper-tales.md`` and ``paper-tales-units.md``. Everyone plays
each phase at once, so ``current`` is always None; the host (or a GPIO button, or the
phase timer) moves the table on with ``next``. The companion keeps the ledger: Gold
(start 3, +2 on entering Income, deployment and Land costs), Legend Points (never below
0), Buildings and levels, each realm's Units and Age tokens, and scores the Wars.

Timers: each phase may have a limit (option ``phase_seconds``; 0 = untimed). A phase
timer starts by itself when its phase begins (the first one waits for ``start``). When
it runs out the session applies ``{"type": "timeout", "at": deadline}``: with option
``auto_advance`` the phase ends as with ``next``; otherwise ``times_up`` is raised and
the table moves on when ready.

Actions (JSON; the session adds ``"at"``)::

    {"type": "start"} {"type": "pause"} {"type": "resume"} {"type": "toggle"}
    {"type": "add_time", "seconds": 30}
    {"type": "next"} {"type": "timeout"}
    {"type": "deploy", "player": 0, "front": ["knight"], "back": ["archer"]}
    {"type": "deploy", "player": 0, "front": ["knight"], "discard": ["knight"]}  (a fresh one)
    {"type": "wars", "strengths": [5, ["knight", "archer"], null]}
    {"type": "build", "player": 0, "building": "mine", "level": 1}
    {"type": "gold", "player": 0, "amount": 2} {"type": "lp", "player": 0, "amount": -3}
    {"type": "tally", "building_lp": [4, 0, 7]}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion import timers
from companion.errors import InvalidAction, NotNow
from companion.games import paper_tales_ledger as ledger
from companion.games import paper_tales_views as views
from companion.games.base import (CORRECT_DOC, PLAYER, ActionDoc, Correct, Event, check_correct,
                                  check_options, check_players, corrected, get_type,
                                  parse_correct, seated)
from companion.games.paper_tales_ledger import (
    PHASES, Adjust, Build, Deploy, Realm, Tally, Wars, parse_ledger_action,
)
from companion.games.paper_tales_units import UNITS
from companion.games.result import result_json
from companion.timers import TimerAction  # start/resume, pause, add_time, next, timeout

ID = "paper-tales"
NAME = "Paper Tales"
MIN_PLAYERS = 2
MAX_PLAYERS = 5
TURNS = 4
END = len(PHASES)  # phase index of the end-of-game tally, after turn 4's Aging

#: Option name -> default. ``phase_seconds``: limit per phase in seconds (0 = no timer);
#: ``auto_advance``: a phase whose timer runs out ends by itself (else "time's up" shows).
OPTIONS: dict[str, Any] = {
    "phase_seconds": {"recruitment": 120, "deployment": 90, "wars": 0, "income": 0,
                      "construction": 60, "aging": 0},
    "auto_advance": False,
}
#: Rules version a new game is stamped with (``options["rules"]``, set by the session at
#: creation, never by the form). 2 (27 Nov): a level-1 Temple adds 2 Gold at Income. A
#: journal written before has none and replays as 1, where hosts entered that Gold by hand:
#: replaying it with the Temple income would count it twice (and Gold breaks LP ties).
RULES = 2

#: One line per option for the new-game form (the host page shows it under the field).
OPTION_HINTS: dict[str, str] = {
    "phase_seconds": "Time limit of each phase in seconds; 0 for no timer.",
    "auto_advance": "When a phase's timer runs out, go on to the next phase by itself "
                    "(otherwise the phones show \"time's up\" until you tap Next).",
}

#: GPIO button -> action (``companion/controls.py``): next phase; the timer button
#: pauses or starts, and held it gives 30 seconds more.
BUTTONS: dict[str, dict[str, Any]] = {
    "next": {"type": "next"}, "timer": {"type": "toggle"},
    "timer:hold": {"type": "add_time", "seconds": 30},
}

#: Card id -> display name: the 42 Units of the base game.
CARDS: dict[str, str] = {u.id: u.name for u in UNITS.values()}

_UNIT_LIST = {"type": "array", "items": {"type": "string", "enum": sorted(UNITS)}}
ACTIONS: dict[str, ActionDoc] = {
    "start": ActionDoc("Start the phase timer (the first phase waits for this).",
                       {}, {"type": "start"}),
    "pause": ActionDoc("Pause the phase timer.", {}, {"type": "pause"}),
    "resume": ActionDoc("Resume the paused phase timer.", {}, {"type": "resume"}),
    "toggle": ActionDoc("The timer button: pause the phase timer if running, else start it.",
                        {}, {"type": "toggle"}),
    "add_time": ActionDoc(
        "Give the phase more time (clears time's up and runs again).",
        {"seconds": {"type": "number", "exclusiveMinimum": 0, "maximum": 3600}},
        {"type": "add_time", "seconds": 30}, required=("seconds",)),
    "next": ActionDoc("End this phase and begin the next (Wars unscored: scored from the "
                      "realms; Aging: aged Units die, the rest age); with `phase`, only that "
                      "one (a tap meant for a phase the button already ended is refused).",
                      {"phase": {"type": "string", "enum": list(PHASES)}}, {"type": "next"}),
    "timeout": ActionDoc("Sent by the session when the phase timer runs out.",
                         {}, {"type": "timeout"}),
    "deploy": ActionDoc(
        "A player's realm after Deployment, Units by id; new Units are paid for. Units in "
        "play keep their Age token; `discard` the ones discarded first (aged copies go "
        "first), so a fresh copy of the same Unit is new.",
        {"player": PLAYER, "front": _UNIT_LIST, "back": _UNIT_LIST, "discard": _UNIT_LIST},
        {"type": "deploy", "player": 0, "front": ["knight"], "back": ["archer"]},
        required=("player",)),
    "wars": ActionDoc(
        "Score the Wars: per seat a Front strength, a list of Unit ids, or null (the "
        "tracked realm); omit to use every tracked realm.",
        {"strengths": {"type": "array", "items": {
            "oneOf": [{"type": "integer", "minimum": 0}, _UNIT_LIST, {"type": "null"}]}}},
        {"type": "wars", "strengths": [5, ["knight", "archer"], None]}),
    "build": ActionDoc(
        "Build a Building (level 1 or straight to 2, Land cost 2 Gold per Building owned) "
        "or upgrade one from level 1 to 2.",
        {"player": PLAYER, "building": {"type": "string", "enum": list(ledger.BUILDINGS)},
         "level": {"type": "integer", "enum": [1, 2]},
         "resource_gold": {"type": "integer", "enum": [0, 2, 3],
                           "description": "Gold paid instead of Resources (Temple only: "
                                          "2 at level 1, 3 at level 2)"}},
        {"type": "build", "player": 0, "building": "mine", "level": 1},
        required=("player", "building")),
    "gold": ActionDoc("Add (or take, if negative) Gold: abilities, corrections.",
                      {"player": PLAYER, "amount": {"type": "integer"}},
                      {"type": "gold", "player": 0, "amount": 2}, required=("player", "amount")),
    "lp": ActionDoc("Add (or take) Legend Points; a score never goes below 0.",
                    {"player": PLAYER, "amount": {"type": "integer"}},
                    {"type": "lp", "player": 0, "amount": 3}, required=("player", "amount")),
    "tally": ActionDoc("After turn 4: add each player's Building LP and end the game.",
                       {"building_lp": {"type": "array", "items": {"type": "integer",
                                                                   "minimum": 0}}},
                       {"type": "tally", "building_lp": [4, 0, 7]}, required=("building_lp",)),
    "correct": CORRECT_DOC,
}


@dataclass(frozen=True)
class State:
    """The whole table; ``realms`` follow seat order, ``phase`` indexes PHASES (6 = tally)."""

    players: tuple[str, ...]
    realms: tuple[Realm, ...]
    phase_seconds: tuple[float, ...]
    auto_advance: bool = False
    temple_income: bool = True  # rules 2; False replays a journal written before them
    turn: int = 1
    phase: int = 0
    timer: timers.Timer = timers.new_timer(0)
    times_up: bool = False
    deployed: tuple[bool, ...] = ()
    built: tuple[bool, ...] = ()
    wars: ledger.WarsResult | None = None  # this turn's, once scored
    over: bool = False
    history: tuple[tuple[int, ...], ...] = ()  # LP after each turn (and the tally)


def new_game(players: list[str], options: Mapping[str, Any] | None = None) -> State:
    """Start turn 1's Recruitment with 3 Gold each; the phase timer waits for ``start``.

    :raises InvalidAction: on a bad player list or option.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = dict(options or {})
    rules = options.pop("rules", 1)  # absent: journaled before rules versions existed
    if rules not in (1, RULES) or isinstance(rules, bool):
        raise InvalidAction(f"'rules' must be 1 or {RULES}.")
    options = check_options(options, OPTIONS, NAME)
    seconds = ledger.parse_phase_seconds(options.get("phase_seconds", {}),
                                         OPTIONS["phase_seconds"])
    auto = options.get("auto_advance", OPTIONS["auto_advance"])
    if not isinstance(auto, bool):
        raise InvalidAction("'auto_advance' must be true or false.")
    n = len(names)
    return State(players=names, realms=(Realm(),) * n, phase_seconds=seconds,
                 auto_advance=auto, temple_income=rules >= 2,
                 timer=timers.new_timer(seconds[0]),
                 deployed=(False,) * n, built=(False,) * n)


Action = TimerAction | Deploy | Wars | Build | Adjust | Tally | Correct


def parse_action(data: Mapping[str, Any]) -> Action:
    """Turn an action dict into an action value.

    :raises InvalidAction: unknown type, missing or wrong-typed field, unknown Unit.
    """
    kind = get_type(data, ACTIONS)
    if kind in ("start", "resume", "toggle", "pause", "add_time", "next", "timeout"):
        at = timers.parse_at(data)
        seconds = 0.0
        if kind == "add_time":
            seconds = timers.parse_seconds(data, "seconds")
        phase = data.get("phase") if kind == "next" else None
        if phase is not None and phase not in PHASES:
            raise InvalidAction(f"'phase' must be one of {', '.join(PHASES)}.")
        return TimerAction("start" if kind == "resume" else kind, at, seconds, phase)
    if kind == "correct":
        return parse_correct(data)
    return parse_ledger_action(kind, data)


def check(state: State, action: Action) -> None:
    """Raise if ``action`` cannot be taken now; never changes anything.

    :raises NotNow: game over, wrong phase, already done this turn, timer not in that state.
    :raises IllegalAction: not enough Gold, no free spot, a Building rule broken, nobody
        at the table is the player named.
    :raises InvalidAction: a list of the wrong length.
    """
    if isinstance(action, Correct):  # Legend Points, with the reason (``lp`` has none)
        check_correct(action, state.players, _lps(state), over=state.over, unit="LP")
        return
    if state.over:
        raise NotNow("The game is over; start a new one.")
    if isinstance(action, TimerAction):
        _check_timer(state, action)
        return
    phase = PHASES[state.phase] if state.phase < END else "tally"
    done = state.deployed if isinstance(action, Deploy) else state.built
    ledger.check_ledger(action, phase=phase, realms=state.realms, players=state.players,
                        done=done, wars_scored=state.wars is not None)


def _resolve(state: State, action: TimerAction) -> TimerAction:
    """The timer button's ``toggle`` means pause while the timer runs, else start."""
    if action.kind != "toggle":
        return action
    return replace(action, kind="pause" if state.timer.running else "start")


def _check_timer(state: State, action: TimerAction) -> None:
    action = _resolve(state, action)
    timer, kind = state.timer, action.kind
    if kind == "next":
        if state.phase == END:
            raise NotNow("Enter each player's Building LP (tally) to finish the game.")
        if action.phase not in (None, PHASES[state.phase]):  # a page that had not seen it
            raise NotNow(f"{action.phase.capitalize()} is already over: "
                         f"{PHASES[state.phase].capitalize()} is on.")
        return
    if state.phase == END:
        raise NotNow("The four turns are over; no phase timer is running.")
    name = PHASES[state.phase].capitalize()
    if kind == "timeout":
        if not timer.running:
            raise NotNow("No phase timer is running.")
        if action.at < timer.deadline:  # type: ignore[operator]
            left = timers.remaining(timer, action.at)
            raise NotNow(f"The {name} timer still has {left:.0f} seconds to run.")
    elif kind == "start":
        if timer.duration == 0:
            raise NotNow(f"The {name} phase has no timer; add time to give it one.")
        if timer.running:
            raise NotNow(f"The {name} timer is already running.")
        if timer.left == 0:
            raise NotNow(f"Time is up for {name}; add time or move on.")
    elif kind == "pause" and not timer.running:
        raise NotNow(f"The {name} timer is not running.")


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Return the state after ``action``; assumes ``check(state, action)`` passed."""
    if isinstance(action, TimerAction):
        return _apply_timer(state, action)
    if isinstance(action, Correct):
        lps, event = corrected(state.players, _lps(state), action)
        realms = tuple(replace(r, lp=lp) for r, lp in zip(state.realms, lps))
        return replace(state, realms=realms), [event]
    if isinstance(action, (Deploy, Build, Adjust)):
        action = seated(action, state.players)
    realms, events = ledger.apply_ledger(action, state.realms, state.players)
    state = replace(state, realms=realms)
    if isinstance(action, Deploy):
        state = replace(state, deployed=_with(state.deployed, action.player, True))
    elif isinstance(action, Build):
        state = replace(state, built=_with(state.built, action.player, True))
    elif isinstance(action, Wars):
        result = ledger.score_wars(ledger.resolve_strengths(action.strengths, realms))
        return _award_wars(state, result, events)
    elif isinstance(action, Tally):
        state = replace(state, over=True, history=state.history + (_lps(state),))
        events.append(Event("game-over", {"winners": list(winners(state))}))
    return state, events


def _apply_timer(state: State, action: TimerAction) -> tuple[State, list[Event]]:
    action = _resolve(state, action)
    kind, at, timer = action.kind, action.at, state.timer
    if kind == "next":
        return _advance(state, at)
    if kind == "timeout" and state.auto_advance:
        return _advance(state, at)
    if kind == "timeout":
        state = replace(state, timer=timers.skip(timer, at), times_up=True)
        return state, [Event("times-up", {"phase": PHASES[state.phase], "turn": state.turn})]
    if kind == "pause":
        new = timers.pause(timer, at)
    elif kind == "start":
        new = timers.start(timer, at)
    else:  # add_time: more time clears "time's up" and runs the timer again
        new = timers.add_time(timer, action.seconds, at)
        if state.times_up or timer.duration == 0:
            new = timers.start(new, at)
    event = Event("timer", {"op": kind, "deadline": new.deadline,
                            "remaining_at_pause": None if new.running else new.left})
    return replace(state, timer=new, times_up=False), [event]


def _advance(state: State, at: float) -> tuple[State, list[Event]]:
    """End the current phase at ``at`` and enter the next (or the tally after turn 4)."""
    events: list[Event] = []
    leaving = PHASES[state.phase]
    if leaving == "wars" and state.wars is None:
        result = ledger.score_wars(ledger.resolve_strengths(None, state.realms))
        state, events = _award_wars(state, result, events)
    turn, phase = state.turn, state.phase + 1
    if leaving == "aging":
        realms, died = ledger.age_realms(state.realms)
        events += [Event("aging", {"player": state.players[i], "died": names})
                   for i, names in enumerate(died) if names]
        n = len(state.players)
        state = replace(state, realms=realms, history=state.history + (_lps(state),),
                        deployed=(False,) * n, built=(False,) * n, wars=None)
        if turn < TURNS:
            turn, phase = turn + 1, 0
    if phase == END:
        state = replace(state, turn=turn, phase=END, timer=timers.new_timer(0), times_up=False)
        return state, events + [Event("tally", {"turn": turn})]
    if PHASES[phase] == "income":
        temple = state.temple_income
        temples = [p for p, r in zip(state.players, state.realms)
                   if ledger.income(r, temple=temple) > 2]
        state = replace(state, realms=tuple(
            replace(r, gold=r.gold + ledger.income(r, temple=temple)) for r in state.realms))
        events.append(Event("income", {"gold": 2, "temple": temples}))
    timer = timers.new_timer(state.phase_seconds[phase])
    if timer.duration > 0:
        timer = timers.start(timer, at)
    state = replace(state, turn=turn, phase=phase, timer=timer, times_up=False)
    events.append(Event("phase", {"turn": turn, "phase": PHASES[phase],
                                  "direction": pass_direction(turn),
                                  "deadline": timer.deadline}))
    return state, events


def _award_wars(state: State, result: ledger.WarsResult,
                events: list[Event]) -> tuple[State, list[Event]]:
    realms = tuple(replace(r, lp=r.lp + lp) for r, lp in zip(state.realms, result.lp))
    events.append(Event("wars", {"strengths": list(result.strengths),
                                 "won": list(result.won), "lp": list(result.lp)}))
    return replace(state, realms=realms, wars=result), events


def deadline(state: State) -> float | None:
    """Epoch second the running phase timer runs out, or None (the session's timeout)."""
    if state.over:
        return None
    return state.timer.deadline


def hold(state: State, at: float) -> State:
    """The state with its phase timer run out at ``at`` and left there: time's up.

    The session calls it after an undo takes back a timer's end (with ``auto_advance``,
    the phase that ended comes back): the replayed timer still runs, past its deadline.
    Held, it shows what a timeout without ``auto_advance`` shows, stopped at 0 with
    ``times_up``, and the table moves on with ``next`` or ``add_time``. Every action
    accepted here gives the same state as on the running timer (``start``, ``pause`` and
    ``timeout`` are refused here), so replaying the journal, which holds no hold, agrees.
    """
    if state.over or not state.timer.running:
        return state
    return replace(state, timer=timers.skip(state.timer, at), times_up=True)


def pass_direction(turn: int) -> str:
    """Recruitment passes left on turns 1 and 3, right on turns 2 and 4."""
    return "left" if turn % 2 == 1 else "right"


def winners(state: State) -> tuple[str, ...]:
    """The names of the winners once the game is over, else ().

    Order of decision: the game must be over (the tally is entered after turn 4); the
    most LP (Building LP included) wins; a tie goes to the most Gold left; a tie on
    both is a shared victory, so every tied player is a winner.
    """
    if not state.over:
        return ()
    best = max((r.lp, r.gold) for r in state.realms)
    return tuple(p for p, r in zip(state.players, state.realms) if (r.lp, r.gold) == best)


def public_state(state: State) -> dict[str, Any]:
    """The JSON-ready view every phone sees; timers as absolute epoch deadlines."""
    two = len(state.players) == 2
    phase = PHASES[state.phase] if state.phase < END else "tally"
    won = winners(state)
    why = views.tie_break(state.players, state.realms, won)
    return {
        "game": ID,
        "players": [views.realm_json(n, r, deployed=d, built=b) for n, r, d, b in
                    zip(state.players, state.realms, state.deployed, state.built)],
        "current": None,
        "over": state.over,
        "winners": list(won),
        "tie_break": why,
        "result": result_json(state.players, _lps(state), won, over=state.over, why=why,
                              rank=lambda s: (-state.realms[s].lp, -state.realms[s].gold)),
        "turn": state.turn,
        "turns": TURNS,
        "phase": phase,
        "phase_number": state.phase + 1 if state.phase < END else None,
        "phases": list(PHASES),
        "direction": pass_direction(state.turn),
        "draft": {"deal": 9 if two else 5, "keep": 1, "discard": 1 if two else 0,
                  "direction": pass_direction(state.turn)},
        "timer": timers.timer_json(state.timer) if state.timer.duration > 0 else None,
        "times_up": state.times_up,
        "auto_advance": state.auto_advance,
        "phase_seconds": dict(zip(PHASES, state.phase_seconds)),
        "wars": None if state.wars is None else views.wars_json(state.wars),
        "reminders": views.reminders(phase, state.turn, state.players, state.realms,
                                    temple_income=state.temple_income),
        "ability_order": views.ability_order(state.players, state.realms),
        "history": [list(lps) for lps in state.history],
    }


def _lps(state: State) -> tuple[int, ...]:
    return tuple(r.lp for r in state.realms)


def _with(values: tuple[bool, ...], index: int, value: bool) -> tuple[bool, ...]:
    return values[:index] + (value,) + values[index + 1:]


__all__ = ["ID", "NAME", "OPTIONS", "OPTION_HINTS", "ACTIONS", "BUTTONS", "CARDS", "State",
           "new_game", "parse_action", "check", "apply", "deadline", "hold", "winners",
           "public_state", "pass_direction"]
