"""Card outlines from local keypoints: where a deck face's own details recur in the frame.

The outline search of ``cards_find`` looks for a card's edges; it fails where the edges
melt into the table (a white card on newspaper, next to a white box) or where a hand or
an object hides a corner. Here each reference face's keypoints (SIFT) are matched to the
frame's, and a face whose matches agree on one perspective mapping (a homography fitted
with RANSAC) gives the card's outline directly: the face's corners mapped into the frame.
Only outlines come out of this module; naming them stays with ``cards_name``, so a
look-alike still has to win its duel.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_match import Bank

_CACHE: dict[tuple[int, int], tuple[Bank, np.ndarray, np.ndarray, cv2.DescriptorMatcher]] = {}
#: A frame whose kept keypoints have a near twin in the frame this often shows a repeated
#: texture (a checked cloth, card backs) that took the keypoint budget from the cards: the
#: budget is then shared out evenly over tiles of ``TILE`` work pixels.
REPEATED = 0.6
TWIN = 150.0  # descriptor distance of a near twin (a SIFT descriptor's length is ~512)
TILE = 64


@dataclass(frozen=True)
class KeyParams:
    """Tunables of the keypoint search.

    Attributes
    ----------
    work_side : int
        Long side of the downscaled frame the keypoints are found on, pixels.
    ratio : float
        A frame keypoint matches a face when its nearest reference descriptor is closer
        than this fraction of the second nearest on another face (Lowe's ratio test).
    min_matches, min_inliers : int
        Matches a face needs before a mapping is fitted, and matches that must agree.
    reprojection : float
        Largest error of an agreeing match, work pixels.
    max_cards : int
        Most outlines of one face (a deck may hold two copies of a card).
    max_keys : int
        Most keypoints taken from a frame (the strongest).
    checks : int
        Leaves the approximate nearest-neighbour search visits per frame keypoint.
    min_spread, min_share : float
        Agreeing matches bunched on less than ``min_spread`` of the face's area (their
        convex hull) must also be at least ``min_share`` of the face's matches: a small
        consensus among chance matches places no card, it only guesses one.
    max_distance, max_fine_distance : float
        Looser naming gates (``MatchParams``) for an outline the face's own keypoints
        vouch for: the name must still be that face, and win any look-alike duel.
    first_look : int
        Long side (pixels) of a cheap first look (``cards_glance``) that marks where the
        search runs at ``work_side``; 0 (the default) searches the whole work frame.
    """

    work_side: int = 640
    ratio: float = 0.8
    min_matches: int = 6
    min_inliers: int = 6
    reprojection: float = 4.0
    max_cards: int = 2
    max_keys: int = 1000
    checks: int = 32
    min_spread: float = 0.03
    min_share: float = 0.5
    max_distance: float = 0.8
    max_fine_distance: float = 0.6
    first_look: int = 0


def face_keys(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The SIFT keypoints of a deck's faces (N, Hf, Wf, 3) uint8 BGR, found once per deck.

    Returns their positions (K, 2) float32 (x, y) in face pixels, the face index (K,)
    int64 of each and their descriptors (K, 128) float32. The deck's index keeps them
    (``deck.load_deck``: ``Bank.keys``), so a process's first frame need not find them."""
    sift = cv2.SIFT_create()
    pts, descs, owner = [np.zeros((0, 2), np.float32)], [np.zeros((0, 128), np.float32)], []
    for i, face in enumerate(faces):
        kps, d = sift.detectAndCompute(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), None)
        if d is None:
            continue
        pts.append(np.array([k.pt for k in kps], np.float32))
        descs.append(d)
        owner.append(np.full(len(kps), i, np.int64))
    return (np.concatenate(pts), np.concatenate(owner) if owner else np.zeros(0, np.int64),
            np.concatenate(descs))


