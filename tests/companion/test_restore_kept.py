"""``companion restore --list`` and ``--keep N``: the data folders restores replaced.

Every restore keeps the folder it replaced (``<name>.before-restore-<stamp>``) and nothing
ever removed one, so a Pi restored weekly filled its card. ``--list`` shows them newest
first with their date and size; ``--keep N`` removes all but the newest N (never the newest).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from tests.companion.test_restore import saved  # noqa: F401 (a fixture)

STAMPS = ["20261101-090000", "20261115-183000", "20261115-183000-2", "20261120-070500"]


def _kept(tmp_path: Path) -> Path:
    """A data folder and four copies restores kept beside it, 1-4 KiB each, plus
    neighbours that are not such copies (never listed, never removed)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "host-pin.txt").write_text("1\n")
    for n, stamp in enumerate(STAMPS, 1):
        copy = tmp_path / f"data.before-restore-{stamp}"
        (copy / "decks").mkdir(parents=True)
        (copy / "decks" / "card.png").write_bytes(b"x" * 1024 * n)
    (tmp_path / "data.before-restore-notes").mkdir()  # not a stamp
    (tmp_path / "other.before-restore-20261101-090000").mkdir()  # another folder's
    return data


def _left(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir())


def test_list_shows_the_kept_copies_newest_first_with_date_and_size(tmp_path, capsys):
    data = _kept(tmp_path)
    before = _left(tmp_path)
    assert main(["restore", "--list", "--data-dir", str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == [
        f"  2026-11-20 07:05:00  4.0 KB  {tmp_path / 'data.before-restore-20261120-070500'}",
        f"  2026-11-15 18:30:00  3.0 KB  {tmp_path / 'data.before-restore-20261115-183000-2'}",
        f"  2026-11-15 18:30:00  2.0 KB  {tmp_path / 'data.before-restore-20261115-183000'}",
        f"  2026-11-01 09:00:00  1.0 KB  {tmp_path / 'data.before-restore-20261101-090000'}"]
    assert lines[0] == f"4 copies kept by restores beside {data}, newest first:"
    assert _left(tmp_path) == before  # a list changes nothing


def test_keep_removes_the_oldest_copies_and_nothing_else(tmp_path, capsys):
    data = _kept(tmp_path)
    assert main(["restore", "--keep", "2", "--data-dir", str(data)]) == 0
    assert _left(tmp_path) == ["data", "data.before-restore-20261115-183000-2",
                               "data.before-restore-20261120-070500",
                               "data.before-restore-notes",
                               "other.before-restore-20261101-090000"]
    out = capsys.readouterr().out
    assert "Removed 2 copies (3.0 KB)" in out and "kept the newest 2" in out
    assert (data / "host-pin.txt").read_text() == "1\n"


@pytest.mark.parametrize("keep", ["0", "-1", "two"])
def test_keep_never_removes_the_newest(tmp_path, capsys, keep):
    data = _kept(tmp_path)
    before = _left(tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["restore", f"--keep={keep}", "--data-dir", str(data)])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("companion restore: error: ") and err.count("\n") == 1
    assert "--keep" in err
    assert _left(tmp_path) == before


def test_restore_then_keep_counts_the_copy_it_just_kept(tmp_path, saved, capsys):  # noqa: F811
    data = _kept(tmp_path)
    assert main(["restore", str(saved), "--keep", "1", "--data-dir", str(data)]) == 0
    copies = [n for n in _left(tmp_path) if n.startswith("data.before-restore-2")]
    assert len(copies) == 1 and copies[0] not in [f"data.before-restore-{s}" for s in STAMPS]
    assert (tmp_path / copies[0] / "host-pin.txt").read_text() == "1\n"  # the data it replaced


def test_restore_with_no_backup_and_no_list_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["restore", "--data-dir", str(tmp_path / "data")])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("companion restore: error: ") and err.count("\n") == 1
    assert "SRC" in err and "--list" in err


def test_list_with_nothing_kept_says_so(tmp_path, capsys):
    assert main(["restore", "--list", "--data-dir", str(tmp_path / "data")]) == 0
    assert capsys.readouterr().out == f"No copies kept by restores beside {tmp_path / 'data'}.\n"
