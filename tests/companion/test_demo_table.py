"""The demo's table: its recorded tables hold as many dice as the player rolls."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import load_config
from companion.demo_table import FEWER, FRAMES, DemoTable, dice_in_hand
from companion.serve import DEMO_SETTINGS, _camera, _indicators
from companion.session import Session
from hardware.replay import ReplayCamera


def _dice_shown(frame: np.ndarray) -> int:
    """How many dice the recorded table ``frame`` was rendered with (by its labels)."""
    for labels in [FRAMES / "labels.json", *FEWER.glob("*/labels.json")]:
        for name, label in json.loads(labels.read_text())["images"].items():
            if np.array_equal(cv2.imread(str(labels.parent / name)), frame):
                return label["green"] + label["yellow"] + label["red"] + label["other"]
    raise AssertionError("a frame of no recorded demo table")


def test_every_count_a_player_can_hold_has_recorded_tables() -> None:
    for count in range(1, 10):
        images = json.loads((FEWER / str(count) / "labels.json").read_text())["images"]
        assert len(images) >= 2, count  # the replay shows another roll, not one frame
        for name, label in images.items():
            assert (FEWER / str(count) / name).is_file()
            assert (label["green"] + label["yellow"] + label["red"], label["other"]) == (count, 0)


def test_the_demo_table_shows_the_dice_in_hand_roll_after_roll(session: Session) -> None:
    table = DemoTable(lambda: dice_in_hand(session.state()),
                      lambda folder: ReplayCamera(folder, fps=None))
    with table:
        assert _dice_shown(table.read()) == 10
        session.act({"type": "roll", "green": 4, "yellow": 5, "red": 1})
        assert _dice_shown(table.read()) == 6
        session.act({"type": "roll", "green": 3, "yellow": 2, "red": 1})
        assert _dice_shown(table.read()) == 3
        session.act({"type": "bank"})  # Bob rolls all ten
        assert _dice_shown(table.read()) == 10


def test_a_finished_or_other_game_shows_ten_dice() -> None:
    assert dice_in_hand({"game": "toss-up", "over": True, "turn": {"dice_in_hand": 4}}) is None
    assert dice_in_hand({"game": "paper-toss", "over": False}) is None
    assert dice_in_hand({"game": None}) is None
    assert dice_in_hand({"game": "toss-up", "over": False, "turn": {"dice_in_hand": 4}}) == 4


@pytest.mark.parametrize("demo, shown", [(True, "demo table"), (False, "replay:")])
def test_serve_demo_plays_the_demo_table(session: Session, tmp_path: Path, demo: bool,
                                         shown: str) -> None:
    # only `serve --demo` on the demo's own frames follows the game; a replay the user
    # chose plays as recorded
    config = load_config(tmp_path, env={}, base=DEMO_SETTINGS)
    capture, _ = _camera(config, session, _indicators(config, session), None,
                         decks=tmp_path / "decks", demo=demo)
    try:
        capture.step()
        assert shown in capture.status
        assert capture.latest() is not None
    finally:
        capture.stop()
