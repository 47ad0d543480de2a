"""companion.toml: defaults, the file, environment and flags in that order, clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import (DEFAULTS, FILE_NAME, Config, ConfigError, build_config,
                              format_toml, load_config, parse_override, resolve_data_dir)


def write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_the_documented_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path, env={})
    assert config == build_config(DEFAULTS)
    assert (config.host, config.port, config.camera, config.replay_fps) == ("0.0.0.0", 8000,
                                                                            "auto", 10.0)
    assert config.buttons == {"bank": 17, "undo": 27, "next": 22, "timer": 23}
    assert config.leds == {"ready": 5, "reading": 6, "bust": 13, "timer": 19}
    assert (config.buzzer, config.dice, config.calibration) == (26, "confirm", {})
    assert config.source == "defaults"


def test_the_file_then_environment_then_flags(tmp_path: Path) -> None:
    path = write(tmp_path, """
[server]
port = 9000
host = "127.0.0.1"
[camera]
spec = "opencv:1"
[buttons.pins]
bank = 5
undo = "none"
[leds]
ready = 17
[buzzer]
pin = "none"
[recognition]
dice = "auto"
""")
    config = load_config(tmp_path, env={})
    assert (config.port, config.host, config.camera, config.dice) == (9000, "127.0.0.1",
                                                                      "opencv:1", "auto")
    assert config.buttons == {"bank": 5, "next": 22, "timer": 23}  # undo unwired
    assert config.leds["ready"] == 17 and config.buzzer is None
    assert config.source == str(path)
    env = load_config(tmp_path, env={"COMPANION_PORT": "9100", "COMPANION_CAMERA": "none"})
    assert (env.port, env.camera) == (9100, "none")
    flags = load_config(tmp_path, env={"COMPANION_PORT": "9100"},
                        overrides=["server.port=9200", "buttons.pins.undo=6",
                                   "leds.reading=none"])
    assert flags.port == 9200 and flags.buttons["undo"] == 6 and "reading" not in flags.leds


def test_the_demo_base_sits_below_the_file(tmp_path: Path) -> None:
    base = {"camera": {"spec": "replay:demo", "replay_fps": 0.25}}
    assert load_config(tmp_path, env={}, base=base).camera == "replay:demo"
    write(tmp_path, '[camera]\nspec = "none"\n')
    config = load_config(tmp_path, env={}, base=base)
    assert (config.camera, config.replay_fps) == ("none", 0.25)


def test_printed_config_reads_back_the_same(tmp_path: Path) -> None:
    config = load_config(tmp_path, env={}, overrides=[
        'camera.spec="replay:/tmp/a \\"b\\""', "buzzer.pin=none", "buttons.pins.extra=4",
        "camera.calibration={version = 1, hues = {red = 3.5}, table_bgr = [1.0, 2.0, 3.0], "
        "die_side_px = 24.5, frame_width = 640}"])
    text = format_toml(config)
    again = build_config(_merged(tomllib.loads(text)))
    assert again == config
    assert '# auto, picamera2, opencv:N, replay:PATH or none' in text


def _merged(table: dict) -> dict:
    """The printed TOML is complete: every section is there."""
    assert set(table) == set(DEFAULTS)
    return table


@pytest.mark.parametrize("text, words", [
    ("[leds\n", "not valid TOML"),
    ("[server]\nport = 'x'\n", "server.port must be a whole number"),
    ("[server]\nport = 70000\n", "server.port must be a whole number from 0 to 65535"),
    ("[buttons]\nhold = 2\n", "unknown setting buttons.hold (known: buttons.hold_seconds"),
    ("[lights]\nready = 5\n", "unknown setting lights"),
    ("[leds]\npower = 5\n", "unknown setting leds.power"),
    ("[leds]\nready = 17\n", "GPIO17 is given to both buttons.pins.bank and leds.ready"),
    ("[buzzer]\npin = 40\n", "buzzer.pin must be a GPIO number from 0 to 27"),
    ("[recognition]\ndice = 'sometimes'\n", 'recognition.dice must be "confirm" or "auto"'),
    ("[buttons]\nhold_seconds = 0.5\nbounce_seconds = 0.6\n", "must be shorter"),
    ("server = 3\n", "server is a table, not a single value"),
    ("[camera]\ncalibration = 3\n", "camera.calibration must be a table"),
    ("[camera.calibration]\nversion = 2\n", "camera.calibration: calibration version 2"),
])
def test_a_bad_file_is_one_line_naming_file_and_setting(tmp_path: Path, text: str,
                                                        words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, env={})
    message = str(caught.value)
    assert words in message and str(path) in message and "\n" not in message


def test_a_bad_flag_is_blamed_on_the_command_line(tmp_path: Path) -> None:
    write(tmp_path, "[server]\nport = 9000\n")
    with pytest.raises(ConfigError, match=r"^the command line: server.port must be"):
        load_config(tmp_path, env={}, overrides=["server.port=-3"])
    with pytest.raises(ConfigError, match=r"^COMPANION_PORT: server.port must be"):
        load_config(tmp_path, env={"COMPANION_PORT": "many"})


@pytest.mark.parametrize("item", ["port", "=3", "server..port=3"])
def test_malformed_overrides_say_how_to_write_them(item: str) -> None:
    with pytest.raises(ConfigError, match="section.key=value"):
        parse_override(item)


def test_override_values_are_toml_or_text() -> None:
    assert parse_override("server.port=81") == (("server", "port"), 81)
    assert parse_override("camera.spec=opencv:0") == (("camera", "spec"), "opencv:0")
    assert parse_override("camera.replay_fps=2.5") == (("camera", "replay_fps"), 2.5)


def test_data_dir_flag_then_environment_then_default(tmp_path: Path) -> None:
    env = {"COMPANION_DATA_DIR": str(tmp_path / "env"), "XDG_DATA_HOME": str(tmp_path)}
    assert resolve_data_dir(str(tmp_path / "flag"), env=env) == tmp_path / "flag"
    assert resolve_data_dir(None, env=env) == tmp_path / "env"
    assert resolve_data_dir(None, env={"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "companion"
    assert resolve_data_dir(None, demo=True, env={}) == Path("data") / "demo"


def test_companion_config_prints_the_effective_toml(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("COMPANION_PORT", "COMPANION_HOST", "COMPANION_CAMERA"):
        monkeypatch.delenv(var, raising=False)
    write(tmp_path, "[buttons]\nhold_seconds = 2.0\n")
    status = main(["config", "--data-dir", str(tmp_path), "--port", "8100", "--camera",
                   "replay:/x y", "--buzzer", "none", "--set", "leds.bust=12"])
    out = capsys.readouterr().out
    assert status == 0
    table = tomllib.loads(out)
    assert table["server"]["port"] == 8100 and table["camera"]["spec"] == "replay:/x y"
    assert table["buttons"]["hold_seconds"] == 2.0 and table["buzzer"]["pin"] == "none"
    assert table["leds"]["bust"] == 12


def test_companion_config_with_a_bad_file_exits_2_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    write(tmp_path, "[server]\nport = true\n")
    assert main(["config", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion config: ") and \
        "server.port" in err and "Traceback" not in err


def test_companion_config_refuses_a_camera_that_names_no_backend(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    assert main(["config", "--data-dir", str(tmp_path), "--set", "camera.spec=bogus"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("companion config: camera.spec: ") and "bogus" in err


def test_config_is_a_frozen_value() -> None:
    config = Config()
    with pytest.raises(AttributeError):
        config.port = 1  # type: ignore[misc]


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1", "::", "::1", "localhost",
                                  "pi.local", "table-pi", "pi.example.org."])
def test_addresses_and_host_names_are_accepted(tmp_path: Path, host: str) -> None:
    assert load_config(tmp_path, env={}, overrides=[f"server.host={host}"]).host == host


@pytest.mark.parametrize("host", ["999.1.1.1", "1.2.3", "bad host", "-pi", "a..b", "pi_1"])
def test_a_malformed_host_is_refused_as_a_setting(tmp_path: Path, host: str) -> None:
    # It was accepted and failed at serve time with waitress's ValueError traceback.
    with pytest.raises(ConfigError, match=r"^the command line: server.host must be an IP"):
        load_config(tmp_path, env={}, overrides=[f"server.host={host}"])
