"""``companion restore SRC``: a backup put back as the data folder, whole or not at all."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.restore import finish_restore, restore
from tests.companion.test_serve import Served, served  # noqa: F401 (a fixture)


def _data_folder(folder: Path, pin: str, rolls: int) -> None:
    """A data folder as the companion leaves it: a journal with a game and `rolls` actions."""
    (folder / "decks" / "sorry-21").mkdir(parents=True)
    (folder / "decks" / "sorry-21" / "num-1.png").write_bytes(pin.encode())
    (folder / "host-pin.txt").write_text(pin + "\n")
    with Journal(folder) as journal:
        game = journal.start_game("toss-up", ["Ann", "Ben"], {}, at=1.0)
        for n in range(rolls):  # roll, bank, roll, ...: each roll has all ten dice
            action = {"type": "bank"} if n % 2 else {"type": "roll", "green": 3,
                                                        "yellow": 7, "red": 0}
            journal.append(game, action, at=2.0 + n)


def _killed_writer(folder: Path, rolls: int) -> None:
    """A data folder whose last writer was killed: rows only in companion.db-wal."""
    _data_folder(folder, "111111", 0)
    code = ("import os, sqlite3, sys\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('PRAGMA wal_autocheckpoint=0')\n"
            f"for n in range({rolls}):\n"
            "    db.execute(\"INSERT INTO actions (game_id, data, at) VALUES (1, '{}', 3)\")\n"
            "os._exit(9)\n")
    subprocess.run([sys.executable, "-c", code, str(folder / "companion.db")], check=False,
                   timeout=60)
    assert (folder / "companion.db-wal").stat().st_size > 0


def _rolls(folder: Path) -> int:
    db = sqlite3.connect(f"file:{folder / 'companion.db'}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


def _snapshot(folder: Path) -> dict[str, object]:
    """What a data folder holds, as the companion would read it (the journal by its rows)."""
    files: dict[str, object] = {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith("companion.db")}
    files["rolls"] = _rolls(folder)
    return files


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A backup, made by ``companion backup``, of a folder with a PIN and 5 rolls."""
    other = tmp_path / "other"
    _data_folder(other, "222222", 5)
    assert main(["backup", str(tmp_path / "saved"), "--data-dir", str(other)]) == 0
    return tmp_path / "saved"


