"""The replay camera: recorded images or a video played back as if a camera were filming.

Frames are paced by an injected clock: ``read()`` returns the frame due *now*
(``floor(elapsed * fps)``, counted from the first read), so tests drive it with a fake clock
and never sleep. With ``wait=True`` a read that would repeat the previous frame sleeps until
the next one is due, as a real camera blocks; the capture loop uses that.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from hardware.camera import Camera, CameraError

if TYPE_CHECKING:
    from hardware.opencv_cam import VideoFile

_LOG = logging.getLogger("hardware.replay")

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


class ReplayCamera(Camera):
    """Play a folder of images (in name order) or a video file, looped, at `fps`.

    Parameters
    ----------
    path : Path
        A folder of images, one image file, or a video file OpenCV can read.
    fps : float or None
        Frames per second of playback; None plays one new frame per ``read()``.
    clock : callable
        Seconds as a float, monotonic (``time.monotonic``); tests pass a fake clock.
    loop : bool
        Start again after the last frame; if False, ``read()`` returns None at the end.
    wait : bool
        If True, a read that would repeat the last frame calls `sleep` until the next one is
        due. If False (default), ``read()`` never sleeps.
    sleep : callable
        How to wait (``time.sleep``); tests pass their fake clock's ``advance``.
    log : callable
        Receives one line for each image that cannot be read (it is then skipped).

    :raises CameraError: `path` is missing, holds no images, or is not a readable video.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        fps: float | None = 10.0,
        clock: Callable[[], float] = time.monotonic,
        loop: bool = True,
        wait: bool = False,
        sleep: Callable[[float], object] = time.sleep,
        log: Callable[[str], None] = _LOG.info,
    ) -> None:
        if fps is not None and not fps > 0:
            raise CameraError(f"replay fps must be above 0, not {fps}")
        self.path = Path(path)
        self.name = f"replay:{path}"
        self.fps = fps
        self.loop = loop
        self._clock, self._wait, self._sleep, self._log = clock, wait, sleep, log
        self._start: float | None = None
        self._count = 0  # frames handed out when unpaced
        self._last_due = -1
        self._cached: tuple[int, np.ndarray] | None = None
        self._paths: list[Path] = []
        self._video: VideoFile | None = None
        self._length: int | None = None  # frames in one pass, once known
        self._closed = False
        self._open()

    def _open(self) -> None:
        """Find the images or open the video."""
        p = self.path
        if p.is_dir():
            self._paths = sorted(
                (f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES and f.is_file()),
                key=lambda f: f.name)
            if not self._paths:
                raise CameraError(f"no images in {p}")
            self._length = len(self._paths)
        elif p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES:
            self._paths, self._length = [p], 1
        elif p.is_file():
            from hardware.opencv_cam import VideoFile

            self._video = VideoFile(p)
        else:
            raise CameraError(f"no such folder or video: {p}")

    def read(self) -> np.ndarray | None:
        """Return the frame due now, (H, W, 3) uint8 BGR, a copy the caller owns.

        Returns None once a non-looping replay has played its last frame.

        :raises CameraError: the camera is closed, or no image in the folder is readable.
        """
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        due = self._due_index()
        frame = self._frame(due)
        self._last_due = due
        return None if frame is None else frame.copy()

    def _due_index(self) -> int:
        """Index (counting across loops) of the frame to show now."""
        if self.fps is None:
            self._count += 1
            return self._count - 1
        now = self._clock()
        if self._start is None:
            self._start = now
        due = math.floor((now - self._start) * self.fps + 1e-9)
        if self._wait and due <= self._last_due:
            self._sleep(max(0.0, self._start + (self._last_due + 1) / self.fps - now))
            due = max(self._last_due + 1,
                      math.floor((self._clock() - self._start) * self.fps + 1e-9))
        return due

    def _frame(self, due: int) -> np.ndarray | None:
        """Decode (or reuse) the frame for index `due`; None past the end without looping."""
        if self._length is not None:
            if not self.loop and due >= self._length:
                return None
            due %= self._length
        if self._cached is not None and self._cached[0] == due:
            return self._cached[1]
        frame = self._image(due) if self._video is None else self._video_frame(due)
        if frame is not None:
            self._cached = (due if self._length is None else due % self._length, frame)
        return frame

    def _image(self, index: int) -> np.ndarray:
        """Read image `index`, dropping unreadable files (one log line each)."""
        from hardware.opencv_cam import read_image_file

        while self._paths:
            path = self._paths[index % len(self._paths)]
            try:
                return read_image_file(path)
            except CameraError as exc:
                self._log(f"replay: skipped {exc}")
                self._paths.remove(path)
                self._length = len(self._paths) or None
                self._cached = None
        raise CameraError(f"no readable images in {self.path}")

    def _video_frame(self, index: int) -> np.ndarray | None:
        """Frame `index` of the video (already reduced modulo its length when known)."""
        video = self._video
        assert video is not None
        if index <= video.position:
            video.rewind()
        frame = video.next_frame(skip=index - video.position - 1)
        if frame is not None:
            return frame
        # The end of the file: now we know its length.
        if video.position < 0:
            raise CameraError(f"{self.path.name}: video has no frames")
        self._length = video.position + 1
        if not self.loop:
            return None
        video.rewind()
        return video.next_frame(skip=index % self._length)

    def close(self) -> None:
        """Release the video file or image list (idempotent)."""
        if self._video is not None:
            self._video.close()
            self._video = None
        self._paths = []
        self._cached = None
        self._closed = True
