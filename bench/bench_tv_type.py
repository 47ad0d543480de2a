"""How large the TV's type is on each screen, per element, and what the board leaves out.

Every game mid-play, with its fewest players and its most (Toss Up! with the camera's
reading and its message under it, as at a table with a camera), is served to headless
Chromium on ``/tv`` at 800x480 (the Pi's 7" touchscreen), 1024x600, 1280x720 and
1920x1080. Per screen the script prints the rendered type size in px of what matters
most (``turn``: whose turn, ``big``: the big number or timer, ``names`` and ``scores``:
the scores list) and of the smallest text shown anywhere (``least``: a label, a hint),
whether the board fits unscrolled (the chart's axis text, drawn in SVG and scaled, is
left out of ``least``), and the blocks ``fitTv`` left out (``dropped``). A
layout, not a timing: the figures do not depend on the load. With ``--shots DIR`` each
page is also saved as a PNG there, to be looked at.

Usage (on a checkout: ``PYTHONPATH`` on it, and this file run from anywhere)::

    .venv/bin/python bench/bench_tv_type.py [--shots /tmp/tv-shots] [--only toss-up]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

from bench_tv_end import open_tv  # same folder: a page served a given state
from page_timing import chromium_and_server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.games import paper_tales, paper_toss, sorry_21, toss_up  # noqa: E402
from companion.games import toss_your_cookies  # noqa: E402

SCREENS = ((800, 480), (1024, 600), (1280, 720), (1920, 1080))
NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
TYPE = """() => {
  const root = document.documentElement, board = document.getElementById('board');
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
  const px = (sel) => { const els = [...board.querySelectorAll(sel)].filter(shown);
    return els.length ? Math.min(...els.map((el) => parseFloat(getComputedStyle(el).fontSize))) : null; };
  const texts = [...board.querySelectorAll('*')].filter((el) => shown(el) && !el.closest('svg')
    && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  const least = Math.min(...texts.map((el) => parseFloat(getComputedStyle(el).fontSize)));
  const r = (v) => v === null ? null : +v.toFixed(1);
  return {turn: r(px('.now-name, .now-who, #phase-name')),
          big: r(px('.stat.big .stat-n, .clock, .total, .toss-change')),
          names: r(px('.player-name')), scores: r(px('.player-score')), least: r(least),
          fits: root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth,
          dropped: [...document.querySelectorAll('.tv-drop')].map((el) => el.id || el.className.split(' ')[0])}; }"""


def _view(module: Any, state: Any, name: str, **extra: Any) -> dict[str, Any]:
    return {**module.public_state(state), "version": 42, "name": name, "events": [],
            "recent": [], **extra}


def tables(n: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each game mid-play with `n` players (capped at the game's own limit)."""
    names = NAMES[:min(n, toss_up.MAX_PLAYERS)]
    state = toss_up.new_game(names)
    for data in ({"type": "roll", "green": 5, "yellow": 5, "red": 0}, {"type": "bank"},
                 {"type": "roll", "green": 2, "yellow": 2, "red": 1}):
        state, _ = toss_up.apply(state, toss_up.parse_action(data))
    yield f"toss-up {len(names)}", _view(
        toss_up, state, "Toss Up!", camera={"online": True},
        dice={"seen": {"green": 7, "yellow": 1, "red": 2}, "message": "I see 10 dice, 5 expected."})
    names = NAMES[:min(n, sorry_21.MAX_PLAYERS)]
    state = replace(sorry_21.new_game(names), total=14)
    yield f"sorry-21 {len(names)}", _view(sorry_21, state, "Sorry! Revenge")
    names = NAMES[:min(n, paper_toss.MAX_PLAYERS)]
    state = paper_toss.new_game(names, {})
    yield f"paper-toss {len(names)}", _view(paper_toss, replace(
        state, history=tuple(tuple(k + s for s in range(len(names))) for k in range(4))),
        "Paper Toss")
    names = NAMES[:min(n, paper_tales.MAX_PLAYERS)]
    state = paper_tales.new_game(names, {})
    yield f"paper-tales {len(names)}", _view(paper_tales, state, "Paper Tales")
    names = NAMES[:max(toss_your_cookies.MIN_PLAYERS, min(n, toss_your_cookies.MAX_PLAYERS))]
    state = toss_your_cookies.new_game(names, {})
    yield f"toss-your-cookies {len(names)}", _view(toss_your_cookies, replace(
        state, round=3, history=((1,) + (0,) * (len(names) - 1),) * 2), "Toss Your Cookies")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, help="save each page as a PNG in this folder")
    parser.add_argument("--only", help="only the tables whose name has this word")
    args = parser.parse_args()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    with chromium_and_server() as (browser, _conn, port):
        for table, view in [*tables(2), *tables(8)]:
            if args.only and args.only not in table:
                continue
            for width, height in SCREENS:
                page = open_tv(browser, port, view, (width, height), "#board .player")
                row = {"table": table, "screen": f"{width}x{height}", **page.evaluate(TYPE)}
                if args.shots:
                    page.screenshot(path=str(args.shots / f"{table.replace(' ', '-')}-{width}.png"))
                page.context.close()
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
