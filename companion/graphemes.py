"""Split text into what a person sees as characters (grapheme clusters), with the stdlib.

A name's length is counted as its reader counts it: a family emoji (four people joined by
three zero-width joiners) is one character, not seven code points; so are a thumbs-up
with its skin tone, a heart with its variation selector, a flag (two regional
indicators, or a black flag and its tag characters), a keycap, a letter with combining
accents, and a Hangul syllable spelled in conjoining jamo.

This follows Unicode's extended grapheme cluster rules (UAX #29) for what names hold,
from ``unicodedata`` alone, so the Pi needs no extra package. Two simplifications, both
counting a name as a little *longer*, never shorter: "Extended_Pictographic" (which
emoji a zero-width joiner joins) is read as a symbol (category So) or a code point in
the emoji blocks; Prepend characters and Indic conjuncts (rule GB9c) are not joined.
"""

from __future__ import annotations

import unicodedata

_ZWJ = "\u200d"
_ZWNJ = "\u200c"


def graphemes(text: str) -> list[str]:
    """``text`` as a list of user-perceived characters; ``"".join`` gives ``text`` back.

    >>> len(graphemes("\U0001f468\u200d\U0001f469\u200d\U0001f467 Kids"))
    6
    """
    clusters: list[str] = []
    for char in text:
        if clusters and _joins(clusters[-1], char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def _joins(cluster: str, char: str) -> bool:
    """Whether ``char`` belongs to the cluster before it (no break between them)."""
    if _is_extend(char):  # GB9, GB9a: marks, joiners, selectors, skin tones, tags
        return True
    last = cluster[-1]
    if last == _ZWJ:  # GB11: pictograph (extenders) ZWJ x pictograph
        return _is_pictographic(char) and _is_pictographic(cluster[0])
    if _is_regional(char) and _is_regional(last):  # GB12, GB13: flags are pairs
        leading = len(cluster) - len(cluster.rstrip(_REGIONAL_CHARS))
        return leading % 2 == 1
    return _hangul_joins(last, char)


def _is_extend(char: str) -> bool:
    code = ord(char)
    return (unicodedata.category(char) in ("Mn", "Me", "Mc") or char in (_ZWJ, _ZWNJ)
            or 0xFE00 <= code <= 0xFE0F  # variation selectors
            or 0x1F3FB <= code <= 0x1F3FF  # skin-tone modifiers
            or 0xE0020 <= code <= 0xE007F)  # tags (subdivision flags)


def _is_pictographic(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char) == "So" or 0x1F000 <= code <= 0x1FAFF


_REGIONAL_CHARS = "".join(chr(c) for c in range(0x1F1E6, 0x1F200))


def _is_regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _hangul(char: str) -> str:
    """The Hangul syllable type of ``char``: L, V, T, LV, LVT, or "" (not Hangul)."""
    code = ord(char)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


def _hangul_joins(last: str, char: str) -> bool:
    """GB6-GB8: L x (L V LV LVT); (LV V) x (V T); (LVT T) x T."""
    before, after = _hangul(last), _hangul(char)
    if not before or not after:
        return False
    if before == "L":
        return after in ("L", "V", "LV", "LVT")
    if before in ("LV", "V"):
        return after in ("V", "T")
    return after == "T"
