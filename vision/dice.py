"""Read Toss Up! dice: find every die in a frame and name its top face's colour.

>>> reading = read_dice(frame)            # frame: (H, W, 3) uint8 BGR
>>> reading.green, reading.yellow, reading.red, reading.other

Pipeline (at a working size of at most ``DiceParams.work_size`` pixels wide, smaller for
big dice): exposure -> table colours and foreground blobs (``dice_segment``) -> colour
classes and face candidates near the blobs (``dice_faces``), marks of light dice
(``dice_marks``), touching dice cut apart (``dice_split``) -> one top face per die,
shadows, cloth patterns and side faces left out (``dice_pick``, ``dice_cloth``) -> dice
seen only as a clean square blob (of colour or of edges), as a peak of a pile
(``dice_piles``) or only by their pips, at the typical size and 1.6 times it
(``dice_blobs``) -> totals. Before all,
a colour cast is taken out with the brightest near-white pixels as reference (a lamp
too strong for that, with the small light objects' colour: ``dice_lamp``), and a
checkered cloth's grid turn is measured (its squares are not dice). A calibration
(``vision.calibrate``) is a prior: the die size measured in the frame is kept within a
wide range around the learned one, and the colour boundaries shift a little towards
this table's own colours.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import cv2

from vision import dice_blobs as blobs_
from vision import dice_candidates as cands_
from vision import dice_faces as faces_
from vision import dice_pick as pick
from vision.calibrate import Calibration, apply_calibration, within_prior
from vision.dice_beyond import is_light_and_coloured, is_mark_sized, marks_beyond
from vision.dice_cells import cloth_dice, cloth_pip_dice, in_cloth_shade
from vision.dice_cloth import cloth_grid, is_cloth_square, table_classes
from vision.dice_coins import is_coin, may_be_disc
from vision.dice_grain import is_grain_blotch, stands_out
from vision.dice_hue import hue_step_dice
from vision.dice_lamp import lamp_gains
from vision.dice_marks import find_marks
from vision.dice_shade import shaded_light
from vision.dice_measure import blob_stats, outer_contours
from vision.dice_other import is_table_streak
from vision.dice_piles import pile_dice
from vision.dice_beside import beside_dice
from vision.dice_split import guess_side, split_blocks
from vision.dice_thin import is_inside, is_on_band, thin_blobs
from vision.dice_tint import light_body_mark
from vision.dice_size import die_side_on_table
from vision.dice_segment import (apply_gains, clean_mask, exposure_gain, foreground,
                                 is_table_colour, normalise_exposure, quarter_sample,
                                 table_model, unclipped_value, white_gains, BeforeGain)
from vision.dice_gate import is_explained
from vision.dice_measure import grown_crop, grown_linear_crop
from vision.frames import check_frame
from vision.results import DiceReading, Die


@dataclass(frozen=True)
class DiceParams:
    """Tunables of :func:`read_dice`.

    Attributes
    ----------
    work_size : int
        Frames wider than this many pixels are shrunk to it first.
    face_side : float
        Dice whose edge looks longer than this (pixels) are looked at shrunk to this size.
    fg_threshold : float
        Colour distance (weighted 8-bit Lab) from the table that makes a pixel foreground.
    min_sat, light_value, min_value : int
        HSV saturation that makes a pixel coloured; value above which an uncoloured pixel
        is a light die body; value below which nothing counts as coloured (0-255).
    hue_edges : tuple of 5 ints
        OpenCV hue (0-180) boundaries red|orange, orange|yellow, yellow|green, green|blue,
        blue|red. Orange and blue-to-purple are other games' dice.
    max_aspect, min_fill : float
        Shape of a top face: its minimum-area rectangle's long/short side ratio at most
        ``max_aspect`` and the face covering at least ``min_fill`` of it.
    min_edge : float
        Mean gradient (Sobel of value or saturation) a face's outline must reach.
    min_side, max_side : float
        Die edge length limits in pixels at the working size.
    """

    work_size: int = 640
    face_side: float = 26
    fg_threshold: float = 16.0
    min_sat: int = 80
    light_value: int = 135
    min_value: int = 45
    hue_edges: tuple[int, int, int, int, int] = (8, 16, 40, 92, 162)
    max_aspect: float = 1.75
    min_fill: float = 0.62
    min_edge: float = 40.0
    min_side: float = 9.0
    max_side: float = 140.0


def read_dice(frame: np.ndarray, *, params: DiceParams = DiceParams(),
              calibration: Calibration | dict | None = None) -> DiceReading:
    """Find the dice in a frame and count their top faces by colour.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    params : DiceParams
    calibration : Calibration from ``vision.calibrate.calibrate``, or its ``to_dict()``
        form as stored in the config; optional

    Returns
    -------
    DiceReading
        Totals per colour and each die (outline and centre in frame pixels (x, y)).

    :raises ValueError: ``frame`` is not an (H, W, 3) uint8 array of at least 32x32, or
        the calibration dict is malformed.
    """
    check_frame(frame, min_side=32)
    if isinstance(calibration, dict):
        calibration = Calibration.from_dict(calibration)
    side_hint = None
    if calibration is not None:
        params = apply_calibration(params, calibration)
        side_hint = calibration.side_at(frame.shape[1])
    scale = min(1.0, params.work_size / frame.shape[1])
    work = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale,
                                                 interpolation=cv2.INTER_AREA)
    gain = exposure_gain(work)  # (contrasts the gain clips are read before it)
    exposed = normalise_exposure(work, gain=gain)
    picked = quarter_sample(work)  # (per-pixel changes: the same on the sample, once)
    lamp = functools.cache(lambda raw=picked: lamp_gains(raw))  # (before the gain clips)
    lit = None if exposed is work else BeforeGain(work, _cast(work, picked, lamp), gain)
    picked = normalise_exposure(picked, gain=gain)
    gains = _cast(exposed, picked, lamp)  # (a colour cast, as ``white_balance``)
    work, picked = apply_gains(exposed, gains), apply_gains(picked, gains)
    mask, raw, table, model, side, half = _blobs(work, params,
                                                 side_hint * scale if side_hint else None, lit)
    grid = cloth_grid(work, half, picked)
    # big dice: look at their faces smaller (the blob guess runs large: shadows, clusters)
    shrink = min(1.0, params.face_side / (0.8 * side))
    if shrink < 0.9:
        work = cv2.resize(work, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_LINEAR)
        if lit is not None:
            lit = BeforeGain(cv2.resize(lit.work, work.shape[1::-1],
                                        interpolation=cv2.INTER_LINEAR), lit.gains, lit.gain)
        scale, side = scale * shrink, side * shrink
        half = None  # of the frame before the shrink
    else:
        shrink = 1.0
    size = (work.shape[1], work.shape[0])
    boxes = _doubled_stats(mask, size)
    mask = cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
    step = _TABLE_STEP * shrink
    classes = table_classes(model, params)
    found, beyond = _find_faces(mask, raw, work, table, params, side, boxes, lit,
                                beyond=is_light_and_coloured(classes))

    def on_table(f: faces_.Face) -> bool:  # a streak, a shadow or a blotch of the table
        return is_table_streak(f, at := _table_at(table, f.centre, step)) or (
            pick.is_table_like(f, at, lambda: is_table_colour(
                f.bgr, threshold=params.fg_threshold, model=model)))
    found = [f for f in found if not on_table(f)]
    beyond = [f for f in beyond if not on_table(f)]
    contours = outer_contours(mask)  # of the foreground blobs, traced once
    thin = thin_blobs(contours, side)  # what lies on a pencil is no die
    found = split_blocks([f for f in found if not is_inside(thin, f.centre)])
    cloth = classes & faces_.CLASS_NAMES.keys()
    side = within_prior(die_side_on_table(
        found, side, mask, max_aspect=params.max_aspect, min_fill=params.min_fill,
        min_edge=params.min_edge, checkered=grid is not None, cloth=cloth,
        contours=contours, min_side=params.min_side * shrink),
        side_hint * scale if side_hint else None)
    found += [f for f in beyond if is_mark_sized(f, side) and not is_inside(thin, f.centre)]
    tops = pick.pick_tops(found, side, max_aspect=params.max_aspect, min_fill=params.min_fill,
                          top_area=side * side, min_edge=params.min_edge, cloth=classes,
                          drop=lambda f: is_grain_blotch(f, work, side) or is_cloth_square(
                              f, grid, params, model, side, work, classes=classes) or (
                              may_be_disc(f, side) and is_coin(work, f.centre, side)),
                          soft_die=lambda f: stands_out(f.edge, work, f.centre, side))
    doubt = [pick.is_doubtful_top(t) for t in tops]  # doubtful tops yield to dice found
    doubtful = [t for t, d in zip(tops, doubt) if d]  # otherwise (below)
    tops = [t for t, d in zip(tops, doubt) if not d]
    dice = [_die(f, scale) for f in tops]
    table_v = lambda c: float(_table_at(table, c, step).max())  # noqa: E731
    is_table = lambda bgr, c: pick.is_table_tint(bgr, _table_at(table, c, step), lambda: (  # noqa: E731
        is_table_colour(bgr, threshold=params.fg_threshold, model=model)))
    if not is_explained(contours, [t.centre for t in tops], side):  # else none is left
        dice += _blob_dice(mask, contours, work, side, tops, params, scale, grid,
                           table_v=table_v, half=half, cloth=cloth, is_table=is_table)
        dice += _pip_dice(work, side, dice, scale, params)
        if cloth:
            dice += cloth_pip_dice(work, side, contours, dice, scale, cloth=cloth,
                                   body_colour=lambda box: _body_colour(work, box, params))
    dice += [_die(f, scale) for f in pick.unclaimed(
        doubtful, [(d.centre[0] * scale, d.centre[1] * scale) for d in dice], side)]
    found = np.array([d.outline for d in dice], np.float32) * scale  # (N, 4, 2), work pixels
    dice += _named(beside_dice(contours, work, side, found, table_v=table_v, is_table=is_table),
                   params, scale)
    at = [(d.centre[0] * scale, d.centre[1] * scale) for d in dice]  # nor on a tray's rim
    dice = [d for d, c, band in zip(dice, at, is_on_band(work, mask, at, side))
            if not band and not is_inside(thin, c)]
    return DiceReading.from_dice(sorted(dice, key=lambda d: (d.centre[1], d.centre[0])))


def _cast(frame: np.ndarray, small: np.ndarray,
          lamp: Callable[[], np.ndarray | None]) -> np.ndarray | None:
    """The gains that undo a colour cast: ``white_gains`` (``small`` is the frame's
    ``quarter_sample``), or when it finds none a strong lamp's (``lamp()``: ``dice_lamp``
    on the frame before the exposure gain, so both readings of the frame take the same)."""
    gains = white_gains(frame, small=small)
    return gains if gains is not None else lamp()


def _pip_dice(work: np.ndarray, side: float, dice: list[Die], scale: float,
              params: DiceParams) -> list[Die]:
    """Plain dice seen only by their pips (dark pips on a light body, light on dark), of
    the typical size and then 1.6 times bigger (dice of another set, or nearer the
    camera), looked for in the frame shrunk to match; each takes its body's colour."""
    out: list[Die] = []
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    for grow in (1.0, 1.6):
        small = grey if grow == 1.0 else cv2.resize(grey, None, fx=1 / grow, fy=1 / grow,
                                                    interpolation=cv2.INTER_LINEAR)
        at = scale / grow  # frame pixels -> pixels of `small`
        taken = [np.array(d.outline, np.float32) * at for d in dice + out]
        for box, (cx, cy) in blobs_.pip_groups(small, side, taken):
            colour, share = _body_colour(work, box * grow, params)
            out.append(Die(outline=tuple((float(x / at), float(y / at)) for x, y in box),
                           centre=(float(cx / at), float(cy / at)), colour=colour,
                           confidence=round(0.5 * share, 3)))
    return out