def reference_keys(bank: Bank, faces: np.ndarray, checks: int = 32
                   ) -> tuple[np.ndarray, np.ndarray, cv2.DescriptorMatcher | None]:
    """A deck's SIFT keypoints: their positions, faces and a matcher, once per bank.

    Keypoint positions (K, 2) float32 (x, y) in face pixels, the face index (K,) of each
    and a matcher holding their descriptors (an approximate nearest-neighbour index; None
    when no face has a keypoint). The keypoints are the bank's own (``Bank.keys``, kept
    in the deck's index) or, without them, found in ``faces`` (:func:`face_keys`)."""
    hit = _CACHE.get((id(bank), checks))
    if hit is not None and hit[0] is bank:
        return hit[1], hit[2], hit[3]
    pts, owner, desc = bank.keys if bank.keys is not None else face_keys(faces)
    matcher = None
    if len(desc):
        matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": checks})
        matcher.add([desc])
        # the k-d trees split at random: seeded, the same deck gives the same answers
        # whatever ran before (OpenCV's per-thread generator is reseeded here)
        cv2.setRNGSeed(0)
        matcher.train()
    out = (pts, owner, matcher)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[(id(bank), checks)] = (bank, *out)
    return out


@dataclass(frozen=True)
class FrameKeys:
    """A frame's keypoints on its work frame (``KeyParams.work_side``).

    Attributes
    ----------
    pts : ndarray of shape (K, 2), float32
        Positions (x, y) in work pixels.
    desc : ndarray of shape (K, 128), float32
        SIFT descriptors.
    strength : ndarray of shape (K,), float32
        Detector response (the strongest are kept).
    scale : float
        Work pixels per frame pixel.
    nearest : ndarray of shape (K, 3), float64, optional
        Per keypoint, the deck's nearest reference descriptor (index) and the distances
        to the nearest two (:func:`with_nearest`); NaN rows are not searched yet. They
        belong to the deck they were searched in: use such keys with that deck only.
    """

    pts: np.ndarray
    desc: np.ndarray
    strength: np.ndarray
    scale: float
    nearest: np.ndarray | None = None


def work_gray(frame: np.ndarray, params: KeyParams = KeyParams()) -> tuple[np.ndarray, float]:
    """The gray work frame (long side at most ``work_side``) and its scale."""
    h, w = frame.shape[:2]
    scale = min(1.0, params.work_side / max(h, w))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if scale < 1:
        gray = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return gray, scale


def frame_keys(gray: np.ndarray, scale: float, params: KeyParams = KeyParams(), *,
               reuse: FrameKeys | None = None, changed: np.ndarray | None = None,
               tile: int = 32) -> FrameKeys:
    """The strongest SIFT keypoints of a gray work frame (from :func:`work_gray`).

    With ``reuse`` (the keypoints of an earlier frame of the same camera) and ``changed``
    (bool, one per ``tile`` x ``tile`` work pixels, True where the picture changed since),
    only the changed tiles are searched afresh; the keypoints elsewhere are reused.
    """
    sift = cv2.SIFT_create(nfeatures=params.max_keys)
    if reuse is None or changed is None or reuse.scale != scale:
        kps, desc = sift.detectAndCompute(gray, None)
        if desc is None:
            return FrameKeys(np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32),
                             np.zeros(0, np.float32), scale)
        if len(kps) >= params.max_keys and _repeated(desc):
            # all keypoints found, the budget shared by tile: the descriptors of all come
            # from the same pyramid (the same numbers ``compute`` gives the kept ones, one
            # SIFT pyramid fewer: a tenth of the search on a repeated texture)
            every, all_desc = cv2.SIFT_create().detectAndCompute(gray, None)
            keep = _by_tile(np.array([k.pt for k in every], np.float32),
                            np.array([k.response for k in every], np.float32),
                            gray.shape, params.max_keys)
            kps, desc = [every[i] for i in keep], all_desc[keep]
        return FrameKeys(np.array([k.pt for k in kps], np.float32), desc,
                         np.array([k.response for k in kps], np.float32), scale)
    # a keypoint's descriptor sees a tile's neighbours: those are searched afresh too
    grown = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    parts = [_where(reuse, ~grown, tile)]
    known = [parts[0].nearest]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(grown.astype(np.uint8),
                                                               connectivity=8)
    h, w = gray.shape
    for k in range(1, count):
        c, r, cw, rh = (int(v) for v in stats[k, :4])
        # searched with a margin of a tile (no edge effects), kept on its own tiles only
        x0, y0 = max(0, (c - 1) * tile), max(0, (r - 1) * tile)
        kps, desc = sift.detectAndCompute(gray[y0:min(h, (r + rh + 1) * tile),
                                               x0:min(w, (c + cw + 1) * tile)], None)
        if desc is None:
            continue
        found = FrameKeys(np.array([p.pt for p in kps], np.float32).reshape(-1, 2) + (x0, y0),
                          desc, np.array([p.response for p in kps], np.float32), scale)
        parts.append(_where(found, labels == k, tile))
        known.append(np.full((len(parts[-1].pts), 3), np.nan))
    keys = FrameKeys(*(np.concatenate([getattr(p, f) for p in parts])
                       for f in ("pts", "desc", "strength")), scale,
                     None if known[0] is None else np.concatenate(known))
    if len(keys.pts) > params.max_keys:
        best = (_by_tile(keys.pts, keys.strength, gray.shape, params.max_keys)
                if _repeated(keys.desc) else
                np.sort(np.argsort(-keys.strength, kind="stable")[:params.max_keys]))
        keys = _take(keys, best)
    return keys


