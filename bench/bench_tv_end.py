"""How the TV lays out each game's end screen (the winner card and what stands beside it).

For each game, a finished table (built with the rules engine, so no game has to be played
through the API) is served to headless Chromium on ``/tv`` at 1920x1080 and at the Pi's
800x480 touchscreen, and the script prints per screen: the board's and the panel's column
counts, whether the scores list is shown again beside the winner card, the chart's width
(px), where the join QR card went (``panel``: inside a column of the panel; ``strip``: a
strip of its own down the right edge), the root type size ``fitTv`` chose (px) and whether
the board fits unscrolled. A layout, not a timing: the figures do not depend on the load.

With ``--mid``: tables still in play instead, Toss Up!'s final round (its banner, the
last-turn line), a Sorry! tiebreaker half played (its banner and piles), and mid-game
Paper Toss, Paper Tales (five players) and Toss Your Cookies (eight) with a chart, and
again with the line of the claim that won the last round under its scores.

Usage (on a checkout of main: ``PYTHONPATH`` on it, and this file run from anywhere)::

    .venv/bin/python bench/bench_tv_end.py [--mid]
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

from page_timing import chromium_and_server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.games import paper_tales, paper_toss, sorry_21, toss_up  # noqa: E402
from companion.games import toss_your_cookies  # noqa: E402
from companion.games.paper_tales_ledger import Realm  # noqa: E402
from companion.games.toss_your_cookies import LastClaim  # noqa: E402

SCREENS = ((1920, 1080), (800, 480))
LAYOUT = """() => {
  const root = document.documentElement, board = document.getElementById('board');
  const panel = board.querySelector(':scope > .panel'), join = document.getElementById('tv-join');
  const chart = board.querySelector('.chart-card'), scores = board.querySelector('.table');
  const columns = (el) => getComputedStyle(el).gridTemplateColumns.split(' ').length;
  return {board: columns(board), panel: columns(panel), height: root.scrollHeight,
          scores_again: Boolean(scores && scores.getClientRects().length),
          chart_px: chart ? Math.round(chart.getBoundingClientRect().width) : 0,
          qr: root.classList.contains('tv-strip') ? 'strip' : panel.contains(join) ? 'panel' : 'other',
          type_px: +parseFloat(getComputedStyle(root).fontSize).toFixed(1),
          fits: root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth}; }"""


def _view(module: Any, state: Any, name: str) -> dict[str, Any]:
    return {**module.public_state(state), "version": 42, "name": name, "events": [],
            "recent": []}


def finished_tables() -> Iterator[tuple[str, dict[str, Any]]]:
    """One finished table per game, as /api/state would give it."""
    state = toss_up.new_game(["Ann", "Ben", "Cleo", "Dan"])
    history = tuple((min(105, 10 * k), 3 * k, 2 * k, 11 * k) for k in range(11))
    yield "toss-up", _view(toss_up, replace(state, scores=(105, 33, 20, 110), over=True,
                                            history=history), "Toss Up!")
    state = replace(sorry_21.new_game(["Ann", "Ben", "Cy", "Dee"]), progress=(3, 3, 1, 3),
                    total=20, current=2)
    for data in ({"type": "play", "card": "number-5"},  # Cy busts: a 3-way tiebreaker
                 {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-9"]},
                 {"type": "tiebreak", "player": "Ben", "cards": ["number-10", "number-9"]},
                 {"type": "tiebreak", "player": "Dee", "cards": ["number-10", "number-2"]},
                 {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-10",
                                                                 "number-5"]},
                 {"type": "tiebreak", "player": "Ben", "cards": ["slide-21"]}):
        state, _ = sorry_21.apply(state, sorry_21.parse_action(data))
    yield "sorry-21", _view(sorry_21, state, "Sorry! Revenge")
    state = paper_toss.new_game(["Ann", "Ben", "Cy"], {})
    yield "paper-toss", _view(paper_toss, replace(
        state, tokens=(7, 10, 4), over=True,
        history=tuple((k, k + 1, k // 2) for k in range(8))), "Paper Toss")
    state = paper_tales.new_game(["Ann", "Ben", "Cy", "Dee", "Eve"], {})
    realms = tuple(Realm(gold=g, lp=lp) for g, lp in ((9, 12), (12, 6), (12, 12), (11, 0),
                                                      (11, 0)))
    yield "paper-tales", _view(paper_tales, replace(
        state, realms=realms, over=True, phase=6, turn=4,
        history=((0,) * 5, (6, 3, 6, 0, 0), (12, 3, 12, 0, 0), (12, 6, 12, 0, 0))),
        "Paper Tales")
    state = toss_your_cookies.new_game(["Ann", "Ben", "Cy", "Dee"], {})
    yield "toss-your-cookies", _view(toss_your_cookies, replace(
        state, wins=(1, state.wins_needed, 0, 1), over=True), "Toss Your Cookies")


def tables_in_play() -> Iterator[tuple[str, dict[str, Any]]]:
    """Toss Up!'s final round (Ann banked 101; Ben rolling), a Sorry! tiebreaker, and
    three more games mid-play (their charts beside the scores), the last with a claim line."""
    state = toss_up.new_game(["Ann", "Ben", "Cleo", "Dan"])
    for data in [{"type": "roll", "green": 10, "yellow": 0, "red": 0}] * 10 + [
            {"type": "roll", "green": 1, "yellow": 9, "red": 0}, {"type": "bank"},
            {"type": "roll", "green": 3, "yellow": 7, "red": 0}]:
        state, _ = toss_up.apply(state, toss_up.parse_action(data))
    yield "toss-up", _view(toss_up, state, "Toss Up!")
    state = replace(sorry_21.new_game(["Ann", "Ben", "Cy", "Dee"]), progress=(3, 3, 1, 3),
                    total=20, current=2)
    for data in ({"type": "play", "card": "number-5"},
                 {"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-9"]}):
        state, _ = sorry_21.apply(state, sorry_21.parse_action(data))
    yield "sorry-21", _view(sorry_21, state, "Sorry! Revenge")
    state = paper_toss.new_game(["Ann", "Ben", "Cy"], {})
    yield "paper-toss", _view(paper_toss, replace(
        state, tokens=(5, 7, 3), history=tuple((k, k + 1, k // 2) for k in range(6))),
        "Paper Toss")
    state = paper_tales.new_game(["Ann", "Ben", "Cy", "Dee", "Eve"], {})
    yield "paper-tales", _view(paper_tales, replace(
        state, turn=3, history=((0,) * 5, (6, 3, 6, 0, 0), (12, 3, 12, 0, 0))), "Paper Tales")
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    state = replace(toss_your_cookies.new_game(names, {}), wins=(1, 1, 0, 0, 1, 0, 0, 0),
                    round=4, history=((1,) + (0,) * 7, (1, 1) + (0,) * 6,
                                      (1, 1, 0, 0, 1, 0, 0, 0)))
    yield "toss-your-cookies", _view(toss_your_cookies, state, "Toss Your Cookies")
    yield "toss-your-cookies+claim", _view(toss_your_cookies, replace(
        state, last_claim=LastClaim(1, None, None)), "Toss Your Cookies")


def open_tv(browser: Any, port: int, view: dict[str, Any], size: tuple[int, int],
            ready: str) -> Any:
    """A page on ``/tv`` at ``size`` that is served ``view`` as the table's state (no game
    is played), once ``ready`` (a selector) shows and ``fitTv`` has run."""
    body = json.dumps(view)
    stream = "retry: 100000\nevent: state\ndata: " + body + "\n\n"
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.route("**/api/events", lambda r: r.fulfill(
        status=200, headers={"Content-Type": "text/event-stream"}, body=stream))
    page.route("**/api/state", lambda r: r.fulfill(
        status=200, content_type="application/json", body=body))
    page.goto(f"http://127.0.0.1:{port}/tv")
    page.wait_for_selector(ready)
    page.wait_for_timeout(500)  # fitTv has run
    return page


def main() -> None:
    mid = "--mid" in sys.argv[1:]
    with chromium_and_server() as (browser, _conn, port):
        for game, view in (tables_in_play() if mid else finished_tables()):
            row: dict[str, Any] = {"game": game}
            for width, height in SCREENS:
                page = open_tv(browser, port, view, (width, height),
                               "#board .player" if mid else "#winner")
                row[f"{width}x{height}"] = page.evaluate(LAYOUT)
                page.context.close()
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