def _body_colour(work: np.ndarray, box: np.ndarray, params: DiceParams) -> tuple[str, float]:
    """The colour name covering most of a die-sized box (4, 2) of the working image, and
    its share there; "other" when no Toss Up colour covers half of it."""
    h, w = work.shape[:2]
    x0, y0 = (int(max(0, v)) for v in box.min(axis=0))
    x1, y1 = int(min(w, box[:, 0].max() + 1)), int(min(h, box[:, 1].max() + 1))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return "other", 1.0
    hsv = cv2.cvtColor(work[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    cls = faces_.class_map(hsv, params.hue_edges, min_sat=params.min_sat,
                           light_value=params.light_value, min_value=params.min_value)
    code, share = blobs_.blob_colour(cls, box - [x0, y0])
    return (faces_.CLASS_NAMES.get(code, "other"), share) if share >= 0.5 else ("other", 1.0)


def _blob_dice(mask: np.ndarray, contours: tuple, work: np.ndarray, side: float,
               tops: list[faces_.Face],
               params: DiceParams, scale: float, grid: float | None,
               table_v: Callable[[tuple[float, float]], float],
               half: np.ndarray | None = None,
               is_table: Callable[[tuple, tuple[float, float]], bool] | None = None,
               cloth: frozenset[int] | set[int] = frozenset()) -> list[Die]:
    """Dice seen only as a clean die-sized square blob (no top face found in it), or as a
    peak of a blob of several touching dice; ``table_v`` gives the table's brightness
    (0-255) at a point (x, y); ``contours`` are the outlines of ``mask``'s blobs;
    ``half`` is ``work`` at half size, if at hand;
    ``is_table`` tells a table colour (BGR) at a point for the piles' peaks; ``cloth``
    holds the table's Toss Up colour classes (dice of them: ``dice_cells``)."""
    taken = [t.centre for t in tops]

    def lit(blobs: list) -> list:  # a square of the cloth's colour in shade is no die
        return [b for b in blobs if not in_cloth_shade(b[0], b[2], b[3], work, cloth,
                                                       params=params)]
    found = lit(blobs_.square_blobs(mask, work, side, taken, grid=grid, contours=contours))
    # the same on outlines drawn by edges: a die of the table's own colour
    taken += [c for _, c, _, _ in found]
    edges = blobs_.half_edges(work, half)
    found += lit(blobs_.square_blobs(
        blobs_.edge_mask(work, edges), work, side, taken, grid=grid, min_corners=1.25,
        plain_die=lambda box, hsv, at: blobs_.is_plain_die(box, hsv, at, mask, params)))
    found += cloth_dice(mask, edges, work, side, taken + [c for _, c, _, _ in found],
                        cloth, params=params, grid=grid, half=half)
    found += lit(hue_step_dice(mask, work, side, taken + [c for _, c, _, _ in found], cloth,
                               params=params, grid=grid, half=half))  # a top of another hue
    # dice lying against each other (or against their shadows): one blob, several peaks
    found += pile_dice(mask, work, side, taken + [c for _, c, _, _ in found], table_v=table_v,
                       is_table=is_table, contours=contours)
    return _named(found, params, scale)


def _named(found: list, params: DiceParams, scale: float) -> list[Die]:
    """Dice found as squares (box, centre, hsv crop, crop origin; working pixels) as Dice
    in frame pixels, each named by the colour covering most of its box."""
    out: list[Die] = []
    for box, centre, hsv, (x0, y0) in found:
        cls = faces_.class_map(hsv, params.hue_edges, min_sat=params.min_sat,
                               light_value=params.light_value, min_value=params.min_value)
        code, share = blobs_.blob_colour(cls, box - [x0, y0], hsv[..., 2])
        code = light_body_mark(cls, box - [x0, y0], code)  # a light die: its mark's
        colour = faces_.CLASS_NAMES.get(code, "other") if share >= 0.5 else "other"
        out.append(Die(outline=tuple((float(x / scale), float(y / scale)) for x, y in box),
                       centre=(float(centre[0] / scale), float(centre[1] / scale)),
                       colour=colour, confidence=round(0.5 * share, 3)))
    return out


def _die(face: faces_.Face, scale: float) -> Die:
    """A top face (working pixels) as a Die in frame pixels."""
    colour, conf = pick.colour_of(face)
    # (the same floats as dividing each coordinate: one array division, then plain floats)
    outline = tuple(map(tuple, (pick.die_box(face) / scale).tolist()))
    centre = (float(face.centre[0] / scale), float(face.centre[1] / scale))
    return Die(outline=outline, centre=centre, colour=colour, confidence=round(conf, 3))


_TABLE_STEP = 16
_SHADE = 0.45  # least brightness of a die's colour, over the table's there (and min_value)
_SHADE_SAT = 120  # ... for pixels at least this saturated (HSV, 0-255)


def _table_at(table: np.ndarray, centre: tuple[float, float], step: float) -> np.ndarray:
    """Local table colour (BGR) near a work-image point (x, y); ``table`` is 1/step size."""
    th, tw = table.shape[:2]
    return table[min(th - 1, int(centre[1] / step)), min(tw - 1, int(centre[0] / step))]


def _blobs(work: np.ndarray, params: DiceParams, side_hint: float | None,
           lit: BeforeGain | None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple, float, np.ndarray]:
    """Blob mask and raw foreground at half the working size (0/255), the table's local
    colour, its dominant colours, a die side guess (working-size pixels; the seams between
    touching dice seen before the gain when ``lit``, as ``_find_faces``) and the working
    image at half size.

    The local table colour is a small BGR image (the frame shrunk 16 times, median filtered).
    """
    h, w = work.shape[:2]
    half = cv2.resize(work, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(half, cv2.COLOR_BGR2YCrCb)
    model = table_model(cv2.resize(lab, (w // 8, h // 8), interpolation=cv2.INTER_AREA))
    raw = foreground(lab, threshold=params.fg_threshold, model=model)
    side = guess_side(  # (above it the frame is shrunk)
        raw, (lambda: lab[:, :, 0]) if lit is None else lambda: lit.gain * unclipped_value(
            cv2.resize(lit.work, (w // 2, h // 2), interpolation=cv2.INTER_AREA),
            lit.gains).astype(np.float32), min_side=params.min_side / 2,
        max_side=params.max_side, split_above=params.face_side / (2 * 0.8 * 0.9))
    mask = clean_mask(raw, side)
    table = cv2.resize(half, (max(4, w // _TABLE_STEP), max(4, h // _TABLE_STEP)),
                       interpolation=cv2.INTER_AREA)
    table = cv2.medianBlur(table, 5)
    raw = cv2.dilate(raw, np.ones((3, 3), np.uint8))
    return mask, raw, table, model, side * 2, half


def _doubled_stats(half: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    """The blob stats (``blob_stats``, rows in another order) of the mask ``half`` grown
    to ``size`` (nearest), taken on ``half`` itself when that is an exact doubling (each
    pixel a 2x2 block: the same blobs, a quarter of the pixels to label); else None."""
    h, w = half.shape
    if size != (2 * w, 2 * h):
        return None
    return blob_stats(half)[1] * np.array([2, 2, 2, 2, 4], np.int32)


def _find_faces(mask: np.ndarray, raw: np.ndarray, work: np.ndarray, table: np.ndarray,
                params: DiceParams, side: float, stats: np.ndarray | None = None,
                lit: BeforeGain | None = None, *, beyond: bool = False
                ) -> tuple[list[faces_.Face], list[faces_.Face]]:
    """Face and mark candidates around every foreground blob (``raw``: the raw foreground
    at half size); ``stats`` are the mask's blob stats (as ``blob_stats``) when at hand;
    ``lit`` is the working frame before the exposure gain if any (``unclipped_value``).
    With ``beyond``, marks away from the blobs too (``dice_beyond.marks_beyond``), given
    apart as the second list.

    A blob's coloured faces may reach out of it by half a die where the die's colour is
    close to the table's, so coloured pixels count near a blob where they differ from the
    table or are clearly brighter than it (a green die on green felt).
    """
    if stats is None:
        _, stats, _ = blob_stats(mask)
    h, w = mask.shape
    min_area = max(params.min_side ** 2 * 0.5, 0.05 * side * side)
    pad = int(0.5 * side) + 2
    keep = (stats[1:, 4] >= min_area) & (stats[1:, 2:4].min(axis=1) >= params.min_side * 0.6)
    if not keep.any():
        return [], []
    boxes = stats[1:][keep]
    x0 = max(0, int(boxes[:, 0].min()) - 2 * pad)  # only look at the part holding the blobs
    y0 = max(0, int(boxes[:, 1].min()) - 2 * pad)
    x1 = min(w, int((boxes[:, 0] + boxes[:, 2]).max()) + 2 * pad)
    y1 = min(h, int((boxes[:, 1] + boxes[:, 3]).max()) + 2 * pad)
    roi = (slice(y0, y1), slice(x0, x1))
    bgr = work[roi]
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    # once, for the class map, the gradient and the faces (quicker than cv2.split)
    planes = tuple(cv2.extractChannel(hsv, i) for i in range(3))
    table_max = table.max(axis=2)
    table_v = grown_linear_crop(table_max, (w, h), roi)  # (the ROI's part only)
    # in a deep shadow a die's colour is darker than ``min_value``, the table's there too:
    # a strongly coloured pixel counts down to a share of the table's brightness
    min_value: int | np.ndarray = params.min_value
    if _SHADE * float(table_max.min()) < params.min_value:  # (most tables: nowhere)
        min_value = np.full_like(table_v, params.min_value)
        cv2.copyTo(cv2.min(cv2.convertScaleAbs(table_v, alpha=_SHADE), params.min_value),
                   cv2.compare(planes[1], _SHADE_SAT, cv2.CMP_GE), min_value)
    cls = faces_.class_map(hsv, params.hue_edges, min_sat=params.min_sat,
                           light_value=params.light_value, min_value=min_value,
                           planes=planes)
    brighter = cv2.compare(planes[2], cv2.convertScaleAbs(table_v, alpha=1.12, beta=6),
                           cv2.CMP_GT)
    unlike = cv2.bitwise_or(brighter, grown_crop(raw, (w, h), roi))
    # brightness measured before the gain, and the gain: on the gained scale
    before = None if lit is None else (unclipped_value(lit.work[roi], lit.gains), lit.gain)
    grad = faces_.gradient(hsv, planes)  # (a mark's rays stop where the picture shows one)
    near = np.zeros(hsv.shape[:2], np.uint8)
    for x, y, bw, bh, _ in boxes:
        near[max(0, y - pad - y0):y + bh + pad - y0, max(0, x - pad - x0):x + bw + pad - x0] = 255
    edges = grad if before is None else faces_.unclipped_gradient(grad, before)  # (outlines)
    found = cands_.face_candidates(cls, mask[roi], near, unlike, hsv, bgr, edges, (x0, y0),
                                   min_area, side=side, traced=(done := {}),
                                   shape=(params.max_aspect, params.min_fill), planes=planes,
                                   lit=before)
    shaded = shaded_light(cls, planes[2], table_v, table_max, params=params)  # (marks' rings)
    found += find_marks(shaded, hsv, bgr, grad, near, (x0, y0), min_area, params.max_side,
                        traced=done, lit=before)
    if not beyond:
        return found, []
    return found, marks_beyond(lambda everywhere: find_marks(  # (near's: found above)
        shaded, hsv, bgr, grad, everywhere, (x0, y0), min_area, params.max_side, lit=before,
        skip=near), near, (x0, y0))
