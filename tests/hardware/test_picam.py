"""The picamera2 backend against a stand-in ``picamera2`` module that records every call."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from hardware.camera import CameraError, open_camera
from hardware.picam import Picamera2Camera, yuv420_to_bgr

METADATA = {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4),
            "Lux": 300.0}


class FakePicamera2:
    """Just enough of picamera2.Picamera2 to record what the backend asks of it."""

    cameras = [{"Model": "imx708", "Num": 0}]
    has_autofocus = True
    instances: list["FakePicamera2"] = []

    @staticmethod
    def global_camera_info():
        return FakePicamera2.cameras

    def __init__(self, camera_num=0):
        self.calls: list[tuple] = [("open", camera_num)]
        self.camera_controls = {"ExposureTime": (1, 10**6, None), "AeEnable": (False, True, True)}
        if self.has_autofocus:
            self.camera_controls["AfMode"] = (0, 2, 0)
        self.started = False
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main={}, lores=None, **kwargs):
        self.calls.append(("create_video_configuration", main, lores, kwargs))
        return {"use_case": "video", "main": dict(main), "lores": dict(lores or {})}

    def configure(self, config):
        self.calls.append(("configure", config))
        self.config = config

    def start(self):
        self.calls.append(("start",))
        self.started = True

    def autofocus_cycle(self):
        assert self.started, "autofocus needs a started camera"
        self.calls.append(("autofocus_cycle",))
        return True

    def capture_metadata(self):
        assert self.started
        self.calls.append(("capture_metadata",))
        return dict(METADATA)

    def set_controls(self, controls):
        self.calls.append(("set_controls", dict(controls)))

    def capture_array(self, name="main"):
        assert self.started
        w, h = self.config[name]["size"]
        if name == "main":  # RGB888 is B, G, R in memory; picamera2 returns 4-byte XBGR for some
            frame = np.zeros((h, w, 3), np.uint8)
            frame[..., 0] = 200  # blue
            return frame
        return np.full((h * 3 // 2, w), 128, np.uint8)  # mid-grey YUV420

    def stop(self):
        self.calls.append(("stop",))
        self.started = False

    def close(self):
        self.calls.append(("close",))


@pytest.fixture
def picamera2(monkeypatch):
    """Install the stand-in as ``picamera2`` in sys.modules for one test."""
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(FakePicamera2, "instances", [])
    return module


def names(cam: FakePicamera2) -> list[str]:
    return [call[0] for call in cam.calls]


def test_configuration_has_bgr_main_and_small_lores_streams(picamera2):
    with Picamera2Camera(main_size=(640, 480), preview_size=(320, 240)):
        pass
    (fake,) = FakePicamera2.instances
    _, main, lores, kwargs = next(c for c in fake.calls if c[0] == "create_video_configuration")
    assert main == {"size": (640, 480), "format": "RGB888"}
    assert lores == {"size": (320, 240), "format": "YUV420"}
    assert ("configure", fake.config) in fake.calls


def test_focus_once_settle_then_lock_exposure_gain_and_white_balance(picamera2):
    cam = Picamera2Camera(settle_frames=5)
    (fake,) = FakePicamera2.instances
    assert names(fake) == ["open", "create_video_configuration", "configure", "start",
                           "autofocus_cycle", *["capture_metadata"] * 5, "set_controls"]
    locked = fake.calls[-1][1]
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                      "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4)}
    assert cam.locked_controls == locked and cam.focused is True
    cam.close()


def test_no_autofocus_pass_without_af_and_no_lock_when_disabled(picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "has_autofocus", False)
    cam = Picamera2Camera(settle_frames=2, lock=False)
    (fake,) = FakePicamera2.instances
    assert "autofocus_cycle" not in names(fake) and "set_controls" not in names(fake)
    assert cam.focused is None
    cam.close()


def test_read_returns_bgr_frames_and_preview_is_small_bgr(picamera2):
    with Picamera2Camera(main_size=(64, 48), preview_size=(32, 24), settle_frames=1) as cam:
        frame = cam.read()
        assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
        assert tuple(frame[0, 0]) == (200, 0, 0)  # blue stays in channel 0: BGR, untouched
        preview = cam.read_preview()
        assert preview.shape == (24, 32, 3)
        assert np.all(np.abs(preview.astype(int) - 128) <= 1)  # grey stays grey


def test_close_stops_and_closes_once(picamera2):
    cam = Picamera2Camera(settle_frames=1)
    cam.close()
    cam.close()
    (fake,) = FakePicamera2.instances
    assert names(fake)[-2:] == ["stop", "close"] and names(fake).count("close") == 1
    with pytest.raises(CameraError, match="closed"):
        cam.read()


def test_no_camera_connected_is_a_camera_error(picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "cameras", [])
    with pytest.raises(CameraError, match="no Raspberry Pi camera connected"):
        Picamera2Camera()
    assert FakePicamera2.instances == []


def test_a_start_failure_is_a_camera_error_and_releases_the_camera(picamera2, monkeypatch):
    def broken_start(self):
        raise RuntimeError("Failed to start camera: Device or resource busy\ndetails")

    monkeypatch.setattr(FakePicamera2, "start", broken_start)
    with pytest.raises(CameraError, match=r"failed to start \(Failed to start camera: Device"):
        Picamera2Camera()
    assert names(FakePicamera2.instances[0])[-1] == "close"


def test_a_capture_failure_is_a_camera_error(picamera2, monkeypatch):
    cam = Picamera2Camera(settle_frames=1)
    monkeypatch.setattr(FakePicamera2, "capture_array",
                        lambda self, name="main": (_ for _ in ()).throw(OSError("timeout")))
    with pytest.raises(CameraError, match="stopped"):
        cam.read()
    cam.close()


def test_missing_picamera2_is_a_camera_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import raises ModuleNotFoundError
    with pytest.raises(CameraError, match="not installed"):
        Picamera2Camera()


def test_a_numpy_abi_clash_is_explained(monkeypatch):
    class Broken(types.ModuleType):
        def __getattr__(self, name):
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setitem(sys.modules, "picamera2", Broken("picamera2"))
    with pytest.raises(CameraError, match="numpy.dtype size changed.*install-pi.sh"):
        Picamera2Camera()


def test_auto_picks_picamera2_when_it_works(picamera2):
    lines: list[str] = []
    cam = open_camera("auto", log=lines.append)
    assert isinstance(cam, Picamera2Camera) and lines == []
    cam.close()


def test_yuv420_to_bgr_colours():
    # One 2x2 block per colour: Y, U, V for pure red (BT.601 full range) is ~(76, 85, 255).
    h, w = 2, 4
    yuv = np.zeros((h * 3 // 2, w), np.uint8)
    yuv[:h, :2], yuv[:h, 2:] = 76, 128
    u_plane = np.array([85, 128], np.uint8)
    v_plane = np.array([255, 128], np.uint8)
    yuv[h:].reshape(-1)[:2], yuv[h:].reshape(-1)[2:4] = u_plane, v_plane
    bgr = yuv420_to_bgr(yuv, h, w)
    assert np.all(np.abs(bgr[:, :2].astype(int) - (0, 0, 254)) <= 2)  # red, in BGR order
    assert np.all(np.abs(bgr[:, 2:].astype(int) - 128) <= 1)  # grey
