"""The companion's settings: one TOML file in the data folder, then environment, then flags.

``<data folder>/companion.toml`` (every key optional; a missing file means all defaults)::

    [server]
    host = "0.0.0.0"          # address to listen on
    port = 8000

    [camera]
    spec = "auto"             # auto, picamera2, opencv:N, replay:PATH or none
    replay_fps = 10.0         # frames per second a replay camera plays

    [camera.calibration]      # this table's dice (vision.calibrate), empty: none

    [buttons]
    hold_seconds = 1.0        # held this long: a hold, not a press
    bounce_seconds = 0.05     # shorter presses are contact bounce, ignored

    [buttons.pins]            # button name -> BCM GPIO number, or "none"
    bank = 17
    undo = 27
    next = 22
    timer = 23

    [leds]                    # LED name -> BCM GPIO number, or "none"
    ready = 5
    reading = 6
    bust = 13
    timer = 19

    [buzzer]
    pin = 26                  # BCM GPIO number of an active buzzer, or "none"

    [recognition]
    dice = "confirm"          # "confirm": the host confirms each roll read; "auto": applied

Later layers win: defaults, the file, ``COMPANION_CAMERA`` / ``COMPANION_HOST`` /
``COMPANION_PORT``, then command-line flags (``--camera``, ``--set buttons.pins.bank=5``).
Every mistake is a :class:`ConfigError` whose message is one line naming the setting.
"""

from __future__ import annotations

import contextlib
import copy
import ipaddress
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from companion.durable import fsync_path

FILE_NAME = "companion.toml"

DEFAULTS: dict[str, Any] = {
    "server": {"host": "0.0.0.0", "port": 8000},
    "camera": {"spec": "auto", "replay_fps": 10.0, "calibration": {}},
    "buttons": {"hold_seconds": 1.0, "bounce_seconds": 0.05,
                "pins": {"bank": 17, "undo": 27, "next": 22, "timer": 23}},
    "leds": {"ready": 5, "reading": 6, "bust": 13, "timer": 19},
    "buzzer": {"pin": 26},
    "recognition": {"dice": "confirm"},
}

#: Environment variables that stand in for a setting (the contract's two are read by serve).
ENVIRONMENT: dict[str, tuple[str, ...]] = {
    "COMPANION_CAMERA": ("camera", "spec"),
    "COMPANION_HOST": ("server", "host"),
    "COMPANION_PORT": ("server", "port"),
}

LED_NAMES = ("ready", "reading", "bust", "timer")
DICE_MODES = ("confirm", "auto")
NONE = "none"  # the word for "not wired" in the file


class ConfigError(ValueError):
    """A setting that cannot be used; the message is one line naming it and its source."""


@dataclass(frozen=True)
class Config:
    """The effective settings, checked.

    Pins are BCM GPIO numbers; a device left out of a pin table is not wired.
    """

    host: str = "0.0.0.0"
    port: int = 8000
    camera: str = "auto"
    replay_fps: float = 10.0
    calibration: Mapping[str, Any] = field(default_factory=dict)
    buttons: Mapping[str, int] = field(default_factory=dict)
    hold_seconds: float = 1.0
    bounce_seconds: float = 0.05
    leds: Mapping[str, int] = field(default_factory=dict)
    buzzer: int | None = None
    dice: str = "confirm"
    source: str = "defaults"  # where the file came from, for messages

    def to_table(self) -> dict[str, Any]:
        """The settings as the nested TOML table the file holds ("none" for unwired pins)."""
        table = copy.deepcopy(DEFAULTS)
        table["server"].update(host=self.host, port=self.port)
        table["camera"].update(spec=self.camera, replay_fps=self.replay_fps,
                               calibration=copy.deepcopy(dict(self.calibration)))
        table["buttons"].update(hold_seconds=self.hold_seconds,
                                bounce_seconds=self.bounce_seconds)
        table["buttons"]["pins"] = {n: self.buttons.get(n, NONE)
                                    for n in {**DEFAULTS["buttons"]["pins"], **self.buttons}}
        table["leds"] = {n: self.leds.get(n, NONE) for n in LED_NAMES}
        table["buzzer"] = {"pin": NONE if self.buzzer is None else self.buzzer}
        table["recognition"] = {"dice": self.dice}
        return table


