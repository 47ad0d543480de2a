"""``companion detect dice --json`` and ``companion eval`` on dice suites, as users run them."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import cv2

from companion.cli import main
from tests.vision import dice_support as ds


@pytest.fixture
def images(tmp_path: Path) -> dict[str, Path]:
    """Good, broken and hostile image files."""
    good = tmp_path / "table.jpg"
    cv2.imwrite(str(good), ds.scene(["green", "green", "yellow", "red", ds.BLUE]))
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    truncated = tmp_path / "truncated.jpg"
    truncated.write_bytes(good.read_bytes()[:300])
    text = tmp_path / "notes.txt"
    text.write_text("not an image\n")
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_claiming(60_000, 60_000))
    return {"good": good, "empty": empty, "truncated": truncated, "text": text, "bomb": bomb,
            "missing": tmp_path / "nowhere.jpg"}


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge picture (a decompression bomb)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 1024)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=120)


def test_detect_prints_one_line_per_image(images, capsys):
    status = main(["detect", "dice", "--json", str(images["good"]), str(images["good"])])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert [json.loads(line) for line in lines] == [
        {"image": str(images["good"]), "green": 2, "yellow": 1, "red": 1, "other": 1}] * 2


def test_bad_files_get_error_lines_and_the_rest_is_read(images):
    order = ["empty", "good", "truncated", "text", "bomb", "missing"]
    result = run_cli("detect", "dice", "--json", *(str(images[k]) for k in order))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(images[k]) for k in order]
    for kind, line in zip(order, lines):
        if kind == "good":
            assert line["green"] == 2 and "error" not in line
        else:
            assert set(line) == {"image", "error"} and "\n" not in line["error"], kind
    assert "empty" in lines[0]["error"] and "no such file" in lines[5]["error"]


def test_usage_errors_exit_2():
    assert run_cli("detect", "dice", "some.jpg").returncode == 2  # --json is required
    assert run_cli("detect", "dice", "--json").returncode == 2


def _suite(tmp_path: Path) -> Path:
    suite = tmp_path / "suite"
    (suite / "img").mkdir(parents=True)
    cv2.imwrite(str(suite / "img" / "a.jpg"), ds.scene(["green", "yellow", "red"]))
    cv2.imwrite(str(suite / "img" / "b.jpg"), ds.scene(["green", "green"], seed=4))
    labels = {"kind": "dice", "images": {
        "img/a.jpg": {"green": 1, "yellow": 1, "red": 1, "condition": "plain"},
        "img/b.jpg": {"green": 1, "yellow": 0, "red": 1, "condition": "wrong-on-purpose"}}}
    (suite / "labels.json").write_text(json.dumps(labels))
    return suite


def test_eval_reports_mistakes_and_a_summary(tmp_path, capsys):
    assert main(["eval", str(_suite(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "img/b.jpg: saw g2 y0 r0 o0, expected g1 y0 r1 o0 [wrong-on-purpose]" in out
    assert "img/a.jpg" not in out
    assert "exact match: 1/2 = 50.0%" in out
    assert "per-colour mean absolute error" in out and "time per image" in out
    assert "plain          1/1 = 100.0%" in out


def test_eval_counts_an_unreadable_image(tmp_path, capsys):
    suite = _suite(tmp_path)
    (suite / "img" / "a.jpg").write_bytes(b"junk")
    assert main(["eval", str(suite)]) == 1
    assert "img/a.jpg: cannot read" in capsys.readouterr().out


def test_eval_on_boxed_photos_reports_the_find_rate(tmp_path, capsys):
    suite = tmp_path / "boxed"
    (suite / "img").mkdir(parents=True)
    frame = ds.table()
    ds.die(frame, (200, 200), 40, ds.BLUE, pips=3)
    ds.die(frame, (400, 300), 40, ds.RED, pips=2)
    cv2.imwrite(str(suite / "img" / "a.png"), frame)
    labels = {"kind": "dice-count", "images": {"img/a.png": {
        "dice": 3, "boxes": [[175, 175, 225, 225], [375, 275, 425, 325], [10, 10, 40, 40]]}}}
    (suite / "labels.json").write_text(json.dumps(labels))
    from companion.dice_cmd import evaluate

    assert evaluate(suite, labels, out=sys.stdout) == 0
    out = capsys.readouterr().out
    assert "dice found: 2/3 = 66.7%" in out and "false finds: 0/2" in out


@pytest.mark.parametrize("text, said", [
    ("[]", 'must be an object with "kind" (dice or cards) and "images"'),
    ('{"images": {}}', 'must be an object with "kind" (dice or cards) and "images"'),
    ("{bad", "labels.json is not valid JSON"),
])
def test_eval_says_what_is_wrong_with_labels_json(tmp_path, capsys, text, said):
    (tmp_path / "labels.json").write_text(text)
    assert main(["eval", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "list indices" not in err and "('kind')" not in err  # no Python internals


def test_eval_without_labels_says_so(tmp_path, capsys):
    assert main(["eval", str(tmp_path / "nowhere")]) == 2
    assert "no readable labels.json (No such file or directory)" in capsys.readouterr().err


def test_help_speaks_to_users(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and "root of the stack" not in out


def test_every_argument_of_every_command_says_what_it_takes():
    # `companion detect dice --help` listed IMAGE, `eval --help` SUITE_DIR and
    # `install-service --help` --port, --camera, --data-dir with no word about them
    import argparse

    from companion.cli import build_parser

    def parsers(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)

    silent = [f"{p.prog} {a.dest}" for p in parsers(build_parser()) for a in p._actions
              if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
              and not a.help]
    assert silent == []


def test_a_black_and_white_photo_of_dice_is_an_error_not_other_dice(tmp_path):
    colour = ds.scene(["green", "yellow", "red"])
    grey = cv2.cvtColor(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(tmp_path / "mono.jpg"), grey)  # a phone's mono filter: R = G = B
    cv2.imwrite(str(tmp_path / "empty.jpg"), ds.table())  # a bare table: no colour needed
    cv2.imwrite(str(tmp_path / "colour.jpg"), colour)
    result = run_cli("detect", "dice", "--json", *(str(tmp_path / n) for n in
                                                    ("mono.jpg", "empty.jpg", "colour.jpg")))
    mono, empty, good = (json.loads(line) for line in result.stdout.splitlines())
    assert result.returncode == 1
    assert "black-and-white" in mono["error"] and "colour photo" in mono["error"]
    assert "error" not in empty and "error" not in good and good["green"] == 1


def test_a_black_and_white_photo_is_an_error_even_when_no_dice_are_seen(tmp_path):
    # A grey copy of the demo's frame 3 read as {"green": 0, "yellow": 0, "red": 0}, exit 0.
    demo = cv2.imread(str(ROOT / "companion" / "demo" / "frames" / "0003.jpg"))
    grey = cv2.cvtColor(cv2.cvtColor(demo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(tmp_path / "mono-demo.jpg"), grey)
    cv2.imwrite(str(tmp_path / "mono-table.jpg"), cv2.cvtColor(
        cv2.cvtColor(ds.table(), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR))
    cv2.imwrite(str(tmp_path / "colour.jpg"), demo)
    result = run_cli("detect", "dice", "--json", *(str(tmp_path / n) for n in
                                                    ("mono-demo.jpg", "mono-table.jpg",
                                                     "colour.jpg")))
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1 and len(lines) == 3
    assert all("black-and-white" in line["error"] for line in lines[:2])
    assert "error" not in lines[2]  # the rest are still read


def _boxed_dice(frame, places, side):
    """Draw a die at each (x, y); their labelled boxes [x0, y0, x1, y1]."""
    for x, y in places:
        ds.die(frame, (x, y), side, ds.BLUE, pips=3)
    return [[x - side, y - side, x + side, y + side] for x, y in places]


def test_eval_boxes_mean_the_pixels_a_viewer_shows_on_a_turned_phone_photo(tmp_path, capsys):
    # a portrait photo stored landscape with EXIF Orientation 6; boxes labelled upright
    from tests.vision.test_imageio import _with_orientation

    upright = ds.table(size=(480, 640))
    boxes = _boxed_dice(upright, [(120, 150), (330, 500)], 40)
    stored = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ok, data = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "turned.jpg").write_bytes(_with_orientation(data.tobytes(), 6))
    labels = {"kind": "dice-count", "images": {"img/turned.jpg": {"dice": 2, "boxes": boxes}}}
    from companion.dice_cmd import evaluate

    assert evaluate(tmp_path, labels, out=sys.stdout) == 0
    assert "dice found: 2/2 = 100.0%" in capsys.readouterr().out


def test_eval_boxes_line_up_on_a_photo_read_smaller(tmp_path):
    # over the pixel limit (small here, in a child process) the photo is decoded at half
    # size; its boxes stay in the photo's own pixels
    frame = ds.table(size=(640, 480))
    boxes = _boxed_dice(frame, [(160, 160), (460, 320)], 80)
    (tmp_path / "img").mkdir()
    cv2.imwrite(str(tmp_path / "img" / "big.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    labels = {"kind": "dice-count", "images": {"img/big.jpg": {"dice": 2, "boxes": boxes}}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    env = {**os.environ, "OPENCV_IO_MAX_IMAGE_PIXELS": "100000"}
    result = subprocess.run([sys.executable, "-m", "companion.cli", "eval", str(tmp_path)],
                            capture_output=True, text=True, timeout=120, env=env)
    assert "dice found: 2/2 = 100.0%" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("command, says", [
    (["detect", "dice"], ['"green": 3', '"other"', '"error"', "HEIC", "EXIF", "exit status"]),
    (["detect", "cards"], ['"cards": [', "face down", "<card-id>.png", "HEIC", "EXIF"]),
    (["eval"], ['"kind": "dice"', '"kind": "cards"', "upright", "precision"]),
    (["deck", "learn"], ["AH.jpg", "alone on a plain table", "saved\nwhole"]),
])
def test_help_says_what_a_photo_may_be_and_what_the_output_means(capsys, command, says):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for words in says:
        assert words in text, words
