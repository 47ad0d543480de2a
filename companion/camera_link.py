"""The camera's word in the game: settled readings become offered (or applied) actions.

The recognition loop hands each *settled* reading here (one per roll, or per new set of
cards). During Toss Up! (:class:`DiceLink`), a reading whose dice count equals the dice in
hand becomes an offer the host confirms with one tap or the confirm button (or, in auto
mode, a roll applied at once); a count that does not match says so ("I see 7 dice, 8
expected") and applies nothing. In a card game (:class:`CardLink`) the game's
``from_cards`` hook says which action the cards in view mean. What the camera saw rides
along in the public state under ``"dice"`` or ``"cards"`` for every phone (the camera's
own status is ``"camera"``, set by ``companion serve``).
"""

from __future__ import annotations

import threading
from typing import Any

from companion.errors import NotNow
from companion.session import Session
from vision.results import DiceReading


#: The refusal of a confirmation whose offer is not the camera's any more.
CHANGED = "The camera's reading changed: look again before you confirm."


def _same_offer(shown: Any, offer: dict[str, Any]) -> bool:
    """Whether the offer a screen showed is ``offer`` (the keys the camera set; a screen may
    add none)."""
    return isinstance(shown, dict) and shown == offer


class _Offers:
    """What the camera saw and the action it offers, published under ``key``.

    An offer is only good for the state version it was made at: if anyone acts in
    between (the host typed the roll, an undo, a new game), the offer and its sentence
    are withdrawn from the phones, and confirming it is refused.
    """

    key = ""
    nothing = "The camera has nothing to confirm."
    moved_on = "The game moved on since the camera looked; show it again."

    def __init__(self, session: Session, *, auto: bool = False) -> None:
        self.session = session
        self.auto = auto
        self._lock = threading.Lock()
        self._offer: dict[str, Any] | None = None
        self._offer_version = -1
        self._lasting = False  # the message speaks of the camera, not of the table: it stays
        self._game: str | None = None  # the game the view was published in
        self._view: dict[str, Any] = {"seen": None, "offer": None, "message": None}
        session.add_listener(self._on_change)

    def view(self) -> dict[str, Any]:
        """What the camera saw and offers, JSON-ready."""
        with self._lock:
            return dict(self._view)

    def _on_change(self, state: dict[str, Any], events: Any) -> None:
        """The session listener: a change made since the camera looked withdraws its offer
        and sentence (they spoke of the table before it), so no phone keeps showing them;
        another game drops the whole block (Toss Up!'s dice are no Paper Tales news)."""
        with self._lock:
            other_game = self._game is not None and state.get("game") != self._game
            stale = other_game or state["version"] != self._offer_version and (
                self._view["offer"] is not None
                or (self._view["message"] is not None and not self._lasting))
            if other_game:
                self._view, self._game = {"seen": None, "offer": None, "message": None}, None
            elif stale:  # kept for confirm(), which then says the game moved on
                self._view = {**self._view, "offer": None, "message": None}
        if other_game:  # no block at all: the new game's pages never read it
            self.session.set_extra(self.key, None)
        elif stale:
            self.session.set_extra(self.key, self.view())

    def _publish(self, seen: Any, offer: dict[str, Any] | None, message: str | None,
                 version: int, *, lasting: bool = False, **more: Any) -> None:
        """Show a new sighting and its offer on every phone; apply it at once in auto mode.

        ``lasting``: the message speaks of the camera (no deck taught), so the game moving
        on does not withdraw it; the view marks it ``for_host`` (phones word it for players). ``more`` adds fields of the sighting to the view (the
        cards' ``unsure``)."""
        state = self.session.state()
        if state["version"] != version and not lasting:  # acted meanwhile
            offer = message = None
        with self._lock:
            self._offer, self._offer_version, self._lasting = offer, version, lasting
            self._game = state.get("game")
            self._view = {"seen": seen, "offer": offer, "message": message, **more}
            if lasting and message is not None:  # the host's to act on (teach a deck), not the players'
                self._view["for_host"] = True
        self.session.set_extra(self.key, self.view())
        if offer is not None and self.auto:
            try:
                self.confirm()
            except NotNow:
                pass

    def confirm(self, shown: Any = None) -> dict[str, Any]:
        """Apply the offered action; the new public state.

        ``shown``, when given, is the offer the host's screen showed: the camera may have
        read the table again since without the game moving on (a die nudged), and then the
        host is told to look again, nothing is applied and the new offer stays up.

        :raises NotNow: nothing is offered, the offer is not the one ``shown``, or the game
            moved on since the offer.
        """
        with self._lock:
            offer, made_at = self._offer, self._offer_version
            if shown is not None and offer is not None and not _same_offer(shown, offer):
                raise NotNow(CHANGED)
            self._offer = None
            self._view = {**self._view, "offer": None}
        try:
            if offer is None:
                raise NotNow(self.nothing)
            if self.session.state()["version"] != made_at:
                raise NotNow(self.moved_on)
            self.session.act(offer)
        finally:
            self.session.set_extra(self.key, self.view())
        return self.session.state()


