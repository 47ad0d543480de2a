"""Decide which face of the deck one rectified card shows, if any, and how sure that is.

Given the coarse distances of a card to every reference (``cards_batch.coarse_many``),
the few closest faces are each laid exactly over the card (an affine alignment absorbs a
slightly-off outline), compared at the fine resolution, and the two best then duel on the
pixels where they differ. A card far from every face is no card of the deck; a card whose
duel is too close to call is unsure.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.cards_batch import robust_many
from vision.cards_glimpse import glimpse_duel
from vision.cards_ink import ink_duel
from vision.cards_lay import lay_as_closest
from vision.cards_match import (DUEL_CONTRAST, DUEL_LEVEL, FINE_BLUR, FINE_SCALE, Bank, Match,
                                MatchParams, align, duel_contrast, features, fine_distance,
                                fine_duel, reference_cells, warp_to_ref)
from vision.cards_print import shows_print
from vision.cards_tell import (bank_memo, laid_onto, lift_lean, tell_duel, tell_parts,
                               telling_of)
from vision.cards_windows import DUEL_ASKEW, vote_windows

# a card whose closest face (coarse ranking), laid over it, misses the gate by this much is
# no face of the deck; its rivals are not tried (none beat it by over 0.11 on our suites)
CLEARLY_NONE = 0.15


def name_card(coarse: np.ndarray, light: np.ndarray, fine_card: np.ndarray,
              valid: np.ndarray, bank: Bank, params: MatchParams, *,
              sharp: Callable[[tuple[int, int]], tuple[np.ndarray, np.ndarray]] | None = None,
              other_way: bool = True) -> Match | None:
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
    sharp : callable, optional
        ``sharp((height, width))`` gives the card rectified afresh from the frame at that
        size and its ``valid`` mask: a look-alike duel too close to call at the fine size
        is judged again at ``cards_match.SHARP`` times it (:class:`_SharpLook`), when the
        bank holds its references that large.
    other_way : bool
        When the best face beats its look-alikes but the card does not show that face's
        own telling detail (support too low), name the card again the other way up
        (:func:`_other_way_up`).

    Returns
    -------
    Match or None
        None when no face of the deck is close (another game's card, a back, the table).
    """
    n = len(bank.ids)
    picks = _shortlist(coarse, bank.ids, params)
    if not picks:
        return None
    # the best face's look-alikes in the deck always duel it, however far the card's
    # coarse distance puts them (a taught face photographed a little askew); every face
    # is laid over the card the way it lines up with the best face (the shortlist lists
    # it first), which is not the way the best face is stored when a folder holds a face
    # taught upside down
    best_ref = next(iter(picks.values()))
    kin, turned = _kin(bank, params.max_distance), _turned(bank)

    def way(j: int) -> int:
        return j + (n if (best_ref >= n) != turned[best_ref % n, j] else 0)

    picks = {cid: way(i % n) for cid, i in picks.items()}
    for j in kin[best_ref % n]:
        picks.setdefault(bank.ids[j], way(j))
    aligned, masks, dist, warps = _fine_fits(picks, light, fine_card, valid, bank, params)
    ranked = sorted(dist, key=dist.__getitem__)
    best = ranked[0]
    if dist[best] > params.max_fine_distance:
        return None
    rival = ranked[1] if len(ranked) > 1 else None
    margin, support = 1.0, 1.0
    # the look-alike duel decides between faces that the whole-card distance cannot
    close = [o for o in ranked[1:] if dist[o] - dist[best] < params.close_distance]
    closer = _SharpLook(sharp, bank, picks, warps)

    def duel(a: str, b: str) -> tuple[float, float]:
        misfit = _misfit(bank, picks[a], picks[b])
        told = telling_of(bank, picks[a], picks[b], aligned[a][1], aligned[b][1])
        verdict = _duel(aligned, masks, a, b, params.min_margin, misfit, told)
        if abs(verdict[0]) < params.min_margin:  # too close to call: look closer
            verdict = closer.duel(a, b, params.min_margin, misfit) or verdict
        return verdict

    duels = {o: duel(best, o) for o in close}
    field, turns = [best] + close, 0
    while duels and min(m for m, _ in duels.values()) <= -params.min_margin and turns < len(close):
        # the face that clearly beats it duels every other in turn (a 3 may beat the 5
        # the card lay closest to by less than the 1 does, and then beat the 1)
        rival, best, turns = best, min(duels, key=lambda o: duels[o][0]), turns + 1
        duels = {o: duel(best, o) for o in field if o != best}
    if duels:
        margin = min(m for m, _ in duels.values())
        support = min(c for _, c in duels.values())
    if dist[best] > params.max_fine_distance and not valid.all():
        # a face the duel turned to lies past the gate: laid over the card again, aligned on
        # the part seen only (the hidden part pulls the alignment of a strip astray)
        dist[best] = min(dist[best], _seen_distance(picks[best], light, fine_card, valid,
                                                    bank, params))
    if dist[best] > params.max_fine_distance:  # a face the duel turned to, past the gate
        return Match(None, best, dist[best], 0.0, rival, picks[best] >= n, margin, support)
    if not shows_print(aligned[best][0], masks[best], aligned[best][1], params):
        return None  # the face's colour but not its print (a card back of its hue)
    abs_conf = float(np.clip((params.max_fine_distance - dist[best])
                             / (params.max_fine_distance - params.sure_distance), 0, 1))
    conf = min(abs_conf, float(np.clip(margin / (2 * params.min_margin), 0, 1)))
    # named only when it beats its look-alikes and also shows their telling detail itself
    sure = margin >= params.min_margin and support >= params.min_support
    match = Match(best if sure else None, best, dist[best], conf if sure else min(conf, 0.49),
                  rival, picks[best] >= n, margin, support)
    if sure or not other_way or margin < params.min_margin:
        return match
    return _other_way_up(match, coarse, light, fine_card, valid, bank, params, sharp)


