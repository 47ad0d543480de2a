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
    max_distance, max_fine_distance : float
        Looser naming gates (``MatchParams``) for an outline the face's own keypoints
        vouch for: the name must still be that face, and win any look-alike duel.
    """

    work_side: int = 640
    ratio: float = 0.8
    min_matches: int = 6
    min_inliers: int = 6
    reprojection: float = 4.0
    max_cards: int = 2
    max_keys: int = 1000
    checks: int = 32
    max_distance: float = 0.8
    max_fine_distance: float = 0.6


def _reference_keys(bank: Bank, faces: np.ndarray, checks: int = 32
                    ) -> tuple[np.ndarray, np.ndarray, cv2.DescriptorMatcher | None]:
    """Keypoint positions (K, 2) and face index (K,) of a deck, and a matcher holding
    their descriptors (an approximate nearest-neighbour index), computed once per bank."""
    hit = _CACHE.get((id(bank), checks))
    if hit is not None and hit[0] is bank:
        return hit[1], hit[2], hit[3]
    sift = cv2.SIFT_create()
    pts, descs, owner = [], [], []
    for i, face in enumerate(faces):
        kps, d = sift.detectAndCompute(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), None)
        if d is None:
            continue
        pts.append(np.array([k.pt for k in kps], np.float32))
        descs.append(d)
        owner.append(np.full(len(kps), i))
    matcher = None
    if descs:
        matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": checks})
        matcher.add([np.concatenate(descs)])
        # the k-d trees split at random: seeded, the same deck gives the same answers
        # whatever ran before (OpenCV's per-thread generator is reseeded here)
        cv2.setRNGSeed(0)
        matcher.train()
    out = (np.concatenate(pts) if pts else np.zeros((0, 2), np.float32),
           np.concatenate(owner) if owner else np.zeros(0, int), matcher)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[(id(bank), checks)] = (bank, *out)
    return out


def find_keypoint_quads(frame: np.ndarray, faces: np.ndarray, bank: Bank, *,
                        params: KeyParams = KeyParams()) -> list[tuple[np.ndarray, str]]:
    """Card outlines where a face's keypoints recur in the frame under one homography.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    faces : ndarray of shape (N, Hf, Wf, 3), uint8, BGR
        The deck's rectified reference faces (``Deck.faces``).
    bank : Bank
        The deck's bank (the key of the per-deck keypoint cache).

    Returns
    -------
    found : list of (quad, card_id)
        ``quad``, ndarray of shape (4, 2), float32: corners (x, y) in frame pixels, in
        the face's own order (top-left, top-right, bottom-right, bottom-left); ``card_id``
        the face whose keypoints it shows.
    """
    ref_pts, ref_owner, matcher = _reference_keys(bank, faces, params.checks)
    if matcher is None or len(ref_pts) < 2:
        return []
    h, w = frame.shape[:2]
    scale = min(1.0, params.work_side / max(h, w))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if scale < 1:
        gray = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    kps, desc = cv2.SIFT_create(nfeatures=params.max_keys).detectAndCompute(gray, None)
    if desc is None or len(kps) < params.min_matches:
        return []
    pts = np.array([k.pt for k in kps], np.float32)
    pairs = matcher.knnMatch(desc, k=2)
    good = [m[0] for m in pairs if len(m) == 2 and m[0].distance < params.ratio * m[1].distance]
    fh, fw = faces.shape[1:3]
    corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    quads: list[tuple[np.ndarray, str]] = []
    by_face: dict[int, list[cv2.DMatch]] = {}
    for m in good:
        by_face.setdefault(int(ref_owner[m.trainIdx]), []).append(m)
    for face, ms in by_face.items():
        src = ref_pts[[m.trainIdx for m in ms]]
        dst = pts[[m.queryIdx for m in ms]]
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
    if hom is not None and mask is not None and mask.sum() >= params.min_inliers:
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
    if not _plausible(quad):
        return None, inliers
    return quad.astype(np.float32), inliers


def _plausible(quad: np.ndarray) -> bool:
    """A convex outline, not folded or degenerate, with sides of comparable length."""
    if not cv2.isContourConvex(quad.astype(np.float32)):
        return False
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    if sides.min() < 8:
        return False
    return bool(sides[0] / sides[2] < 2 and sides[2] / sides[0] < 2
                and sides[1] / sides[3] < 2 and sides[3] / sides[1] < 2)
