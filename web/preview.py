"""The host's live camera preview: the latest frame, shrunk, with what was read drawn on it.

Two host-only addresses (the picture shows the room, not only the table, so it needs the
PIN like every host call; an ``<img>`` on the host page sends the login cookie):

* ``GET /api/camera/preview.jpg``: one JPEG of the latest frame, for a page that refreshes
  it (``?t=<anything>`` defeats caches);
* ``GET /api/camera/preview.mjpeg``: a ``multipart/x-mixed-replace`` stream of JPEGs for an
  ``<img src>``; ``?frames=N`` ends it after N pictures. It holds a server thread, so it
  counts against the same cap as the event streams (web/streams.py: 503 + Retry-After).

It costs nothing when nobody watches: a picture is shrunk, drawn and encoded only when a
request asks for it, at most ``PREVIEW_FPS`` times a second (5) whatever the number of
viewers (they share one encoded picture while the frame and reading stay the same), at
``PREVIEW_WIDTH`` pixels wide (480). A companion without a camera answers 404; one whose
camera has not delivered a picture yet answers 409 (the stream waits for the first instead).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, request
from werkzeug.exceptions import NotFound

from companion.errors import InvalidAction, NotNow
from web.app import get_companion
from web.auth import host_required
from web.streams import open_capped

bp = Blueprint("preview", __name__, url_prefix="/api/camera")

BOUNDARY = "frame"
REPEAT_SECONDS = 1.0  # an unchanged picture is sent again this often, to keep the stream alive
MAX_FRAMES = 100_000
_DEFAULTS = {"PREVIEW_WIDTH": 480, "PREVIEW_FPS": 5.0, "PREVIEW_QUALITY": 70}
_NO_STORE = {"Cache-Control": "no-store"}


class PreviewCache:
    """The last encoded preview, shared by every viewer of one app.

    A new JPEG is made only when the recognizer's frame, its reading or the camera status
    changed since the last one, and never more often than `min_interval` seconds, except
    that a change of camera status ("camera offline: ...") is drawn at once.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._key: tuple[Any, Any, Any] | None = None
        self._jpeg: bytes | None = None
        self._made_at = float("-inf")
        self.encoded = 0  # pictures encoded so far (what watching costs)

    def jpeg(self, camera: Any, status: str | None, *, width: int, quality: int,
             min_interval: float = 0.0) -> bytes | None:
        """The preview JPEG of `camera`'s latest snapshot, or None before its first frame."""
        from vision.overlay import encode_jpeg, preview_image

        with self._lock:
            settled = self._key is not None and self._key[2] == status
            if settled and self._clock() - self._made_at < min_interval:
                return self._jpeg
            frame, reading = camera.snapshot()
            if frame is None:
                return self._jpeg
            key = (frame, reading, status)
            if self._key is not None and all(a is b for a, b in zip(key, self._key)):
                return self._jpeg
            image = preview_image(frame, reading, width=width, status=status)
            self._jpeg = encode_jpeg(image, quality=quality)
            self._key, self._made_at = key, self._clock()
            self.encoded += 1
            return self._jpeg


@bp.record_once
def _install(state: Any) -> None:
    state.app.extensions["companion-preview"] = PreviewCache()


def _cache() -> PreviewCache:
    cache: PreviewCache = current_app.extensions["companion-preview"]
    return cache


def _setting(key: str, kind: type) -> Any:
    """A number from the app config (env values arrive as text), with the module default."""
    value = current_app.config.get(key, _DEFAULTS[key])
    try:
        return kind(value)
    except (TypeError, ValueError):
        return _DEFAULTS[key]


def _interval() -> float:
    """Seconds between two new pictures: 1 / PREVIEW_FPS."""
    fps = _setting("PREVIEW_FPS", float)
    return 1.0 / (fps if fps > 0 else _DEFAULTS["PREVIEW_FPS"])


def _camera() -> Any:
    """The recognition loop, or NotFound with a sentence when there is no camera."""
    camera = get_companion(current_app).camera
    if camera is None:
        raise NotFound("This companion runs without a camera, so there is no preview.")
    return camera


def _status() -> str | None:
    """The camera status line to write on the picture when the camera is offline."""
    info = get_companion(current_app).session.state().get("camera")
    if isinstance(info, dict) and info.get("online") is False:
        return str(info.get("status") or "camera offline")[:200]
    return None


def _picture(camera: Any, *, min_interval: float = 0.0) -> bytes | None:
    return _cache().jpeg(camera, _status(), width=max(16, _setting("PREVIEW_WIDTH", int)),
                         quality=min(100, max(1, _setting("PREVIEW_QUALITY", int))),
                         min_interval=min_interval)


@bp.get("/preview.jpg")
@host_required
def preview_jpeg() -> Any:
    """One JPEG of the latest frame with the latest reading drawn on it."""
    jpeg = _picture(_camera(), min_interval=_interval())
    if jpeg is None:
        raise NotNow("The camera has not delivered a picture yet; try again in a moment.")
    return Response(jpeg, mimetype="image/jpeg", headers=_NO_STORE)


@bp.get("/preview.mjpeg")
@host_required
def preview_stream() -> Any:
    """A multipart/x-mixed-replace stream of preview JPEGs, at most PREVIEW_FPS a second."""
    camera = _camera()
    frames = _frames_arg()
    interval = _interval()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    holder = get_companion(app)

    def picture() -> bytes | None:
        with app.app_context():
            return _picture(camera, min_interval=interval)

    return open_capped(holder.streams, app.config, host=True,  # host_required let it in
                       stream=lambda: _stream(picture, holder.stop, interval=interval,
                                              frames=frames),
                       mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                       headers={**_NO_STORE, "X-Accel-Buffering": "no"})


def _frames_arg() -> int | None:
    raw = request.args.get("frames")
    if raw is None:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_FRAMES:
        raise InvalidAction(f"'frames' must be a whole number from 1 to {MAX_FRAMES}.")
    return int(raw)


def _stream(picture: Callable[[], bytes | None], stop: threading.Event, *, interval: float,
            frames: int | None, clock: Callable[[], float] = time.monotonic) -> Iterator[bytes]:
    """Yield multipart parts: each new picture, and an unchanged one every REPEAT_SECONDS."""
    sent, last, last_at = 0, None, float("-inf")
    while not stop.is_set() and (frames is None or sent < frames):
        jpeg = picture()
        now = clock()
        if jpeg is not None and (jpeg is not last or now - last_at >= REPEAT_SECONDS):
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                   f"Content-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            sent, last, last_at = sent + 1, jpeg, now
            if frames is not None and sent >= frames:
                return
        stop.wait(interval)
