"""One contract over every camera backend; backends whose library or device is missing skip."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hardware.camera import (Camera, CameraError, CameraSpec, CameraSpecError, NullCamera,
                             check_camera_spec, open_camera, parse_camera_spec)


def _replay_spec(tmp_path: Path) -> str:
    import cv2

    for i in range(3):
        assert cv2.imwrite(str(tmp_path / f"{i:04d}.png"), np.full((48, 64, 3), 60 * i, np.uint8))
    return f"replay:{tmp_path}"


def _device_spec(kind: str) -> str:
    try:
        with open_camera(kind):
            pass
    except CameraError as exc:
        pytest.skip(f"{kind}: {exc}")
    return kind


BACKENDS = {
    "none": lambda tmp_path: "none",
    "replay": _replay_spec,
    "opencv": lambda tmp_path: _device_spec("opencv:0"),
    "picamera2": lambda tmp_path: _device_spec("picamera2"),
}


@pytest.fixture(params=sorted(BACKENDS))
def spec(request, tmp_path) -> str:
    return BACKENDS[request.param](tmp_path)


def test_every_backend_keeps_the_contract(spec):
    with open_camera(spec, log=lambda line: None) as cam:
        assert isinstance(cam, Camera)
        assert isinstance(cam.name, str) and cam.name
        for _ in range(3):
            frame = cam.read()
            if frame is not None:
                assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
                assert frame.flags.c_contiguous or frame.flags.f_contiguous
    cam.close()  # a second close does nothing
    if spec != "none":
        with pytest.raises(CameraError):
            cam.read()


def test_frames_are_owned_by_the_caller(spec):
    with open_camera(spec, log=lambda line: None) as cam:
        first = cam.read()
        if first is None:
            pytest.skip(f"{spec} gives no frames")
        first[:] = 255
        second = cam.read()
        assert second is not None and not np.shares_memory(first, second)


@pytest.mark.parametrize("text, expected", [
    ("auto", CameraSpec("auto")),
    ("none", CameraSpec("none")),
    ("picamera2", CameraSpec("picamera2")),
    ("picamera2:1", CameraSpec("picamera2", index=1)),
    ("opencv:0", CameraSpec("opencv", index=0)),
    (" OpenCV:2 ", CameraSpec("opencv", index=2)),
    ("replay:recordings/dice", CameraSpec("replay", path="recordings/dice")),
    ("replay:C:/games/clip.mp4", CameraSpec("replay", path="C:/games/clip.mp4")),
])
def test_parse_camera_spec(text, expected):
    assert parse_camera_spec(text) == expected
    assert parse_camera_spec(str(expected)) == expected  # str() gives the spec back


@pytest.mark.parametrize("text, message", [
    ("", "Unknown camera ''"),
    ("webcam", "Unknown camera 'webcam'; use auto, picamera2, opencv:N, replay:PATH or none."),
    ("opencv", "needs a device number"),
    ("opencv:-1", "needs a device number"),
    ("opencv:one", "needs a device number"),
    ("replay:", "needs a folder or video"),
    ("none:1", "Unknown camera"),
])
def test_a_bad_spec_is_one_clear_sentence(text, message):
    with pytest.raises(CameraSpecError, match=message) as info:
        parse_camera_spec(text)
    assert isinstance(info.value, CameraError) and isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


def test_open_camera_refuses_a_bad_spec():
    with pytest.raises(CameraSpecError):
        open_camera("webcam:0")


def test_a_missing_replay_folder_is_a_camera_error(tmp_path):
    with pytest.raises(CameraError, match="no such folder or video"):
        open_camera(f"replay:{tmp_path / 'nowhere'}")


def test_auto_falls_back_to_none_with_one_line_per_skipped_backend(monkeypatch):
    import hardware.camera as camera

    def fail(index):
        raise CameraError("picamera2 is not installed")

    monkeypatch.setattr(camera, "_open_picamera2", fail)
    monkeypatch.setattr(Path, "exists", lambda self: False)  # no /dev/video0
    lines: list[str] = []
    cam = open_camera("auto", log=lines.append)
    assert isinstance(cam, NullCamera)
    assert lines == ["camera: skipped picamera2 (picamera2 is not installed)",
                     "camera: skipped opencv:0 (no webcam at /dev/video0)",
                     "camera: no camera found; running without one"]


def test_probe_checks_the_spec_without_opening_a_device(tmp_path, monkeypatch):
    import hardware.camera as camera

    monkeypatch.setattr(camera, "_open_auto", lambda log: pytest.fail("opened a device"))
    monkeypatch.setattr(camera, "_open_picamera2", lambda index: pytest.fail("opened"))
    for spec in ("auto", "picamera2", "opencv:3", "none", _replay_spec(tmp_path)):
        assert isinstance(open_camera(spec, probe=True), NullCamera)
    assert check_camera_spec("opencv:3") == CameraSpec("opencv", index=3)
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="no images in"):
        check_camera_spec(f"replay:{tmp_path / 'empty'}")
    with pytest.raises(CameraSpecError):
        open_camera("webcam", probe=True)


def test_null_camera():
    with NullCamera() as cam:
        assert cam.read() is None
    assert cam.closed


def test_importing_hardware_loads_no_optional_library():
    code = ("import sys, hardware, hardware.camera, hardware.capture, hardware.replay, "
            "hardware.buttons, hardware.outputs, hardware.service, hardware.picam; "
            "print(sorted(m for m in ('cv2', 'picamera2', 'gpiozero', 'companion', 'vision', "
            "'web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif(importlib.util.find_spec("cv2") is None, reason="needs OpenCV")
def test_opencv_camera_without_a_device_is_one_line(monkeypatch):
    from hardware.opencv_cam import OpenCVCamera

    monkeypatch.setattr(Path, "exists", lambda self: False)
    with pytest.raises(CameraError, match=r"^no webcam at /dev/video7$"):
        OpenCVCamera(7)


def test_auto_finding_no_camera_says_what_it_skipped_in_its_result(monkeypatch):
    # teach read the skipped backends back out of the log's wording with a regex
    import hardware.camera as camera

    def fail(index):
        raise CameraError("picamera2 is not installed (no module named picamera2)")

    monkeypatch.setattr(camera, "_open_picamera2", fail)
    monkeypatch.setattr(Path, "exists", lambda self: False)  # no /dev/video0
    cam = open_camera("auto", log=lambda line: None)
    assert isinstance(cam, NullCamera)
    assert cam.skipped == (
        ("picamera2", "picamera2 is not installed (no module named picamera2)"),
        ("opencv:0", "no webcam at /dev/video0"))
    assert cam.skipped[1].backend == "opencv:0"
    assert NullCamera().skipped == ()  # `none` skipped nothing
