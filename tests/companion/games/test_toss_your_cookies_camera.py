"""A Snickerdoodle hand held up to the camera: through CardLink, a real Session and the
recognizer on rendered frames."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.camera_link import CardLink, DiceLink
from companion.errors import NotNow
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from tests.support.table import Table, watch

SUITE = Path(__file__).resolve().parents[2] / "data" / "cards-scenes"
#: The rendered suite's synthetic faces stand in for Toss Your Cookies cards.
STAND_INS = {"hero-fox": "chocolate-chip", "rune-square": "wild", "act-bank": "milk",
             "num-3": "fortune"}
CC4_WILD = ("chocolate-chip",) * 4 + ("wild",)


@pytest.fixture
def session(tmp_path, clock):
    s = Session(Journal(tmp_path / "data"), clock=clock)
    s.start("toss-your-cookies", ["Ann", "Bob", "Cy", "Di"])
    yield s
    s.journal.close()


def scramble(session, clock) -> None:
    """Roll a Toss and let the countdown run out: the scramble is on."""
    session.act({"type": "roll", "action": "toss", "number": 2})
    clock.advance(5)
    assert session.tick()["phase"] == "scramble"


def test_a_claimed_winning_hand_is_offered_then_confirmed(session, clock):
    scramble(session, clock)
    link = CardLink(session)
    link.on_cards(CC4_WILD + ("milk",))
    cards = session.state()["cards"]
    assert cards["offer"] is None and cards["message"].endswith("for whoever holds it.")
    session.act({"type": "claim", "player": 2})  # the host taps Cy's "Snickerdoodle!"
    assert session.state()["timer"]["running"] is False
    link.on_cards(("milk",) + CC4_WILD + ("half-eaten",))
    cards = session.state()["cards"]
    assert cards["offer"] == {"type": "snickerdoodle", "player": 2,
                              "hand": ["chocolate-chip"] * 4 + ["half-eaten", "milk", "wild"]}
    assert cards["message"].startswith("Cy shows: 4 Chocolate Chip, a Wild and the milk")
    state = link.confirm()
    assert [p["score"] for p in state["players"]] == [0, 0, 1, 0] and state["round"] == 2
    assert state["last_claim"]["checked"] and state["claim"] is None
    with pytest.raises(NotNow):
        link.confirm()


def test_a_hand_without_milk_says_why_and_offers_nothing(session):
    session.act({"type": "claim", "player": 1})
    version = session.state()["version"]
    link = CardLink(session)
    link.on_cards(CC4_WILD + ("fortune",))
    state = session.state()
    assert state["cards"]["offer"] is None and state["version"] == version
    assert state["cards"]["message"] == (
        "Bob shows: 4 Chocolate Chip and a Wild: that is five, but no milk.")
    with pytest.raises(NotNow, match="no card to confirm"):
        link.confirm()
    assert session.state()["claim"]["name"] == "Bob", "the claim stays open to show again"


# -- the recognizer on rendered frames ------------------------------------------------------

@pytest.fixture
def decks(tmp_path):
    """A taught Toss Your Cookies deck: stand-in faces saved under the game's card ids."""
    folder = tmp_path / "decks" / "toss-your-cookies"
    folder.mkdir(parents=True)
    for face, card in STAND_INS.items():
        shutil.copy(SUITE / "deck" / f"{face}.png", folder / f"{card}.png")
    return tmp_path / "decks"


def hand_frame(faces: tuple[str, ...], seed: int) -> np.ndarray:
    """A rendered photo of these stand-in faces lying apart on felt (BGR, 960x720)."""
    from scenes.cards import Plan, render

    images = {f: cv2.imread(str(SUITE / "deck" / f"{f}.png")) for f in set(faces)}
    plan = Plan(condition="plain", size=(960, 720), surface="felt", tilt=5.0, distance=300.0,
                ids=faces, n_back=0, n_outside=0, overlap=False, level=1.0, glare=0.0,
                blur=0.0, noise=2.0, quality=90)
    data, _ = render(plan, np.random.default_rng(seed), images)
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


NO_MILK = ("hero-fox",) * 4 + ("rune-square",)  # 4 Chocolate Chip and a Wild
WINNING = NO_MILK + ("act-bank",)  # ... and the milk


@pytest.mark.parametrize("faces, seed, seen, offered", [
    (NO_MILK, 1, ["chocolate-chip"] * 4 + ["wild"], False),
    (WINNING, 2, ["chocolate-chip"] * 4 + ["milk", "wild"], True),
])
def test_the_recognizer_reads_the_hand_laid_down_and_checks_it(session, decks, clock, faces,
                                                               seed, seen, offered):
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session),
                            card_link=CardLink(session), decks=decks, clock=clock)
    session.act({"type": "claim", "player": 3})
    table.frame = hand_frame(faces, seed)
    watch(recognizer, clock)
    cards = session.state()["cards"]
    assert cards["seen"] == seen
    if not offered:
        assert cards["offer"] is None
        assert cards["message"] == ("Di shows: 4 Chocolate Chip and a Wild: that is five, "
                                    "but no milk.")
        return
    assert cards["offer"] == {"type": "snickerdoodle", "player": 3, "hand": seen}
    state = recognizer.confirm()
    assert state["players"][3]["score"] == 1 and state["last_claim"]["name"] == "Di"
