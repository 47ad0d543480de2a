"""Decide which face of the deck one rectified card shows, if any, and how sure that is.

Given the coarse distances of a card to every reference (``cards_batch.coarse_many``),
the few closest faces are each laid exactly over the card (an affine alignment absorbs a
slightly-off outline), compared at the fine resolution, and the two best then duel on the
pixels where they differ. A card far from every face is no card of the deck; a card whose
duel is too close to call is unsure.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_match import (DUEL_CONTRAST, FINE_BLUR, FINE_SCALE, Bank, Match, MatchParams,
                                align, duel_contrast, features, fine_distance, fine_duel,
                                warp_to_ref)

# a card whose closest face (by the coarse ranking), laid exactly over it, still misses the
# acceptance gate by this much is no face of the deck: its rivals are not tried (a rival
# was never seen to beat the closest face by more than 0.11 on the project's suites)
CLEARLY_NONE = 0.15


def name_card(coarse: np.ndarray, light: np.ndarray, fine_card: np.ndarray,
              valid: np.ndarray, bank: Bank, params: MatchParams) -> Match | None:
    """Name one rectified card.

    Parameters
    ----------
    coarse : ndarray of shape (2 * N,), float32
        Coarse distances to every reference, then every reference turned 180 degrees.
    light : ndarray of shape (h, w), float32
        The card's coarse lightness feature (for alignment).
    fine_card : ndarray of shape (Hf, Wf, 3), uint8, BGR
    valid : ndarray of shape (Hf, Wf), bool
        False where the card is outside the frame.

    Returns
    -------
    Match or None
        None when no face of the deck is close (another game's card, a back, the table).
    """
    n = len(bank.ids)
    picks = _shortlist(coarse, bank.ids, params)
    if not picks:
        return None
    aligned, masks, dist = _fine_fits(picks, light, fine_card, valid, bank, params)
    ranked = sorted(dist, key=dist.__getitem__)
    best = ranked[0]
    if dist[best] > params.max_fine_distance:
        return None
    rival = ranked[1] if len(ranked) > 1 else None
    margin, support = 1.0, 1.0
    # the look-alike duel decides between faces that the whole-card distance cannot
    close = [o for o in ranked[1:] if dist[o] - dist[best] < params.close_distance]
    duels = {o: _duel(aligned, masks, best, o, params.min_margin) for o in close}
    if duels and min(m for m, _ in duels.values()) <= -params.min_margin:
        rival, best = best, min(duels, key=lambda o: duels[o][0])
        duels = {o: _duel(aligned, masks, best, o, params.min_margin)
                 for o in close + [rival] if o != best}
    if duels:
        margin = min(m for m, _ in duels.values())
        support = min(c for _, c in duels.values())
    abs_conf = float(np.clip((params.max_fine_distance - dist[best])
                             / (params.max_fine_distance - params.sure_distance), 0, 1))
    conf = min(abs_conf, float(np.clip(margin / (2 * params.min_margin), 0, 1)))
    # named only when it beats its look-alikes and also shows their telling detail itself
    sure = margin >= params.min_margin and support >= params.min_support
    return Match(best if sure else None, best, dist[best], conf if sure else min(conf, 0.49),
                 rival, picks[best] >= n, margin, support)


def _shortlist(coarse: np.ndarray, ids: tuple[str, ...], params: MatchParams
               ) -> dict[str, int]:
    """The closest faces by coarse distance (id -> reference index, all one way up)."""
    n = len(ids)
    order = np.argsort(coarse)
    if coarse[order[0]] > params.max_distance:
        return {}
    picks: dict[str, int] = {}
    for i in order[: 6 * params.rivals]:
        cid = ids[i % n]
        if cid not in picks and coarse[i] <= coarse[order[0]] + params.rival_slack:
            picks[cid] = int(i)
        if len(picks) > params.rivals:
            break
    # rivals are judged the same way up as the best face: look-alikes share a layout, and
    # a duel between faces turned differently compares nothing
    turn = n if order[0] >= n else 0
    return {cid: i % n + turn for cid, i in picks.items()}


def _fine_fits(picks: dict[str, int], light: np.ndarray, fine_card: np.ndarray,
               valid: np.ndarray, bank: Bank, params: MatchParams
               ) -> tuple[dict, dict, dict[str, float]]:
    """Lay each shortlisted face over the card (its own alignment) and measure the fit."""
    n = len(bank.ids)
    fine_query = features(fine_card, FINE_BLUR)
    fine_valid = valid.astype(np.float32)
    aligned, masks, dist = {}, {}, {}
    for cid, i in picks.items():
        warp = align(light, bank.light[i])
        query = warp_to_ref(fine_query, warp, FINE_SCALE)
        masks[cid] = warp_to_ref(fine_valid, warp, FINE_SCALE, border=cv2.BORDER_REPLICATE) > 0.5
        ref = bank.fine[i % n]
        aligned[cid] = (query, ref[::-1, ::-1] if i >= n else ref)
        dist[cid] = fine_distance(query, masks[cid], aligned[cid][1], keep=params.keep_cells)
        if len(dist) == 1 and dist[cid] > params.max_fine_distance + CLEARLY_NONE:
            break
    return aligned, masks, dist


def _duel(aligned: dict, masks: dict, a: str, b: str, min_margin: float
          ) -> tuple[float, float]:
    """(margin of face ``a`` over ``b``, how well ``a`` explains the telling patch).

    The margin is the difference of the two correlations, raised to ``min_margin`` (or
    lowered to its opposite) when the telling pixels' contrast clearly agrees with it.
    """
    qa, ra = aligned[a]
    qb, rb = aligned[b]
    seen = masks[a] & masks[b]
    c_a, c_b = fine_duel(qa, qb, seen, ra, rb)
    margin = c_a - c_b
    if margin != 0 and abs(margin) < min_margin:
        t = (duel_contrast(qa, seen, ra, rb) + duel_contrast(qb, seen, ra, rb)) / 2
        if t * margin > 0 and abs(t) >= DUEL_CONTRAST:
            margin = float(np.sign(margin)) * min_margin
    return margin, c_a
