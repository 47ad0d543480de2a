"""A name's length is what a person sees: user-perceived characters (grapheme clusters).

A family emoji is one character, not the five code points it is made of; so are a flag,
a thumbs-up with its skin tone, a heart with its variation selector, a letter with a
combining accent. The expected counts are those of Unicode's extended grapheme clusters
(checked against the ``regex`` module's ``\\X``, which the companion does not need).
"""

from __future__ import annotations

import pytest

from companion.errors import InvalidAction
from companion.games.base import check_players
from companion.graphemes import graphemes

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 4 people, 3 ZWJ
THUMB = "\U0001f44d\U0001f3fd"  # thumbs up, medium skin tone
HEART = "\u2764\ufe0f"  # heart, emoji presentation
FRANCE = "\U0001f1eb\U0001f1f7"  # regional indicators F R
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # tags
KEYCAP = "1\ufe0f\u20e3"
E_ACUTE = "e\u0301"  # e + combining acute
HANGUL = "\u1112\u1161\u11ab"  # conjoining jamo: han
WOMAN_TECH = "\U0001f469\U0001f3fe\u200d\U0001f4bb"  # woman, skin tone, ZWJ, laptop


@pytest.mark.parametrize(("text", "count"), [
    ("Ann", 3), ("", 0), (FAMILY, 1), (THUMB, 1), (HEART, 1), (FRANCE, 1),
    (FRANCE + FRANCE, 2), (FRANCE + "\U0001f1e9", 2), (SCOTLAND, 1), (KEYCAP, 1),
    (E_ACUTE, 1), ("Zoe\u0308 Li", 6), (HANGUL, 1), (WOMAN_TECH, 1),
    (FAMILY + " Kids", 6), ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", 7),
    ("a\u200db", 2),  # a joiner between letters joins nothing a person sees
])
def test_a_name_is_counted_as_a_person_sees_it(text, count):
    clusters = graphemes(text)
    assert len(clusters) == count
    assert "".join(clusters) == text


def test_forty_family_emoji_make_a_name_of_forty_characters():
    assert check_players([FAMILY * 40, "Ben"], 2, 6) == (FAMILY * 40, "Ben")
    assert check_players([THUMB * 20 + "a" * 20, "Ben"], 2, 6)[0] == THUMB * 20 + "a" * 20


def test_forty_one_are_too_many_and_the_sentence_cuts_no_emoji_in_half():
    with pytest.raises(InvalidAction, match=r"40 characters at most") as refused:
        check_players([FAMILY * 41, "Ben"], 2, 6)
    assert FAMILY * 20 in str(refused.value)
    assert "\\u200d" not in str(refused.value) and "\\U" not in str(refused.value)
    with pytest.raises(InvalidAction, match=r"40 characters at most"):
        check_players(["a" * 41, "Ben"], 2, 6)


def test_one_letter_with_thousands_of_marks_is_too_long():
    # one grapheme, but 2,501 code points sent to every phone at every change
    with pytest.raises(InvalidAction, match="too long"):
        check_players(["A" + "\u0301" * 2500, "Ben"], 2, 6)
