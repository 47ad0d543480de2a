"""The systemd unit and Avahi file written by ``companion install-service --dest DIR``."""

from __future__ import annotations

import configparser
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hardware.service import (ServiceSettings, avahi_service, enable_instructions,
                              systemd_unit, write_service_files)


@pytest.fixture
def settings() -> ServiceSettings:
    return ServiceSettings(
        command=["/home/pi/companion/.venv/bin/companion", "serve", "--camera", "auto",
                 "--data-dir", "/home/pi/companion data"],
        user="pi", working_dir=Path("/home/pi/companion"), port=8080,
        environment={"COMPANION_PIN": "4321"})


def parse_unit(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=True, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(text)
    return parser


def test_write_service_files_writes_both_into_dest(tmp_path, settings):
    unit, avahi = write_service_files(tmp_path / "out", settings)
    assert unit == tmp_path / "out" / "companion.service"
    assert avahi == tmp_path / "out" / "companion.avahi.service"
    assert unit.read_text() == systemd_unit(settings)
    assert avahi.read_text() == avahi_service(settings)


def test_unit_restarts_on_failure_after_the_network(settings):
    unit = parse_unit(systemd_unit(settings))
    assert unit["Unit"]["After"] == "network-online.target"
    assert unit["Unit"]["Wants"] == "network-online.target"
    assert unit["Service"]["Restart"] == "on-failure"
    assert unit["Service"]["User"] == "pi"
    assert unit["Service"]["Environment"] == "COMPANION_PIN=4321"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_exec_start_quotes_arguments_with_spaces(settings):
    exec_start = parse_unit(systemd_unit(settings))["Service"]["ExecStart"]
    assert shlex.split(exec_start) == list(settings.command)
    assert exec_start.startswith("/home/pi/companion/.venv/bin/companion serve")


def test_percent_and_dollar_signs_are_escaped_for_systemd():
    s = ServiceSettings(command=["/usr/bin/companion", "--pin", "50%", "$HOME"], user="pi",
                        working_dir=Path("/srv/100%"), environment={"COMPANION_PIN": "5$%"})
    service = parse_unit(systemd_unit(s))["Service"]
    assert service["ExecStart"] == "/usr/bin/companion --pin 50%% $$HOME"
    assert service["WorkingDirectory"] == "/srv/100%%"
    assert service["Environment"] == "COMPANION_PIN=5$%%"  # no $ expansion in Environment=


def test_avahi_file_announces_http_on_the_port(settings):
    root = ET.fromstring(avahi_service(settings).split("\n", 2)[2])  # skip the XML/DOCTYPE lines
    assert root.tag == "service-group"
    assert root.find("name").text == "Game companion on %h"
    assert root.find("name").get("replace-wildcards") == "yes"
    assert root.find("service/type").text == "_http._tcp"
    assert root.find("service/port").text == "8080"


def test_avahi_title_is_escaped():
    s = ServiceSettings(command=["/usr/bin/companion"], user="pi", working_dir=Path("/"),
                        title="Kim & Lee's <table>")
    root = ET.fromstring(avahi_service(s).split("\n", 2)[2])
    assert root.find("name").text == "Kim & Lee's <table>"


@pytest.mark.parametrize("kwargs, message", [
    ({"command": ["companion", "serve"]}, "absolute program path"),
    ({"command": []}, "absolute program path"),
    ({"port": 0}, "Port 0"),
    ({"working_dir": Path("relative")}, "absolute path"),
    ({"user": "pi\nExecStartPre=/bin/rm"}, "not a valid user name"),
    ({"environment": {"BAD KEY": "1"}}, "cannot go in a unit file"),
    ({"environment": {"PIN": "1\nUser=root"}}, "cannot go in a unit file"),
])
def test_bad_settings_are_refused(kwargs, message):
    base = {"command": ["/usr/bin/companion"], "user": "pi", "working_dir": Path("/")}
    with pytest.raises(ValueError, match=message):
        ServiceSettings(**{**base, **kwargs})


def test_enable_instructions_name_the_written_files(tmp_path, settings):
    unit, avahi = write_service_files(tmp_path, settings)
    text = enable_instructions(unit, avahi)
    assert f"sudo cp {unit} /etc/systemd/system/companion.service" in text
    assert f"sudo cp {avahi} /etc/avahi/services/companion.service" in text
    assert "systemctl enable --now companion.service" in text
