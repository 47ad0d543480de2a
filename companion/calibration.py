"""This table's dice calibration: learn it from one frame, store it, check it, load it.

One path for every door: ``companion calibrate IMAGE``, the host page's "Calibrate from the
camera" button (``web.calibrate``), ``companion config --set camera.calibration=...``,
``companion serve`` and ``companion detect dice`` / ``eval`` all go through
:func:`load_calibration` (one validator) and :func:`learn` (one sentence for the user).

The calibration lives in the data folder's ``companion.toml`` as ``[camera.calibration]``
(``vision.calibrate.Calibration.to_dict()``); :func:`save_calibration` replaces that table
and leaves the rest of the file as the user wrote it.
"""

from __future__ import annotations

import json
import threading
import tomllib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.config import (FILE_NAME, Config, ConfigError, _toml_value, load_config,
                              read_file, write_settings)

if TYPE_CHECKING:
    import numpy as np


def load_calibration(config: Config) -> Any:
    """The dice calibration of ``config`` as a ``vision.calibrate.Calibration``, or None.

    ``build_config`` checked it (the one validator); a Config built by hand is checked
    here the same way.

    :raises ConfigError: the table is not a calibration ``vision.calibrate`` wrote.
    """
    if not config.calibration:
        return None
    from vision.calibrate import Calibration

    try:
        return Calibration.from_dict(dict(config.calibration))
    except ValueError as exc:
        raise ConfigError(f"{config.source}: camera.calibration: {exc}.") from None


def calibration_from(file: str | None, data_dir: str | None) -> Any:
    """The calibration in ``file`` (a companion.toml, or the JSON it stores), else the one
    of ``data_dir``'s companion.toml (``--calibration`` / ``--data-dir``).

    :raises ValueError: one line: unreadable, malformed, or no calibration there.
    """
    if file is None:
        config = load_config(Path(data_dir or "."), env={})
        where = Path(data_dir or ".") / FILE_NAME
    elif file.endswith(".toml"):
        table = read_file(Path(file))
        if table is None:
            raise ConfigError(f"{file}: no such file.")
        camera = table.get("camera", {})
        data = camera.get("calibration", {}) if isinstance(camera, dict) else None
        if not isinstance(data, dict):
            raise ConfigError(f"{file}: camera.calibration must be a table.")
        config, where = Config(calibration=data, source=file), Path(file)
    else:
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{file}: not a readable JSON calibration "
                              f"({getattr(exc, 'strerror', None) or exc}).") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{file}: not a JSON calibration (an object).")
        config, where = Config(calibration=data, source=file), Path(file)
    calibration = load_calibration(config)
    if calibration is None:
        raise ConfigError(f"{where}: no dice calibration in it; run companion calibrate "
                          "IMAGE first.")
    return calibration


def learn(frame: np.ndarray) -> tuple[Any, str]:
    """Calibrate from ``frame`` (H, W, 3) uint8 BGR; the Calibration and what it learnt.

    :raises ValueError: one line: too few dice, not Toss Up! dice, a bad frame.
    """
    from vision.calibrate import calibrate

    cal = calibrate(frame)
    return cal, f"Learnt {cal.describe()}."


def save_calibration(data_dir: Path, calibration: dict[str, Any]) -> Path:
    """Write ``calibration`` as ``[camera.calibration]`` of ``data_dir``'s companion.toml.

    Other settings and comments stay as they are: an old ``[camera.calibration]`` table is
    cut out and the new one appended. Returns the file's path.

    :raises ConfigError: the file is unreadable, or holds the calibration in another form
        (inline under ``[camera]``) that cannot be replaced without rewriting it.
    """
    with _SAVING:  # two host pages at once: one read-modify-write after the other
        return _save_calibration(Path(data_dir) / FILE_NAME, calibration)


_SAVING = threading.Lock()


def _save_calibration(path: Path, calibration: dict[str, Any]) -> Path:
    read_file(path)  # an unreadable or broken file: its own one-line error
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    kept, skipping = [], False
    for line in text.splitlines():
        header = line.strip()
        if header.startswith("["):
            # the table and its subtables (`config --save` writes [camera.calibration.hues])
            name = header.split("#")[0].strip().strip("[]").replace(" ", "")
            skipping = name == "camera.calibration" or name.startswith("camera.calibration.")
        if not skipping:
            kept.append(line)
    rest = "\n".join(kept).rstrip()
    if tomllib.loads(rest).get("camera", {}).get("calibration") is not None:
        raise ConfigError(f"{path}: camera.calibration is written inside [camera]; remove it "
                          "there and calibrate again.")
    block = ["[camera.calibration]      # this table's dice (companion calibrate)"]
    block += [f"{key} = {_toml_value(value)}" for key, value in calibration.items()]
    write_settings(path, (rest + "\n\n" if rest else "") + "\n".join(block) + "\n")
    return path


def calibrate_command(image: str, data_dir: Path, *, out: IO[str], err: IO[str]) -> int:
    """``companion calibrate IMAGE``: learn from the photo, store it, say what was learnt.

    Exit 0 when stored; 1 when the photo cannot be read or is refused; 2 for a bad
    companion.toml. One line on ``err`` for any refusal, never a traceback.
    """
    from vision.imageio import ImageError, read_image

    try:
        frame = read_image(image)
        cal, sentence = learn(frame)
    except (ImageError, ValueError) as exc:
        err.write(f"companion calibrate: {image}: {' '.join(str(exc).split())}\n")
        return 1
    try:
        path = save_calibration(data_dir, cal.to_dict())
    except (ConfigError, OSError) as exc:
        err.write(f"companion calibrate: {' '.join(str(exc).split())}\n")
        return 2
    out.write(f"{sentence} Stored in {path}.\n")
    return 0