def _repeated(desc: np.ndarray) -> bool:
    """Whether most keypoints (descriptors (K, 128), a sample of 200) have a near twin in
    the frame: a repeated texture (``REPEATED``)."""
    pick = desc[np.linspace(0, len(desc) - 1, min(200, len(desc))).astype(int)]
    d2 = (pick * pick).sum(1)[:, None] + (desc * desc).sum(1)[None] - 2 * pick @ desc.T
    twin = np.partition(d2, 1, axis=1)[:, 1]  # the nearest but itself
    return float((twin < TWIN * TWIN).mean()) > REPEATED


def _by_tile(pts: np.ndarray, strength: np.ndarray, shape: tuple[int, ...], budget: int
             ) -> np.ndarray:
    """Indices (sorted) of ``budget`` keypoints: the strongest of each ``TILE`` square up to
    an even share of the budget, then the strongest of the rest."""
    h, w = shape[:2]
    cols, rows = max(1, round(w / TILE)), max(1, round(h / TILE))
    cell = (np.clip((pts[:, 1] * rows / h).astype(int), 0, rows - 1) * cols
            + np.clip((pts[:, 0] * cols / w).astype(int), 0, cols - 1))
    order = np.argsort(-strength, kind="stable")
    by_cell = order[np.argsort(cell[order], kind="stable")]  # per tile, strongest first
    rank = np.empty(len(order), int)  # each keypoint's rank by strength within its tile
    rank[by_cell] = np.arange(len(order)) - np.searchsorted(cell[by_cell], cell[by_cell])
    share = budget // (rows * cols)
    first, rest = order[rank[order] < share], order[rank[order] >= share]
    return np.sort(np.concatenate([first, rest[:max(0, budget - len(first))]]))


