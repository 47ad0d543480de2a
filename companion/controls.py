"""Push buttons to actions: what a press or a hold means in the game being played.

Buttons have table names (``bank``, ``undo``, ``next``, ``timer``). A game module may
define ``BUTTONS`` mapping a button name (or ``"name:hold"``) to the action dict it
sends, or to ``"undo"`` / ``"confirm"`` (apply what the camera offers). Toss Up!:
``{"bank": {"type": "bank"}, "next": "confirm"}``. Undo is the same for every game. A button
cannot show a sentence, so a refused press is logged and reported back as text for
LEDs, the buzzer and the log.

Undo takes back one action per press, as the host page's Undo does: a press sends the
state ``version`` it meant to undo, and a second press within ``DOUBLE_PRESS_SECONDS`` of
the one before (contacts that bounced open mid-press past the debounce, or a hasty double
press) sends the same version as that one, so the session refuses it ("The game moved
on") and changes nothing; the host page's double tap is refused the same way.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.errors import ActionError
from companion.session import Session

log = logging.getLogger(__name__)

#: Meanings shared by every game; a game's BUTTONS come first.
COMMON: dict[str, str] = {"undo": "undo"}

#: Undo presses closer than this (seconds between their ends) are one press: the
#: double-click time desktops use by default (500 ms), well past contact bounce.
DOUBLE_PRESS_SECONDS = 0.5


class Controls:
    """Turns button events into session calls.

    ``handle("bank", "press")`` returns a short outcome sentence ("Bank: ok" or the
    refusal), so a caller can log it or drive a status LED.
    """

    def __init__(self, session: Session, *, camera: Any = None) -> None:
        self.session = session
        self.camera = camera  # has confirm(), or None without a camera
        self._undo_press: tuple[float, int] | None = None  # (at, version it meant to undo)

    def meaning(self, name: str, kind: str = "press") -> dict[str, Any] | str | None:
        """The action dict (or ``"undo"``) a button sends now, or None if it does nothing.

        A hold of a button means the same as a press unless the game maps
        ``"<name>:hold"`` to something else.
        """
        module = self.session.game
        buttons: dict[str, Any] = dict(getattr(module, "BUTTONS", {})) if module else {}
        for key in (f"{name}:{kind}", name):
            if key in buttons:
                value = buttons[key]
                return dict(value) if isinstance(value, dict) else str(value)
            if key in COMMON:
                return COMMON[key]
        return None

    def handle(self, name: str, kind: str = "press", *, at: float | None = None) -> str:
        """Apply what button ``name`` means; return what happened in one sentence.

        ``at``: when the press ended (``ButtonEvent.at``); with it, an undo press right
        after another takes nothing more back (see the module docstring).
        """
        meaning = self.meaning(name, kind)
        if meaning is None:
            return f"The {name} button does nothing in this game."
        try:
            if meaning == "undo":
                self.session.undo(self._undo_version(at))
            elif meaning == "confirm":
                if self.camera is None:
                    return "There is no camera to confirm."
                self.camera.confirm()
            elif isinstance(meaning, dict):
                self.session.act(meaning)
        except ActionError as exc:
            log.info("button %s refused: %s", name, exc)
            return str(exc)
        return f"{name}: done"

    def _undo_version(self, at: float | None) -> int | None:
        """The version an undo press ending at ``at`` means to take back (None: no check)."""
        if at is None:
            return None
        last = self._undo_press
        if last is not None and 0 <= at - last[0] < DOUBLE_PRESS_SECONDS:
            version = last[1]  # the same press: the version the first one saw
        else:
            version = int(self.session.state()["version"])
        self._undo_press = (at, version)
        return version
