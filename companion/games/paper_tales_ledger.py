"""Paper Tales ledger: realms (Gold, LP, Buildings, Units), the Wars calculator, Aging.

The pure rules behind ``paper_tales.py``: the ledger actions, their checks, and how
they change the realms. ``paper_tales.py`` owns turns, phases and timers.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games.base import Event, PlayerRef, get_int, get_player, seated
from companion.games.paper_tales_units import UNITS, unit_strength

PHASES = ("recruitment", "deployment", "wars", "income", "construction", "aging")
BUILDINGS = ("town", "tavern", "mine", "temple", "barracks")
BACK_SPOTS = 2
LP_PER_WAR = 3
LAND_COST = 2  # Gold per Building already owned
#: Temple level -> the Gold it may be paid with instead of its Resources (level 1: a
#: Crystal or 2 Gold; level 2: 2 Crystal or 3 Gold; ``paper-tales-units.md``).
TEMPLE_GOLD = {1: 2, 2: 3}
#: A level-1 Temple's effect: +2 Gold at Income (level 2 gives LP at War instead).
TEMPLE_INCOME = 2


@dataclass(frozen=True)
class Placed:
    """A Unit in play; ``aged`` once it carries an Age token (it dies at the next Aging)."""

    unit: str
    aged: bool = False


@dataclass(frozen=True)
class Realm:
    """One player's ledger. ``buildings`` holds a level (0 = not owned) per BUILDINGS."""

    gold: int = 3
    lp: int = 0
    buildings: tuple[int, ...] = (0,) * len(BUILDINGS)
    front: tuple[Placed, ...] = ()
    back: tuple[Placed, ...] = ()

    @property
    def front_spots(self) -> int:
        """2, or 3 (the 5th spot of the realm) once any Building is at level 2."""
        return 3 if 2 in self.buildings else 2


@dataclass(frozen=True)
class Deploy:
    """``player``'s realm after Deployment: Unit ids in the Front and in the Back.

    ``discard``: Units in play the player discarded first (aged copies go first), so a
    copy of the same Unit placed from the hand is new: paid for, with no Age token.
    """

    player: PlayerRef  # a name or seat; check_ledger and apply_ledger take seats
    front: tuple[str, ...]
    back: tuple[str, ...]
    discard: tuple[str, ...] = ()


@dataclass(frozen=True)
class Wars:
    """Per seat: a strength, a tuple of Unit ids to add up, or None (the tracked realm)."""

    strengths: tuple[int | tuple[str, ...] | None, ...] | None


@dataclass(frozen=True)
class Build:
    """Build ``building`` at ``level`` (new), or upgrade it from level 1 to 2."""

    player: PlayerRef  # a name or seat; check_ledger and apply_ledger take seats
    building: str
    level: int = 1
    resource_gold: int = 0  # the Temple's Gold instead of Resources


@dataclass(frozen=True)
class Adjust:
    """Add ``amount`` (may be negative) to ``player``'s ``what``: "gold" or "lp"."""

    what: str
    player: PlayerRef  # a name or seat; check_ledger and apply_ledger take seats
    amount: int


@dataclass(frozen=True)
class Tally:
    """Building LP per seat, added after turn 4."""

    building_lp: tuple[int, ...]


@dataclass(frozen=True)
class WarsResult:
    """Front strength, Wars won and LP gained per seat."""

    strengths: tuple[int, ...]
    won: tuple[int, ...]
    lp: tuple[int, ...]


# -- parsing -----------------------------------------------------------------------------

def parse_phase_seconds(given: Any, defaults: Mapping[str, float]) -> tuple[float, ...]:
    """Per-phase limits from the ``phase_seconds`` option, defaults filling the gaps."""
    if not isinstance(given, Mapping):
        raise InvalidAction("'phase_seconds' must map phase names to seconds.")
    for name, value in given.items():
        if name not in PHASES:
            raise InvalidAction(f"Paper Tales has no phase {name!r}; the phases are "
                                f"{', '.join(PHASES)}.")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                math.isfinite(value) and 0 <= value <= 3600):
            raise InvalidAction(f"The {name} limit must be 0 to 3600 seconds (0: no timer).")
    return tuple(float(given.get(name, defaults[name])) for name in PHASES)


def _units(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(u, str) for u in value):
        raise InvalidAction(f"'{key}' must be a list of Unit ids.")
    for unit in value:
        if unit not in UNITS:
            raise InvalidAction(f"There is no Unit called {unit!r} in Paper Tales.")
    return tuple(value)