def _where(keys: FrameKeys, tiles: np.ndarray, tile: int) -> FrameKeys:
    """The keypoints lying on the tiles marked True."""
    col = np.clip((keys.pts[:, 0] // tile).astype(int), 0, tiles.shape[1] - 1)
    row = np.clip((keys.pts[:, 1] // tile).astype(int), 0, tiles.shape[0] - 1)
    return _take(keys, tiles[row, col])


def _take(keys: FrameKeys, which: np.ndarray) -> FrameKeys:
    """The keypoints an index or mask picks."""
    return FrameKeys(keys.pts[which], keys.desc[which], keys.strength[which], keys.scale,
                     None if keys.nearest is None else keys.nearest[which])


def with_nearest(keys: FrameKeys, faces: np.ndarray, bank: Bank,
                 params: KeyParams = KeyParams()) -> FrameKeys:
    """``keys`` with every keypoint's nearest reference descriptors (``nearest``) known;
    only the keypoints not searched yet are searched (the deck's index is built once)."""
    near = (np.full((len(keys.pts), 3), np.nan) if keys.nearest is None
            else keys.nearest.copy())
    todo = np.flatnonzero(np.isnan(near[:, 0]))
    matcher = reference_keys(bank, faces, params.checks)[2]
    if matcher is None or not len(todo):
        return FrameKeys(keys.pts, keys.desc, keys.strength, keys.scale, near)
    for row, pair in zip(todo, matcher.knnMatch(keys.desc[todo], k=2)):
        near[row] = ((pair[0].trainIdx, pair[0].distance, pair[1].distance) if len(pair) == 2
                     else (-1, np.inf, np.inf))
    return FrameKeys(keys.pts, keys.desc, keys.strength, keys.scale, near)


def find_keypoint_quads(frame: np.ndarray, faces: np.ndarray, bank: Bank, *,
                        params: KeyParams = KeyParams(), keys: FrameKeys | None = None
                        ) -> list[tuple[np.ndarray, str]]:
    """Card outlines where a face's keypoints recur in the frame under one homography.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    faces : ndarray of shape (N, Hf, Wf, 3), uint8, BGR
        The deck's rectified reference faces (``Deck.faces``).
    bank : Bank
        The deck's bank (the key of the per-deck keypoint cache).
    keys : FrameKeys, optional
        The frame's keypoints when already found (:func:`frame_keys`).

    Returns
    -------
    found : list of (quad, card_id)
        ``quad``, ndarray of shape (4, 2), float32: corners (x, y) in frame pixels, in
        the face's own order (top-left, top-right, bottom-right, bottom-left); ``card_id``
        the face whose keypoints it shows.
    """
    ref_pts, ref_owner, matcher = reference_keys(bank, faces, params.checks)
    if matcher is None or len(ref_pts) < 2:
        return []
    if keys is None:
        keys = frame_keys(*work_gray(frame, params), params)
    pts, scale = keys.pts, keys.scale
    if len(pts) < params.min_matches:
        return []
    near = with_nearest(keys, faces, bank, params).nearest
    good = np.flatnonzero(near[:, 1] < params.ratio * near[:, 2])
    fh, fw = faces.shape[1:3]
    corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    quads: list[tuple[np.ndarray, str]] = []
    by_face: dict[int, list[int]] = {}
    for k in good:
        by_face.setdefault(int(ref_owner[int(near[k, 0])]), []).append(int(k))
    for face, ks in by_face.items():
        src = ref_pts[near[ks, 0].astype(int)]
        dst = pts[ks]
        for _ in range(params.max_cards):
            if len(src) < params.min_matches:
                break
            quad, inliers = _fit(src, dst, corners, params)
            if quad is None:
                break
            quads.append((quad / scale, bank.ids[face]))
            src, dst = src[~inliers], dst[~inliers]
    return quads


def _fit(src: np.ndarray, dst: np.ndarray, corners: np.ndarray, params: KeyParams
         ) -> tuple[np.ndarray | None, np.ndarray]:
    """The face's corners mapped by a RANSAC homography, and which matches agree.

    Matches bunched on the visible strip of a partly hidden card fix a homography poorly
    (its perspective terms swing the far corners anywhere); then a similarity (shift,
    turn, scale), which a card seen from above nearly is, is fitted instead.
    """
    hom, mask = cv2.findHomography(src, dst, cv2.RANSAC, params.reprojection)
    if (hom is not None and mask is not None and mask.sum() >= params.min_inliers
            and _sound(src, mask.ravel() > 0, corners, params)):
        quad = cv2.perspectiveTransform(corners[None], hom)[0]
        if _plausible(quad):
            return quad.astype(np.float32), mask.ravel() > 0
    sim, mask = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC,
                                            ransacReprojThreshold=params.reprojection)
    if sim is None or mask is None:
        return None, np.zeros(len(src), bool)
    inliers = mask.ravel() > 0
    if inliers.sum() < params.min_inliers:
        return None, inliers
    quad = cv2.transform(corners[None], sim)[0]
    if not _plausible(quad) or not _sound(src, inliers, corners, params):
        return None, inliers
    return quad.astype(np.float32), inliers


def _sound(src: np.ndarray, inliers: np.ndarray, corners: np.ndarray, params: KeyParams
           ) -> bool:
    """Whether agreeing matches (face points ``src[inliers]``) vouch for an outline: spread
    over the face, or bunched (a strip of a hidden card) but most of the face's matches."""
    if inliers.sum() >= params.min_share * len(src):
        return True
    pts = src[inliers].astype(np.float32).reshape(-1, 1, 2)
    area = cv2.contourArea(cv2.convexHull(pts)) if len(pts) >= 3 else 0.0
    return float(area) >= params.min_spread * float(cv2.contourArea(corners))


def _plausible(quad: np.ndarray) -> bool:
    """A convex outline, not folded or degenerate, with sides of comparable length."""
    if not cv2.isContourConvex(quad.astype(np.float32)):
        return False
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    if sides.min() < 8:
        return False
    return bool(sides[0] / sides[2] < 2 and sides[2] / sides[0] < 2
                and sides[1] / sides[3] < 2 and sides[3] / sides[1] < 2)
