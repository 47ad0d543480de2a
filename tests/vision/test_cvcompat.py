"""vision.cvcompat and the camera backend work on the OpenCV installed (4.6 on a Pi, 5.x here)."""

from __future__ import annotations

from hardware import opencv_cam
from vision.cvcompat import LOG_ERROR, LOG_SILENT, set_log_level


def test_set_log_level_returns_the_previous_level_and_sets_the_new_one():
    before = set_log_level(LOG_SILENT)
    try:
        assert set_log_level(LOG_ERROR) == LOG_SILENT
        assert set_log_level(LOG_ERROR) == LOG_ERROR
    finally:
        set_log_level(before)


def test_the_camera_backend_sets_and_restores_the_same_level():
    before = set_log_level(LOG_ERROR)
    try:
        assert opencv_cam._quietly(lambda: set_log_level(LOG_SILENT)) == LOG_SILENT
        assert set_log_level(LOG_ERROR) == LOG_ERROR  # _quietly put back the level it found
    finally:
        set_log_level(before)