def resolve_data_dir(chosen: str | None, *, demo: bool = False,
                     env: Mapping[str, str] | None = None) -> Path:
    """The data folder: `chosen` (--data-dir), else $COMPANION_DATA_DIR, else a default.

    The default is ``data/demo`` for the demo, else ``$XDG_DATA_HOME/companion``
    (``~/.local/share/companion``).
    """
    environ = os.environ if env is None else env
    picked = chosen or environ.get("COMPANION_DATA_DIR")
    if picked:
        return Path(picked).expanduser()
    if demo:
        return Path("data") / "demo"
    base = environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "companion"


def load_config(data_dir: Path | None, *, env: Mapping[str, str] | None = None,
                overrides: Iterable[str] = (), base: Mapping[str, Any] | None = None) -> Config:
    """Read ``companion.toml`` from `data_dir` and apply the environment and `overrides`.

    Parameters
    ----------
    data_dir : the data folder (None: no file, defaults only)
    env : environment variables (``os.environ`` when None)
    overrides : ``"section.key=value"`` strings from the command line, applied last; the
        value is read as TOML (``5``, ``"text"``, ``none``) or else taken as text
    base : settings between the defaults and the file (the demo's replay camera)

    :raises ConfigError: an unreadable or malformed file, an unknown setting, a bad value.
    """
    table = copy.deepcopy(DEFAULTS)
    if base:
        _merge(table, base, "defaults")
    source = "defaults"
    if data_dir is not None:
        path = Path(data_dir) / FILE_NAME
        read = read_file(path)
        if read is not None:
            _merge(table, read, str(path))
            source = str(path)
            build_config(table, source=source)  # the file's own mistakes name the file
    environ = os.environ if env is None else env
    late = []
    for var, key in ENVIRONMENT.items():
        if environ.get(var):
            _set(table, key, _parse_value(environ[var]), var)
            late.append(var)
    for item in overrides:
        key, value = parse_override(item)
        _set(table, key, value, "the command line")
        late.append("the command line")
    if late:
        try:
            build_config(table)  # no file name: the mistake is the flag's or the variable's
        except ConfigError as exc:
            raise ConfigError(f"{' or '.join(dict.fromkeys(late))}: {exc}") from None
    return build_config(table, source=source)


def read_file(path: Path) -> dict[str, Any] | None:
    """The TOML table in `path`, or None when there is no such file.

    :raises ConfigError: the file cannot be read or is not valid TOML (line and column).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc}).")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}.") from None


def parse_override(item: str) -> tuple[tuple[str, ...], Any]:
    """Split ``"buttons.pins.bank=5"`` into (("buttons", "pins", "bank"), 5).

    :raises ConfigError: no ``=``, or an empty key.
    """
    key, sep, raw = item.partition("=")
    parts = tuple(p.strip() for p in key.split("."))
    if not sep or not all(parts):
        raise ConfigError(f"--set {item!r}: write it as section.key=value, "
                          "for example buttons.pins.bank=5.")
    return parts, _parse_value(raw.strip())


def _parse_value(raw: str) -> Any:
    """A TOML value (``5``, ``1.5``, ``true``, ``"x"``, ``[1, 2]``), else the text itself."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def _merge(root: dict[str, Any], layer: Mapping[str, Any], source: str,
           prefix: tuple[str, ...] = ()) -> None:
    """Copy `layer` (the table at `prefix`) into `root` key by key, via :func:`_set`."""
    node: Any = root
    for key in prefix:
        node = node[key]
    for key, value in layer.items():
        path = (*prefix, key)
        if isinstance(value, Mapping) and path != CALIBRATION and isinstance(node.get(key), dict):
            _merge(root, value, source, path)
        else:
            _set(root, path, copy.deepcopy(value), source)


CALIBRATION = ("camera", "calibration")  # replaced as a whole; its keys are free
OPEN_TABLES = (("buttons", "pins"),)  # tables whose keys are the user's own names


