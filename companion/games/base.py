"""What every game module provides, and small helpers they share.

A game is a module with pure functions over a frozen state value (see
``companion/games/toss_up.py``)::

    ID: str                      # "toss-up"
    NAME: str                    # "Toss Up!"
    MIN_PLAYERS, MAX_PLAYERS: int
    ACTIONS: dict[str, ActionDoc] # action type -> description, JSON schema, example
    OPTIONS: dict[str, Any]      # option name -> default (documented in the module)
    OPTION_HINTS: dict[str, str] # option name -> one line for the new-game form (optional)

    def new_game(players: list[str], options: dict) -> State        # raises ActionError
    def parse_action(data: dict) -> Action                          # raises InvalidAction
    def check(state: State, action: Action) -> None                 # raises IllegalAction/NotNow
    def apply(state: State, action: Action) -> tuple[State, list[Event]]
    def public_state(state: State) -> dict                          # JSON-ready

Optional: ``note(state, data) -> dict``, fields the host's recent-actions list adds to
an action taken in ``state`` (Toss Up!: the points a ``bank`` banked).

``public_state`` returns at least ``game``, ``players`` (objects with ``name`` and
``score``), ``current``, ``over`` and ``winners``; the session adds ``version``.

Time and randomness come from outside: the session stamps every action dict with
``"at"`` (seconds since the epoch, float) before ``parse_action``, so replaying the
journal gives the same state. A game that needs random faces defines
``prepare(state, data, rng) -> dict``, which the session calls before journaling so
the faces are stored in the action. A game with timers may define
``hold(state, at) -> State``: the state whose timer's end an undo took back, shown run
out at ``at`` instead of running past its deadline (``companion/session.py``, ``_hold``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence, TypeVar, Union

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.graphemes import graphemes

#: A name's length limit, in characters as a person sees them (grapheme clusters).
MAX_NAME = 40
#: ... and in code points: one letter may carry any number of combining marks, and a name
#: of a few thousand is one "character" that every phone is sent at every change.
MAX_NAME_CODE_POINTS = 400  # forty of the longest emoji sequences (ten code points)


@dataclass(frozen=True)
class Event:
    """Something that happened, for cues on the phones and the Pi (sound, LEDs).

    ``kind`` is a short kebab-case word ("red-light", "bank", "game-over");
    ``data`` holds JSON-ready details.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionDoc:
    """One action type of a game, for the OpenAPI description and the host page."""

    summary: str
    properties: Mapping[str, Any]  # JSON schema properties, "type" excluded
    example: Mapping[str, Any]
    required: tuple[str, ...] = ()


#: Direction overrides, embeddings and isolates: they reorder the text drawn after the name
#: (a scoreboard line could read backwards), and no name needs them.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _refused(char: str) -> bool:
    """A character no name may hold: a control (Cc: tab, newline, NUL), a line or paragraph
    separator, a lone surrogate, or a bidi override. Not ``str.isprintable()``, which also
    refuses the zero-width joiner of family emoji and the non-joiner of Persian names."""
    kind = unicodedata.category(char)
    return kind in ("Cc", "Zl", "Zp", "Cs") or char in _BIDI_CONTROLS


def _seen(name: str) -> str:
    """The name without its invisible format characters (ZWJ, ZWNJ, zero-width space...),
    so that "Ann" and "Ann" with a zero-width space count as the same name."""
    return "".join(c for c in name if unicodedata.category(c) != "Cf").strip()


def check_players(players: Any, low: int, high: int) -> tuple[str, ...]:
    """Return the player names as a tuple, or raise InvalidAction with a table sentence.

    Names are stripped, 1-40 characters as a person sees them (a family emoji is one:
    :func:`companion.graphemes.graphemes`), and unique (case-insensitive, invisible
    characters aside); emoji sequences and joiners are welcome, control characters not.
    """
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidAction("Players must be a list of names.")
    names = tuple(p.strip() for p in players)
    if not low <= len(names) <= high:
        raise InvalidAction(f"This game needs {low} to {high} players, not {len(names)}.")
    for name in names:
        check_name(name)
    if len({same_name(n) for n in names}) != len(names):
        raise InvalidAction("Two players have the same name.")
    return names


