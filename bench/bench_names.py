"""What fitting players' names costs the phone scoreboard on each change.

The server runs in a child process (``bench_web.child_server``). Headless Chromium at
390x844 opens the scoreboard of a game whose players have short names, or long ones
(a hyphenated name of three words, one word of 35 letters); the page re-renders the last
state ``--rounds`` times, timing ``Board.render`` with its layout and then ``fitNames``
(which measures the names, puts pips under them when they have no room and shrinks a name
still too wide) with the layout it causes. Wall-clock milliseconds inside the page, so
read them beside the load average printed with them.

Usage::

    .venv/bin/python bench/bench_names.py [--rounds 200]

Prints JSON per game and names: render median, fitNames median and p90.
"""

from __future__ import annotations

from page_timing import NAMES, PHONE, fit_timer, run  # same folder: shared set-up

TIME = fit_timer('Board.render(Live.last, false); board.offsetHeight;',
                 'fitNames(board); board.offsetHeight;',
                 setup='const board = document.getElementById("board"); ')


def _open_board(page, port: int) -> None:
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector(".player-name")


def main() -> None:
    cases = [(f"{game} {kind}", PHONE, game, players)
             for game in ("sorry-21", "toss-up") for kind, players in NAMES.items()]
    run(__doc__.splitlines()[0], cases, _open_board, TIME)


if __name__ == "__main__":
    main()
