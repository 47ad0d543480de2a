"""Outlines of cards cut by the frame's edge, completed beyond it.

A card lying across the edge of the picture shows three of its sides; the contour of
what is seen closes along the frame's edge, and that fourth side is no side of the card.
Taken as it is, the outline is a trapezoid (the frame's edge is not parallel to the
card's far side), so the rectified card is sheared and fits no face. The card's true
outline keeps the three sides seen and runs its two cut sides on, each along its own
direction, to the length the deck's aspect gives the far side; the part beyond the frame
is simply not seen (``cards_stages.rectify`` marks it).
"""

from __future__ import annotations

import numpy as np

EDGE = 0.01  # a corner this close to the frame's edge (of its long side) lies on it
LONGER = 1.03  # a completion must be this much longer than the cut sides seen


def beyond_frame(quads: list[np.ndarray], shape: tuple[int, ...], aspect: float
                 ) -> list[np.ndarray]:
    """The outlines among ``quads`` with one side on the frame's edge, completed beyond it.

    Parameters
    ----------
    quads : list of ndarray of shape (4, 2), float32
        Outline hypotheses, corners (x, y) in frame pixels, in order around the outline.
    shape : tuple
        The frame's shape, (H, W, ...).
    aspect : float
        Card width / height (portrait).

    Returns
    -------
    list of ndarray of shape (4, 2), float32
        One completed outline per side found on the frame's edge whose card runs on
        beyond it: its two corners there moved outward along the two cut sides. Empty
        when no outline lies on an edge.
    """
    h, w = shape[:2]
    out = []
    for quad in quads:
        q = np.asarray(quad, np.float32)
        for i in range(4):
            a, b = q[i], q[(i + 1) % 4]
            if not _on_edge(a, b, w, h, max(2.0, EDGE * max(w, h))):
                continue
            c, d = q[(i + 2) % 4], q[(i + 3) % 4]  # the far side, seen whole: b-c, d-a cut
            far = float(np.hypot(*(c - d)))
            seen_a, seen_b = float(np.hypot(*(a - d))), float(np.hypot(*(b - c)))
            for full in (far / aspect, far * aspect):
                # the card runs on beyond the edge: no shorter than its sides seen there
                # (the edge cuts them at a slant), longer than at least one of them
                if LONGER * full >= max(seen_a, seen_b) and full > LONGER * min(seen_a, seen_b):
                    done = q.copy()
                    done[i] = d + (a - d) * max(full, seen_a) / max(seen_a, 1e-6)
                    done[(i + 1) % 4] = c + (b - c) * max(full, seen_b) / max(seen_b, 1e-6)
                    out.append(done)
                    break
    return out


def _on_edge(a: np.ndarray, b: np.ndarray, w: int, h: int, near: float) -> bool:
    """Whether both corners lie within ``near`` pixels of one edge of a (w, h) frame."""
    return bool(max(a[0], b[0]) <= near or max(a[1], b[1]) <= near
                or min(a[0], b[0]) >= w - 1 - near or min(a[1], b[1]) >= h - 1 - near)


def leaves_frame(corners: tuple[tuple[float, float], ...], shape: tuple[int, ...]) -> bool:
    """Whether an outline (corners (x, y)) runs on beyond the edge of a frame of ``shape``
    (H, W, ...): the card is seen only in part, the part the frame's edge leaves."""
    h, w = shape[:2]
    near = max(2.0, EDGE * max(w, h))
    c = np.asarray(corners, np.float32)
    return bool(((c < -near) | (c > np.array([w - 1, h - 1], np.float32) + near)).any())
