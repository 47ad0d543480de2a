"""The host's live preview: a real Recognizer on a ReplayCamera over frames drawn here."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cv2
from companion.camera_link import DiceLink
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from hardware.replay import ReplayCamera
from tests.support.clock import FakeClock
from tests.vision.dice_support import scene
from vision.overlay import DIE_BGR, resize_to_width
from web import create_app
from web.preview import BOUNDARY, REPEAT_SECONDS, PreviewCache, _stream

PIN = "2468"
HOST = {"Authorization": f"Bearer {PIN}"}
TABLES = [["green", "green", "yellow", "red"], ["red", "yellow", "yellow", "green", "red"]]


@pytest.fixture
def rig(tmp_path: Path) -> Any:
    """(client, recognizer, session, frames): a Toss Up! table seen through a replay camera."""
    folder = tmp_path / "frames"
    folder.mkdir()
    frames = []
    for i, colours in enumerate(TABLES):
        frame = scene(colours, seed=i)
        cv2.imwrite(str(folder / f"{i:04d}.png"), frame)
        frames.append(frame)
    camera = ReplayCamera(folder, fps=None)  # a new frame per read, no pacing
    session = Session(Journal(tmp_path / "data"))
    session.start("toss-up", ["Ann", "Ben"])
    recognizer = Recognizer(held(camera.read), session, link=DiceLink(session))
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PIN": PIN,
                      "PREVIEW_FPS": "1000"},  # as the environment gives it: text
                     session=session, camera=recognizer)
    yield app.test_client(), recognizer, session, frames
    camera.close()
    session.journal.close()


def held(read: Any) -> Any:
    """`read`, each frame handed over for two looks: the recognizer reads the dice of a
    table it sees still, not of one that just came into view (moving)."""
    looks: list[Any] = []

    def latest() -> Any:
        if len(looks) % 2 == 0:
            looks.append(read())
        else:
            looks.append(looks[-1])
        return looks[-1]

    return latest


def look(recognizer: Recognizer) -> None:
    """Let the recognizer see the next table come into view, then still."""
    recognizer.step()
    assert recognizer.snapshot()[1] is None, "no reading drawn on a picture that moved"
    recognizer.step()


def decode(data: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None, "not a JPEG"
    return image


def near(image: np.ndarray, colour: tuple[int, int, int], box: tuple[int, int, int, int],
         tolerance: float = 60.0) -> int:
    """How many pixels inside box (x0, y0, x1, y1) are within `tolerance` of `colour`."""
    x0, y0, x1, y1 = box
    patch = image[max(0, y0):y1, max(0, x0):x1].astype(np.float32)
    return int((np.linalg.norm(patch - np.array(colour, np.float32), axis=2) < tolerance).sum())


def die_boxes(reading: Any, scale: float) -> list[tuple[str, tuple[int, int, int, int]]]:
    boxes = []
    for die in reading.dice:
        pts = np.asarray(die.outline) * scale
        x0, y0 = pts.min(axis=0).astype(int) - 3
        x1, y1 = pts.max(axis=0).astype(int) + 4
        boxes.append((die.colour, (x0, y0, x1, y1)))
    return boxes


def test_the_jpeg_shows_each_die_outlined_in_the_colour_read(rig: Any) -> None:
    client, recognizer, _, frames = rig
    look(recognizer)
    frame, reading = recognizer.snapshot()
    assert reading is not None and reading.counts() == (2, 1, 1, 0)
    response = client.get("/api/camera/preview.jpg", headers=HOST)
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.headers["Cache-Control"] == "no-store"
    image = decode(response.data)
    bare, scale = resize_to_width(frames[0], 480)
    assert image.shape == bare.shape == (360, 480, 3)
    for colour, box in die_boxes(reading, scale):
        drawn = near(image, DIE_BGR[colour], box)
        before = near(bare, DIE_BGR[colour], box)
        assert drawn >= 40 and drawn > 4 * before + 20, (colour, drawn, before)


def test_the_picture_follows_the_camera_and_is_encoded_once_per_change(
        rig: Any, clock: FakeClock) -> None:
    client, recognizer, _, _ = rig
    # the rate cap (1 ms at PREVIEW_FPS 1000) on a clock the test moves, not on how long
    # the recognizer's steps happen to take
    cache = client.application.extensions["companion-preview"] = PreviewCache(clock=clock)
    look(recognizer)
    first = client.get("/api/camera/preview.jpg", headers=HOST).data
    again = client.get("/api/camera/preview.jpg", headers=HOST).data
    assert first == again and cache.encoded == 1
    look(recognizer)  # the replay camera moves on to the second table
    _, reading = recognizer.snapshot()
    assert reading.counts() == (1, 2, 2, 0)
    clock.advance(0.01)  # past the cap
    second = client.get("/api/camera/preview.jpg", headers=HOST).data
    assert second != first and cache.encoded == 2


def test_an_offline_camera_is_said_on_the_picture(rig: Any) -> None:
    client, recognizer, session, _ = rig
    recognizer.step()
    online = decode(client.get("/api/camera/preview.jpg", headers=HOST).data)
    session.set_extra("camera", {"online": False, "status": "camera offline: unplugged"})
    offline = decode(client.get("/api/camera/preview.jpg", headers=HOST).data)
    bottom = slice(offline.shape[0] - 8, offline.shape[0])
    assert offline[bottom].mean() < 60 < online[bottom].mean()


def test_the_preview_needs_the_pin(rig: Any) -> None:
    client, recognizer, _, _ = rig
    recognizer.step()
    for path in ("/api/camera/preview.jpg", "/api/camera/preview.mjpeg?frames=1"):
        response = client.get(path)
        assert response.status_code == 401 and "PIN" in response.get_json()["error"]


def test_before_the_first_frame_the_jpeg_is_409(rig: Any) -> None:
    client, _, _, _ = rig
    response = client.get("/api/camera/preview.jpg", headers=HOST)
    assert response.status_code == 409
    assert "not delivered a picture" in response.get_json()["error"]


def test_without_a_camera_both_addresses_are_404_with_a_sentence(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "PIN": PIN})
    client = app.test_client()
    for path in ("/api/camera/preview.jpg", "/api/camera/preview.mjpeg"):
        response = client.get(path, headers=HOST)
        assert response.status_code == 404
        assert response.get_json() == {
            "error": "This companion runs without a camera, so there is no preview."}
    app.extensions["companion"].session.journal.close()


def test_the_stream_is_multipart_jpeg(rig: Any) -> None:
    client, recognizer, _, _ = rig
    recognizer.step()
    response = client.get("/api/camera/preview.mjpeg?frames=1", headers=HOST)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == \
        f"multipart/x-mixed-replace; boundary={BOUNDARY}"
    head, _, rest = response.data.partition(b"\r\n\r\n")
    assert head.startswith(f"--{BOUNDARY}\r\nContent-Type: image/jpeg".encode())
    length = int(head.split(b"Content-Length: ")[1])
    assert rest[length:] == b"\r\n"
    assert decode(rest[:length]).shape == (360, 480, 3)


@pytest.mark.parametrize("frames", ["0", "x", "-1", "100001"])
def test_a_bad_frame_count_is_400(rig: Any, frames: str) -> None:
    client, recognizer, _, _ = rig
    recognizer.step()
    response = client.get(f"/api/camera/preview.mjpeg?frames={frames}", headers=HOST)
    assert response.status_code == 400 and "frames" in response.get_json()["error"]


def test_the_stream_sends_changes_and_repeats_a_still_picture_only_now_and_then() -> None:
    clock = FakeClock()
    pictures = iter([None, b"a", b"a", b"a", b"b"])
    moves = iter([0.0, 0.1, REPEAT_SECONDS, 0.1, 0.1])

    def picture() -> bytes | None:
        clock.advance(next(moves))
        return next(pictures)

    parts = list(_stream(picture, threading.Event(), interval=0.0, frames=3, clock=clock))
    bodies = [p.split(b"\r\n\r\n", 1)[1][:-2] for p in parts]
    assert bodies == [b"a", b"a", b"b"]  # the second "a" only after REPEAT_SECONDS


def test_the_stream_ends_when_the_server_stops() -> None:
    stop = threading.Event()
    stop.set()
    assert list(_stream(lambda: b"x", stop, interval=0.0, frames=None)) == []


class StillCamera:
    """Stands in for the recognizer: hands out whichever frame the test set."""

    def __init__(self) -> None:
        self.frame = scene(["green"], seed=0)

    def snapshot(self) -> tuple[Any, Any]:
        return self.frame, None


def test_new_pictures_are_made_at_most_at_the_capped_rate() -> None:
    clock, camera = FakeClock(), StillCamera()
    cache = PreviewCache(clock=clock)

    def picture() -> bytes | None:
        return cache.jpeg(camera, None, width=480, quality=70, min_interval=0.5)

    first = picture()
    camera.frame = scene(["red"], seed=1)  # a new frame comes in at once ...
    clock.advance(0.25)
    assert picture() is first and cache.encoded == 1  # ... but waits for its turn
    clock.advance(0.25)
    second = picture()
    assert second is not first and cache.encoded == 2
    clock.advance(5)
    assert picture() is second and cache.encoded == 2  # nothing new: nothing encoded


def test_a_camera_going_offline_is_drawn_at_once_even_inside_the_rate_cap() -> None:
    clock, camera = FakeClock(), StillCamera()
    cache = PreviewCache(clock=clock)
    online = cache.jpeg(camera, None, width=480, quality=70, min_interval=0.5)
    offline = cache.jpeg(camera, "camera offline: unplugged", width=480, quality=70,
                         min_interval=0.5)  # no time has passed
    assert offline is not online and cache.encoded == 2
    bottom = slice(-8, None)
    assert decode(offline)[bottom].mean() < 60 < decode(online)[bottom].mean()


def test_the_host_page_login_cookie_opens_the_preview(rig: Any) -> None:
    client, recognizer, _, _ = rig
    recognizer.step()
    assert client.get("/api/camera/preview.jpg").status_code == 401
    assert client.post("/login", data={"pin": PIN}).status_code == 303
    response = client.get("/api/camera/preview.jpg")  # as an <img> sends it: no Origin
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
