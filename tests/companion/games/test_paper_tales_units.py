"""Paper Tales: the Unit facts the ledger uses, against the rules digest's table.

``tests/data/paper_tales_units.csv`` is that table as published (names, copies, Gold
cost, printed strength with its condition); the deployment check and the Wars calculator
read ``UNITS``, so a Unit off by a copy or a point would pass every story test.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from companion.games.paper_tales_units import UNITS, unit_strength

TABLE = Path(__file__).parents[2] / "data" / "paper_tales_units.csv"


def rows() -> list[dict[str, str]]:
    with TABLE.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def test_the_deck_holds_the_digests_42_units_and_81_cards():
    names = [row["name"] for row in rows()]
    assert len(names) == 42 and sorted(UNITS) == sorted(n.lower().replace(" ", "-")
                                                         for n in names)
    assert sum(u.copies for u in UNITS.values()) == 81  # the rulebook's count


@pytest.mark.parametrize("row", rows(), ids=lambda row: row["name"])
def test_each_unit_has_the_digests_copies_cost_and_strength(row):
    unit = UNITS[row["name"].lower().replace(" ", "-")]
    copies = 3 if row["copies"] == "2 or 3" else int(row["copies"])  # 3 makes the 81
    printed = int(row["strength"].split()[0])
    assert (unit.name, unit.name_fr, unit.copies, unit.cost) == (
        row["name"], row["name_fr"], copies, int(row["cost"]))
    assert unit_strength(unit, aged=False) == printed
    condition = row["strength"].partition(" ")[2]
    if "once aged" in condition and "cannot fight" not in condition:
        assert unit_strength(unit, aged=True) == int(condition.strip("()").split()[0])
    if "cannot fight once aged" in condition:
        assert unit_strength(unit, aged=True) == 0
    if "+1 per own Age token" in condition:
        assert unit_strength(unit, aged=True, realm_age_tokens=1) == printed + 1
    if "per Age token in realm" in condition:
        assert unit_strength(unit, aged=False, realm_age_tokens=3) == printed + 3