def _set(table: dict[str, Any], path: tuple[str, ...], value: Any, source: str) -> None:
    """Set one setting; a key the defaults do not know is a ConfigError naming the known."""
    free = path[:2] == CALIBRATION and len(path) > 2
    node: Any = table
    for i, key in enumerate(path[:-1]):
        child = node.get(key)
        if not isinstance(child, dict):
            if not (free and i >= 2):
                raise ConfigError(f"{source}: unknown setting {_name(path)}"
                                  f"{_known(node, path[:i])}.")
            child = node[key] = {}
        node = child
    last = path[-1]
    if last not in node and not (free or path[:-1] in OPEN_TABLES):
        raise ConfigError(f"{source}: unknown setting {_name(path)}{_known(node, path[:-1])}.")
    if isinstance(node.get(last), dict) and path != CALIBRATION and \
            not isinstance(value, Mapping):
        raise ConfigError(f"{source}: {_name(path)} is a table, not a single value.")
    if isinstance(value, Mapping) and path != CALIBRATION and not free:
        if not isinstance(node.get(last), dict):
            raise ConfigError(f"{source}: {_name(path)} is a single value, not a table.")
        _merge(table, value, source, path)
        return
    node[last] = value


def _name(path: tuple[str, ...]) -> str:
    return ".".join(path)


def _known(node: Mapping[str, Any], prefix: tuple[str, ...]) -> str:
    names = [_name((*prefix, k)) for k in node]
    return f" (known: {', '.join(names)})" if names else ""


def build_config(table: Mapping[str, Any], *, source: str = "defaults") -> Config:
    """Check a full settings table (defaults already merged in) and return the Config.

    :raises ConfigError: a value of the wrong kind or out of range, or a pin used twice.
    """
    where = f"{source}: " if source != "defaults" else ""
    server, camera, buttons = table["server"], table["camera"], table["buttons"]
    host = _host(_text(server["host"], "server.host", where), where)
    port = _number(server["port"], "server.port", where, whole=True, low=0, high=65535)
    spec = _text(camera["spec"], "camera.spec", where)
    fps = _number(camera["replay_fps"], "camera.replay_fps", where, low=0.01, high=240)
    calibration = camera["calibration"]
    if not isinstance(calibration, Mapping):
        raise ConfigError(f"{where}camera.calibration must be a table.")
    if calibration:  # the one check of a calibration, whoever reads it (serve, config, ...)
        from vision.calibrate import Calibration

        try:
            Calibration.from_dict(dict(calibration))
        except ValueError as exc:
            raise ConfigError(f"{where}camera.calibration: {exc}.") from None
    hold = _number(buttons["hold_seconds"], "buttons.hold_seconds", where, low=0.1, high=30)
    bounce = _number(buttons["bounce_seconds"], "buttons.bounce_seconds", where, low=0, high=1)
    if bounce >= hold:
        raise ConfigError(f"{where}buttons.bounce_seconds ({bounce:g}) must be shorter than "
                          f"buttons.hold_seconds ({hold:g}).")
    pins = _pins({**{f"buttons.pins.{n}": p for n, p in buttons["pins"].items()},
                  **{f"leds.{n}": p for n, p in table["leds"].items()},
                  "buzzer.pin": table["buzzer"]["pin"]}, where)
    dice = table["recognition"]["dice"]
    if dice not in DICE_MODES:
        raise ConfigError(f"{where}recognition.dice must be \"confirm\" or \"auto\", "
                          f"not {dice!r}.")
    return Config(host=host, port=int(port), camera=spec, replay_fps=float(fps),
                  calibration=copy.deepcopy(dict(calibration)),
                  buttons={n.removeprefix("buttons.pins."): p for n, p in pins.items()
                           if n.startswith("buttons.pins.")},
                  hold_seconds=float(hold), bounce_seconds=float(bounce),
                  leds={n.removeprefix("leds."): p for n, p in pins.items()
                        if n.startswith("leds.")},
                  buzzer=pins.get("buzzer.pin"), dice=dice, source=source)


