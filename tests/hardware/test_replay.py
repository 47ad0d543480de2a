"""The replay camera: paced by a fake clock, looped, skipping unreadable images."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import CameraError
from hardware.replay import ReplayCamera


def solid(value: int, size=(24, 32)) -> np.ndarray:
    """A BGR frame filled with (value, 255 - value, 7)."""
    frame = np.empty((*size, 3), np.uint8)
    frame[:] = (value, 255 - value, 7)
    return frame


def label(frame: np.ndarray | None) -> int | None:
    """The value a `solid` frame was made with (PNG is lossless)."""
    return None if frame is None else int(frame[0, 0, 0])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three PNG frames named so that name order is 10, 20, 30, plus a text file to ignore."""
    for name, value in (("b.png", 20), ("a.png", 10), ("c.png", 30)):
        assert cv2.imwrite(str(tmp_path / name), solid(value))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_frames_are_bgr_uint8_in_name_order_and_paced(folder, clock):
    cam = ReplayCamera(folder, fps=2, clock=clock)
    frame = cam.read()
    assert frame.shape == (24, 32, 3) and frame.dtype == np.uint8
    assert tuple(frame[0, 0]) == (10, 245, 7)  # channel order kept: B, G, R
    seen = [label(frame)]
    for _ in range(3):
        clock.advance(0.25)  # half a frame: the same frame again
        seen.append(label(cam.read()))
    assert seen == [10, 10, 20, 20]


def test_loops_after_the_last_frame(folder, clock):
    cam = ReplayCamera(folder, fps=4, clock=clock)
    seen = []
    for _ in range(7):
        seen.append(label(cam.read()))
        clock.advance(0.25)
    assert seen == [10, 20, 30, 10, 20, 30, 10]


def test_a_late_reader_skips_to_the_frame_due_now(folder, clock):
    cam = ReplayCamera(folder, fps=4, clock=clock)
    cam.read()
    clock.advance(1.25)  # five frames later: index 5 -> the third image
    assert label(cam.read()) == 30


def test_without_loop_the_replay_ends_with_none(folder, clock):
    cam = ReplayCamera(folder, fps=1, clock=clock, loop=False)
    seen = []
    for _ in range(5):
        seen.append(label(cam.read()))
        clock.advance(1.0)
    assert seen == [10, 20, 30, None, None]


def test_unpaced_gives_a_new_frame_per_read(folder, clock):
    cam = ReplayCamera(folder, fps=None, clock=clock)
    assert [label(cam.read()) for _ in range(4)] == [10, 20, 30, 10]


def test_wait_sleeps_until_the_next_frame_instead_of_repeating(folder, clock):
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    cam = ReplayCamera(folder, fps=4, clock=clock, wait=True, sleep=sleep)
    assert [label(cam.read()) for _ in range(3)] == [10, 20, 30]
    assert slept == [0.25, 0.25]


def test_reads_never_sleep_unless_asked(folder, clock):
    cam = ReplayCamera(folder, fps=4, clock=clock, sleep=lambda s: pytest.fail("slept"))
    assert [label(cam.read()) for _ in range(3)] == [10, 10, 10]


def test_each_read_returns_a_frame_the_caller_owns(folder, clock):
    cam = ReplayCamera(folder, fps=4, clock=clock)
    first = cam.read()
    first[:] = 0
    assert label(cam.read()) == 10


def test_a_corrupt_image_is_skipped_with_one_log_line(folder, clock):
    (folder / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    lines: list[str] = []
    cam = ReplayCamera(folder, fps=None, clock=clock, log=lines.append)
    assert [label(cam.read()) for _ in range(5)] == [10, 30, 10, 30, 10]
    assert len(lines) == 1 and "b.png" in lines[0]


def test_a_folder_of_only_broken_images_raises_a_camera_error(tmp_path, clock):
    (tmp_path / "x.jpg").write_bytes(b"")
    cam = ReplayCamera(tmp_path, clock=clock, log=lambda line: None)
    with pytest.raises(CameraError, match="no readable images"):
        cam.read()


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing", "no such folder or video"),
    (lambda p: p, "no images in"),
])
def test_a_bad_path_is_refused_at_open(tmp_path, make, message):
    with pytest.raises(CameraError, match=message):
        ReplayCamera(make(tmp_path))


def test_a_file_that_is_neither_image_nor_video_is_refused(tmp_path):
    path = tmp_path / "game.mp4"
    path.write_bytes(b"not a video at all")
    with pytest.raises(CameraError, match="not a readable video"):
        ReplayCamera(path)


def test_a_single_image_file_replays_forever(folder, clock):
    cam = ReplayCamera(folder / "c.png", fps=None, clock=clock)
    assert [label(cam.read()) for _ in range(3)] == [30, 30, 30]


def test_close_is_idempotent_and_later_reads_raise(folder, clock):
    with ReplayCamera(folder, clock=clock) as cam:
        cam.read()
    cam.close()
    with pytest.raises(CameraError, match="closed"):
        cam.read()


def test_fps_must_be_positive(folder):
    with pytest.raises(CameraError, match="fps"):
        ReplayCamera(folder, fps=0)


@pytest.fixture
def video(tmp_path: Path) -> Path:
    """A 5-frame lossless-enough video (MJPG in AVI) whose frames are 0, 50, ..., 200."""
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 24))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for value in range(0, 250, 50):
        writer.write(solid(value))
    writer.release()
    return path


def near(frame: np.ndarray | None) -> int | None:
    """The `solid` value of a JPEG-compressed frame, rounded to the nearest 50."""
    return None if frame is None else int(round(float(frame[..., 0].mean()) / 50) * 50)


def test_a_video_plays_paced_and_loops(video, clock):
    cam = ReplayCamera(video, fps=4, clock=clock)
    seen = []
    for _ in range(12):
        seen.append(near(cam.read()))
        clock.advance(0.5)  # two frames per step: every other frame
    assert seen == [0, 100, 200, 50, 150, 0, 100, 200, 50, 150, 0, 100]
    cam.close()


def test_a_video_without_loop_ends(video, clock):
    cam = ReplayCamera(video, fps=None, clock=clock, loop=False)
    assert [near(cam.read()) for _ in range(7)] == [0, 50, 100, 150, 200, None, None]
    cam.close()