def _other_way_up(match: Match, coarse: np.ndarray, light: np.ndarray,
                  fine_card: np.ndarray, valid: np.ndarray, bank: Bank,
                  params: MatchParams, sharp: Callable | None) -> Match:
    """``match`` (unsure: its best face won its duels but the card does not show that
    face's telling detail), or the card named with every face the other way up.

    A playing card reads either way up, and which way its faces are laid over it follows
    the closest face by the coarse ranking. A reference photo cut unevenly at top and
    bottom, or with a glare wedge at one end, lines up with the card better one way than
    the other, so the closest face may be laid the right way and the card's own face the
    wrong way. A face whose own telling detail is not in the card (support too low) is a
    sign of that; one that merely ties with a look-alike is not (the telling detail is
    not seen either way), so only the first looks again. Only a sure name replaces it.
    """
    n = len(bank.ids)
    other = coarse.copy()
    if int(np.argmin(coarse)) >= n:
        other[n:] = np.inf
    else:
        other[:n] = np.inf
    again = name_card(other, light, fine_card, valid, bank, params, sharp=sharp,
                      other_way=False)
    return again if again is not None and again.card_id is not None else match


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
               ) -> tuple[dict, dict, dict[str, float], dict[str, np.ndarray]]:
    """Lay each shortlisted face over the card (its own alignment) and measure the fit;
    also returns each face's alignment (coarse-size affine warps)."""
    n = len(bank.ids)
    fine_query = features(fine_card, FINE_BLUR)
    fine_valid = valid.astype(np.float32)
    # a card seen whole stays seen whole however it is laid (the mask's edge is copied
    # outwards): its mask needs no warping
    whole = bool(valid.all())
    aligned, masks, dist, warps = {}, {}, {}, {}
    for cid, i in picks.items():
        warp = warps[cid] = align(light, bank.light[i])
        query = warp_to_ref(fine_query, warp, FINE_SCALE)
        masks[cid] = (np.ones(valid.shape, bool) if whole else warp_to_ref(
            fine_valid, warp, FINE_SCALE, border=cv2.BORDER_REPLICATE) > 0.5)
        ref = bank.fine[i % n]
        aligned[cid] = (query, ref[::-1, ::-1] if i >= n else ref)
        dist[cid] = fine_distance(query, masks[cid], aligned[cid][1], keep=params.keep_cells,
                                  ref_cells=_ref_cells(bank, i, aligned[cid][1]))
        if len(dist) == 1 and dist[cid] > params.max_fine_distance + CLEARLY_NONE:
            break
    return lay_as_closest(picks, params.keep_cells, aligned, masks, dist, warps)


