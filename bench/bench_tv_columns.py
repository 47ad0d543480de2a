"""How the TV lays out every game's scores, table size by table size.

For each game and each table size it allows, headless Chromium opens ``/tv`` at 1920x1080
and at the Pi's 800x480 touchscreen and prints: how many columns the scores stand in, the
root type size ``fitTv`` chose (px), and whether the board fits the screen unscrolled.
Names are a mix of short and long ("Bartholomew", "Hildegard"), as a real table's are.
A layout, not a timing: the figures do not depend on the machine's load.

Usage::

    .venv/bin/python bench/bench_tv_columns.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bench_web import post  # same folder: shared set-up
from page_timing import chromium_and_server

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.games import GAMES, find_game  # noqa: E402

NAMES = ["Ann", "Bartholomew", "Cy", "Dorothea", "Eli", "Francesca", "Gus", "Hildegard"]
SCREENS = ((1920, 1080), (800, 480))
LAYOUT = """() => { const rows = [...document.querySelectorAll('.player')];
  const root = document.documentElement;
  return {columns: new Set(rows.map((r) => Math.round(r.getBoundingClientRect().left))).size,
          type_px: +parseFloat(getComputedStyle(root).fontSize).toFixed(1),
          fits: root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth}; }"""


def main() -> None:
    with chromium_and_server() as (browser, conn, port):
        for game in GAMES:
            module = find_game(game)
            for n in range(max(2, module.MIN_PLAYERS), module.MAX_PLAYERS + 1):
                body = json.dumps({"game": game, "players": NAMES[:n]}).encode()
                version = post(conn, "/api/games", body)["version"]
                row = {"game": game, "players": n}
                for width, height in SCREENS:
                    page = browser.new_context(viewport={"width": width,
                                                         "height": height}).new_page()
                    page.goto(f"http://127.0.0.1:{port}/tv")
                    page.wait_for_selector(f'#board[data-version="{version}"] .player')
                    row[f"{width}x{height}"] = page.evaluate(LAYOUT)
                    page.context.close()
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