def parse_ledger_action(kind: str, data: Mapping[str, Any]) -> Deploy | Wars | Build | \
        Adjust | Tally:
    """Parse a ``deploy``, ``wars``, ``build``, ``gold``, ``lp`` or ``tally`` dict."""
    if kind == "deploy":
        return Deploy(get_player(data, "player"), _units(data, "front"),
                      _units(data, "back"), _units(data, "discard"))
    if kind in ("gold", "lp"):
        return Adjust(kind, get_player(data, "player"),
                      get_int(data, "amount", low=-1000, high=1000))
    if kind == "build":
        building = data.get("building")
        if building not in BUILDINGS:
            raise InvalidAction(f"'building' must be one of {', '.join(BUILDINGS)}.")
        level = get_int({"level": 1, **data}, "level", low=1, high=2)
        extra = get_int({"resource_gold": 0, **data}, "resource_gold", high=10)
        return Build(get_player(data, "player"), building, level, extra)
    if kind == "tally":
        values = data.get("building_lp")
        if not isinstance(values, list):
            raise InvalidAction("'building_lp' must list each player's Building LP.")
        return Tally(tuple(get_int({"building_lp": v}, "building_lp", high=1000)
                           for v in values))
    entries = data.get("strengths")
    if entries is None:
        return Wars(None)
    if not isinstance(entries, list):
        raise InvalidAction("'strengths' must list each player's Front, in seat order.")
    parsed: list[int | tuple[str, ...] | None] = []
    for entry in entries:
        if entry is None or isinstance(entry, list):
            parsed.append(None if entry is None else _units({"front": entry}, "front"))
        else:
            parsed.append(get_int({"strength": entry}, "strength", high=1000))
    return Wars(tuple(parsed))


# -- checks ------------------------------------------------------------------------------

def check_ledger(action: Any, *, phase: str, realms: tuple[Realm, ...],
                 players: tuple[str, ...], done: tuple[bool, ...], wars_scored: bool) -> None:
    """Raise InvalidAction, NotNow or IllegalAction if ``action`` cannot be taken now.

    :raises IllegalAction: among others, nobody at the table is the player it names.
    """
    if isinstance(action, (Deploy, Build, Adjust)):
        action = seated(action, players)
    if isinstance(action, Adjust):
        realm = realms[action.player]
        if action.what == "gold" and realm.gold + action.amount < 0:
            raise IllegalAction(f"{players[action.player]} has {realm.gold} Gold and cannot pay "
                                f"{-action.amount}.")
    elif isinstance(action, Deploy):
        _expect(phase, "deployment", "Units are deployed")
        if done[action.player]:
            raise NotNow(f"{players[action.player]} has already deployed this turn; "
                         f"undo to change it.")
        _check_deploy(action, realms, players[action.player])
    elif isinstance(action, Build):
        _expect(phase, "construction", "Buildings are built")
        if done[action.player]:
            raise NotNow(f"{players[action.player]} has already built this turn "
                         f"(one action each).")
        _check_build(action, realms[action.player], players[action.player])
    elif isinstance(action, Wars):
        _expect(phase, "wars", "Wars are scored")
        if wars_scored:
            raise NotNow("This turn's Wars are already scored; undo to change them.")
        if action.strengths is not None and len(action.strengths) != len(players):
            raise InvalidAction(f"Give {len(players)} Front strengths, one per player in "
                                f"seat order, not {len(action.strengths)}.")
    elif isinstance(action, Tally):
        _expect(phase, "tally", "Building LP are added")
        if len(action.building_lp) != len(players):
            raise InvalidAction(f"Give {len(players)} Building LP totals, one per player in "
                                f"seat order, not {len(action.building_lp)}.")


def _expect(phase: str, wanted: str, what: str) -> None:
    if phase != wanted:
        when = "after turn 4" if wanted == "tally" else f"in the {wanted.capitalize()} phase"
        now = "the tally" if phase == "tally" else phase.capitalize()
        raise NotNow(f"{what} {when}; this is {now}.")


