"""A session: the table's one running game, its journal, undo, timers and change feed.

The state is ``apply`` folded over the journal from ``new_game``; undo marks the last
action undone and replays. Every change is committed to the journal before the new
state is returned, and wakes everyone waiting in :meth:`Session.wait_any` (the SSE
streams).
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from types import ModuleType
from typing import Any, Callable, Mapping

from companion.errors import ActionError, InvalidAction, NotNow
from companion.games import find_game, table_actions
from companion.games.base import Event, check_fields
from companion.journal import Journal

RECENT = 12  # actions listed in the state for the undo list
KEPT_STATES = 32  # public states kept for streams that fell behind (a few seconds' worth)


class Session:
    """Runs games over a :class:`Journal`; thread-safe (one lock around every change).

    Parameters
    ----------
    journal : the durable store; the session resumes its latest game.
    clock : wall-clock seconds since the epoch (stamped on actions as ``"at"``).
    rng : randomness for games that roll virtual dice (stored in the action).
    """

    def __init__(self, journal: Journal, *, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None) -> None:
        self.journal = journal
        self.clock = clock
        self.rng = rng or random.Random()
        self._lock = threading.Condition(threading.RLock())
        self._listeners: list[Callable[[dict[str, Any], list[Event]], None]] = []
        self._extras: dict[str, Any] = {}
        self._extras_seq = 0
        self._public: dict[str, Any] = {}
        self._kept: deque[dict[str, Any]] = deque(maxlen=KEPT_STATES)
        self._load()
        if journal.moved_aside is not None:  # the host is told, not only the log
            self.set_extra("journal", _damage_notice(journal))

    # -- reading ---------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The whole public state of the table, ``version`` included."""
        with self._lock:
            return self._public

    def states_after(self, version: int) -> list[dict[str, Any]]:
        """Every public state after ``version``, oldest first, so a stream that fell behind
        sends each change (with its own cues) in order; only the latest if it is too far
        behind for the states kept. The last one is always the current state."""
        with self._lock:
            current = self._public
            if current["version"] <= version:
                return []
            missed = [s for s in self._kept if version < s["version"] < current["version"]]
            if not missed or missed[0]["version"] != version + 1:
                return [current]
            return [*missed, current]

    @property
    def game(self) -> ModuleType | None:
        """The rules module of the current game, or None before the first game."""
        return self._module

    @property
    def raw_state(self) -> Any:
        """The current game's State value (for links that need more than the public view)."""
        return self._state

    def add_listener(self, listener: Callable[[dict[str, Any], list[Event]], None]) -> None:
        """Call ``listener(state, events)`` after every change (LEDs, buzzer); never raises."""
        self._listeners.append(listener)

    # -- changes ---------------------------------------------------------------------

    def start(self, game_id: Any, players: Any, options: Any = None) -> dict[str, Any]:
        """Start a new game (the previous one stays in the history).

        :raises ActionError: unknown game, bad players or options.
        """
        module = find_game(game_id)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidAction("Options must be a JSON object.")
        if hasattr(module, "RULES"):  # stamped, so a later replay keeps this game's rules
            options = {**options, "rules": module.RULES}
        state = module.new_game(players, options)
        names = [p["name"] for p in module.public_state(state)["players"]]
        with self._lock:
            game_id_db = self.journal.start_game(module.ID, names, options, self.clock())
            self._record = self.journal.current_game()
            self._held = None
            self._set(module, game_id_db, state, [], [], [Event("new-game", {"game": module.ID})])
            return self._public

    def act(self, data: Any) -> dict[str, Any]:
        """Check, journal and apply one action dict; return the new public state.

        An optional ``"version"`` in ``data`` is the state version the sender saw: when the
        game has moved on since, the action is refused (see :func:`check_version`).

        :raises ActionError: malformed (400), against the rules (400) or not now (409);
            nothing changes then.
        """
        if not isinstance(data, Mapping):
            raise InvalidAction("An action must be a JSON object.")
        with self._lock:
            module, state = self._require_game()
            check_version(data.get("version"), self._public["version"])
            check_fields(data, table_actions.actions(module))
            data = {k: v for k, v in data.items() if k not in ("at", "version")}
            prepare = getattr(module, "prepare", None)
            if prepare is not None:
                data = prepare(state, data, self.rng)
            data["at"] = self.clock()
            return self._commit(module, state, data)

    def undo(self, version: Any = None) -> dict[str, Any]:
        """Undo the last action of the current game.

        ``version``, when given, is the state version the sender saw: two hosts tapping
        Undo for one mistake take back one action, not two.

        :raises NotNow: nothing to undo, or the game moved on since ``version``.
        :raises InvalidAction: ``version`` is not a whole number.
        """
        with self._lock:
            module, _ = self._require_game()
            check_version(version, self._public["version"])
            if not self._action_ids:
                raise NotNow("There is nothing to undo.")
            game_id_db = self._game_id
            state, ids, recent, _ = self._replay_game(module, self._record, skip_last=True)
            now = self.clock()
            due = _deadline(module, state)
            held = due if due is not None and due <= now else None
            self.journal.undo(self._action_ids[-1], game_id_db, now,
                              winners=_result(module, state), held=held)
            self._held = held
            state = _hold(module, state, held)
            self._set(module, game_id_db, state, ids, recent, [Event("undo")])
            return self._public

    def tick(self) -> dict[str, Any] | None:
        """Apply a ``timeout`` action if the current game's deadline has passed.

        Returns the new state, or None when nothing was due (or the game refused the
        timeout). Call it until it returns None: after a restart several deadlines may
        have passed, each next timer starting at the previous deadline. The one deadline
        that had already passed when the host last undid is left alone: that undo took
        back the timer's end (or came after it), so the table moves on by hand (next, skip
        or more time) instead of the timeout coming straight back. Any other deadline runs
        out as usual, even if the clock went back since (a Pi has no battery clock).
        """
        with self._lock:
            if self._module is None or self._state is None:
                return None
            due = _deadline(self._module, self._state)
            if due is None or self.clock() < due or due == self._held:
                return None
            try:
                return self._commit(self._module, self._state, {"type": "timeout", "at": due})
            except ActionError:
                return None

    def set_extra(self, key: str, value: Any) -> None:
        """Attach live information that is not journaled (camera status, what it saw).

        Extras appear in the public state under ``key`` but do not change ``version``
        (a restart forgets them); :meth:`wait_any` wakes on every change of them. A value
        of None removes ``key`` from the state.
        """
        with self._lock:
            if self._extras.get(key) == value:
                return
            if value is None:
                del self._extras[key]
                self._public = {k: v for k, v in self._public.items() if k != key}
            else:
                self._extras[key] = value
                self._public = {**self._public, key: value}
            self._extras_seq += 1
            self._lock.notify_all()

    def extras(self) -> tuple[int, dict[str, Any]]:
        """(sequence number, the live extras); the number grows with every change."""
        with self._lock:
            return self._extras_seq, dict(self._extras)

    def wait_any(self, version: int, extras_seq: int, timeout: float
                 ) -> tuple[dict[str, Any], int]:
        """Block until the version passes ``version`` or the extras pass ``extras_seq``.

        Returns (the public state, the extras sequence number) either way; compare them
        with what you had to see which changed (nothing, on a timeout).
        """
        with self._lock:
            self._lock.wait_for(lambda: self._public["version"] > version
                                or self._extras_seq > extras_seq, timeout)
            return self._public, self._extras_seq

    # -- internals -------------------------------------------------------------------

    def _require_game(self) -> tuple[ModuleType, Any]:
        if self._module is None or self._state is None:
            raise NotNow("No game is running; start one first.")
        return self._module, self._state

    def _commit(self, module: ModuleType, state: Any, data: dict[str, Any]) -> dict[str, Any]:
        action = table_actions.parse(module, data)
        table_actions.check(module, state, action)
        new_state, events = table_actions.apply(module, state, action)
        action_id = self.journal.append(self._game_id, data, data["at"],
                                        winners=_result(module, new_state))
        self._set(module, self._game_id, new_state, [*self._action_ids, action_id],
                  [*self._recent, _noted(module, state, data)][-RECENT:], events)
        return self._public

    def _load(self) -> None:
        self._module: ModuleType | None = None
        self._state: Any = None
        self._game_id = 0
        self._action_ids: list[int] = []
        self._recent: list[dict[str, Any]] = []
        self._held: float | None = None  # the deadline the latest undo held back (see tick)
        self._record = self.journal.current_game()
        if self._record is not None:
            module = find_game(self._record.game)
            state, ids, recent, _ = self._replay_game(module, self._record)
            self._module, self._state, self._game_id = module, state, self._record.id
            self._action_ids, self._recent = ids, recent
            self._held = self.journal.held(self._record.id)
            if self._held is None and self.journal.upgraded:
                self._held = self._held_before_upgrade(module, state)
            self._state = _hold(module, state, self._held)
        # Events are the cues of the change that made this version; a restart is not a
        # change, so phones that reconnect play no sound.
        self._public = self._build_public([])

    def _held_before_upgrade(self, module: ModuleType, state: Any) -> float | None:
        """A journal written before ``games.held``: the deadline its latest undo held back
        as that code judged it (the timer's end, if it had passed by the undo), kept in the
        journal so later restarts hold it too."""
        due, last = _deadline(module, state), self.journal.last_undo(self._game_id)
        if due is None or last is None or due > last:
            return None
        self.journal.keep_held(self._game_id, due)
        return due

    def _replay_game(self, module: ModuleType, record: Any, *, skip_last: bool = False
                     ) -> tuple[Any, list[int], list[dict[str, Any]], list[Event]]:
        """Fold ``apply`` over the journal: (state, action ids, recent actions, last events)."""
        state = module.new_game(record.players, record.options)
        entries = list(self.journal.actions(record.id))
        if skip_last:
            entries = entries[:-1]
        events: list[Event] = []
        recent: list[dict[str, Any]] = []
        listed_from = len(entries) - RECENT
        for n, (_, data) in enumerate(entries):
            if n >= listed_from:
                recent.append(_noted(module, state, data))
            state, events = table_actions.apply(module, state, table_actions.parse(module, data))
        return state, [i for i, _ in entries], recent, events

    def _set(self, module: ModuleType, game_id: int, state: Any, ids: list[int],
             recent: list[dict[str, Any]], events: list[Event]) -> None:
        self._module, self._game_id, self._state = module, game_id, state
        self._action_ids, self._recent = ids, recent
        self._public = self._build_public(events)
        self._kept.append(self._public)
        self._lock.notify_all()
        for listener in self._listeners:
            try:
                listener(self._public, events)
            except Exception:  # a broken LED must never refuse an action
                pass

    def _build_public(self, events: list[Event]) -> dict[str, Any]:
        if self._module is None:
            base: dict[str, Any] = {"game": None, "players": [], "current": None,
                                    "over": False, "winners": []}
        else:
            base = self._module.public_state(self._state)
            base["name"] = self._module.NAME
        base["version"] = self.journal.version()
        base["events"] = [{"kind": e.kind, **dict(e.data)} for e in events]
        base["recent"] = [dict(d) for d in self._recent]
        return {**base, **self._extras}