def test_restore_replaces_the_data_and_keeps_the_old_as_a_dated_copy(tmp_path, saved, capsys):
    data = tmp_path / "data"
    _killed_writer(data, 3)  # stale WAL: SQLite would replay it over a journal copied in
    capsys.readouterr()
    assert main(["restore", str(saved), "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert (data / "host-pin.txt").read_text() == "222222\n"
    assert (data / "decks" / "sorry-21" / "num-1.png").read_bytes() == b"222222"
    assert not (data / "companion.db-wal").exists() and not (data / "companion.db-shm").exists()
    assert _rolls(data) == 5
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("data.before-restore-")]
    assert len(kept) == 1 and str(kept[0]) in out
    assert (kept[0] / "host-pin.txt").read_text() == "111111\n"
    assert _rolls(kept[0]) == 3  # the old journal, its WAL rows included
    with Journal(data) as journal:  # the companion opens what was restored
        assert journal.current_game() is not None and journal.version() >= 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_restore_onto_a_new_machine_keeps_nothing(tmp_path, saved, capsys):
    data = tmp_path / "fresh" / "companion"
    data.parent.mkdir()
    assert main(["restore", str(saved), "--data-dir", str(data)]) == 0
    assert _rolls(data) == 5 and "kept" not in capsys.readouterr().out


def _not_companion(folder: Path) -> None:
    folder.mkdir()
    db = sqlite3.connect(folder / "companion.db")
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    db.commit()
    db.close()


def _damaged(folder: Path) -> None:
    _data_folder(folder, "333333", 400)  # several pages: damage one in the middle
    raw = bytearray((folder / "companion.db").read_bytes())
    page = 4096
    raw[3 * page:4 * page] = b"\xff" * page
    (folder / "companion.db").write_bytes(bytes(raw))


@pytest.mark.parametrize("case", ["no journal", "not a database", "another program's",
                                  "damaged", "the data folder"])
def test_what_is_not_a_companion_backup_is_one_line_and_nothing_changes(tmp_path, case, capsys):
    data, src = tmp_path / "data", tmp_path / "src"
    _data_folder(data, "111111", 2)
    if case == "no journal":
        src.mkdir()
        (src / "host-pin.txt").write_text("9\n")
    elif case == "not a database":
        src.mkdir()
        (src / "companion.db").write_text("hello\n")
    elif case == "another program's":
        _not_companion(src)
    elif case == "damaged":
        _damaged(src)
    else:
        src = data
    before = _snapshot(data)
    capsys.readouterr()
    assert main(["restore", str(src), "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion restore: ") and err.count("\n") == 1, err
    assert _snapshot(data) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "src"][:1 + (src != data)]


def test_restore_refuses_while_a_server_uses_the_data_folder(tmp_path, saved, capsys, served):
    data = tmp_path / "data"
    _data_folder(data, "111111", 2)
    server = Served("--camera", "none", "--data-dir", str(data),
                    env={"GPIOZERO_PIN_FACTORY": "no-such-factory"})
    served.append(server)
    before = _snapshot(data)
    capsys.readouterr()
    assert main(["restore", str(saved), "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion restore: ") and err.count("\n") == 1
    assert "a companion is running on" in err and "stop it first" in err
    assert _snapshot(data) == before
    assert server.get("/api/state")[0] == 200
    assert server.stop() == 0
    assert main(["restore", str(saved), "--data-dir", str(data)]) == 0  # stopped: it may
    assert _rolls(data) == 5


def test_restore_refuses_while_another_program_has_the_journal_open(tmp_path, saved, capsys):
    # a server without the folder lock (one started before it existed) is seen by its journal
    data = tmp_path / "data"
    _data_folder(data, "111111", 2)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
         "db.execute('SELECT count(*) FROM actions').fetchone(); print('open', flush=True); "
         "sys.stdin.read()", str(data / "companion.db")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        assert main(["restore", str(saved), "--data-dir", str(data)]) == 1
        err = capsys.readouterr().err
        assert "open in another program" in err and err.count("\n") == 1
        assert f"(pid {holder.pid} (" in err  # which one to stop
        assert _rolls(data) == 2
    finally:
        holder.communicate("", timeout=60)


# -- a kill at any moment -----------------------------------------------------------------

_FILE_CALLS = {"rename", "replace", "open", "mkdir", "fsync", "unlink", "rmdir", "write",
               "sendfile", "copy_file_range", "backup", "utime", "chmod", "close"}


def _restore_killed_at(src: Path, data: Path, kill_at: int, run: Any = restore) -> int:
    """Run ``run(src, data)`` (a restore) in a forked child killed (os._exit, no clean-up)
    at its `kill_at`th file-system call; the number of calls it made (all when it finished)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        calls = 0

        def count(frame, event, arg):  # type: ignore[no-untyped-def]
            nonlocal calls
            if event == "c_call" and getattr(arg, "__name__", "") in _FILE_CALLS:
                calls += 1
                if calls == kill_at:
                    os._exit(9)

        sys.setprofile(count)
        try:
            run(src, data)
        finally:
            sys.setprofile(None)
            os.write(write, str(calls).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        said = pipe.read()
    os.waitpid(pid, 0)
    return int(said) if said else kill_at


def test_a_restore_killed_at_any_moment_leaves_the_old_data_or_the_new(tmp_path, saved):
    origin = tmp_path / "origin"
    _killed_writer(origin, 3)
    (origin / "companion.toml").write_text("[camera]\nspec = 'none'\n")
    old = _snapshot(origin)
    data = tmp_path / "run" / "data"
    data.parent.mkdir()
    shutil.copytree(origin, data)
    total = _restore_killed_at(saved, data, 0)  # counts the calls of a whole restore
    new = _snapshot(data)
    assert new["rolls"] == 5 and total > 10
    seen = set()
    for kill_at in range(1, total + 1):
        shutil.rmtree(data.parent)
        data.parent.mkdir()
        shutil.copytree(origin, data)
        _restore_killed_at(saved, data, kill_at)
        finish_restore(data)  # what the next restore or `companion serve` does first
        now = _snapshot(data)
        assert now in (old, new), kill_at
        seen.add("new" if now == new else "old")
        assert [p.name for p in data.parent.iterdir() if p.name.startswith(".")] == []
    assert seen == {"old", "new"}


def test_serve_finishes_a_restore_killed_between_its_renames(tmp_path, saved, served):
    data = tmp_path / "data"  # moved aside; the ready copy had not taken its name yet
    shutil.copytree(saved, tmp_path / ".data.restore-ready")
    server = Served("--camera", "none", "--data-dir", str(data),
                    env={"GPIOZERO_PIN_FACTORY": "no-such-factory"})
    served.append(server)
    status, _, body = server.get("/api/state")
    assert status == 200 and b'"Ann"' in body and b'"Ben"' in body
    assert (data / "host-pin.txt").read_text() == "222222\n"
    assert not (tmp_path / ".data.restore-ready").exists()
    assert server.stop() == 0
    assert b"finished an interrupted restore" in server.proc.stderr.read()