def check_name(name: str) -> str:
    """``name`` stripped, once it is a name a player may have (see :func:`check_players`).

    :raises InvalidAction: blank, a control character, or longer than 40 characters.
    """
    name = name.strip()
    if not name:
        raise InvalidAction("Every player needs a name.")
    if any(_refused(c) for c in name):
        raise InvalidAction("A name may not hold control characters (tabs, line "
                            "breaks, text-direction overrides).")
    if not _seen(name):
        raise InvalidAction("Every player needs a name.")
    seen = graphemes(name)
    if len(seen) > MAX_NAME or len(name) > MAX_NAME_CODE_POINTS:
        raise InvalidAction(f"The name '{''.join(seen[:20])}'... is too long "
                            f"({MAX_NAME} characters at most).")
    return name


def same_name(name: str) -> str:
    """What two names must not share at one table: case and invisible characters aside."""
    return _seen(name).casefold()


def check_options(options: Mapping[str, Any] | None, defaults: Mapping[str, Any],
                  game: str) -> dict[str, Any]:
    """The game's options: ``defaults`` overlaid with ``options``.

    :raises InvalidAction: naming the first option the game does not have.
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise InvalidAction(f"{game} has no option {unknown[0]!r}.")
    return {**defaults, **options}


def get_int(data: Mapping[str, Any], key: str, *, low: int = 0, high: int = 10**6) -> int:
    """Read an integer field of an action dict, or raise InvalidAction naming it."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"'{key}' must be a whole number.")
    if not low <= value <= high:
        raise InvalidAction(f"'{key}' must be between {low} and {high}.")
    return value


#: A player named in an action: a name or a seat index, resolved against the state.
PlayerRef = Union[str, int]

#: The JSON schema of every action field that names a player (``player``, ``target``, ``by``).
PLAYER: Mapping[str, Any] = {
    "oneOf": [{"type": "string"}, {"type": "integer", "minimum": 0}],
    "description": "the player's name (any case) or seat index (0 = first seat)"}


def get_player(data: Mapping[str, Any], key: str) -> PlayerRef:
    """``data[key]``, a player named by name or seat index (not yet matched to the table).

    :raises InvalidAction: the field is missing, blank or neither a name nor a seat number.
    """
    value = data.get(key)
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise InvalidAction(f"'{key}' must be a player's name or seat number.")


def seat_of(players: tuple[str, ...], ref: PlayerRef) -> int:
    """The seat of a player named by name (any case) or seat index.

    :raises IllegalAction: if nobody at the table matches.
    """
    if isinstance(ref, int):
        if ref < len(players):
            return ref
        raise IllegalAction(f"There is no seat {ref}; seats go from 0 to {len(players) - 1}.")
    for seat, name in enumerate(players):
        if name.casefold() == ref.casefold():
            return seat
    raise IllegalAction(f"Nobody at this table is called {ref!r}; the players are "
                        f"{listed(players)}.")


