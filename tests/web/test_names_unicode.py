"""Player names beyond plain letters: family emoji (zero-width joiners), Persian names
(zero-width non-joiners) and flags are accepted and come back unchanged; control
characters and text-direction overrides are refused with one sentence."""

from __future__ import annotations

import pytest

from companion.errors import InvalidAction
from companion.games.base import check_players

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Kids"  # man ZWJ woman ZWJ girl
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # a ZWNJ inside a word
HEART = "\u2764\ufe0f Mia"  # a variation selector
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Tom"  # tags


@pytest.mark.parametrize("name", [FAMILY, PERSIAN, HEART, ENGLAND, "Zoë", "\u0130pek"])
def test_joined_and_decorated_names_are_accepted_unchanged(name: str) -> None:
    # str.isprintable() is False for ZWJ, ZWNJ and tag characters: these were refused.
    assert check_players([name, "Ben"], 2, 6) == (name, "Ben")


@pytest.mark.parametrize("name", ["Ann\tB", "Ann\nB", "A\x00", "A\x1b[31m",
                                  "Ann\u2028B", "\u202eAnn", "Ann\u2066B"])
def test_control_characters_and_direction_overrides_are_refused(name: str) -> None:
    with pytest.raises(InvalidAction, match="control characters"):
        check_players([name, "Ben"], 2, 6)


def test_invisible_characters_make_no_new_name() -> None:
    with pytest.raises(InvalidAction, match="same name"):
        check_players(["Ann", "An\u200bn"], 2, 6)
    with pytest.raises(InvalidAction, match="needs a name"):
        check_players(["\u200d", "Ben"], 2, 6)


def test_the_pages_show_a_family_name_whole(host, client) -> None:
    assert host.start([FAMILY, PERSIAN]).status_code == 201
    state = client.get("/api/state").get_json()
    assert [p["name"] for p in state["players"]] == [FAMILY, PERSIAN]
    page = client.get("/").get_data(as_text=True)
    assert "control characters" not in page
