"""Side faces' marks: a light die's mark seen again on the side face below its top.

A camera that sees the dice aslant sees each light die's top and the side faces turned
towards it, each with a mark. The side face's mark lies next to the top's, is lit less
(the lamp is above: the same pigment shows darker) and is foreshortened along the way
from the top to it (the side face is seen edge-on along that way), where a second die's
top lying there would be lit alike and seen as square as the first. Points are (x, y)
working pixels.
"""

from __future__ import annotations

import numpy as np

from vision.dice_faces import CLASS_NAMES, NONE, Face


def foreshortened_marks(faces: list[Face], side: float, *, reach: float = 1.25,
                        shade: float = 0.8, least_aspect: float = 1.4,
                        max_turn: float = 30.0) -> set[int]:
    """Ids of the plain coloured faces (no mark, no light body) that are the mark of a
    side face of a light die whose top mark (a face with a light ``body``) of the same
    colour lies within ``reach`` dice (``side`` a die's edge): under ``shade`` times its
    brightness and foreshortened towards it (aspect ``least_aspect`` or more, its
    rectangle's short side within ``max_turn`` degrees of the way to the top's mark)."""
    tops = [f for f in faces if f.body > 0 and f.cls in CLASS_NAMES]
    out: set[int] = set()
    for f in faces:
        if (f.cls not in CLASS_NAMES or f.mark != NONE or f.body > 0
                or f.aspect < least_aspect):
            continue
        short = _short_axis(f.box)
        for t in tops:
            way = np.subtract(t.centre, f.centre)
            gap = float(np.hypot(*way))
            if (t.cls != f.cls or not 0 < gap <= reach * side
                    or f.value >= shade * t.value):
                continue
            cos = abs(float(np.dot(way, short))) / gap
            if cos >= np.cos(np.radians(max_turn)):
                out.add(id(f))
                break
    return out


def _short_axis(box: np.ndarray) -> np.ndarray:
    """Unit vector (x, y) along the short sides' direction of a rectangle (4, 2): across
    its long sides."""
    a, b = box[1] - box[0], box[2] - box[1]
    v = a if np.hypot(*a) < np.hypot(*b) else b
    n = float(np.hypot(*v))
    return v / n if n > 0 else np.array([1.0, 0.0])
