"""Push buttons driving a real session: gpiozero's MockFactory pins, SQLite journal."""

from __future__ import annotations

import pytest

from companion.camera_link import CardLink, DiceLink
from companion.controls import Controls
from companion.session import Session
from hardware.buttons import DEFAULT_PINS, Buttons
from vision.results import DiceReading


@pytest.fixture
def buttons(mock_factory, clock):
    with Buttons(DEFAULT_PINS, pin_factory=mock_factory, clock=clock) as b:
        yield b


def press(factory, buttons, name, clock):
    pin = factory.pin(DEFAULT_PINS[name])
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    event = buttons.get(timeout=1)
    assert event is not None and event.name == name and event.kind == "press"
    return event


def test_bank_and_undo_buttons_play_a_turn(session, buttons, mock_factory, clock):
    controls = Controls(session)
    session.act({"type": "roll", "green": 4, "yellow": 5, "red": 1})
    event = press(mock_factory, buttons, "bank", clock)
    assert controls.handle(event.name, event.kind) == "bank: done"
    state = session.state()
    assert [p["score"] for p in state["players"]] == [4, 0] and state["current"] == 1
    event = press(mock_factory, buttons, "undo", clock)
    assert controls.handle(event.name, event.kind) == "undo: done"
    assert [p["score"] for p in session.state()["players"]] == [0, 0]


def test_a_refused_press_says_why_and_changes_nothing(session, buttons, mock_factory, clock):
    before = session.state()
    event = press(mock_factory, buttons, "bank", clock)
    assert "must roll before banking" in Controls(session).handle(event.name, event.kind)
    assert session.state() == before


def test_next_confirms_what_the_camera_offers(session, buttons, mock_factory, clock):
    link = DiceLink(session)

    class Camera:
        confirm = staticmethod(link.confirm)

    controls = Controls(session, camera=Camera())
    link.on_reading(DiceReading(green=3, yellow=5, red=2))
    assert session.state()["dice"]["offer"] == {"type": "roll", "green": 3, "yellow": 5, "red": 2}
    event = press(mock_factory, buttons, "next", clock)
    assert controls.handle(event.name, event.kind) == "next: done"
    assert session.state()["turn"]["points"] == 3
    assert session.state()["dice"]["offer"] is None


def test_an_unmapped_button_does_nothing(session):
    before = session.state()
    assert "does nothing" in Controls(session).handle("timer")
    assert session.state() == before


@pytest.mark.parametrize("game", ["sorry-21", "paper-toss"])
def test_next_confirms_the_cards_the_camera_offers(game, tmp_path, clock, open_journal):
    # the card games' camera offers plays too: the README's next button confirms them
    session = Session(open_journal(tmp_path), clock=clock)
    session.start(game, ["Ann", "Bob", "Cy"])
    assert Controls(session).meaning("next") == "confirm"


def test_next_plays_the_sorry_card_the_camera_read(tmp_path, clock, open_journal):
    session = Session(open_journal(tmp_path), clock=clock)
    session.start("sorry-21", ["Ann", "Bob"])
    link = CardLink(session)

    class Camera:
        confirm = staticmethod(link.confirm)

    link.on_cards(("number-5",))  # a 5 lands on the play pile
    assert session.state()["cards"]["offer"] == {"type": "play", "card": "number-5"}
    assert Controls(session, camera=Camera()).handle("next") == "next: done"
    assert session.state()["total"] == 5


def bounce(factory, buttons, name, clock, *, gap):
    """One press whose contacts open for ``gap`` seconds in the middle: two presses."""
    pin = factory.pin(DEFAULT_PINS[name])
    pin.drive_low()
    clock.advance(0.08)
    pin.drive_high()
    clock.advance(gap)
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()
    events = [buttons.get(timeout=1), buttons.get(timeout=1)]
    assert [(e.name, e.kind) for e in events] == [(name, "press")] * 2
    return events


def rolls(session, n):
    """``n`` rolls of one green die, the rest yellow: the turn goes on."""
    for _ in range(n):
        dice = session.state()["turn"]["dice_in_hand"]
        session.act({"type": "roll", "green": 1, "yellow": dice - 1, "red": 0})


@pytest.mark.parametrize("gap", [0.005, 0.3])  # contact bounce; a hasty double press
def test_a_bouncing_or_double_undo_press_takes_back_one_action(session, buttons,
                                                               mock_factory, clock, gap):
    controls = Controls(session)
    rolls(session, 3)
    first, second = bounce(mock_factory, buttons, "undo", clock, gap=gap)
    assert controls.handle(first.name, first.kind, at=first.at) == "undo: done"
    assert "just undone: look again" in controls.handle(second.name, second.kind, at=second.at)
    state = session.state()
    assert state["turn"]["rolls"] == 2, "one roll taken back, not two"


def test_undo_presses_a_second_apart_take_back_one_action_each(session, buttons,
                                                               mock_factory, clock):
    controls = Controls(session)
    rolls(session, 3)
    for _ in range(2):
        event = press(mock_factory, buttons, "undo", clock)
        assert controls.handle(event.name, event.kind, at=event.at) == "undo: done"
        clock.advance(1.0)
    assert session.state()["turn"]["rolls"] == 1