def _check_deploy(action: Deploy, realms: tuple[Realm, ...], who: str) -> None:
    realm = realms[action.player]
    if len(action.front) > realm.front_spots:
        extra = "" if realm.front_spots == 3 else " (3 once a Building is at level 2)"
        raise IllegalAction(f"{who}'s Front has {realm.front_spots} spots{extra}, "
                            f"not {len(action.front)}.")
    if len(action.back) > BACK_SPOTS:
        raise IllegalAction(f"{who}'s Back has {BACK_SPOTS} spots, not {len(action.back)}.")
    in_play: Counter[str] = Counter()
    for seat, other in enumerate(realms):
        if seat != action.player:
            in_play.update(p.unit for p in other.front + other.back)
    in_play.update(action.front + action.back)
    for unit_id, count in in_play.items():
        unit = UNITS[unit_id]
        if count > unit.copies:
            raise IllegalAction(f"The game has {unit.copies} {unit.name} card"
                                f"{'s' if unit.copies > 1 else ''}, not {count} in play.")
    held = Counter(p.unit for p in realm.front + realm.back)
    for unit_id, count in Counter(action.discard).items():
        if count > held[unit_id]:
            name, have = UNITS[unit_id].name, held[unit_id]
            raise IllegalAction(f"{who} has {have} {name} in play, not {count} to discard."
                                if have else f"{who} has no {name} in play to discard.")
    _, _, cost = plan_deploy(realm, action.front, action.back, action.discard)
    if cost > realm.gold:
        # the rules discard the Units a player cannot pay for; which ones is the player's
        # choice, so the host leaves them out of the deployment
        raise IllegalAction(f"{who} has {realm.gold} Gold; the new Units cost {cost}. Leave out "
                            f"the Units {who} cannot pay for: the rules discard them.")


def _check_build(action: Build, realm: Realm, who: str) -> None:
    level = realm.buildings[BUILDINGS.index(action.building)]
    name = action.building.capitalize()
    if action.resource_gold and action.building != "temple":
        raise IllegalAction("Only the Temple can be paid in Gold instead of Resources.")
    gold = TEMPLE_GOLD[action.level]
    if action.resource_gold not in (0, gold):
        crystal = "a Crystal" if action.level == 1 else "2 Crystal"
        raise IllegalAction(f"A level-{action.level} Temple takes {crystal} or {gold} Gold, "
                            f"not {action.resource_gold} Gold.")
    if level == 2:
        raise IllegalAction(f"{who}'s {name} is already at level 2.")
    if level == 1 and action.level == 1:
        raise IllegalAction(f"{who} already owns the {name}; upgrade it to level 2 instead.")
    cost = build_cost(realm, action)
    if cost > realm.gold:
        raise IllegalAction(f"{who} has {realm.gold} Gold; that costs {cost}.")


def income(realm: Realm, *, temple: bool = True) -> int:
    """Gold a realm gains on entering Income: 2, and 2 more with a level-1 Temple
    (``temple=False``: a game under rules 1, where the host entered that Gold by hand)."""
    level_one = realm.buildings[BUILDINGS.index("temple")] == 1
    return 2 + (TEMPLE_INCOME if temple and level_one else 0)


def build_cost(realm: Realm, action: Build) -> int:
    """Gold to pay: the Land cost for a new Building, plus Gold paid for Resources."""
    owned = sum(1 for level in realm.buildings if level)
    upgrade = realm.buildings[BUILDINGS.index(action.building)] == 1
    return (0 if upgrade else LAND_COST * owned) + action.resource_gold


# -- effects -----------------------------------------------------------------------------

def plan_deploy(realm: Realm, front: Sequence[str], back: Sequence[str],
                discard: Sequence[str] = ()
                ) -> tuple[tuple[Placed, ...], tuple[Placed, ...], int]:
    """The realm's new Front and Back, and the Gold the new Units cost.

    Units already in play (matched by id, wherever they move) keep their Age token and
    never cost again; when fewer copies stay than were in play, the younger ones stay.
    ``discard`` leaves play first, aged copies first: a copy placed in its stead is new
    (an aged Knight swapped for a fresh one from the hand is paid for and unaged).
    """
    pool: dict[str, list[bool]] = {}
    for placed in realm.front + realm.back:
        pool.setdefault(placed.unit, []).append(placed.aged)
    for ages in pool.values():
        ages.sort()  # unaged (False) first
    for unit in discard:
        pool[unit].pop()  # the oldest copy (check_ledger made sure there is one)
    cost = 0

    def place(unit: str) -> Placed:
        nonlocal cost
        ages = pool.get(unit)
        if ages:
            return Placed(unit, ages.pop(0))
        cost += UNITS[unit].cost
        return Placed(unit)

    new_front = tuple(place(u) for u in front)
    new_back = tuple(place(u) for u in back)
    return new_front, new_back, cost


