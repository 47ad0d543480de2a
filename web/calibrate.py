"""The host page's "Calibrate from the camera" button: learn this table's dice from the
live frame.

``POST /api/camera/calibrate`` (host only) takes the camera's latest frame, learns the dice
in it (``companion.calibration.learn``: the same check and the same sentence as
``companion calibrate IMAGE``), stores the calibration in the data folder's companion.toml
and hands it to the running reader at once. Answers ``{"message": "Learnt 12 dice, ..."}``;
a frame that cannot teach (too few dice, not Toss Up! dice) is a 400 with the sentence
saying what to do, no camera a 404, no picture yet a 409.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, current_app
from werkzeug.exceptions import NotFound

from companion.calibration import learn, save_calibration
from companion.config import ConfigError
from companion.errors import InvalidAction, NotNow
from web.app import get_companion
from web.auth import host_required

bp = Blueprint("calibrate", __name__, url_prefix="/api/camera")


@bp.post("/calibrate")
@host_required
def calibrate_from_camera() -> Any:
    """Learn the dice in the latest frame, store and use the calibration; what was learnt."""
    camera = get_companion(current_app).camera
    if camera is None:
        raise NotFound("This companion runs without a camera, so it cannot calibrate.")
    frame, _ = camera.snapshot()
    if frame is None:
        raise NotNow("The camera has not delivered a picture yet; try again in a moment.")
    try:
        calibration, sentence = learn(frame)
    except ValueError as exc:
        raise InvalidAction(" ".join(str(exc).split())) from None
    try:
        save_calibration(Path(current_app.config["DATA_DIR"]), calibration.to_dict())
    except (ConfigError, OSError) as exc:
        raise InvalidAction(f"Learnt the dice but could not store them: {exc}") from None
    camera.calibration = calibration
    return {"message": f"{sentence} Stored; the camera reads with it from now on."}
