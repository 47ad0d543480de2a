"""The seat helpers every game with ``leave`` shares: who plays next, who may be named."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games.base import check_at_table, next_seat


@pytest.mark.parametrize(("seat", "left", "step", "expected"), [
    (0, (), 1, 1),
    (3, (), 1, 0),        # round the table
    (0, (1, 2), 1, 3),    # past everyone who left
    (2, (3, 0), 1, 1),    # past the end and the first seat
    (0, (), -1, 3),       # play reversed
    (1, (0, 3), -1, 2),
    (2, (0, 1, 3), 1, 2),  # nobody else is left at the table
])
def test_next_seat_skips_those_who_left(seat, left, step, expected):
    assert next_seat(seat, 4, left, step=step) == expected


def test_a_player_who_left_cannot_be_named():
    players = ("Ann", "Ben", "Cy")
    check_at_table(players, (2,), 1)
    with pytest.raises(IllegalAction, match=r"^Cy has left the table\.$"):
        check_at_table(players, (2,), 2)
