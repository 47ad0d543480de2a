"""Errors a player can read.

One small family, each also a ``ValueError``. The web layer maps them to HTTP
statuses: :class:`InvalidAction` and :class:`IllegalAction` to 400, :class:`NotNow`
to 409. Messages are sentences said at the table: "You have 6 dice, not 7."
"""

from __future__ import annotations


class ActionError(ValueError):
    """Root of every refusal of an action or a game set-up."""

    status = 400


class InvalidAction(ActionError):
    """The action is malformed: unknown type, missing or wrong-typed field."""

    status = 400


class IllegalAction(ActionError):
    """The action is well-formed but breaks a rule of the game."""

    status = 400


class NotNow(ActionError):
    """The action is valid in this game, but not at this moment (wrong turn or phase)."""

    status = 409