REF_CELLS_KEPT = 48  # references whose fine cells are kept between namings (~0.2 MB each)
_REF_CELLS: dict[int, tuple[Bank, dict[int, tuple[np.ndarray, np.ndarray]]]] = {}


def _ref_cells(bank: Bank, i: int, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cards_match.reference_cells`` of reference ``i`` (0 or 180 degrees: ``ref``), the
    last ``REF_CELLS_KEPT`` used kept (a refused outline lays the same few faces over it
    that the one before did: the closest faces of a frame's cards)."""
    memo = bank_memo(_REF_CELLS, bank)
    hit = memo.pop(i, None)
    if hit is None:
        hit = reference_cells(ref)
        if len(memo) >= REF_CELLS_KEPT:
            del memo[next(iter(memo))]  # the least recently used
    memo[i] = hit  # now the most recently used (a dict keeps its order)
    return hit


def _seen_distance(i: int, light: np.ndarray, fine_card: np.ndarray, valid: np.ndarray,
                   bank: Bank, params: MatchParams) -> float:
    """Fine distance of reference ``i`` (0 or 180 degrees) laid over the card by an
    alignment fitted on the part of it seen (``valid``) only; inf when that fit fails."""
    h, w = light.shape
    seen = cv2.resize(valid.astype(np.uint8) * 255, (w, h), interpolation=cv2.INTER_AREA)
    eye = np.eye(2, 3, dtype=np.float32)
    try:  # the card is the moving image here: its mask is the one ECC takes in OpenCV 4
        _, back = cv2.findTransformECC(bank.light[i], light, eye.copy(), cv2.MOTION_AFFINE,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20,
                                        1e-3), (seen == 255).astype(np.uint8), 1)
    except cv2.error:
        return float("inf")
    warp = cv2.invertAffineTransform(back)
    if np.abs(warp[:, :2] - np.eye(2)).max() > 0.12 or np.abs(warp[:, 2]).max() > 0.12 * max(h, w):
        return float("inf")  # strayed too far, as :func:`cards_match.align` refuses
    n = len(bank.ids)
    query = warp_to_ref(features(fine_card, FINE_BLUR), warp, FINE_SCALE)
    mask = warp_to_ref(valid.astype(np.float32), warp, FINE_SCALE,
                       border=cv2.BORDER_REPLICATE) > 0.5
    ref = bank.fine[i % n]
    return fine_distance(query, mask, ref[::-1, ::-1] if i >= n else ref, keep=params.keep_cells)


SHARP_BLUR = FINE_BLUR  # feature blur of the sharp look (fraction of the card height)


class _SharpLook:
    """The card and the faces laid over it at ``SHARP`` times the fine size, made on the
    first duel that needs them.

    A title word's letters are ~6 pixels high at the fine size: too few to tell BANK
    from BARK when the frame holds more. The card is rectified afresh from the frame at
    the larger size, and the deck keeps its references at that size (``Bank.sharp``).
    """

    def __init__(self, sharp: Callable | None, bank: Bank, picks: dict[str, int],
                 warps: dict[str, np.ndarray]) -> None:
        self._look = sharp if bank.sharp is not None and len(bank.sharp) else None
        self._bank, self._picks, self._warps = bank, picks, warps
        self._card: tuple[np.ndarray, np.ndarray] | None = None
        self._aligned: dict = {}
        self._masks: dict = {}

    def duel(self, a: str, b: str, min_margin: float, misfit: float
             ) -> tuple[float, float] | None:
        """:func:`_duel` of faces ``a`` and ``b`` at the sharp size; None without one."""
        if self._look is None:
            return None
        for cid in (a, b):
            if cid not in self._aligned:
                self._lay(cid)
        (_, ra), (_, rb) = self._aligned[a], self._aligned[b]
        told = telling_of(self._bank, self._picks[a], self._picks[b], ra, rb)
        verdict = _duel(self._aligned, self._masks, a, b, min_margin, misfit, told)
        return verdict if verdict[0] != 0 else None

    def _lay(self, cid: str) -> None:
        bank, n = self._bank, len(self._bank.ids)
        if self._card is None:
            card, valid = self._look(bank.sharp.shape[1:3])
            self._card = (features(card, SHARP_BLUR), valid.astype(np.float32))
        query, valid = self._card
        scale = bank.sharp.shape[1] / bank.size[0]
        warp, i = self._warps[cid], self._picks[cid]
        self._masks[cid] = warp_to_ref(valid, warp, scale, border=cv2.BORDER_REPLICATE) > 0.5
        self._aligned[cid] = (warp_to_ref(query, warp, scale), _sharp_ref(bank, i))


SHARP_KEPT = 24  # references whose sharp features are kept between duels
_SHARP: dict[int, tuple[Bank, dict[int, np.ndarray]]] = {}


def _sharp_ref(bank: Bank, i: int) -> np.ndarray:
    """Features of reference ``i`` (0 or 180 degrees) at the sharp size (the last
    ``SHARP_KEPT`` made are kept)."""
    hit = _SHARP.get(id(bank))
    if hit is None or hit[0] is not bank:
        if len(_SHARP) > 8:
            _SHARP.clear()
        hit = _SHARP[id(bank)] = (bank, {})
    n = len(bank.ids)
    if i % n not in hit[1]:
        if len(hit[1]) >= SHARP_KEPT:  # ~0.9 MB each: keep the memory of a big deck small
            hit[1].clear()
        hit[1][i % n] = features(bank.sharp[i % n], SHARP_BLUR)
    ref = hit[1][i % n]
    return ref[::-1, ::-1] if i >= n else ref


def _duel(aligned: dict, masks: dict, a: str, b: str, min_margin: float,
          misfit: float = 0.0, told: tuple[np.ndarray, np.ndarray] | None = None
          ) -> tuple[float, float]:
    """(margin of face ``a`` over ``b``, how well ``a`` explains the telling patch).

    The margin is the difference of the two correlations, raised to ``min_margin`` (or
    lowered to its opposite) when the telling pixels' contrast clearly agrees with it.
    References that share their print (``told``: :func:`vision.cards_tell.telling`) are
    compared on what tells them apart once laid and lit alike; others on their whole
    difference, the margin then divided by how much of it is misfit (:func:`_misfit`).
    """
    qa, ra = aligned[a]
    qb, rb = aligned[b]
    seen = masks[a] & masks[b]
    if told is None:
        c_a, c_b = fine_duel(qa, qb, seen, ra, rb)
    else:
        (c_a, c_b), patch = tell_duel(qa, seen, ra, *told)
    glimpse = (glimpse_duel(aligned, masks, a, b, min_margin, askew=misfit / DUEL_ASKEW)
               if c_a == c_b == 0 else None)  # less seen of the telling pixels than a patch
    if glimpse is not None:
        return glimpse
    margin = c_a - c_b
    lean = 0.0 if told is None else lift_lean(max(c_a, c_b), min_margin, MatchParams.min_support)
    if lean < abs(margin) < min_margin:
        t = ((duel_contrast(qa, seen, ra, rb) + duel_contrast(qb, seen, ra, rb)) / 2
             if told is None else duel_contrast(qa, seen & patch, ra, told[0]))
        if t * margin > 0 and abs(t) >= DUEL_CONTRAST:
            margin = float(np.sign(margin)) * min_margin
    if told is not None and abs(margin) >= min_margin and any(  # a part leans the other way
            m * np.sign(margin) <= -min_margin / 2 for m in tell_parts(qa, seen, ra, *told)):
        return 0.0, c_a  # (by half a margin or more): the duel cannot tell
    # too close to call: the colour of the ink seen may tell them apart (a red suit from
    # a black one on a strip showing one small suit symbol); not a matter of registration
    ink = ink_duel(aligned, masks, a, b, min_margin) if abs(margin) < min_margin else None
    if ink is not None:
        return ink
    verdict = (margin / max(1.0, misfit / DUEL_ASKEW) if told is None else margin), c_a
    return verdict if told else vote_windows(aligned, masks, a, b, verdict, min_margin, misfit)


_MISFIT: dict[int, tuple[Bank, dict[tuple[int, int], float]]] = {}


def _misfit(bank: Bank, i: int, j: int) -> float:
    """Share of the card where references ``i`` and ``j`` differ only by lying askew.

    Look-alikes differ on a title word, a numeral, an icon or a suit's pips. Two faces
    photographed askew of each other (a deck taught with the camera) also differ along
    every edge of their shared layout; the misfit is the part of their difference (in
    lightness, which the duel judges) that goes away once one reference is laid onto the
    other (an affine fit). Computed once per pair of references (indices into the bank,
    0 or 180 degrees).
    """
    memo = bank_memo(_MISFIT, bank)
    key = (min(i, j), max(i, j))
    if key not in memo:
        n = len(bank.ids)
        a, b = (bank.fine[k % n, :, :, :1] for k in key)
        a, b = (a[::-1, ::-1] if key[0] >= n else a), (b[::-1, ::-1] if key[1] >= n else b)
        memo[key] = max(0.0, _spread(a, b) - _spread(a, laid_onto(a, b)))
    return memo[key]


def _spread(ref_a: np.ndarray, ref_b: np.ndarray) -> float:
    """Share of the card where two fine features differ (as :func:`fine_duel` marks it)."""
    whole = ((ref_a - ref_b) ** 2).sum(-1)
    peak = float(whole.max())
    return float(np.count_nonzero(whole > DUEL_LEVEL * peak)) / whole.size if peak > 1e-6 else 0.0


KIN = 2  # look-alikes of a face (its nearest faces in the deck) that always duel it
TURN_GAP = 0.2  # coarse distance by which a face must line up better turned to count as turned
_KIN: dict[tuple[int, float], tuple[Bank, list[list[int]], np.ndarray]] = {}


def _kin(bank: Bank, within: float) -> list[list[int]]:
    """Per reference, the references of other faces nearest to it (at most ``KIN``, each
    within ``within`` coarse distance, either way up), computed once per bank."""
    return _pairs(bank, within)[0]


def _turned(bank: Bank) -> np.ndarray:
    """(N, N) bool: True where reference j lines up with reference i clearly better once
    turned 180 degrees, within the coarse gate (a folder may hold faces either way up)."""
    return _pairs(bank, MatchParams.max_distance)[1]


def _pairs(bank: Bank, within: float) -> tuple[list[list[int]], np.ndarray]:
    hit = _KIN.get((id(bank), within))
    if hit is not None and hit[0] is bank:
        return hit[1], hit[2]
    n = len(bank.ids)
    refs = bank.coarse[:n]
    seen = np.ones(refs.shape[:2], bool)
    upright = robust_many(refs, seen, bank.coarse[:n], bank.coarse_sq[:n],
                          keep=MatchParams.keep_cells)
    turned = robust_many(refs, seen, bank.coarse[n:], bank.coarse_sq[n:],
                         keep=MatchParams.keep_cells)
    # only a clear preference counts: a point-symmetric face (a playing card) lines up
    # about as well either way, and its stored turn stays the best face's
    flip = (turned + TURN_GAP < upright) & (turned <= within)
    dist = np.minimum(upright, turned)
    kin = []
    for i in range(n):
        order = [int(j) for j in np.argsort(dist[i]) if bank.ids[j] != bank.ids[i]
                 and dist[i, j] <= within]
        kin.append(order[:KIN])
    if len(_KIN) > 8:
        _KIN.clear()
    _KIN[(id(bank), within)] = (bank, kin, flip)
    return kin, flip
