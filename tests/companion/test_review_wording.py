"""The sentences a first-time user met (review of session 11): each says what is wrong in
the user's terms, with no Python repr and no promise the docs do not keep."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.deck_teach import card_faces, card_games
from companion.errors import InvalidAction
from companion.games import find_game

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_a_deck_that_is_a_file_is_called_a_file(tmp_path: Path) -> None:
    photo = tmp_path / "deck.jpg"
    photo.write_bytes(b"not a folder")
    done = run_cli("detect", "cards", "--json", "--deck", str(photo), str(photo))
    assert done.returncode == 2
    assert "is a file" in done.stderr and "does not exist" not in done.stderr


@pytest.mark.parametrize("labels, said", [
    ({"images": {}}, '"kind"'),
    ({"kind": "dice", "images": ["a.jpg"]}, '"images" must be an object'),
    ({"kind": "dice", "images": {}}, '"images" is empty'),
])
def test_eval_says_what_labels_json_should_hold(tmp_path: Path, labels: dict,
                                                said: str) -> None:
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    done = run_cli("eval", str(tmp_path))
    text = done.stdout + done.stderr
    assert done.returncode == 2 and said in text
    assert "README" not in text and "companion eval --help" in text


def test_deck_learn_lists_only_games_it_can_teach() -> None:
    teachable = [gid for gid, _ in card_games()]
    with pytest.raises(InvalidAction) as refused:
        card_faces("nosuch")
    listed = str(refused.value).split(": ", 1)[1].rstrip(".").split(", ")
    assert listed == teachable and "toss-up" not in listed and "paper-tales" not in listed
    for game_id in listed:  # every game offered is one it then takes
        assert card_faces(game_id)


def test_a_game_that_is_not_a_name_is_refused_without_a_repr() -> None:
    with pytest.raises(InvalidAction) as refused:
        find_game({"x": 1})
    assert str(refused.value).startswith("'game' must be one of: ")
    assert "{" not in str(refused.value)
