"""Reading image files safely: one clear error, never a traceback or a memory blow-up."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

# OpenCV checks an image header against OPENCV_IO_MAX_IMAGE_PIXELS (set in
# vision/__init__.py, before cv2 loads) before allocating pixels: a file claiming a huge
# size (a decompression bomb) is refused without decoding it.
MAX_PIXELS = int(os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"])  # 40 Mpx: above any camera frame
MAX_BYTES = 64 * 1024 * 1024

import cv2  # noqa: E402  (after the limit is set)

# Decoder warnings ("PNG input buffer is incomplete") would reach users on stderr; the
# ImageError we raise says it in one line instead.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


class ImageError(ValueError):
    """An image file that cannot be read; the message is one line naming the cause."""


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """Read an image file as a BGR frame.

    Returns
    -------
    frame : ndarray of shape (H, W, 3), uint8, BGR

    :raises ImageError: missing, empty, oversized, truncated or non-image file.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
        if not p.is_file():
            raise ImageError("not a file")
        if size == 0:
            raise ImageError("empty file")
        if size > MAX_BYTES:
            raise ImageError(f"file too large ({size // 2**20} MiB; at most {MAX_BYTES // 2**20})")
        data = np.fromfile(p, dtype=np.uint8)
    except FileNotFoundError:
        raise ImageError("no such file") from None
    except PermissionError:
        raise ImageError("permission denied") from None
    except IsADirectoryError:
        raise ImageError("not a file") from None
    except OSError as exc:
        raise ImageError(exc.strerror or "cannot read file") from None
    return decode_image(data)


def decode_image(data: np.ndarray | bytes) -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, ...) to a BGR frame.

    :raises ImageError: not an image, truncated, or larger than ``MAX_PIXELS``.
    """
    buf = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
    try:
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    except cv2.error:
        frame = None  # OpenCV raises for some oversized or malformed headers
    if frame is None or frame.size == 0:
        raise ImageError("not a readable image (corrupt, truncated, unknown format or too large)")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return frame
