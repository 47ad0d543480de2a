"""What a damaged journal gives back: games and actions readable after each kind of damage.

Plays 3 Toss Up! games of 100 actions each into a journal, damages a copy in one of four
ways (one page of actions overwritten, cut to 2/3, cut to 1/3, noise), then opens it as
``companion serve`` does and prints what the session holds.

    .venv/bin/python bench/bench_salvage.py
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.journal import Journal  # noqa: E402
from companion.session import Session  # noqa: E402
from tests.companion.test_journal_salvage import played  # noqa: E402  (the same journal)

def one_page(db: Path) -> None:
    with sqlite3.connect(db) as con:
        size = con.execute("PRAGMA page_size").fetchone()[0]
        pages = [n for (n,) in con.execute("SELECT pageno FROM dbstat WHERE name = 'actions' "
                                           "AND pagetype = 'leaf' ORDER BY pageno")]
    con.close()
    data = bytearray(db.read_bytes())
    page = pages[len(pages) // 2]
    data[(page - 1) * size:page * size] = bytes(size)
    db.write_bytes(bytes(data))


def cut(fraction: float):
    def damage(db: Path) -> None:
        data = db.read_bytes()
        db.write_bytes(data[:int(len(data) * fraction)])
    return damage


def noise(db: Path) -> None:
    db.write_bytes(b"this is not a database, just noise " * 100)


def main() -> None:
    print("| damage | games back | actions back (of 300) | current game |")
    print("|---|---|---|---|")
    for name, damage in (("one page of actions zeroed", one_page), ("cut to 2/3", cut(2 / 3)),
                         ("cut to 1/3", cut(1 / 3)), ("noise", noise)):
        with tempfile.TemporaryDirectory() as folder:
            damage(played(Path(folder)))
            session = Session(Journal(folder))
            games = len(session.journal.games())
            actions = sum(len(list(session.journal.actions(g.id)))
                          for g in session.journal.games())
            print(f"| {name} | {games} | {actions} | {session.state()['game']} |")
            session.journal.close()


if __name__ == "__main__":
    main()
