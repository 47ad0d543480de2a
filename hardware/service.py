"""Start at boot: a systemd unit and an Avahi service file, written into a folder.

``companion install-service --dest DIR`` writes both files and prints how to enable them;
nothing here touches ``/etc`` or runs ``systemctl``, so tests write into a temporary folder.

Example::

    unit, avahi = write_service_files(Path("out"), ServiceSettings(
        command=["/home/pi/companion/.venv/bin/companion", "serve", "--camera", "auto"],
        user="pi", working_dir=Path("/home/pi/companion")))
    print(enable_instructions(unit, avahi))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape

SERVICE_NAME = "companion"


@dataclass(frozen=True)
class ServiceSettings:
    """What the unit runs and how phones find it.

    `command` is the full ``companion serve ...`` argument list with an absolute program path;
    `port` is the HTTP port announced over mDNS as ``_http._tcp``; `title` is the name phones
    show (``%h`` becomes the Pi's host name).
    """

    command: Sequence[str]
    user: str
    working_dir: Path
    port: int = 8000
    title: str = "Game companion on %h"
    environment: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.command or not Path(self.command[0]).is_absolute():
            raise ValueError("The service command must start with an absolute program path.")
        if not Path(self.working_dir).is_absolute():
            raise ValueError("The service working folder must be an absolute path.")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"Port {self.port} is not between 1 and 65535.")
        if not re.fullmatch(r"[a-z_][a-z0-9_-]*\$?", self.user):
            raise ValueError(f"{self.user!r} is not a valid user name.")
        for key, value in self.environment.items():
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) or "\n" in value:
                raise ValueError(f"Environment variable {key!r} cannot go in a unit file.")


def _quote(arg: str, *, command: bool = True) -> str:
    """Quote one word for a unit file: ``"`` and ``\\`` escaped, ``%`` doubled, and ``$`` too
    on a command line (where systemd expands ``$VAR``)."""
    arg = arg.replace("%", "%%")
    if command:
        arg = arg.replace("$", "$$")
    if arg and not re.search(r'[\s"\'\\;]', arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def systemd_unit(settings: ServiceSettings) -> str:
    """Return the text of ``companion.service``: starts after the network, restarts on failure."""
    env = "".join(f"Environment={_quote(f'{k}={v}', command=False)}\n"
                  for k, v in settings.environment.items())
    return (
        "[Unit]\n"
        "Description=Game table companion (camera, buttons, live scoreboard)\n"
        "Wants=network-online.target\n"
        "After=network-online.target\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"User={settings.user}\n"
        f"WorkingDirectory={str(settings.working_dir).replace('%', '%%')}\n"
        f"{env}"
        f"ExecStart={' '.join(_quote(a) for a in settings.command)}\n"
        "Restart=on-failure\n"
        "RestartSec=3\n"
        "\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
    )


def avahi_service(settings: ServiceSettings) -> str:
    """Return the text of the Avahi file announcing the scoreboard as ``_http._tcp``."""
    return (
        '<?xml version="1.0" standalone="no"?>\n'
        '<!DOCTYPE service-group SYSTEM "avahi-service.dtd">\n'
        "<service-group>\n"
        f'  <name replace-wildcards="yes">{escape(settings.title)}</name>\n'
        "  <service>\n"
        "    <type>_http._tcp</type>\n"
        f"    <port>{settings.port}</port>\n"
        "    <txt-record>path=/</txt-record>\n"
        "  </service>\n"
        "</service-group>\n"
    )


def write_service_files(dest: Path, settings: ServiceSettings) -> tuple[Path, Path]:
    """Write ``companion.service`` and ``companion.avahi.service`` into `dest`; return their paths.

    :raises OSError: `dest` cannot be created or written.
    """
    dest.mkdir(parents=True, exist_ok=True)
    unit = dest / f"{SERVICE_NAME}.service"
    avahi = dest / f"{SERVICE_NAME}.avahi.service"
    unit.write_text(systemd_unit(settings), encoding="utf-8")
    avahi.write_text(avahi_service(settings), encoding="utf-8")
    return unit, avahi


def enable_instructions(unit: Path, avahi: Path) -> str:
    """Return the shell commands that install and start the written files (as root)."""
    return (
        "To start the companion at boot, run:\n"
        f"  sudo cp {unit} /etc/systemd/system/{SERVICE_NAME}.service\n"
        f"  sudo cp {avahi} /etc/avahi/services/{SERVICE_NAME}.service\n"
        "  sudo systemctl daemon-reload\n"
        f"  sudo systemctl enable --now {SERVICE_NAME}.service\n"
        f"Logs: journalctl -u {SERVICE_NAME} -f\n"
    )
