"""``companion config --save``: settings changed one at a time, none lost.

The documented way was ``companion config --set K=V > D/companion.toml``; the shell empties
the file before the command reads it, so every earlier setting went back to its default.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from companion import cli
from companion.config import FILE_NAME, load_config


def test_settings_saved_one_by_one_are_all_kept(tmp_path: Path, capsys) -> None:
    assert cli.main(["config", "--data-dir", str(tmp_path), "--port", "9000", "--save"]) == 0
    assert cli.main(["config", "--data-dir", str(tmp_path), "--set", "leds.ready=none",
                     "--save"]) == 0
    config = load_config(tmp_path, env={})
    assert config.port == 9000  # the first setting survived the second save
    assert tomllib.loads((tmp_path / FILE_NAME).read_text())["leds"]["ready"] == "none"
    out = capsys.readouterr().out
    assert f"Saved the settings to {tmp_path / FILE_NAME}" in out


def test_the_environment_is_not_saved(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_PORT", "9100")
    assert cli.main(["config", "--data-dir", str(tmp_path), "--save"]) == 0
    assert load_config(tmp_path, env={}).port == 8000


def test_a_bad_setting_is_refused_and_the_file_kept(tmp_path: Path, capsys) -> None:
    (tmp_path / FILE_NAME).write_text("[server]\nport = 9000\n")
    assert cli.main(["config", "--data-dir", str(tmp_path), "--set", "server.port=-3",
                     "--save"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "server.port" in err
    assert (tmp_path / FILE_NAME).read_text() == "[server]\nport = 9000\n"


def test_a_folder_that_cannot_be_written_is_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / FILE_NAME).write_text("[server]\nport = 9000\n")
    (tmp_path / f"{FILE_NAME}.{os.getpid()}.part").mkdir()  # in the way of the new file
    assert cli.main(["config", "--data-dir", str(tmp_path), "--save"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion config: cannot save") and err.count("\n") == 1
    assert (tmp_path / FILE_NAME).read_text() == "[server]\nport = 9000\n"


@pytest.mark.parametrize("flag", ["--save"])
def test_the_help_names_the_flag(flag: str, capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["config", "--help"])
    assert flag in capsys.readouterr().out
