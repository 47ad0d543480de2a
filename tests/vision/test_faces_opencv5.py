"""The stored synthetic faces (scenes/faces-opencv5.npz) are what OpenCV 5 draws, and the
faces the card tests use are the same on every OpenCV (4.x draws another font)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scenes import card_faces, faces_opencv5
from scenes.card_faces import deck_specs, draw_face


@pytest.mark.skipif(int(cv2.__version__.split(".")[0]) < 5, reason="checks OpenCV 5's text")
def test_the_stored_faces_are_what_opencv_5_draws():
    store = faces_opencv5.stored()
    specs = list(deck_specs(24).values()) + faces_opencv5.EXTRA_SPECS
    assert len(store) == len(specs)
    for spec in specs:
        assert np.array_equal(store[faces_opencv5.spec_key(spec)], draw_face(spec))


def test_a_titled_face_is_the_stored_one_on_every_opencv(monkeypatch):
    monkeypatch.setattr(card_faces, "_OLD_TEXT", True)  # as on OpenCV 4.x
    spec = deck_specs(24)["act-swap"]
    face = draw_face(spec)
    assert np.array_equal(face, faces_opencv5.stored()[faces_opencv5.spec_key(spec)])
    face[:] = 0  # a copy: the store is left as it was
    assert faces_opencv5.stored()[faces_opencv5.spec_key(spec)].any()
