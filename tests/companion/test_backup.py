"""``companion backup``: the data folder copied whole while the journal is being written."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from companion.cli import main
from tests.companion.test_journal_locked import held_by_another_process  # noqa: F401 (a fixture)


def _live_journal(data_dir):
    """A WAL journal with rows not yet checkpointed into companion.db, left open."""
    db = sqlite3.connect(data_dir / "companion.db")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, body TEXT)")
    with db:
        db.executemany("INSERT INTO actions (body) VALUES (?)", [("roll",), ("bank",)])
    return db


def test_backup_of_a_running_journal_holds_its_latest_actions(tmp_path, capsys):
    data, dest = tmp_path / "data", tmp_path / "saved"
    (data / "decks" / "sorry-21").mkdir(parents=True)
    (data / "decks" / "sorry-21" / "num-1.png").write_bytes(b"png")
    (data / "host-pin.txt").write_text("482106\n")
    (data / "web-secret.key").write_bytes(b"k" * 32)
    live = _live_journal(data)
    try:
        assert (data / "companion.db-wal").stat().st_size > 0  # the rows are in the WAL only
        assert main(["backup", str(dest), "--data-dir", str(data)]) == 0
    finally:
        live.close()
    saved = sqlite3.connect(dest / "companion.db")
    assert [r[0] for r in saved.execute("SELECT body FROM actions ORDER BY id")] == ["roll", "bank"]
    saved.close()
    assert (dest / "host-pin.txt").read_text() == "482106\n"
    assert (dest / "web-secret.key").read_bytes() == b"k" * 32
    assert (dest / "decks" / "sorry-21" / "num-1.png").read_bytes() == b"png"
    assert not (dest / "companion.db-wal").exists()
    assert "host-pin.txt" in capsys.readouterr().out


@pytest.mark.parametrize("case", ["not empty", "inside", "no data"])
def test_a_wrong_destination_is_one_line_and_nothing_is_copied(tmp_path, capsys, case):
    data = tmp_path / "data"
    if case != "no data":
        data.mkdir()
        (data / "host-pin.txt").write_text("1\n")
    dest = {"not empty": tmp_path / "full", "inside": data / "saved",
            "no data": tmp_path / "saved"}[case]
    if case == "not empty":
        dest.mkdir()
        (dest / "other.txt").write_text("x")
    assert main(["backup", str(dest), "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion backup: ") and err.count("\n") == 1
    assert not (dest / "host-pin.txt").exists()


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("companion 0.")


def test_serve_help_names_the_data_folder_default_the_environment_and_the_kept_pin(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("~/.local/share/companion", "COMPANION_DATA_DIR", "COMPANION_PIN",
                  "COMPANION_PORT", "host-pin.txt"):
        assert words in out


@pytest.mark.parametrize("dest_exists", [False, True])
def test_a_journal_that_is_not_a_database_is_one_line_and_leaves_dest_as_it_was(
        tmp_path, capsys, dest_exists):
    data, dest = tmp_path / "data", tmp_path / "saved"
    data.mkdir()
    (data / "companion.db").write_text("x\n")  # corrupt: SQLite says "not a database"
    (data / "host-pin.txt").write_text("1\n")
    if dest_exists:
        dest.mkdir()
    assert main(["backup", str(dest / "run"), "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion backup: ") and err.count("\n") == 1
    assert "companion.db" in err
    assert dest.exists() == dest_exists  # what this run created is gone, the rest kept
    assert not (dest / "run").exists()
    (data / "companion.db").unlink()  # the journal mended: a re-run is not refused
    assert main(["backup", str(dest / "run"), "--data-dir", str(data)]) == 0
    assert (dest / "run" / "host-pin.txt").read_text() == "1\n"


def test_the_journal_failing_into_an_existing_empty_dest_leaves_it_empty(tmp_path, capsys):
    data, dest = tmp_path / "data", tmp_path / "saved"
    data.mkdir()
    (data / "companion.db").write_text("x\n")
    dest.mkdir()
    assert main(["backup", str(dest), "--data-dir", str(data)]) == 1
    assert dest.is_dir() and not any(dest.iterdir())
    capsys.readouterr()


def test_backup_runs_as_python_m_companion_cli(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "host-pin.txt").write_text("1\n")
    run = subprocess.run([sys.executable, "-m", "companion.cli", "backup", str(tmp_path / "b"),
                          "--data-dir", str(data)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "b" / "host-pin.txt").read_text() == "1\n"


def test_a_locked_journal_is_one_line_not_a_wait_forever(tmp_path, capsys, monkeypatch):
    import companion.backup

    monkeypatch.setattr(companion.backup, "LOCK_WAIT", 0.3, raising=False)
    data, dest = tmp_path / "data", tmp_path / "saved"
    data.mkdir()
    holder = sqlite3.connect(data / "companion.db", isolation_level=None)
    holder.execute("CREATE TABLE actions (body TEXT)")
    holder.execute("BEGIN EXCLUSIVE")  # a rollback-mode writer holding the file
    holder.execute("INSERT INTO actions VALUES ('roll')")
    try:
        assert main(["backup", str(dest), "--data-dir", str(data)]) == 1
    finally:
        holder.close()
    err = capsys.readouterr().err
    assert err.startswith("companion backup: ") and err.count("\n") == 1 and "locked" in err
    assert not dest.exists()


def test_a_journal_another_process_holds_is_named_by_its_pid(
        tmp_path, capsys, monkeypatch, held_by_another_process):  # noqa: F811
    import companion.backup

    monkeypatch.setattr(companion.backup, "LOCK_WAIT", 0.3, raising=False)
    dest = tmp_path.with_name(tmp_path.name + "-saved")  # the fixture's journal is in tmp_path
    assert main(["backup", str(dest), "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "locked" in err
    assert f"held by pid {held_by_another_process.pid} (" in err
    assert not dest.exists()