def check_version(seen: Any, current: int) -> None:
    """Refuse a request made for state ``seen`` when the table is at ``current``.

    ``seen`` None means the sender did not say (older clients, scripts): no check. A
    double tap or a second host acting on the same screen sends the same version twice;
    the second finds the game moved on and changes nothing.

    :raises InvalidAction: ``seen`` is not a whole number.
    :raises NotNow: ``seen`` is not the current version.
    """
    if seen is None:
        return
    if isinstance(seen, bool) or not isinstance(seen, int):
        raise InvalidAction("'version' must be the whole number of the state you saw.")
    if seen != current:
        raise NotNow(f"The game moved on: your screen showed version {seen}, the table is "
                     f"at {current}. Look at it again before you tap.")


def _turn(module: ModuleType, state: Any) -> int | None:
    """The seat whose turn it is in ``state`` (None between turns or in games without turns)."""
    current = module.public_state(state).get("current")
    return current if isinstance(current, int) else None


def _hold(module: ModuleType, state: Any, held: float | None) -> Any:
    """``state`` as the table sees it when its timer's end was ``held`` back by an undo.

    The replayed state still has that timer running, with a deadline in the past (the
    timeout that ended it was undone). A game with ``hold(state, at)`` shows it run out
    instead (Paper Tales: stopped at 0, time's up), so phones do not show a clock
    "running" at 0 and the host a Pause button. Only while the deadline is still the held
    one: once the host adds time or moves on, the state is the game's own again. The game
    promises that every action it accepts on the held state gives what the same action
    gives on the replayed one, so the journal (which holds no hold) replays the same.
    """
    hold = getattr(module, "hold", None)
    if hold is None or held is None or _deadline(module, state) != held:
        return state
    return hold(state, held)


