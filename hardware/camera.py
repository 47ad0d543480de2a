"""The camera interface: a small protocol, a null camera, and `open_camera(spec)`.

Every backend hands out BGR frames as numpy arrays (H, W, 3), uint8, or None when no frame
is ready. Optional libraries (picamera2, OpenCV) are imported inside the backend that needs
them, so ``import hardware`` works on any laptop.

Camera SPEC (the contract's ``--camera``):

========================  ===========================================================
``auto``                  picamera2 if present, else OpenCV device 0, else ``none``
``picamera2``             the Raspberry Pi camera (``picamera2[:N]`` for camera N)
``opencv:N``              USB webcam number N through OpenCV
``replay:PATH``           a folder of images or a video file, looped at a set rate
``none``                  no camera: ``read()`` always returns None
========================  ===========================================================
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Callable, Iterable, NamedTuple, Protocol, Self, runtime_checkable

import numpy as np

_LOG = logging.getLogger("hardware.camera")

SPEC_HELP = "auto, picamera2, opencv:N, replay:PATH or none"


class CameraError(Exception):
    """A camera that cannot be opened or read; the message is one line a person can act on."""


class CameraSpecError(CameraError, ValueError):
    """A ``--camera`` value that names no backend (a usage error)."""


@runtime_checkable
class Camera(Protocol):
    """What every camera backend offers.

    ``read()`` returns the next frame, an ndarray of shape (H, W, 3), uint8, BGR, that the
    caller owns, or None when no frame is ready. It raises :class:`CameraError` when the
    device fails. ``close()`` may be called any number of times. Use it with ``with``.
    """

    name: str

    def read(self) -> np.ndarray | None:
        """Return the current frame (H, W, 3) uint8 BGR, or None if there is none."""
        ...

    def close(self) -> None:
        """Release the device; calling it again does nothing."""
        ...

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Skipped(NamedTuple):
    """A backend ``auto`` tried and passed over: its spec ("opencv:0") and why, one line."""

    backend: str
    reason: str


class NullCamera(Camera):
    """No camera at all: ``read()`` always returns None (like picamera2's ``Preview.NULL``).

    ``skipped`` lists what ``auto`` tried before settling on none (empty for ``none``), so a
    caller can say why without reading the log's wording.
    """

    def __init__(self, skipped: Iterable[Skipped] = ()) -> None:
        self.name = "none"
        self.closed = False
        self.skipped: tuple[Skipped, ...] = tuple(skipped)

    def read(self) -> np.ndarray | None:
        """Return None: there is never a frame."""
        return None

    def close(self) -> None:
        """Mark the camera closed (idempotent)."""
        self.closed = True


@dataclass(frozen=True)
class CameraSpec:
    """A parsed ``--camera`` value: `kind` is one of auto, picamera2, opencv, replay, none."""

    kind: str
    index: int = 0
    path: str = ""

    def __str__(self) -> str:
        if self.kind == "replay":
            return f"replay:{self.path}"
        if self.kind == "opencv" or (self.kind == "picamera2" and self.index):
            return f"{self.kind}:{self.index}"
        return self.kind


def parse_camera_spec(spec: str) -> CameraSpec:
    """Parse a ``--camera`` value such as ``opencv:1`` or ``replay:recordings/dice``.

    :raises CameraSpecError: the value names no backend, or its device number is not a number.
    """
    text = spec.strip()
    kind, sep, arg = text.partition(":")
    kind = kind.lower()
    if kind in ("auto", "none") and not sep:
        return CameraSpec(kind)
    if kind == "replay":
        if not arg:
            raise CameraSpecError("The replay camera needs a folder or video: replay:PATH.")
        return CameraSpec("replay", path=arg)
    if kind in ("picamera2", "opencv"):
        if not sep and kind == "picamera2":
            return CameraSpec(kind)
        if not arg.isdigit():
            raise CameraSpecError(
                f"Camera {text!r} needs a device number, for example {kind}:0.")
        return CameraSpec(kind, index=int(arg))
    raise CameraSpecError(f"Unknown camera {text!r}; use {SPEC_HELP}.")


def check_camera_spec(spec: str | CameraSpec) -> CameraSpec:
    """Check a ``--camera`` value before serving, without opening any device.

    A replay path must hold images or a video; a device that is missing is not an error here
    (the capture loop reports it offline and keeps trying).

    :raises CameraSpecError: `spec` names no backend.
    :raises CameraError: a replay path that is missing or holds no frames.
    """
    parsed = parse_camera_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind == "replay":
        from hardware.replay import ReplayCamera

        ReplayCamera(Path(parsed.path), log=lambda line: None).close()
    return parsed


def open_camera(
    spec: str | CameraSpec,
    *,
    log: Callable[[str], None] = _LOG.info,
    replay_fps: float = 10.0,
    probe: bool = False,
) -> Camera:
    """Open the camera a ``--camera`` value names.

    ``auto`` tries picamera2, then OpenCV device 0, and falls back to :class:`NullCamera`,
    calling `log` with one line for each backend it skips; that NullCamera's ``skipped``
    lists them too, as (backend, reason). A replay camera is paced at
    `replay_fps` frames per second and its ``read()`` waits for the next frame, like a real
    device. With ``probe=True`` it only runs :func:`check_camera_spec` and returns a
    :class:`NullCamera`.

    :raises CameraSpecError: `spec` names no backend.
    :raises CameraError: the named device is missing or cannot be opened.
    """
    parsed = parse_camera_spec(spec) if isinstance(spec, str) else spec
    if probe:
        check_camera_spec(parsed)
        return NullCamera()
    if parsed.kind == "none":
        return NullCamera()
    if parsed.kind == "replay":
        from hardware.replay import ReplayCamera

        return ReplayCamera(Path(parsed.path), fps=replay_fps, wait=True, log=log)
    if parsed.kind == "picamera2":
        return _open_picamera2(parsed.index)
    if parsed.kind == "opencv":
        from hardware.opencv_cam import OpenCVCamera

        return OpenCVCamera(parsed.index)
    return _open_auto(log)


def _open_picamera2(index: int) -> Camera:
    """Open the Pi camera, turning a missing or broken picamera2 install into CameraError."""
    from hardware.picam import Picamera2Camera

    return Picamera2Camera(index)


def _open_auto(log: Callable[[str], None]) -> Camera:
    """Try picamera2, then OpenCV device 0; log one line per skipped backend. None found:
    a NullCamera whose ``skipped`` says what was tried and why it was passed over."""
    skipped = []
    for spec in (CameraSpec("picamera2"), CameraSpec("opencv", index=0)):
        try:
            return open_camera(spec, log=log)
        except CameraError as exc:
            skipped.append(Skipped(str(spec), str(exc)))
            log(f"camera: skipped {spec} ({exc})")
    log("camera: no camera found; running without one")
    return NullCamera(skipped)
