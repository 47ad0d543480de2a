"""Reading image files safely: one clear error, never a traceback or a memory blow-up.

A phone photo is read the way the phone's own viewer shows it: a JPEG's EXIF orientation
is applied (OpenCV's ``IMREAD_COLOR`` does it), so pixel coordinates (a suite's boxes)
mean the same pixels a user sees. A JPEG above ``MAX_PIXELS`` (a 48 or 50 Mpx phone mode)
is decoded at half, a quarter or an eighth of its size, the first that fits: the readers
work at 640 pixels anyway. A HEIC photo, a folder, a file that is no image: each gets its
own sentence saying what to do.
"""

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

from vision.cvcompat import LOG_ERROR, set_log_level  # noqa: E402

# Decoder warnings ("PNG input buffer is incomplete") would reach users on stderr; the
# ImageError we raise says it in one line instead.
set_log_level(LOG_ERROR)


class ImageError(ValueError):
    """An image file that cannot be read; the message is one line naming the cause."""


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """Read an image file as a BGR frame, upright as a photo viewer shows it.

    Returns
    -------
    frame : ndarray of shape (H, W, 3), uint8, BGR

    :raises ImageError: missing, empty, oversized, truncated or non-image file, a folder.
    """
    return decode_image(_file_bytes(Path(path)))


def read_reduced(path: str | os.PathLike[str]) -> tuple[np.ndarray, int]:
    """Like :func:`read_image`, with the factor a JPEG over ``MAX_PIXELS`` was shrunk by.

    A pixel (x, y) of the picture as a viewer shows it is at (x / factor, y / factor) in
    the frame; the factor is 1 for every picture of at most ``MAX_PIXELS``.
    """
    return decode_reduced(_file_bytes(Path(path)))


def _file_bytes(p: Path) -> np.ndarray:
    """The bytes of an image file; :raises ImageError: one sentence for each way it fails."""
    try:
        size = p.stat().st_size
        if p.is_dir():
            raise ImageError("a folder, not an image file (give the photos inside it)")
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
        raise ImageError("a folder, not an image file (give the photos inside it)") from None
    except OSError as exc:
        raise ImageError(exc.strerror or "cannot read file") from None
    return data


def shrink_to(frame: np.ndarray, side: int) -> np.ndarray:
    """``frame`` with its long side shrunk to ``side`` pixels (INTER_AREA); unchanged if
    it is no longer. A new array when shrunk; the input is never written."""
    scale = side / max(frame.shape[:2])
    if scale >= 1:
        return frame
    return cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def decode_image(data: np.ndarray | bytes) -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, WebP, ...) to a BGR frame, upright.

    A JPEG larger than ``MAX_PIXELS`` comes back at 1/2, 1/4 or 1/8 of its size (the
    first that fits; :func:`decode_reduced` says which).

    :raises ImageError: not an image, truncated, a format OpenCV cannot read (HEIC), or
        larger than ``MAX_PIXELS`` even at an eighth.
    """
    frame, _ = decode_reduced(data)
    return frame


def decode_reduced(data: np.ndarray | bytes) -> tuple[np.ndarray, int]:
    """Like :func:`decode_image`, with the factor the picture was shrunk by (1, 2, 4 or 8).

    A pixel (x, y) of the file is at (x / factor, y / factor) in the frame.
    """
    buf = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
    kind = _kind(buf[:16].tobytes())
    too_large = False
    for factor, flag in _FACTORS if kind == "JPEG" else _FACTORS[:1]:
        try:
            frame = cv2.imdecode(buf, flag)
        except cv2.error as exc:  # OpenCV raises for oversized or some malformed headers
            too_large, frame = "MAX_IMAGE_PIXELS" in str(exc), None
            if too_large:
                continue
        break
    if frame is None or frame.size == 0:
        raise ImageError(_why_unreadable(kind, too_large))
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return frame, factor


# (shrink factor, imdecode flag): a JPEG is decoded at 1/2, 1/4, 1/8 in libjpeg's DCT
# (fast, and OpenCV checks the pixel limit on the reduced size).
_FACTORS = ((1, cv2.IMREAD_COLOR), (2, cv2.IMREAD_REDUCED_COLOR_2),
            (4, cv2.IMREAD_REDUCED_COLOR_4), (8, cv2.IMREAD_REDUCED_COLOR_8))

# ISO-BMFF brands (the 4 bytes after "ftyp") of HEIF pictures: iPhones' HEIC ("heic",
# "heix", "mif1"...) and AVIF.
_HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs",
                b"mif1", b"msf1", b"mif2"}
_AVIF_BRANDS = {b"avif", b"avis"}


def _kind(head: bytes) -> str | None:
    """The image format the first bytes of a file announce, or None."""
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[4:8] == b"ftyp":  # ISO media: HEIF stills, or else a video (MP4, MOV)
        return "AVIF" if head[8:12] in _AVIF_BRANDS else (
            "HEIC" if head[8:12] in _HEIF_BRANDS else "video")
    for magic, name in ((b"GIF8", "GIF"), (b"BM", "BMP"), (b"II*\x00", "TIFF"),
                        (b"MM\x00*", "TIFF")):
        if head.startswith(magic):
            return name
    return None


def _why_unreadable(kind: str | None, too_large: bool) -> str:
    """One sentence: why a file could not be decoded, and what the user can do."""
    if too_large:
        return (f"too large (more than {MAX_PIXELS // 1_000_000} million pixels); "
                "save a smaller copy (a JPEG of 12 million pixels is plenty)")
    if kind == "HEIC":
        return ("a HEIC photo, which cannot be read here; save it as JPEG (on an iPhone: "
                "Settings > Camera > Formats > Most Compatible)")
    if kind == "AVIF":
        return "an AVIF picture, which this OpenCV cannot read; save it as JPEG"
    if kind == "video":
        return "a video (MP4 or MOV), not a photo; give a still picture (JPEG or PNG)"
    if kind is None:
        return "not an image file (a JPEG, PNG or WebP photo is expected)"
    return f"a damaged or cut-short {kind} file (copy it from the camera or phone again)"
