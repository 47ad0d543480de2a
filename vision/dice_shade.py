"""A light die's body in a shadow: light for the light that falls there.

The colour classes are absolute: an uncoloured pixel is a light die's body when its
brightness reaches ``light_value``. A shadow dims the table and the dice in it by the same
share, so a white die in a hard shadow or a dark corner reads grey and its mark looks
ringed by grey, not by a light body (``dice_marks``). The table's local brightness says how
much light falls at each place: where it is darker than the lit table by a shadow's share,
an uncoloured pixel is light at the same share of ``light_value``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision.dice_faces import GREY, LIGHT, percentile

if TYPE_CHECKING:
    from vision.dice import DiceParams

SHADOW = 0.7  # the table darker than this share of its lit brightness is in shadow: a
#               hard shadow takes a third of the light or more; lesser dips are the table's
#               own pattern (a tray's grey floor inside a white rim, its black edge blurred
#               into the table's map, checks, streaks), where the classes stay absolute


def shaded_light(cls_roi: np.ndarray, value: np.ndarray, table_v: np.ndarray,
                 table_max: np.ndarray, *, params: DiceParams) -> np.ndarray:
    """The class map with grey pixels in shadow bright for their light taken as light.

    Parameters
    ----------
    cls_roi : ndarray of shape (H, W), uint8
        Colour class codes (``dice_faces.class_map``); not written to.
    value : ndarray of shape (H, W), uint8
        The V plane (HSV) of the same pixels.
    table_v : ndarray of shape (H, W), uint8
        The table's local brightness (largest BGR channel) at each pixel.
    table_max : ndarray, uint8
        The table's local brightness over the whole frame (small): its 90th percentile is
        the lit table's.
    params : DiceParams
        Its ``light_value`` and ``min_value`` (0-255): a grey pixel (uncoloured, under
        ``light_value``) is light in shadow when its brightness reaches ``light_value``
        times the share of light falling there (the table's brightness over ``SHADOW``
        times the lit table's), and ``min_value``.

    Returns
    -------
    ndarray of shape (H, W), uint8
        ``cls_roi`` itself when no part of the table is in shadow, else a copy.
    """
    lit = SHADOW * percentile(table_max.ravel(), 90)
    if lit <= 0 or float(table_max.min()) >= lit:
        return cls_roi  # (most tables: no shadow anywhere)
    need = cv2.convertScaleAbs(table_v, alpha=params.light_value / lit)
    cv2.max(need, params.min_value, dst=need)  # (a grey pixel is under light_value already)
    light = cv2.compare(value, need, cv2.CMP_GE)
    cv2.bitwise_and(light, cv2.compare(cls_roi, GREY, cv2.CMP_EQ), dst=light)
    out = cls_roi.copy()
    cv2.subtract(out, GREY - LIGHT, dst=out, mask=light)  # (GREY to LIGHT)
    return out