def _pins(named: Mapping[str, Any], where: str) -> dict[str, int]:
    """Setting name -> BCM pin for the wired ones; each pin 0-27, none used twice."""
    pins: dict[str, int] = {}
    owner: dict[int, str] = {}
    for name, pin in named.items():
        if pin == NONE:
            continue
        if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
            raise ConfigError(f"{where}{name} must be a GPIO number from 0 to 27 or "
                              f"\"none\", not {pin!r}.")
        if pin in owner:
            raise ConfigError(f"{where}GPIO{pin} is given to both {owner[pin]} and {name}.")
        owner[pin], pins[name] = name, pin
    return pins


def _text(value: Any, name: str, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}{name} must be some text, not {value!r}.")
    return value.strip()


_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def _host(host: str, where: str) -> str:
    """``host`` when it is an IP address or a well-formed host name (RFC 1123 labels, the
    last not all digits, so ``999.1.1.1`` is refused rather than looked up as a name)."""
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    if len(host) <= 253 and all(_LABEL.fullmatch(x) for x in labels) and not labels[-1].isdigit():
        return host
    raise ConfigError(f"{where}server.host must be an IP address (such as 0.0.0.0 or "
                      f"127.0.0.1) or a host name, not {host!r}.")


def _number(value: Any, name: str, where: str, *, low: float, high: float,
            whole: bool = False) -> float:
    kind = "a whole number" if whole else "a number"
    ok = not isinstance(value, bool) and isinstance(value, int if whole else (int, float))
    if not ok or not math.isfinite(value) or not low <= value <= high:
        raise ConfigError(f"{where}{name} must be {kind} from {low:g} to {high:g}, "
                          f"not {value!r}.")
    return value


#: One comment per setting, printed by ``companion config``.
COMMENTS: dict[str, str] = {
    "server.host": "address to listen on (0.0.0.0: every network)",
    "server.port": "TCP port of the scoreboard and API",
    "camera.spec": "auto, picamera2, opencv:N, replay:PATH or none",
    "camera.replay_fps": "frames per second a replay camera plays",
    "camera.calibration": "this table's dice (vision.calibrate); empty: none",
    "buttons.hold_seconds": "held this long: a hold, not a press",
    "buttons.bounce_seconds": "shorter presses are contact bounce, ignored",
    "buttons.pins": "button name -> BCM GPIO number, or \"none\"",
    "leds": "LED name -> BCM GPIO number, or \"none\"",
    "buzzer.pin": "BCM GPIO number of an active buzzer, or \"none\"",
    "recognition.dice": "\"confirm\": the host confirms each roll read; \"auto\": applied at once",
}


def write_settings(path: Path, text: str) -> None:
    """Write a settings file whole or not at all: a cut power leaves the old file or the new
    one, never half of one (a half file would stop ``serve`` at the next boot).

    :raises OSError: the folder cannot be made or written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        with open(part, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink()
        raise
    fsync_path(path.parent)  # the rename itself reaches the card


def format_toml(config: Config, *, environment: bool = True) -> str:
    """The effective settings as a commented ``companion.toml`` (it reads back the same)."""
    then = "then environment and flags" if environment else "then flags"
    lines = [f"# companion settings (from {config.source}, {then})"]
    _emit_table(lines, (), config.to_table())
    return "\n".join(lines).rstrip() + "\n"


def _emit_table(lines: list[str], path: tuple[str, ...], table: Mapping[str, Any]) -> None:
    scalars = {k: v for k, v in table.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in table.items() if isinstance(v, Mapping)}
    if path:
        lines.append("")
        header = f"[{_name(path)}]"
        comment = COMMENTS.get(_name(path))
        lines.append(f"{header:<26}# {comment}" if comment else header)
    for key, value in scalars.items():
        text = f"{_key(key)} = {_toml_value(value)}"
        comment = COMMENTS.get(_name((*path, key)))
        lines.append(f"{text:<26}# {comment}" if comment else text)
    for key, value in tables.items():
        _emit_table(lines, (*path, key), value)


def _key(key: str) -> str:
    bare = key and all(c.isalnum() or c in "-_" for c in key)
    return key if bare else _toml_value(key)


def _toml_value(value: Any) -> str:
    """One TOML value: strings quoted and escaped, lists and tables inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        escaped = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped)
        return f'"{escaped}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise ConfigError(f"cannot write {value!r} as TOML")
