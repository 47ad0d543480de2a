"""``companion calibrate IMAGE``, the stored calibration, and the commands that read with it."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import cv2

from companion.calibration import save_calibration
from companion.cli import main
from tests.vision import dice_support as ds

ROOT = Path(__file__).resolve().parents[2]
WARM_YELLOW = (10, 120, 240)  # yellow under a warm lamp: the default reads it as orange
WARM = ["green", WARM_YELLOW, "red", WARM_YELLOW, "green", "red"]


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_calibrate_says_what_it_learnt_and_stores_it(tmp_path: Path) -> None:
    photo = tmp_path / "dice.png"
    cv2.imwrite(str(photo), ds.scene(["green", "yellow", "red"] * 2, side=30))
    data = tmp_path / "data"
    data.mkdir()
    (data / "companion.toml").write_text("# my table\n[server]\nport = 8100\n")
    done = run("calibrate", str(photo), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Learnt 6 dice, ") and " px across" in done.stdout
    assert "green/yellow/red hues" in done.stdout and done.stdout.count("\n") == 1
    text = (data / "companion.toml").read_text()
    assert text.startswith("# my table\n")  # the user's own lines stay
    table = tomllib.loads(text)
    assert table["server"]["port"] == 8100 and table["camera"]["calibration"]["dice_seen"] == 6
    # calibrating again replaces it, once
    assert run("calibrate", str(photo), "--data-dir", str(data)).returncode == 0
    assert (data / "companion.toml").read_text().count("[camera.calibration]") == 1
    assert run("config", "--data-dir", str(data)).returncode == 0


@pytest.mark.parametrize("colours, words", [
    (["green", "red"], "only 2 Toss Up! dice found"),
    (["green", "yellow", "red", ds.BLUE, ds.BLACK, ds.WHITE, ds.BLUE], "are green, yellow or red"),
])
def test_calibrate_refuses_a_photo_that_cannot_teach_in_one_line(tmp_path: Path, colours,
                                                                 words) -> None:
    photo = tmp_path / "dice.png"
    cv2.imwrite(str(photo), ds.scene(colours, side=36, seed=5))
    done = run("calibrate", str(photo), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "data" / "companion.toml").exists()


def test_detect_and_eval_read_with_the_calibration(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    teach, table = tmp_path / "teach.png", tmp_path / "table.png"
    cv2.imwrite(str(teach), ds.scene(WARM, side=40, seed=3))
    cv2.imwrite(str(table), ds.scene(WARM, side=40))
    data = tmp_path / "data"
    assert main(["calibrate", str(teach), "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["detect", "dice", "--json", str(table)]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["detect", "dice", "--json", "--data-dir", str(data), str(table)]) == 0
    calibrated = json.loads(capsys.readouterr().out)
    assert (plain["yellow"], calibrated["yellow"]) != (2, 2) and calibrated["yellow"] == 2
    (tmp_path / "labels.json").write_text(json.dumps(
        {"kind": "dice", "images": {"table.png": {"green": 2, "yellow": 2, "red": 2}}}))
    assert main(["eval", str(tmp_path), "--calibration", str(data / "companion.toml")]) == 0
    assert "exact match: 1/1" in capsys.readouterr().out


def test_a_bad_calibration_is_refused_alike_by_config_serve_and_detect(tmp_path: Path) -> None:
    bad = "camera.calibration={version=2}"
    for argv in (["config", "--set", bad], ["serve", "--camera", "none", "--set", bad]):
        done = run(*argv, "--data-dir", str(tmp_path))
        assert done.returncode == 2, argv
        assert done.stderr.count("\n") == 1 and "calibration version 2" in done.stderr, argv
    (tmp_path / "cal.json").write_text('{"version": 2}')
    done = run("detect", "dice", "--json", "--calibration", str(tmp_path / "cal.json"),
               str(ROOT / "companion" / "demo" / "frames" / "0001.jpg"))
    assert done.returncode == 2 and "calibration version 2" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_calibration_written_inline_is_not_silently_doubled(tmp_path: Path) -> None:
    (tmp_path / "companion.toml").write_text("[camera]\ncalibration = {}\n")
    with pytest.raises(ValueError, match="inside \\[camera\\]"):
        save_calibration(tmp_path, {"version": 1})


def test_calibrating_again_after_config_save_replaces_the_hues_subtable(tmp_path: Path) -> None:
    # `config --save` writes the hues as [camera.calibration.hues]; the next calibrate cut
    # only [camera.calibration] and refused: "camera.calibration is written inside [camera]"
    photo = tmp_path / "dice.png"
    cv2.imwrite(str(photo), ds.scene(["green", "yellow", "red"] * 2, side=30))
    data = tmp_path / "data"
    assert main(["calibrate", str(photo), "--data-dir", str(data)]) == 0
    assert main(["config", "--data-dir", str(data), "--port", "8100", "--save"]) == 0
    assert "[camera.calibration.hues]" in (data / "companion.toml").read_text()
    assert main(["calibrate", str(photo), "--data-dir", str(data)]) == 0
    table = tomllib.loads((data / "companion.toml").read_text())
    assert table["server"]["port"] == 8100 and table["camera"]["calibration"]["dice_seen"] == 6


def test_calibrations_saved_at_once_keep_the_other_settings(tmp_path: Path) -> None:
    import threading

    (tmp_path / "companion.toml").write_text("[server]\nport = 8100\n")
    cal = {"version": 1, "die_side_px": 30.0, "frame_width": 640,
           "hues": {"green": 60.0}, "table_bgr": [1.0, 2.0, 3.0], "dice_seen": 6}
    threads = [threading.Thread(target=save_calibration, args=(tmp_path, cal))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table = tomllib.loads((tmp_path / "companion.toml").read_text())
    assert table["server"]["port"] == 8100 and table["camera"]["calibration"]["dice_seen"] == 6
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("field, value", [
    ("frame_width", "inf"), ("dice_seen", "inf"), ("die_side_px", "nan"),
    ("hues.green", "nan"), ("frame_width", "1e400")])
def test_numbers_no_calibration_can_hold_are_one_line(tmp_path: Path, field, value) -> None:
    cal = {"version": 1, "die_side_px": 30.0, "frame_width": 640,
           "hues": {"green": 60.0}, "table_bgr": [1.0, 2.0, 3.0], "dice_seen": 6}
    text = json.dumps(cal)
    key = field.split(".")[-1]
    text = text.replace(f'"{key}": {cal["hues"]["green"] if "hues" in field else cal[key]}',
                        f'"{key}": {value}')
    (tmp_path / "cal.json").write_text(text.replace(": inf", ": Infinity").replace(": nan", ": NaN"))
    done = run("detect", "dice", "--json", "--calibration", str(tmp_path / "cal.json"),
               str(ROOT / "companion" / "demo" / "frames" / "0001.jpg"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1


def test_a_toml_whose_camera_is_not_a_table_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "f.toml").write_text("camera = 1\n")
    done = run("detect", "dice", "--json", "--calibration", str(tmp_path / "f.toml"),
               str(ROOT / "companion" / "demo" / "frames" / "0001.jpg"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1
