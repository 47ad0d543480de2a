"""Whether a card shows the print of the face it would be named: its lightness alone.

The fine distance (``cards_match.fine_distance``) weighs a card's lightness and its colour
together and forgives its worst cells. A card that shares a face's colour but none of its
print can then come within the acceptance gate: on rendered tables of card backs only, a
blue lattice back lay 0.37-0.40 from a mostly blue face of 120 (the gate is 0.42), with no
look-alike near, so no duel asked for the face's telling detail. The print (letters, pips,
the outlines of the art, the frame) is what the lightness channel holds: the backs'
lightness lay 0.72-0.89 from that face's, where every card named rightly on the suites,
the bench and the stress set lies within 0.45 of its own face (cards half seen, dim,
blurred and photographed references included; ``docs/benchmarks.md``, "Card backs and
cards of other games").

So a face is named only when its lightness alone, compared the same way as the whole
(the same cells forgiven, the same part of the card seen), does not miss the stage's
acceptance gate by more than ``PRINT_SLACK``: the margin at which ``cards_name`` already
takes a card for no face of the deck (``CLEARLY_NONE``).
"""

from __future__ import annotations

import numpy as np

from vision.cards_match import MatchParams, fine_distance

PRINT_SLACK = 0.15  # how far past the acceptance gate the lightness alone may lie


def print_distance(query: np.ndarray, valid: np.ndarray, ref: np.ndarray, *,
                   keep: float) -> float:
    """Fine distance of the lightness channel alone (0 identical, 1 unrelated).

    Parameters
    ----------
    query, ref : ndarray of shape (h, w, 3), float32
        Fine features (``cards_match.features``) of the card, laid over the reference, and
        of the reference; channel 0 is the lightness.
    valid : ndarray of shape (h, w), bool
        Where the card is seen.
    keep : float
        Least fraction of cells kept (``MatchParams.keep_cells``).
    """
    if query.ndim != 3 or query.shape != ref.shape or valid.shape != query.shape[:2]:
        raise ValueError("query and ref must be (h, w, 3) features and valid their (h, w) mask")
    return fine_distance(np.ascontiguousarray(query[:, :, :1]), valid,
                         np.ascontiguousarray(ref[:, :, :1]), keep=keep)


def shows_print(query: np.ndarray, valid: np.ndarray, ref: np.ndarray,
                params: MatchParams) -> bool:
    """True when the card's lightness lies within the acceptance gate
    (``params.max_fine_distance``) plus ``PRINT_SLACK`` of the face's (arguments as
    :func:`print_distance`)."""
    return (print_distance(query, valid, ref, keep=params.keep_cells)
            <= params.max_fine_distance + PRINT_SLACK)
