"""Toss Your Cookies: the cards and the actions the API accepts.

The rules live in :mod:`companion.games.toss_your_cookies`; this module holds what the
camera must learn (``CARDS``) and what each action looks like (``ACTIONS``: a summary,
a JSON schema of its fields and an example, for the host page and the OpenAPI
description).
"""

from __future__ import annotations

from companion.games import toss_your_cookies_rules as rules
from companion.games.base import CORRECT_DOC, PLAYER, ActionDoc
from companion.games.toss_your_cookies_rules import COOKIES

#: Card id -> display name: the 8 cookies, then the specials.
CARDS: dict[str, str] = {**COOKIES, "wild": "Wild Card", "half-eaten": "Half-Eaten Cookie",
                         "milk": "Milk"}

ACTIONS: dict[str, ActionDoc] = {
    "roll": ActionDoc(
        "Record the roller's dice (both faces); leave both out for a virtual roll.",
        {"action": {"type": "string", "enum": list(rules.ACTION_FACES)},
         "number": {"oneOf": [{"type": "integer", "enum": [1, 2, 3]},
                              {"type": "string", "enum": ["all", "milk"]}]},
         "virtual": {"type": "boolean",
                     "description": "true: the companion rolls the faces left out"}},
        {"type": "roll", "action": "toss", "number": 2}),
    "toss": ActionDoc("Start the Toss countdown now (the button; counts as the roll).",
                      {}, {"type": "toss"}),
    "next": ActionDoc("The next button: start the Toss countdown, call Toss! now, or end "
                      "the scramble, whichever comes next.", {}, {"type": "next"}),
    "toggle": ActionDoc("The timer button: pause the running timer, or resume it.",
                        {}, {"type": "toggle"}),
    "pause": ActionDoc("Pause the countdown or scramble timer.", {}, {"type": "pause"}),
    "resume": ActionDoc("Resume the paused timer.", {}, {"type": "resume"}),
    "add_time": ActionDoc("Give the running countdown or scramble more seconds.",
                          {"seconds": {"type": "number", "exclusiveMinimum": 0,
                                       "maximum": 120}},
                          {"type": "add_time", "seconds": 5}, required=("seconds",)),
    "skip": ActionDoc("End the countdown (Toss now!) or the scramble at once; with `phase`, "
                      "only that one (a tap meant for the countdown does not end the scramble).",
                      {"phase": {"type": "string", "enum": list(rules.SKIP_PHASES)}},
                      {"type": "skip", "phase": "countdown"}),
    "timeout": ActionDoc("Sent by the session when the countdown or scramble runs out.",
                         {}, {"type": "timeout"}),
    "snickerdoodle": ActionDoc(
        "A player claims the round: five of one cookie (wilds count) plus the milk. "
        "With a hand (card ids) it is checked; without, the table vouches.",
        {"player": PLAYER,
         "hand": {"type": "array", "items": {"type": "string", "enum": list(CARDS)}}},
        {"type": "snickerdoodle", "player": 0,
         "hand": ["fortune", "fortune", "fortune", "wild", "fortune", "milk", "half-eaten"]},
        required=("player",)),
    "claim": ActionDoc(
        "A player shouts Snickerdoodle! and will show the hand to the camera: the table "
        "(and any running timer) waits until the claim is settled or withdrawn.",
        {"player": PLAYER},
        {"type": "claim", "player": 2}, required=("player",)),
    "withdraw": ActionDoc("Drop the open claim (a false alarm); a timer it paused runs on.",
                          {}, {"type": "withdraw"}),
    "correct": CORRECT_DOC,
}
