"""Usage errors of the ``companion`` command: exit 2 and one clear line on stderr."""

from __future__ import annotations

import subprocess
import sys

import pytest

import companion.deck_teach
from companion.cli import main

USAGE_ERRORS = [
    (("detect", "--bogus"), "companion detect: error:", "{dice,cards}"),
    (("detect",), "companion detect: error:", "{dice,cards}"),
    (("detect", "dice"), "companion detect dice: error:", "--json, IMAGE"),
    (("detect", "dice", "--json"), "companion detect dice: error:", "IMAGE"),
    (("detect", "cards", "--json", "a.jpg"), "companion detect cards: error:", "--deck"),
    (("serve", "--port", "abc"), "companion serve: error:", "invalid int value: 'abc'"),
    (("frob",), "companion: error:", "invalid choice: 'frob'"),
    ((), "companion: error:", "COMMAND"),
]


@pytest.mark.parametrize("argv, starts, names", USAGE_ERRORS)
def test_a_usage_error_is_one_line_naming_the_command_and_the_fault(argv, starts, names, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert err.out == ""
    lines = err.err.splitlines()
    assert len(lines) == 1, lines  # no usage block before the error
    assert lines[0].startswith(starts) and names in lines[0]
    assert "--help" in lines[0]


def test_the_installed_command_prints_one_line_without_a_traceback():
    result = subprocess.run([sys.executable, "-m", "companion.cli", "detect", "dice"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("companion detect dice: error:")


def test_deck_learn_from_photos_reads_the_games_faces_once(tmp_path, monkeypatch):
    calls = []
    real = companion.deck_teach.card_faces

    def counting(game_id):
        calls.append(game_id)
        return real(game_id)

    monkeypatch.setattr(companion.deck_teach, "card_faces", counting)
    photos = tmp_path / "photos"
    photos.mkdir()
    status = main(["deck", "learn", "--from", str(photos), "--game", "sorry-21",
                   "--deck", str(tmp_path / "deck")])
    assert calls == ["sorry-21"]
    assert status in (0, 1)  # an empty folder teaches nothing; the count is the point


def test_deck_learn_from_photos_refuses_a_game_without_cards_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["deck", "learn", "--from", str(tmp_path), "--game", "toss-up"])
    err = capsys.readouterr().err.splitlines()
    assert exit_info.value.code == 2
    assert len(err) == 1 and "Toss Up! uses no cards" in err[0]
