"""vision.frames.check_frame: what every recognizer refuses, in one sentence."""

from __future__ import annotations

import numpy as np
import pytest

from vision.frames import check_frame


def test_a_bgr_frame_passes_and_is_not_written():
    frame = np.full((16, 20, 3), 7, np.uint8)
    check_frame(frame, min_side=16)
    assert (frame == 7).all()


@pytest.mark.parametrize("bad, sentence", [
    (None, r"^frame must be an \(H, W, 3\) numpy array, not NoneType$"),
    ([[[0, 0, 0]]], "numpy array, not list$"),
    (np.zeros((8, 8), np.uint8), r"^frame must be an \(H, W, 3\) BGR array, not shape \(8, 8\)$"),
    (np.zeros((8, 8, 4), np.uint8), r"not shape \(8, 8, 4\)$"),
    (np.zeros((8, 8, 3), np.float32), "^frame must be uint8, not float32$"),
    (np.zeros((0, 8, 3), np.uint8), r"^frame is too small \(8x0 pixels\)$"),
])
def test_bad_frames_get_one_sentence(bad, sentence):
    with pytest.raises(ValueError, match=sentence):
        check_frame(bad)


def test_the_sentence_names_the_parameter_and_the_size_is_the_callers():
    with pytest.raises(ValueError, match="^face must be uint8"):
        check_frame(np.zeros((8, 8, 3), np.int16), name="face")
    check_frame(np.zeros((31, 40, 3), np.uint8), min_side=31)
    with pytest.raises(ValueError, match=r"^frame is too small \(40x31 pixels\)$"):
        check_frame(np.zeros((31, 40, 3), np.uint8), min_side=32)
