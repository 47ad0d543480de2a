"""Paper Tales rules versions: a journal replays with the rules it was written under.

The level-1 Temple's +2 Gold at Income came in on 27 Nov (session 13). Journals written
before then have no ``rules`` option: their hosts entered that Gold by hand, so replaying
them with the new rule would count it twice (and Gold breaks LP ties).
"""

from __future__ import annotations

from companion.journal import Journal
from companion.session import Session

NEXT = {"type": "next"}
TEMPLE = {"type": "build", "player": 0, "building": "temple", "level": 1, "resource_gold": 2}


def _to_income_of_turn_two(session: Session) -> None:
    """Build Ann a level-1 Temple in turn 1 and go on to turn 2's Income."""
    while session.state()["phase"] != "construction":
        session.act(NEXT)
    session.act(TEMPLE)
    while not (session.state()["phase"] == "income" and session.state()["turn"] == 2):
        session.act(NEXT)


def _gold(session: Session) -> list[int]:
    return [p["gold"] for p in session.state()["players"]]


def test_a_new_game_is_stamped_with_the_rules_and_a_temple_adds_income(tmp_path):
    with Journal(tmp_path) as journal:
        session = Session(journal)
        session.start("paper-tales", ["Ann", "Ben"])
        assert journal.current_game().options == {"rules": 2}
        _to_income_of_turn_two(session)
        # 3 + 2 (income 1) - 2 (Temple Gold) + 2 + 2 (Temple) for Ann; 3 + 2 + 2 for Ben
        assert _gold(session) == [7, 7]
    with Journal(tmp_path) as journal:  # a restart replays the same
        assert _gold(Session(journal)) == [7, 7]


def test_an_old_journal_without_the_rules_option_replays_to_its_old_gold(tmp_path):
    with Journal(tmp_path) as journal:  # written before 27 Nov: no rules version
        journal.start_game("paper-tales", ["Ann", "Ben"], {}, 0.0)
    with Journal(tmp_path) as journal:
        session = Session(journal)
        _to_income_of_turn_two(session)
        assert _gold(session) == [5, 7]  # the host adds the Temple's 2 by hand, as then
        assert session.state()["reminders"] == [
            "Everyone gained 2 Gold; add Income abilities as Gold entries."]
    with Journal(tmp_path) as journal:
        assert _gold(Session(journal)) == [5, 7]
