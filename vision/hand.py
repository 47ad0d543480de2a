"""Is a hand or an arm over the table? A cheap test run on every camera frame.

A hand reaching for the dice always comes in across the frame border, so the detector looks
for a large region, connected to the border, that is not table: of a chromaticity rare in
this frame (the table fills most of it; shading and shadows keep their chromaticity) or,
once a :class:`HandWatcher` has seen the empty table, changed against its slowly updated
picture of the table (the camera is fixed). The region must be far bigger than a die, must
not run along most of a side (the floor beyond the table's edge, new light), and must not be
a convex shape of long straight sides (a card, the table's edge) unless it is new and partly
skin (a forearm). Then a third of it must have skin chromaticity (red over green over blue,
as every skin tone has under ordinary light), or it must be new and large (a sleeve, or a
very light or very dark hand whose chroma says little). Against the table picture a region
must be new in any case: clutter beyond the table's edge was there all along.

Skin colour alone is never enough: red and yellow dice, wood and warm light look like skin.
Everything runs on a 160-pixel-wide copy of the frame (measured by ``hand_pixels``), so a
call costs about a millisecond.

>>> watcher = HandWatcher()
>>> sighting = watcher.update(frame)        # once per camera frame
>>> settler.feed(reading, motion=m, hand=sighting.hand)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cv2

from vision.cvcompat import approx_poly_dp
from vision.hand_pixels import changed_mask, measure, rare_mask, skin_mask


@dataclass(frozen=True)
class HandParams:
    """Tunables of the hand detector; sizes are shares of the frame, so any resolution works.

    Attributes
    ----------
    width : pixels; the frame is shrunk to this width before looking (aspect kept)
    min_area : share of the frame a hand region must cover (a die covers about 0.0015)
    table_share : the commonest chromaticities that together cover this share of the
        frame are the table's own (a hand covers far less of it)
    dark : brightness (0-255, the frame's median scaled to 110) below which chroma is too
        noisy to tell table from hand
    skin_share : share of a region's pixels that must look like skin
    change : distance from the table picture that counts as a change (brightness 0-255
        at half weight, chromaticity times 250)
    change_area : share of the frame a changed region needs to count as a hand without skin
    max_span : a region touching more than this share of one side is a table edge or light
    max_straight : a region filling this share of its convex hull, whose inner outline is
        this share straight runs, is a card or the table's edge, not a hand
    straight_run : share of the frame width a straight stretch of outline runs at least
    learn : weight of each new frame in :class:`HandWatcher`'s table picture
    still_frames : frames a sighting without skin must keep still to be taken for a thing
        put down at the edge and learned into the table picture quickly
    """

    width: int = 160
    min_area: float = 0.008
    table_share: float = 0.85
    dark: float = 28.0
    skin_share: float = 0.3
    change: float = 10.0
    change_area: float = 0.02
    max_span: float = 0.85
    max_straight: float = 0.85
    straight_run: float = 0.06
    learn: float = 0.05
    still_frames: int = 20


@dataclass(frozen=True)
class HandSighting:
    """What the detector decided for one frame.

    Attributes
    ----------
    hand : True when a hand or an arm is over the table
    box : (x, y, width, height) in frame pixels of the region that decided, or None
    area : share of the frame that region covers (0 when there is none)
    skin : share of that region that looks like skin
    changed : share of that region that differs from the table picture (0 without one)
    """

    hand: bool
    box: tuple[int, int, int, int] | None = None
    area: float = 0.0
    skin: float = 0.0
    changed: float = 0.0


NO_HAND = HandSighting(False)


def find_hand(frame: np.ndarray, *, table: np.ndarray | None = None,
              params: HandParams = HandParams()) -> HandSighting:
    """Say whether a hand or an arm reaches over the table in one frame.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    table : ndarray of shape (h, w, 3), float32, optional
        The empty table as :func:`table_picture` sees it (what :class:`HandWatcher`
        keeps); without it only the frame's own colours tell table from hand.
    params : the detector's tunables

    Returns
    -------
    HandSighting
        ``hand`` is True when a large region entering from the border looks like a hand.

    Raises
    ------
    ValueError
        If ``frame`` is not an (H, W, 3) uint8 image, or ``table`` does not fit it.
    """
    picture, chroma, bright, clipped = measure(frame, params.width)
    if table is not None and table.shape != picture.shape:
        raise ValueError(f"table must have shape {picture.shape}, not {table.shape}")
    changed = None if table is None else changed_mask(picture, table, clipped, params)
    return _decide(chroma, bright, changed, params, frame.shape[:2])


def table_picture(frame: np.ndarray, *, params: HandParams = HandParams()) -> np.ndarray:
    """The frame as the detector compares it: small, brightness and chromaticity.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR

    Returns
    -------
    ndarray of shape (h, w, 3), float32, h = H * width / W: per pixel the brightness
    (0-255, the frame's median scaled to 110) and the green and red shares of it times 250
    """
    return measure(frame, params.width)[0]


def _decide(chroma: np.ndarray, bright: np.ndarray, changed: np.ndarray | None,
            params: HandParams, shape: tuple[int, int]) -> HandSighting:
    """The best hand-like region entering from the border, as a sighting."""
    skin = skin_mask(chroma, bright, params)
    candidate = rare_mask(chroma, bright, params)
    if changed is not None:
        candidate |= changed
    mask = cv2.morphologyEx(candidate.view(np.uint8), cv2.MORPH_OPEN, _KERNEL)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    min_px = params.min_area * h * w
    best = NO_HAND
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < min_px or (x > 0 and y > 0 and x + bw < w and y + bh < h):
            continue  # too small, or does not touch the border
        region = labels[y:y + bh, x:x + bw] == i
        sighting = _judge(region, (x, y, bw, bh), skin, changed, params, (h, w), shape)
        if sighting.hand or (not best.hand and sighting.area > best.area):
            best = sighting
            if best.hand:
                break
    return best


_KERNEL = np.ones((3, 3), np.uint8)


def _judge(region: np.ndarray, box: tuple[int, int, int, int], skin: np.ndarray,
           changed: np.ndarray | None, params: HandParams, small: tuple[int, int],
           shape: tuple[int, int]) -> HandSighting:
    """Decide whether one border region (mask inside its box) is a hand."""
    x, y, bw, bh = box
    h, w = small
    area = int(region.sum())
    skin_share = float(skin[y:y + bh, x:x + bw][region].mean())
    change_share = 0.0 if changed is None else float(changed[y:y + bh, x:x + bw][region].mean())
    scale = shape[1] / w
    found = HandSighting(False, (round(x * scale), round(y * scale), round(bw * scale),
                                 round(bh * scale)), area / (h * w), skin_share, change_share)
    if _spans_side(region, box, small) > params.max_span:
        return found
    if changed is not None and change_share < 0.3:
        return found  # there all along: clutter beyond the table's edge, not a hand
    if _is_straight(region, box, small, params) and not (
            change_share >= 0.6 and skin_share >= params.skin_share / 3):
        return found  # a card or an edge; a forearm comes with some skin and a change
    # Without skin, only a large change against the empty table counts: from one frame
    # alone a big thing at the edge might be a book, a cup or a card with a coin on it.
    hand = skin_share >= params.skin_share or (
        change_share >= 0.6 and found.area >= params.change_area)
    return HandSighting(hand, found.box, found.area, found.skin, found.changed)


def _spans_side(region: np.ndarray, box: tuple[int, int, int, int],
                small: tuple[int, int]) -> float:
    """The largest share of one frame side that the region runs along."""
    x, y, bw, bh = box
    h, w = small
    spans = [0.0]
    if y == 0:
        spans.append(region[0].sum() / w)
    if y + bh == h:
        spans.append(region[-1].sum() / w)
    if x == 0:
        spans.append(region[:, 0].sum() / h)
    if x + bw == w:
        spans.append(region[:, -1].sum() / h)
    return float(max(spans))


def _is_straight(region: np.ndarray, box: tuple[int, int, int, int], small: tuple[int, int],
                 params: HandParams) -> bool:
    """True for a convex shape whose inner outline is mostly long straight lines.

    Cards and the table's own edge look like that; a hand has fingers (not convex) or
    a rounded outline, and its straight stretches (a forearm's sides) are shorter.
    """
    contours, _ = cv2.findContours(region.view(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.contourArea(cv2.convexHull(outline))
    if float(region.sum()) < params.max_straight * hull:
        return False  # not convex: fingers, or a hand holding something
    pts = approx_poly_dp(outline, 1.2, True)[:, 0, :] + np.array(box[:2])
    ends = np.roll(pts, -1, axis=0)
    lengths = np.hypot(*(ends - pts).T)
    h, w = small
    x0, y0, x1, y1 = pts[:, 0], pts[:, 1], ends[:, 0], ends[:, 1]
    along = (((x0 == 0) & (x1 == 0)) | ((y0 == 0) & (y1 == 0))
             | ((x0 == w - 1) & (x1 == w - 1)) | ((y0 == h - 1) & (y1 == h - 1)))
    inner = lengths[~along]
    long = inner[inner >= params.straight_run * w].sum()
    return bool(long >= params.max_straight * max(1.0, float(inner.sum())))


class HandWatcher:
    """A hand detector for a fixed camera: keeps a slowly updated picture of the table.

    Feed every frame to :meth:`update`. The first frame that shows no hand on its own
    starts the table picture (after 30 frames the current one does, whatever it shows);
    each later frame is blended in with weight ``params.learn``, a fifth of it while a
    hand is seen, so a resting hand fades only slowly. A sighting
    without skin that keeps perfectly still for ``params.still_frames`` frames is taken
    for a thing put down at the edge (a cup, a box) and learned at twice the weight. A
    frame that differs from the picture almost everywhere (the light was switched, the
    camera moved) replaces it.

    Parameters
    ----------
    params : the detector's tunables
    """

    def __init__(self, *, params: HandParams = HandParams()) -> None:
        self.params = params
        self._table: np.ndarray | None = None
        self._previous: np.ndarray | None = None
        self._still = 0  # frames the sighting's region has not moved
        self._waited = 0  # frames waited for a first frame with no hand in it
        self.last = NO_HAND  # the latest sighting

    def reset(self) -> None:
        """Forget the table (the camera was moved, or a new game starts)."""
        self._table, self._previous, self.last = None, None, NO_HAND
        self._still = self._waited = 0

    def update(self, frame: np.ndarray) -> HandSighting:
        """Look at the next frame; whether a hand or an arm is over the table in it.

        :raises ValueError: ``frame`` is not an (H, W, 3) uint8 image.
        """
        picture, chroma, bright, clipped = measure(frame, self.params.width)
        table = self._table
        if table is None or table.shape != picture.shape:
            self.last = _decide(chroma, bright, None, self.params, frame.shape[:2])
            self._waited = self._waited + 1 if self.last.hand else 0
            if not self.last.hand or self._waited > _WAIT:  # learn the table, not a hand
                self._table = picture
            self._previous, self._still = picture, 0
            return self.last
        changed: np.ndarray | None = changed_mask(picture, table, clipped, self.params)
        if changed is not None and changed.mean() > _RELEARN:
            self._table = table = picture  # new light or a moved camera: a new table
            changed = None
        self.last = _decide(chroma, bright, changed, self.params, frame.shape[:2])
        cv2.accumulateWeighted(picture, table, self._rate(picture, frame.shape[1]))
        self._previous = picture
        return self.last

    def _rate(self, picture: np.ndarray, frame_width: int) -> float:
        """How much of this frame goes into the table picture (see the class notes)."""
        sighting, learn = self.last, self.params.learn
        if not sighting.hand or sighting.box is None or self._previous is None:
            self._still = 0
            return learn
        k = picture.shape[1] / frame_width
        x, y, w, h = (int(v * k) for v in sighting.box)
        moved = cv2.absdiff(picture[y:y + h + 1, x:x + w + 1, 0],
                            self._previous[y:y + h + 1, x:x + w + 1, 0])
        self._still = self._still + 1 if float(moved.mean()) < _STILL else 0
        if sighting.skin < self.params.skin_share and self._still >= self.params.still_frames:
            return 2 * learn
        return learn / 5


_WAIT = 30  # frames to wait for a frame with no hand before learning the table anyway
_STILL = 1.5  # mean brightness change (0-255) of a region that did not move between frames
_RELEARN = 0.6  # share of the frame that changed at once: new light or a moved camera
