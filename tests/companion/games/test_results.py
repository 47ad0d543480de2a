"""The finished game's ``result`` (winners, final order, why) that the winner card shows.

The phones sorted the winner card by score then seat: a tiebreaker's loser stood above
its winner, and a player who had left the table headed the list unmarked.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games import paper_tales, paper_toss, sorry_21, toss_up, toss_your_cookies
from tests.support.rules import replay


def roll(g, y, r):
    return {"type": "roll", "green": g, "yellow": y, "red": r}


BANK = {"type": "bank"}


def order(view):
    return [(p["name"], p["score"], p["won"], p["left"]) for p in view["result"]["order"]]


def test_no_result_while_the_game_runs():
    for module in (toss_up, sorry_21, paper_toss, paper_tales, toss_your_cookies):
        view = module.public_state(module.new_game(["Ann", "Ben", "Cy"], {}))
        assert view["result"] is None, module.ID


def test_sorry_the_tiebreakers_winner_leads_the_order_and_the_why_names_the_piles():
    state = replace(sorry_21.new_game(["Ann", "Ben", "Cy"]), progress=(3, 3, 0), total=20,
                    current=2)
    state = replay(sorry_21, state, [
        {"type": "play", "card": "number-5"},  # Cy busts: Ann and Ben reach 4
        {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-10", "number-5"]},
        {"type": "tiebreak", "player": "Ben", "cards": ["slide-21"]}], at=None)
    view = sorry_21.public_state(state)
    assert view["result"]["winners"] == ["Ben"]
    assert order(view) == [("Ben", 4, True, False), ("Ann", 4, False, False),
                           ("Cy", 0, False, False)]
    assert view["result"]["why"] == "Ben wins the tiebreaker: Ben 21, Ann 25 (over 21)."


def test_toss_up_a_player_who_left_comes_last_and_is_marked():
    state = toss_up.new_game(["Ann", "Ben", "Cleo", "Dan"], {"target": 5})
    state = replay(toss_up, state, [roll(6, 4, 0), BANK,  # Ann 6 opens the final round
                                    roll(8, 2, 0), BANK,  # Ben 8
                                    {"type": "leave", "player": "Ann"},
                                    roll(2, 8, 0), BANK, roll(1, 9, 0), BANK], at=None)
    view = toss_up.public_state(state)
    assert view["over"] and view["winners"] == ["Ben"]
    assert order(view) == [("Ben", 8, True, False), ("Cleo", 2, False, False),
                           ("Dan", 1, False, False), ("Ann", 6, False, True)]


def test_paper_tales_a_tie_on_lp_won_on_gold_puts_the_winner_first():
    state = paper_tales.new_game(["Ann", "Cy", "Bo"], {})
    realms = (paper_tales.ledger.Realm(gold=9, lp=30), paper_tales.ledger.Realm(gold=12, lp=30),
              paper_tales.ledger.Realm(gold=20, lp=10))
    view = paper_tales.public_state(replace(state, realms=realms, over=True))
    assert view["winners"] == ["Cy"]
    assert order(view) == [("Cy", 30, True, False), ("Ann", 30, False, False),
                           ("Bo", 10, False, False)]
    assert view["result"]["why"] == "Cy wins the tie on Gold: 12 to 9."


def test_paper_toss_and_toss_your_cookies_winner_first_then_by_score():
    state = replace(paper_toss.new_game(["Ann", "Ben", "Cy"], {}), tokens=(3, 10, 5), over=True)
    assert order(paper_toss.public_state(state)) == [
        ("Ben", 10, True, False), ("Cy", 5, False, False), ("Ann", 3, False, False)]
    state = toss_your_cookies.new_game(["Ann", "Ben", "Cy"], {})
    state = replace(state, wins=(1, 0, state.wins_needed), over=True)
    assert [p["name"] for p in toss_your_cookies.public_state(state)["result"]["order"]] == [
        "Cy", "Ann", "Ben"]