class DiceLink(_Offers):
    """Turns settled dice readings into Toss Up! roll offers for one session.

    Parameters
    ----------
    session : the table's session.
    auto : apply a matching reading at once instead of waiting for a confirmation.
    """

    key = "dice"
    nothing = "The camera has no roll to confirm."
    moved_on = "The game moved on since the camera read those dice; roll again."

    def on_reading(self, reading: DiceReading | None) -> None:
        """Take one settled reading (None: the vote was unsure) and publish what follows."""
        state = self.session.state()
        if state.get("game") != "toss-up":  # no "dice" block: only Toss Up!'s pages read it
            self.session.set_extra(self.key, None)
            return
        offer, message = _offer_for(state, reading)
        self._publish(None if reading is None else reading.to_dict(), offer, message,
                      state["version"])


def _offer_for(state: dict[str, Any], reading: DiceReading | None
               ) -> tuple[dict[str, Any] | None, str | None]:
    """(the roll to offer or None, a sentence for the players or None)."""
    if state.get("game") != "toss-up" or state.get("over"):
        return None, None
    if reading is None:
        return None, "The camera is not sure what the dice show; roll again or enter it."
    expected = state["turn"]["dice_in_hand"]
    seen = reading.green + reading.yellow + reading.red
    if seen != expected:
        return None, f"I see {seen} dice, {expected} expected."
    roll = {"type": "roll", "green": reading.green, "yellow": reading.yellow,
            "red": reading.red}
    return roll, None


class CardLink(_Offers):
    """Turns settled card sightings into offered (or applied) actions of card games.

    A game takes part by defining ``from_cards(state, seen, before) -> action | None``
    (Sorry!: a new top card on the play pile is a ``play``; Paper Toss: the Toss cards
    face up are the ``flip``). What the camera saw rides along under ``"cards"``.
    A game may also define ``cards_message(state, seen, before) -> str | None``: a
    sentence for the phones about the cards in view (Toss Your Cookies: why a shown
    hand does or does not win). Cards in view that it could not tell from a look-alike
    ride along under ``"unsure"`` as ``[best guess, runner-up or None]`` pairs.
    """

    key = "cards"
    nothing = "The camera has no card to confirm."
    moved_on = "The game moved on since the camera read those cards; show them again."

    def __init__(self, session: Session, *, auto: bool = False) -> None:
        super().__init__(session, auto=auto)
        self._before: tuple[str, ...] = ()

    def reset(self) -> None:
        """A new game: nothing was on the table before."""
        with self._lock:
            self._before, self._offer = (), None

    def on_cards(self, seen: tuple[str, ...], *, message: str | None = None,
                 unsure: tuple[tuple[str, str | None], ...] = ()) -> None:
        """Take the settled card ids on the table now and publish what follows.

        ``message``: a sentence about the camera itself ("No deck taught for this game
        yet..."), which stays until the next sighting however the game moves on.
        ``unsure``: (best guess, runner-up) of each card in view that was not named."""
        module, raw = self.session.game, self.session.raw_state
        hook = getattr(module, "from_cards", None)
        state = self.session.state()
        with self._lock:
            before, self._before = self._before, seen
        offer = hook(raw, seen, before) if hook and not state["over"] else None
        note = getattr(module, "cards_message", None)
        lasting = message is not None
        if message is None and note is not None and not state["over"]:
            message = note(raw, seen, before)
        self._publish(list(seen), offer, message, state["version"], lasting=lasting,
                      unsure=[list(pair) for pair in unsure])