def _deadline(module: ModuleType, state: Any) -> float | None:
    """When the timer running in ``state`` ends (epoch seconds), or None if none runs."""
    deadline_fn = getattr(module, "deadline", None)
    return deadline_fn(state) if deadline_fn else None


def _noted(module: ModuleType, state: Any, data: dict[str, Any]) -> dict[str, Any]:
    """An action as the recent list shows it, taken in ``state``: with ``turn``, the seat
    whose turn it was, and what ``table_actions.note`` adds (a rename's old name; the
    game's optional ``note(state, data)``, Toss Up!: the points a bank banked, so the host
    reads "Dan banks 12 points")."""
    turn = _turn(module, state)
    extra = table_actions.note(module, state, data)
    return {**data, **extra, **({} if turn is None else {"turn": turn})}


def _result(module: ModuleType, state: Any) -> list[str] | None:
    """The winners to journal with a change: a list once the game is over, else None."""
    public = module.public_state(state)
    return list(public["winners"]) if public["over"] else None


__all__ = ["ActionError", "Session"]


def _damage_notice(journal: Journal) -> dict[str, Any]:
    """The live ``journal`` field after a damaged journal was moved aside on start."""
    found = journal.salvaged
    damaged = journal.moved_aside.name if journal.moved_aside else ""
    message = found.sentence() if found else (
        f"The journal was damaged and nothing could be recovered; the damaged file is kept "
        f"as {damaged}.")
    return {"damaged": damaged, "games": found.games if found else 0,
            "actions": found.actions if found else 0, "message": message}
