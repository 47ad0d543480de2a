"""Reading users' own photo files: upright as their viewer shows them, in the formats
phones and editors write, and one clear sentence for each file that cannot be read."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cv2

from vision.imageio import ImageError, decode_image, read_image

FORMATS = Path(__file__).parents[1] / "data" / "phone-formats"  # tiny, made for these tests
ROOT = Path(__file__).parents[2]


def _pattern(h: int = 48, w: int = 64) -> np.ndarray:
    """Red left half, green right half, a blue square in the top-left corner (BGR)."""
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:, : w // 2] = (40, 40, 220)
    frame[:, w // 2:] = (40, 200, 40)
    frame[:8, :8] = (220, 40, 40)
    return frame


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF segment holding only the Orientation tag, as phones write it."""
    tiff = (b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
            + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0))
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def _jpeg(frame: np.ndarray, *params: int) -> bytes:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 95, *params])
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("orientation, stored_by", [
    (6, cv2.ROTATE_90_COUNTERCLOCKWISE),  # a portrait photo stored landscape: turn right
    (8, cv2.ROTATE_90_CLOCKWISE),
    (3, cv2.ROTATE_180)])
def test_a_phone_photo_is_read_upright_as_its_viewer_shows_it(tmp_path, orientation, stored_by):
    upright = _pattern()
    path = tmp_path / "portrait.jpg"
    path.write_bytes(_with_orientation(_jpeg(cv2.rotate(upright, stored_by)), orientation))
    frame = read_image(path)
    assert frame.shape == upright.shape
    assert np.abs(frame.astype(int) - upright).mean() < 4
    assert frame[3, 3, 0] > 150  # the blue corner is top-left, where the viewer shows it


@pytest.mark.parametrize("name, encode", [
    ("photo.webp", lambda f: cv2.imencode(".webp", f, [cv2.IMWRITE_WEBP_QUALITY, 95])),
    ("alpha.png", lambda f: cv2.imencode(".png", np.dstack([f, np.full(f.shape[:2], 128,
                                                                       np.uint8)]))),
    ("deep.png", lambda f: cv2.imencode(".png", f.astype(np.uint16) * 257)),
    ("progressive.jpg", lambda f: cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1,
                                                           cv2.IMWRITE_JPEG_QUALITY, 95])),
    ("really-a-png.jpg", lambda f: cv2.imencode(".png", f)),
    ("CAPITALS.JPEG", lambda f: cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 95])),
    ("my table ölü 🎲.jpg", lambda f: cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 95])),
])
def test_formats_phones_and_editors_write_are_read_as_bgr(tmp_path, name, encode):
    pattern = _pattern()
    ok, data = encode(pattern)
    assert ok
    (tmp_path / name).write_bytes(data.tobytes())
    frame = read_image(tmp_path / name)
    assert frame.shape == pattern.shape and frame.dtype == np.uint8
    assert np.abs(frame.astype(int) - pattern).mean() < 4


def test_a_greyscale_jpeg_comes_back_as_three_equal_channels(tmp_path):
    grey = cv2.cvtColor(_pattern(), cv2.COLOR_BGR2GRAY)
    (tmp_path / "grey.jpg").write_bytes(_jpeg(grey))
    frame = read_image(tmp_path / "grey.jpg")
    assert frame.shape == (48, 64, 3)
    assert (frame[..., 0] == frame[..., 1]).all() and (frame[..., 1] == frame[..., 2]).all()


def test_a_cmyk_jpeg_keeps_its_colours():
    frame = read_image(FORMATS / "cmyk.jpg")  # written by an editor in CMYK (4 components)
    b, g, r = (int(v) for v in frame[12, 4])
    assert r > 180 and g < 90 and b < 90  # the red half, not its inverse
    b, g, r = (int(v) for v in frame[12, 28])
    assert g > 160 and r < 90 and b < 90


def test_a_heic_photo_says_how_to_get_a_jpeg():
    try:
        frame = read_image(FORMATS / "tiny.heic")  # a real HEIC, as iPhones save by default
    except ImageError as exc:
        assert "HEIC" in str(exc) and "JPEG" in str(exc) and "\n" not in str(exc)
    else:  # an OpenCV built with libheif reads it: then it must be the picture
        assert frame.shape == (24, 32, 3)


@pytest.mark.parametrize("data, words", [
    (b"\x00\x00\x00\x18ftypqt  \x00\x00\x02\x00qt  " + bytes(64), "video"),
    (b"hello, I am a note\n" * 4, "not an image file"),
    (b"\x89PNG\r\n\x1a\n" + bytes(40), "damaged or cut-short PNG"),
])
def test_each_unreadable_file_gets_a_sentence_saying_what_it_is(data, words):
    with pytest.raises(ImageError, match=words):
        decode_image(data)


def test_a_folder_given_for_a_photo_is_named_a_folder(tmp_path):
    (tmp_path / "photos.jpg").mkdir()
    with pytest.raises(ImageError, match="a folder, not an image file"):
        read_image(tmp_path / "photos.jpg")


_READ = ("import sys\n"
         "from vision.imageio import ImageError, read_reduced\n"
         "for path in sys.argv[1:]:\n"
         "    try:\n"
         "        frame, factor = read_reduced(path)\n"
         "        print(frame.shape[1], frame.shape[0], factor)\n"
         "    except ImageError as exc:\n"
         "        print('error', exc)\n")


def test_a_jpeg_over_the_pixel_limit_is_read_smaller_a_png_refused(tmp_path):
    # the limit is read when OpenCV loads: a child process with a small one stands in
    # for a 48 Mpx phone photo against the 40 Mpx limit
    frame = np.ascontiguousarray(cv2.resize(_pattern(), (640, 480),
                                            interpolation=cv2.INTER_NEAREST))
    (tmp_path / "big.jpg").write_bytes(_jpeg(frame))
    cv2.imwrite(str(tmp_path / "big.png"), frame)
    env = {**os.environ, "OPENCV_IO_MAX_IMAGE_PIXELS": "100000"}
    out = subprocess.run([sys.executable, "-c", _READ, str(tmp_path / "big.jpg"),
                          str(tmp_path / "big.png")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert out[0] == "320 240 2"  # 307,200 pixels > 100,000: decoded at half size
    assert out[1].startswith("error too large") and "smaller copy" in out[1]


def test_shrink_to_shrinks_only_a_longer_side_and_keeps_the_input():
    from vision.imageio import shrink_to

    frame = _pattern(300, 400)
    small = shrink_to(frame, 100)
    assert small.shape == (75, 100, 3) and frame.shape == (300, 400, 3)
    assert shrink_to(frame, 400) is frame
