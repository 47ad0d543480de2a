"""The host page's "Calibrate from the camera": the live frame teaches the running reader."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.camera_link import DiceLink
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from tests.vision.dice_support import BLUE, scene
from web import create_app

PIN = "2468"
HOST = {"Authorization": f"Bearer {PIN}"}


class Frames:
    """The camera's latest frame, which the test sets."""

    frame: np.ndarray | None = None

    def __call__(self) -> np.ndarray | None:
        return self.frame


@pytest.fixture
def rig(tmp_path: Path) -> Any:
    """(client, recognizer, frames, data folder) of a Toss Up! table."""
    frames, data = Frames(), tmp_path / "data"
    session = Session(Journal(data))
    session.start("toss-up", ["Ann", "Ben"])
    recognizer = Recognizer(frames, session, link=DiceLink(session))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "PIN": PIN},
                     session=session, camera=recognizer)
    yield app.test_client(), recognizer, frames, data
    session.journal.close()


def test_the_button_learns_from_the_live_frame_stores_and_uses_it(rig: Any) -> None:
    client, recognizer, frames, data = rig
    frames.frame = scene(["green", "yellow", "red", "green", "yellow"], side=32)
    recognizer.step()
    assert recognizer.calibration is None
    reply = client.post("/api/camera/calibrate", headers=HOST)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["message"].startswith("Learnt 5 dice, ")
    assert recognizer.calibration is not None and recognizer.calibration.dice_seen == 5
    stored = tomllib.loads((data / "companion.toml").read_text())
    assert stored["camera"]["calibration"] == recognizer.calibration.to_dict()
    assert b"Calibrate from the camera" in client.get("/host", headers=HOST).data


def test_a_frame_that_cannot_teach_is_a_sentence_not_a_500(rig: Any) -> None:
    client, recognizer, frames, data = rig
    assert client.post("/api/camera/calibrate", headers=HOST).status_code == 409  # no picture
    frames.frame = scene([BLUE, BLUE, "green"], side=32)
    recognizer.step()
    reply = client.post("/api/camera/calibrate", headers=HOST)
    assert reply.status_code == 400 and "Toss Up!" in reply.get_json()["error"]
    assert recognizer.calibration is None and not (data / "companion.toml").exists()
    assert client.post("/api/camera/calibrate").status_code == 401  # host only


def test_without_a_camera_there_is_nothing_to_calibrate(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "PIN": PIN})
    reply = app.test_client().post("/api/camera/calibrate", headers=HOST)
    assert reply.status_code == 404 and "without a camera" in reply.get_json()["error"]
