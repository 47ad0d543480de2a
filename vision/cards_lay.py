"""A look-alike whose own alignment failed is laid over the card as the closest face lies.

Each face shortlisted for a card is aligned to it on its own (``cards_match.align``: an ECC
fit of the coarse lightness, which falls back to no correction, the identity, when it
fails or strays). A sparse face (an ace: one pip on white, a small index) gives that fit
little to hold on to; on a card whose outline is a few percent off, or washed out by
glare, its fit fails while the closest face's succeeds, so the sparse face is measured
misaligned and looks far from a card that shows it (a glared ace of diamonds: the ace of
hearts 0.27, its own face 0.85 unaligned, 0.29 laid as the ace of hearts lies). It then
never meets the closest face in the look-alike duel, which alone can tell them apart.
Faces of one deck share a layout, so the alignment that lays the closest face over the
card is a fair stand-in for a fit that failed: such a face keeps whichever of the two fits
it better. A face whose own fit succeeded keeps it (laying every face as the closest lies,
whatever its own fit, brought look-alikes of taught decks into duels they lose unsure:
seed 33 74 -> 72/80). A face that does not show on the card stays far either way.
"""

from __future__ import annotations

import numpy as np

from vision.cards_match import fine_distance

__all__ = ["lay_as_closest"]

_IDENTITY = np.eye(2, 3, dtype=np.float32)  # what ``cards_match.align`` gives when it fails


def lay_as_closest(picks: dict[str, int], keep: float, aligned: dict, masks: dict,
                   dist: dict[str, float], warps: dict[str, np.ndarray]
                   ) -> tuple[dict, dict, dict[str, float], dict[str, np.ndarray]]:
    """The fits of ``cards_name._fine_fits``, a face whose own fit failed also laid as the
    closest face lies.

    Parameters
    ----------
    picks : dict of str to int
        Shortlisted face id -> reference index (``>= N``: turned 180 degrees); the first
        is the closest face by the coarse ranking.
    keep : float
        ``MatchParams.keep_cells``.
    aligned, masks, dist, warps : dict
        Per face id: (card features laid over the reference, the reference), the card's
        valid mask laid the same way, the fine distance, the coarse-size affine warp.

    Returns
    -------
    tuple of dict
        New ``(aligned, masks, dist, warps)``; a face whose own alignment failed (its warp
        the identity) takes the closest face's where that gives it a smaller fine
        distance; every other entry is as given.
    """
    first = next(iter(picks), None)
    if first not in dist:
        return aligned, masks, dist, warps
    aligned, masks, dist, warps = dict(aligned), dict(masks), dict(dist), dict(warps)
    query, mask = aligned[first][0], masks[first]
    for cid in picks:
        if cid == first or cid not in dist or not np.array_equal(warps[cid], _IDENTITY):
            continue
        ref = aligned[cid][1]
        d = fine_distance(query, mask, ref, keep=keep)
        if d < dist[cid]:
            aligned[cid], masks[cid], dist[cid], warps[cid] = (query, ref), mask, d, warps[first]
    return aligned, masks, dist, warps