def apply_ledger(action: Any, realms: tuple[Realm, ...],
                 players: tuple[str, ...]) -> tuple[tuple[Realm, ...], list[Event]]:
    """Realms after a checked ledger action, its player as a seat (see :func:`seated`);
    Wars are scored by the caller."""
    if isinstance(action, Tally):
        realms = tuple(replace(r, lp=r.lp + lp) for r, lp in zip(realms, action.building_lp))
        return realms, [Event("tally", {"building_lp": list(action.building_lp)})]
    if isinstance(action, Wars):
        return realms, []
    seat = action.player
    realm, who = realms[seat], players[seat]
    if isinstance(action, Adjust):
        value = getattr(realm, action.what) + action.amount
        realm = replace(realm, **{action.what: max(0, value)})  # LP never below 0
        event = Event(action.what, {"player": who, "amount": action.amount,
                                    "total": getattr(realm, action.what)})
    elif isinstance(action, Deploy):
        front, back, cost = plan_deploy(realm, action.front, action.back, action.discard)
        realm = replace(realm, front=front, back=back, gold=realm.gold - cost)
        event = Event("deploy", {"player": who, "cost": cost, "gold": realm.gold})
    else:
        index = BUILDINGS.index(action.building)
        gold = realm.gold - build_cost(realm, action)
        realm = replace(realm, gold=gold, buildings=realm.buildings[:index] + (
            action.level if realm.buildings[index] == 0 else 2,) + realm.buildings[index + 1:])
        event = Event("build", {"player": who, "building": action.building,
                                "level": realm.buildings[index], "gold": gold})
    return realms[:seat] + (realm,) + realms[seat + 1:], [event]


def realm_strength(realm: Realm) -> int:
    """War strength of a tracked realm: its Front, plus Back Units that fight from there."""
    tokens = sum(1 for p in realm.front + realm.back if p.aged)
    fighters = realm.front + tuple(p for p in realm.back if UNITS[p.unit].from_back)
    return sum(unit_strength(UNITS[p.unit], aged=p.aged, realm_age_tokens=tokens)
               for p in fighters)


def resolve_strengths(entries: Sequence[int | tuple[str, ...] | None] | None,
                      realms: tuple[Realm, ...]) -> tuple[int, ...]:
    """Front strength per seat from numbers, Unit lists (printed strength) or the realms."""
    if entries is None:
        entries = (None,) * len(realms)
    out = []
    for entry, realm in zip(entries, realms):
        if entry is None:
            out.append(realm_strength(realm))
        elif isinstance(entry, tuple):
            out.append(sum(unit_strength(UNITS[u], aged=False) for u in entry))
        else:
            out.append(entry)
    return tuple(out)


def _beats(mine: int, theirs: int) -> bool:
    return mine > 0 and mine >= theirs  # ties win; a Front of 0 never wins (ruling)


def score_wars(strengths: Sequence[int]) -> WarsResult:
    """Wars won against each neighbour, 3 LP each.

    2 players: at least the opponent's strength is 1 War, at least twice it is 2 Wars.
    3 or more: each player fights the neighbour on each side (with 3, the other two).
    """
    n = len(strengths)
    if n == 2:
        a, b = strengths
        won = tuple(0 if not _beats(x, y) else 2 if x >= 2 * y else 1
                    for x, y in ((a, b), (b, a)))
    else:
        won = tuple(sum(_beats(strengths[i], strengths[j]) for j in ((i - 1) % n, (i + 1) % n))
                    for i in range(n))
    return WarsResult(tuple(strengths), won, tuple(LP_PER_WAR * w for w in won))


def age_realms(realms: tuple[Realm, ...]) -> tuple[tuple[Realm, ...], list[list[str]]]:
    """Aging: Units with an Age token die, then every Unit left gains one."""
    out, died = [], []
    for realm in realms:
        died.append([UNITS[p.unit].name for p in realm.front + realm.back if p.aged])
        out.append(replace(realm, front=tuple(Placed(p.unit, True) for p in realm.front
                                              if not p.aged),
                           back=tuple(Placed(p.unit, True) for p in realm.back if not p.aged)))
    return tuple(out), died
