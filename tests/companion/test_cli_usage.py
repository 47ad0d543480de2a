"""Usage errors of the ``companion`` command: exit 2 and one clear line on stderr."""

from __future__ import annotations

import subprocess
import sys

import pytest

import companion.deck_teach
from companion.cli import main

USAGE_ERRORS = [
    (("detect",), "companion detect: error:", "{dice,cards}"),
    (("detect", "dice"), "companion detect dice: error:", "--json, IMAGE"),
    (("detect", "dice", "--json"), "companion detect dice: error:", "IMAGE"),
    (("detect", "cards", "--json", "a.jpg"), "companion detect cards: error:", "--deck"),
    (("serve", "--port", "abc"), "companion serve: error:", "invalid int value: 'abc'"),
    (("frob",), "companion: error:", "invalid choice: 'frob'"),
    ((), "companion: error:", "COMMAND"),
]
# An unknown option is named under the command typed (argparse named the top-level command,
# or only the argument missing after it: "companion detect --bogus" said "required").
UNKNOWN_OPTIONS = [
    (("--x",), "companion: error:", "unrecognized arguments: --x"),
    (("serve", "--x"), "companion serve: error:", "unrecognized arguments: --x"),
    (("serve", "-x"), "companion serve: error:", "unrecognized arguments: -x"),
    (("config", "--x"), "companion config: error:", "unrecognized arguments: --x"),
    (("record", "--x"), "companion record: error:", "unrecognized arguments: --x"),
    (("record", "--camera", "none", "--suite", "s", "--x"), "companion record: error:",
     "unrecognized arguments: --x"),
    (("detect", "--bogus"), "companion detect: error:", "unrecognized arguments: --bogus"),
    (("detect", "--bogus", "dice", "--json", "a.jpg"), "companion detect: error:",
     "unrecognized arguments: --bogus"),
    (("detect", "dice", "--x"), "companion detect dice: error:", "unrecognized arguments: --x"),
    (("detect", "dice", "--json", "a.jpg", "--x"), "companion detect dice: error:",
     "unrecognized arguments: --x"),
    (("detect", "cards", "--deck", "d", "--json", "a.jpg", "--x", "--y"),
     "companion detect cards: error:", "unrecognized arguments: --x --y"),
    (("eval", "s", "--x"), "companion eval: error:", "unrecognized arguments: --x"),
    (("eval", "s", "t"), "companion eval: error:", "unrecognized arguments: t"),
    (("deck", "--x"), "companion deck: error:", "unrecognized arguments: --x"),
    (("deck", "learn", "--x"), "companion deck learn: error:", "unrecognized arguments: --x"),
    (("install-service", "--dest", "d", "--x"), "companion install-service: error:",
     "unrecognized arguments: --x"),
]
# A wrong choice, or a check made after argparse's, is named under the command typed too.
WRONG_CHOICES = [
    (("serve", "--dice", "maybe"), "companion serve: error:", "invalid choice: 'maybe'"),
    (("config", "--dice", "maybe"), "companion config: error:", "invalid choice: 'maybe'"),
    (("record", "--kind", "coins"), "companion record: error:", "invalid choice: 'coins'"),
    (("detect", "coins"), "companion detect: error:", "invalid choice: 'coins'"),
    (("deck", "teach"), "companion deck: error:", "invalid choice: 'teach'"),
    (("deck", "learn"), "companion deck learn: error:", "--game GAME_ID or --from DIR"),
    (("deck", "learn", "--from", "photos"), "companion deck learn: error:", "--deck DECK_DIR"),
    (("deck", "learn", "--from", "photos", "--game", "frob"), "companion deck learn: error:",
     "Unknown game 'frob'"),
]


@pytest.mark.parametrize("argv, starts, names", USAGE_ERRORS + UNKNOWN_OPTIONS + WRONG_CHOICES)
def test_a_usage_error_is_one_line_naming_the_command_and_the_fault(argv, starts, names, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert err.out == ""
    lines = err.err.splitlines()
    assert len(lines) == 1, lines  # no usage block before the error
    assert lines[0].startswith(starts) and names in lines[0]
    command = starts.removesuffix(": error:")
    assert lines[0].endswith(f"(see: {command} --help)")  # the help of the command typed


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
