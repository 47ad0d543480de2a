"""``companion record``: a replay camera over drawn dice tables -> a suite -> ``companion eval``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import cv2
from companion.cli import main
from companion.record import RecordError, Suite, parse_label, record
from hardware.replay import ReplayCamera
from tests.support.clock import FakeClock
from tests.vision.dice_support import scene
from vision.imageio import read_image

TABLES = [(["green", "green", "yellow", "red"], "2 1 1"),
          (["red", "yellow", "yellow", "green", "red"], "1 2 2"),
          (["green", "yellow", "red", "red", "red", "green"], "2 1 3")]


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    """A folder of drawn tables, one per TABLES entry, in order."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, (colours, _) in enumerate(TABLES):
        cv2.imwrite(str(folder / f"{i:04d}.png"), scene(colours, seed=i))
    return folder


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def test_record_then_eval_round_trip(frames: Path, tmp_path: Path, monkeypatch: Any,
                                     capsys: pytest.CaptureFixture) -> None:
    suite = tmp_path / "suite"
    answers = [line for _, label in TABLES for line in ("", label)]
    feed(monkeypatch, *answers)
    assert main(["record", "--camera", f"replay:{frames}", "--suite", str(suite)]) == 0
    out = capsys.readouterr().out
    assert "Recorded 3 images" in out and f"companion eval {suite}" in out
    labels = json.loads((suite / "labels.json").read_text())
    assert labels == {"kind": "dice", "images": {
        "img/0001.jpg": {"green": 2, "yellow": 1, "red": 1},
        "img/0002.jpg": {"green": 1, "yellow": 2, "red": 2},
        "img/0003.jpg": {"green": 2, "yellow": 1, "red": 3}}}
    assert read_image(suite / "img/0002.jpg").shape == (480, 640, 3)
    assert not list(suite.rglob("*.part")), "no temporary file is left behind"
    assert main(["eval", str(suite)]) == 0
    report = capsys.readouterr().out
    assert "images: 3 scored, 0 unreadable" in report and "exact match: 3/3 = 100.0%" in report


def test_a_wrong_label_shows_up_in_eval(frames: Path, tmp_path: Path, monkeypatch: Any,
                                        capsys: pytest.CaptureFixture) -> None:
    suite = tmp_path / "suite"
    feed(monkeypatch, "", "5 0 0")
    assert main(["record", "--camera", f"replay:{frames}", "--suite", str(suite),
                 "--count", "1"]) == 0
    capsys.readouterr()
    main(["eval", str(suite)])
    assert "exact match: 0/1" in capsys.readouterr().out


def test_a_fixed_label_records_count_captures_and_appends(frames: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    suite = tmp_path / "suite"
    assert main(["record", "--camera", f"replay:{frames}", "--suite", str(suite),
                 "--label", "2 1 1"]) == 0
    assert main(["record", "--camera", f"replay:{frames}", "--suite", str(suite),
                 "--label", "1 2 2", "--count", "2"]) == 0
    images = json.loads((suite / "labels.json").read_text())["images"]
    assert images == {"img/0001.jpg": {"green": 2, "yellow": 1, "red": 1},
                      "img/0002.jpg": {"green": 1, "yellow": 2, "red": 2},
                      "img/0003.jpg": {"green": 1, "yellow": 2, "red": 2}}
    assert "holds 3 labelled images" in capsys.readouterr().out


def test_typed_labels_are_checked_and_empty_discards(frames: Path, tmp_path: Path) -> None:
    suite = Suite(tmp_path / "suite", "dice")
    said: list[str] = []
    answers = iter(["", "two one one", "2 1 1", "", "", "", "q"])
    with ReplayCamera(frames, fps=None) as camera:
        saved = record(camera, suite, ask=lambda _: next(answers), say=said.append)
    assert saved == 1
    assert list(suite.labels["images"]) == ["img/0001.jpg"]
    assert sorted(p.name for p in (suite.folder / "img").iterdir()) == ["0001.jpg"]
    assert any("3 numbers" in line for line in said)
    assert "img/0002.jpg: discarded" in said


def test_every_paces_the_captures_with_the_clock(frames: Path, tmp_path: Path) -> None:
    clock = FakeClock()
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.advance(seconds)

    suite = Suite(tmp_path / "suite", "dice")
    with ReplayCamera(frames, fps=None) as camera:
        saved = record(camera, suite, label="2 1 1", every=2.5, count=3, clock=clock,
                       sleep=sleep, say=lambda _: None)
    assert saved == 3 and waits == [2.5, 2.5]


def test_the_end_of_the_input_stops_cleanly(frames: Path, tmp_path: Path) -> None:
    suite = Suite(tmp_path / "suite", "dice")

    def ask(_: str) -> str:
        raise EOFError

    with ReplayCamera(frames, fps=None) as camera:
        assert record(camera, suite, ask=ask, say=lambda _: None) == 0
    assert not (suite.folder / "labels.json").exists()


def test_cards_labels_are_checked_against_the_deck(tmp_path: Path) -> None:
    deck = tmp_path / "suite" / "deck"
    deck.mkdir(parents=True)
    for card in ("perfect", "good-throw@2"):
        cv2.imwrite(str(deck / f"{card}.png"), scene([], size=(64, 96)))
    suite = Suite(tmp_path / "suite", "cards")
    assert suite.labels["deck"] == "deck" and suite.deck_ids() == {"perfect", "good-throw"}
    assert parse_label("perfect good-throw", "cards", deck_ids=suite.deck_ids()) == {
        "cards": ["perfect", "good-throw"]}
    assert parse_label("none", "cards") == {"cards": []}
    with pytest.raises(RecordError, match="'joker' is not a card of the deck"):
        parse_label("joker", "cards", deck_ids=suite.deck_ids())


@pytest.mark.parametrize("text, want", [("3 4 3", {"green": 3, "yellow": 4, "red": 3}),
                                        ("3,4,3,1", {"green": 3, "yellow": 4, "red": 3,
                                                     "other": 1}),
                                        ("0 0 0 0", {"green": 0, "yellow": 0, "red": 0})])
def test_dice_labels(text: str, want: dict) -> None:
    assert parse_label(text, "dice") == want


def test_another_kind_of_suite_is_refused_in_one_line(frames: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "labels.json").write_text('{"kind": "cards", "deck": "deck", "images": {}}')
    assert main(["record", "--camera", f"replay:{frames}", "--suite", str(suite),
                 "--label", "1 1 1"]) == 2
    err = capsys.readouterr().err
    assert "holds a 'cards' suite" in err and err.count("\n") == 1


@pytest.mark.parametrize("args, words", [
    (["--camera", "none"], "needs a camera"),
    (["--camera", "replay:/no/such/folder"], "no such folder"),
    (["--camera", "webcam"], "Unknown camera"),
    (["--label", "lots"], "3 numbers"),
    (["--count", "0"], "--count must be 1 or more"),
    (["--every", "0"], "--every must be"),
])
def test_usage_errors_are_one_line(frames: Path, tmp_path: Path, capsys: pytest.CaptureFixture,
                                   args: list[str], words: str) -> None:
    base = {"--camera": f"replay:{frames}", "--suite": str(tmp_path / "suite")}
    given = dict(zip(args[::2], args[1::2]))
    argv = ["record", *[x for k, v in {**base, **given}.items() for x in (k, v)]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
