"""Everything in ``hardware`` that needs OpenCV: USB webcams, image files and video files.

This is the only hardware module that imports ``cv2``; the others import it lazily, so
``import hardware`` never loads OpenCV.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, TypeVar

import cv2
import numpy as np

from hardware.camera import Camera, CameraError

T = TypeVar("T")

# Image files larger than this are refused without reading them.
MAX_BYTES = 64 * 1024 * 1024


class OpenCVCamera(Camera):
    """A USB webcam through ``cv2.VideoCapture``.

    Parameters
    ----------
    index : int
        Device number N of ``opencv:N`` (``/dev/videoN`` on Linux).
    width, height : int, optional
        Requested frame size in pixels; the driver may pick the nearest it supports.

    :raises CameraError: no such device, or it cannot be opened.
    """

    def __init__(self, index: int = 0, *, width: int | None = None,
                 height: int | None = None) -> None:
        self.name = f"opencv:{index}"
        self._cap: cv2.VideoCapture | None = None
        if sys.platform.startswith("linux") and not Path(f"/dev/video{index}").exists():
            # Checked first so a missing webcam costs one clear line, not OpenCV warnings.
            raise CameraError(f"no webcam at /dev/video{index}")
        cap = _quietly(lambda: cv2.VideoCapture(index))
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"webcam {index} cannot be opened (in use or unplugged?)")
        if width and height:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._cap = cap

    def read(self) -> np.ndarray | None:
        """Return the next webcam frame (H, W, 3) uint8 BGR, waiting for it; None if none came.

        :raises CameraError: the camera was closed.
        """
        if self._cap is None:
            raise CameraError(f"{self.name} is closed")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            return None
        return _as_bgr(frame)

    def close(self) -> None:
        """Release the webcam (idempotent)."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def read_image_file(path: Path) -> np.ndarray:
    """Read an image file as a frame (H, W, 3) uint8 BGR.

    :raises CameraError: the file is missing, too large, or not a readable image.
    """
    try:
        if path.stat().st_size > MAX_BYTES:
            raise CameraError(f"{path.name}: file too large")
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise CameraError(f"{path.name}: {exc.strerror or 'cannot read file'}") from None
    frame = None
    if data.size:
        try:
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        except cv2.error:
            frame = None
    if frame is None or frame.size == 0:
        raise CameraError(f"{path.name}: not a readable image")
    return _as_bgr(frame)


class VideoFile:
    """Frames of a video file read in order, rewinding on demand (used by the replay camera).

    :raises CameraError: the file cannot be opened as a video.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cap = _quietly(lambda: cv2.VideoCapture(str(path)))
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"{path.name}: not a readable video")
        self.position = -1  # index of the last frame returned by next_frame()
        self.fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)

    def next_frame(self, skip: int = 0) -> np.ndarray | None:
        """Skip `skip` frames, then return the next one; None at the end of the file."""
        for _ in range(skip):
            if not self._cap.grab():
                return None
            self.position += 1
        ok, frame = self._cap.read()
        if not ok or frame is None:
            return None
        self.position += 1
        return _as_bgr(frame)

    def rewind(self) -> None:
        """Go back to the first frame."""
        self._cap.release()
        self._cap = _quietly(lambda: cv2.VideoCapture(str(self.path)))
        self.position = -1

    def close(self) -> None:
        """Release the file (idempotent)."""
        self._cap.release()


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    """Return `frame` as 3-channel BGR (gray and BGRA inputs are converted)."""
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


def _quietly(make: Callable[[], T]) -> T:
    """Call `make` with OpenCV's own warnings silenced; our CameraError says it in one line."""
    level = _set_log_level(0)  # 0: silent
    try:
        return make()
    finally:
        _set_log_level(level)


def _set_log_level(level: int) -> int:
    """Set OpenCV's log level, return the previous one, on OpenCV 4.x and 5.x alike.

    The same as ``vision.cvcompat.set_log_level`` (hardware may not import vision): 4.x has
    ``cv2.setLogLevel``, 5.x only ``cv2.utils.logging``.
    """
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None and hasattr(logging, "setLogLevel"):
        previous = logging.getLogLevel()
        logging.setLogLevel(level)
    else:
        previous = cv2.getLogLevel()
        cv2.setLogLevel(level)
    return int(previous)
