"""The capture loop: steps driven by the test with a fake clock; one real thread run."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from hardware.camera import CameraError, NullCamera
from hardware.capture import CaptureThread


class ScriptedCamera:
    """A camera that plays a script: a frame value, None (no frame) or an exception."""

    def __init__(self, script, name="scripted"):
        self.script = list(script)
        self.name = name
        self.closed = 0

    def read(self):
        if self.closed:
            raise CameraError("read after close")
        step = self.script.pop(0) if self.script else None
        if isinstance(step, Exception):
            raise step
        return None if step is None else np.full((4, 4, 3), step % 256, np.uint8)

    def close(self):
        self.closed += 1


class Opener:
    """open_fn for CaptureThread: hands out the given cameras (or raises given errors) in turn."""

    def __init__(self, *results):
        self.results = list(results)
        self.opened = []

    def __call__(self):
        result = self.results.pop(0)
        if isinstance(result, Exception):
            raise result
        self.opened.append(result)
        return result


def test_frames_reach_on_frame_and_latest(clock):
    got = []
    capture = CaptureThread(Opener(ScriptedCamera([1, 2])), on_frame=got.append, clock=clock)
    assert not capture.online and capture.latest() is None
    assert capture.step() == 0.0
    assert capture.step() == 0.0
    assert [int(f[0, 0, 0]) for f in got] == [1, 2]
    assert int(capture.latest()[0, 0, 0]) == 2
    assert capture.online and capture.status == "camera online (scripted)"
    assert capture.frames == 2


def test_a_camera_that_raises_mid_stream_is_offline_then_reopened(clock):
    lines: list[str] = []
    first = ScriptedCamera([1, CameraError("cable unplugged")], name="cam1")
    second = ScriptedCamera([7], name="cam2")
    opener = Opener(first, CameraError("no camera yet"), second)
    capture = CaptureThread(opener, clock=clock, retry_seconds=2.0, log=lines.append)

    capture.step()
    assert capture.online
    assert capture.step() == 2.0  # the read raised: wait before reopening
    assert not capture.online and first.closed == 1
    assert capture.status == "camera offline: cable unplugged; retrying every 2 s"
    assert int(capture.latest()[0, 0, 0]) == 1  # the last good frame is kept

    clock.advance(1.0)
    assert capture.step() == pytest.approx(1.0)  # too early to retry: nothing opened
    assert opener.results[0].args == ("no camera yet",)
    clock.advance(1.0)
    capture.step()  # the reopen fails
    assert not capture.online and "no camera yet" in capture.status
    clock.advance(2.0)
    capture.step()  # the reopen works
    assert capture.online and capture.status == "camera online (cam2)"
    assert int(capture.latest()[0, 0, 0]) == 7
    # One log line per change of status, not per step.
    assert lines == ["camera starting (cam1)", "camera online (cam1)",
                     "camera offline: cable unplugged; retrying every 2 s",
                     "camera offline: no camera yet; retrying every 2 s",
                     "camera starting (cam2)", "camera online (cam2)"]


def test_on_status_gets_each_change_as_json_ready_dicts(clock):
    changes: list[dict] = []
    camera = ScriptedCamera([1, 2, OSError("USB device vanished")], name="usb")
    capture = CaptureThread(Opener(camera), clock=clock, on_status=changes.append,
                            log=lambda line: None)
    for _ in range(3):
        capture.step()
    assert changes == [
        {"online": False, "status": "camera starting (usb)"},
        {"online": True, "status": "camera online (usb)"},
        {"online": False, "status": "camera offline: USB device vanished; retrying every 2 s"},
    ]


def test_the_camera_is_said_online_before_its_first_frame_is_handed_out(clock):
    """Whoever gets a frame from latest() finds the status online already (the serve test
    read the preview's first picture, then a state still saying "camera starting")."""
    seen_at_status: list[tuple[bool, object]] = []
    capture = CaptureThread(Opener(ScriptedCamera([1])), clock=clock, log=lambda line: None,
                            on_status=lambda s: seen_at_status.append(
                                (s["online"], capture.latest())))
    capture.step()
    assert seen_at_status == [(False, None), (True, None)]
    assert int(capture.latest()[0, 0, 0]) == 1


def test_a_camera_that_stops_giving_frames_is_reopened(clock):
    stalled = ScriptedCamera([3])  # one frame, then None forever
    fresh = ScriptedCamera([4])
    capture = CaptureThread(Opener(stalled, fresh), clock=clock, retry_seconds=1.0,
                            stall_seconds=5.0)
    capture.step()
    clock.advance(4.0)
    assert capture.step() > 0 and capture.online  # a short gap is not a failure
    clock.advance(1.0)
    capture.step()
    assert not capture.online and stalled.closed == 1
    assert capture.status.startswith("camera offline: no frames from scripted for 5 s")
    clock.advance(1.0)
    capture.step()
    assert capture.online and int(capture.latest()[0, 0, 0]) == 4


def test_the_null_camera_is_never_online(clock):
    capture = CaptureThread(NullCamera, clock=clock, stall_seconds=1.0)
    for _ in range(3):
        capture.step()
        clock.advance(1.0)
    assert not capture.online and capture.latest() is None


def test_a_failing_frame_handler_does_not_stop_the_camera(clock):
    lines: list[str] = []

    def broken(frame):
        raise ValueError("recognizer exploded")

    capture = CaptureThread(Opener(ScriptedCamera([1, 2])), on_frame=broken, clock=clock,
                            log=lines.append)
    capture.step()
    capture.step()
    assert capture.online and capture.frames == 2
    assert lines.count("capture: frame handler failed: recognizer exploded") == 2


def test_the_thread_runs_steps_and_stops_cleanly():
    camera = ScriptedCamera(list(range(1, 1000)))
    seen = threading.Event()
    frames = []

    def on_frame(frame):
        frames.append(frame)
        if len(frames) == 3:
            seen.set()

    capture = CaptureThread(Opener(camera), on_frame=on_frame)
    with capture:
        assert seen.wait(timeout=5), "no frames from the capture thread"
        assert capture.online, capture.status
    assert capture._thread is not None and not capture._thread.is_alive()
    assert camera.closed == 1
    assert not [t for t in threading.enumerate() if t.name == "companion-capture"]


def test_stop_wakes_a_thread_waiting_to_retry():
    capture = CaptureThread(Opener(CameraError("no camera")), retry_seconds=3600)
    capture.start()
    assert capture.stop(timeout=5)


def test_stop_without_start_closes_the_camera(clock):
    camera = ScriptedCamera([1])
    capture = CaptureThread(Opener(camera), clock=clock)
    capture.step()
    assert capture.stop()
    assert camera.closed == 1
