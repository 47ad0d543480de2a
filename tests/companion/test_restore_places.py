"""``companion restore`` into a data folder that is a link, a mount point, or not there yet."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from companion.cli import main
from tests.companion.test_restore import _data_folder, _rolls, _snapshot, saved  # noqa: F401


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _refused(saved: Path, data: Path, capsys) -> str:  # type: ignore[no-untyped-def]
    """Run ``companion restore``, expect it refused in one line; that line."""
    capsys.readouterr()
    assert main(["restore", str(saved), "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion restore: ") and err.count("\n") == 1, err
    return err


def test_a_linked_data_folder_is_restored_in_its_target_and_stays_a_link(tmp_path, saved):
    usb = tmp_path / "usb"
    _data_folder(usb / "companion", "111111", 2)
    link = tmp_path / "data"
    link.symlink_to(usb / "companion")
    assert main(["restore", str(saved), "--data-dir", str(link)]) == 0
    assert link.is_symlink() and link.resolve() == usb / "companion"  # the data stays there
    assert _rolls(usb / "companion") == 5
    kept = [p for p in usb.iterdir() if p.name.startswith("companion.before-restore-")]
    assert len(kept) == 1 and _rolls(kept[0]) == 2
    assert _hidden(usb) == [] and _hidden(tmp_path) == []


def test_a_link_to_a_missing_folder_is_refused_in_one_line(tmp_path, saved, capsys):
    link = tmp_path / "data"
    link.symlink_to(tmp_path / "usb" / "companion")  # the disk is not mounted
    err = _refused(saved, link, capsys)
    assert "does not exist" in err and not (tmp_path / "usb").exists()
    assert _hidden(tmp_path) == []


def test_a_mount_point_is_refused_in_one_line_and_nothing_is_left(tmp_path, saved, capsys,
                                                                  monkeypatch):
    data = tmp_path / "data"
    _data_folder(data, "111111", 2)
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == data or real(p))
    before = _snapshot(data)
    err = _refused(saved, data, capsys)
    assert "mount point" in err and "folder inside it" in err
    assert _snapshot(data) == before and _hidden(tmp_path) == []


def test_a_data_folder_that_cannot_be_moved_aside_leaves_no_copy_behind(tmp_path, saved,
                                                                       capsys, monkeypatch):
    # what a mount point does that os.path.ismount misses (a bind mount): EBUSY on rename
    data = tmp_path / "data"
    _data_folder(data, "111111", 2)
    rename = os.rename

    def busy(src, dst):  # type: ignore[no-untyped-def]
        if Path(src) == data:
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), str(src))
        rename(src, dst)

    monkeypatch.setattr(os, "rename", busy)
    before = _snapshot(data)
    err = _refused(saved, data, capsys)
    assert _snapshot(data) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "other", "saved"]


def test_restore_onto_a_new_machine_creates_the_missing_parents(tmp_path, saved):
    data = tmp_path / "home" / "pi" / ".local" / "companion"
    assert main(["restore", str(saved), "--data-dir", str(data)]) == 0
    assert _rolls(data) == 5 and _hidden(data.parent) == []
