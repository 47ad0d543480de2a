"""The synthetic faces that carry text, as OpenCV 5 draws them, for OpenCV 4.x.

OpenCV 5's ``putText`` draws its own font; 4.x draws the Hershey strokes, another shape
and width, so every titled face of ``card_faces`` came out different on a Raspberry Pi's
OpenCV 4.6 and the card tests built on them disagreed there (7 of them), whatever the
reader did. The 24 deck faces and the foreign faces the tests draw are stored here as
OpenCV 5 draws them (``faces-opencv5.npz``, made by ``python -m scenes.faces_opencv5`` on
OpenCV 5); on 4.x :func:`card_faces.draw_face` returns the stored face for those specs.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np

STORE = Path(__file__).with_name("faces-opencv5.npz")
#: faces drawn by the tests beyond the deck (foreign look-alikes)
EXTRA_SPECS = [{"art": 100, "colour": 0, "title": "SNAP"},
               {"art": 100, "colour": 0, "title": "RAFT"},
               {"art": 200, "colour": 4, "title": "NUMBER", "numeral": "7"}]


def spec_key(spec: dict) -> str:
    """A spec's name in the store."""
    return repr(sorted(spec.items()))


@functools.lru_cache(maxsize=1)
def stored() -> dict[str, np.ndarray]:
    """Spec key -> face (352, 252, 3) uint8 BGR, as OpenCV 5 draws it; {} if not stored."""
    if not STORE.is_file():
        return {}
    with np.load(STORE, allow_pickle=False) as z:
        return {str(k): z[f"f{i}"] for i, k in enumerate(z["keys"])}


def _write() -> None:
    import cv2

    from scenes.card_faces import deck_specs, draw_face
    if int(cv2.__version__.split(".")[0]) < 5:
        sys.exit("run this on OpenCV 5: it stores the faces as OpenCV 5 draws them")
    specs = list(deck_specs(24).values()) + EXTRA_SPECS
    faces = {f"f{i}": draw_face(spec) for i, spec in enumerate(specs)}
    np.savez_compressed(STORE, keys=np.array([spec_key(s) for s in specs]), **faces)
    print(f"{STORE}: {len(specs)} faces")


if __name__ == "__main__":
    _write()