def listed(names: Sequence[str]) -> str:
    """ "Ann, Bob and Cy": names as a sentence says them."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


_Named = TypeVar("_Named")


def seated(action: _Named, players: tuple[str, ...]) -> _Named:
    """``action`` with its ``player`` (a name or seat index) turned into the seat index.

    For the games whose rules index their tables by seat: they take a name as well,
    matched the one way :func:`seat_of` matches it.

    :raises IllegalAction: nobody at the table matches (the sentence names the players).
    """
    return replace(action, player=seat_of(players, action.player))  # type: ignore[type-var]


def check_leave(players: tuple[str, ...], left: tuple[int, ...], seat: int, *,
                low: int, game: str) -> None:
    """Raise unless the player at ``seat`` may leave the table now; never changes anything.

    :raises NotNow: they have already left.
    :raises IllegalAction: fewer than ``low`` players would stay.
    """
    name = players[seat]
    if seat in left:
        raise NotNow(f"{name} has already left the table.")
    if len(players) - len(left) <= low:
        raise IllegalAction(f"{game} needs {low} players: if {name} leaves, start a new "
                            "game for those who stay.")


def check_at_table(players: tuple[str, ...], left: tuple[int, ...], seat: int) -> None:
    """Raise unless the player at ``seat`` is still at the table; never changes anything.

    :raises IllegalAction: they have left.
    """
    if seat in left:
        raise IllegalAction(f"{players[seat]} has left the table.")


def next_seat(seat: int, count: int, left: tuple[int, ...], *, step: int = 1) -> int:
    """The next seat after ``seat`` still at a table of ``count``, going round by ``step``.

    ``step`` is 1 (to the left) or -1 (play reversed); ``seat`` itself if all others left.
    """
    for k in range(1, count + 1):
        nxt = (seat + k * step) % count
        if nxt not in left:
            return nxt
    return seat


def get_type(data: Any, known: Mapping[str, Any]) -> str:
    """Return ``data["type"]`` if it is one of ``known``, else raise InvalidAction."""
    if not isinstance(data, Mapping):
        raise InvalidAction("An action must be a JSON object.")
    kind = data.get("type")
    names = ", ".join(sorted(known))
    if not isinstance(kind, str) or not kind:
        raise InvalidAction(f"An action needs a \"type\", one of: {names}.")
    if kind not in known:
        raise InvalidAction(f"Unknown action {kind!r}; this game knows: {names}.")
    return kind


#: Fields any action may carry besides its own: its type, the session's time stamp and the
#: state version the sender saw (``companion/session.py``).
COMMON_FIELDS = frozenset({"type", "at", "version"})


def check_fields(data: Mapping[str, Any], known: Mapping[str, ActionDoc]) -> None:
    """Raise InvalidAction naming the first field that ``data``'s action does not have.

    A misspelt field ("acton") would otherwise be dropped without a word, and the action
    taken as if it were not there. The fields an action has are its ``ActionDoc``
    properties (what the OpenAPI description lists) and :data:`COMMON_FIELDS`. An unknown
    or missing type is left for ``parse_action`` to name.
    """
    doc = known.get(data.get("type")) if isinstance(data.get("type"), str) else None
    if doc is None:
        return
    unknown = sorted(str(k) for k in set(data) - set(doc.properties) - COMMON_FIELDS)
    if unknown:
        fields = ", ".join(f"'{f}'" for f in sorted(doc.properties)) or "none"
        raise InvalidAction(f"A {data['type']!r} action has no field {unknown[0]!r} "
                            f"(its fields: {fields}).")


# -- score corrections: the same "correct" action in every game ----------------------

#: The ``correct`` action every game accepts (its ACTIONS entry).
CORRECT_DOC = ActionDoc(
    summary="Correct a player's score by 'delta', saying why; journaled, so undo takes it back.",
    properties={
        "player": PLAYER,
        "delta": {"type": "integer", "minimum": -1000, "maximum": 1000, "not": {"const": 0}},
        "reason": {"type": "string", "minLength": 1, "maxLength": 200},
    },
    required=("player", "delta", "reason"),
    example={"type": "correct", "player": 1, "delta": -2, "reason": "miscounted the last roll"},
)


@dataclass(frozen=True)
class Correct:
    """A score correction by the host: ``delta`` points for ``player`` (a name or a seat
    number, as ``leave`` takes), and why."""

    player: PlayerRef
    delta: int
    reason: str


def parse_correct(data: Mapping[str, Any]) -> Correct:
    """Read a ``correct`` action dict, or raise InvalidAction naming the field."""
    player = get_player(data, "player")
    delta = get_int(data, "delta", low=-1000, high=1000)
    if delta == 0:
        raise InvalidAction("A correction of 0 changes nothing; give 'delta' as +n or -n.")
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAction("Say why the score is corrected ('reason').")
    if len(reason) > 200:
        raise InvalidAction("Keep the reason short (200 characters at most).")
    return Correct(player, delta, reason.strip())


def check_correct(action: Correct, players: tuple[str, ...], scores: tuple[int, ...], *,
                  over: bool, limit: int | None = None, unit: str = "points") -> None:
    """Raise unless ``action`` may correct ``scores`` now; never changes anything.

    ``limit``: a score the game ends at (a correction may not reach it: the play that
    reaches it decides the game, so the winner is never made by a correction).

    :raises NotNow: the game is over (undo to reopen it first).
    :raises IllegalAction: no such seat, or the score would fall below 0 or reach ``limit``.
    """
    if over:
        raise NotNow("The game is over; undo the last action first to correct a score.")
    seat = seat_of(players, action.player)
    name, score = players[seat], scores[seat]
    new = score + action.delta
    if new < 0:
        raise IllegalAction(f"{name} has {score} {unit}; a correction cannot go below 0.")
    if limit is not None and new >= limit:
        raise IllegalAction(f"{limit} {unit} would win the game for {name}; record the play "
                            "that gets there instead of a correction.")


def corrected(players: tuple[str, ...], scores: tuple[int, ...],
              action: Correct) -> tuple[tuple[int, ...], Event]:
    """The scores after ``action`` and its ``correct`` event (assumes check_correct passed)."""
    seat = seat_of(players, action.player)
    total = scores[seat] + action.delta
    new = scores[:seat] + (total,) + scores[seat + 1:]
    return new, Event("correct", {"player": players[seat], "seat": seat,
                                  "delta": action.delta, "reason": action.reason,
                                  "total": total})
