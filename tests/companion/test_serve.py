"""``companion serve`` as a process: it starts, prints the address, serves, stops on SIGTERM."""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

import cv2
import numpy as np
from tests.vision.dice_support import scene

ROOT = Path(__file__).resolve().parents[2]
PIN = "97531"
ANNOUNCE = re.compile(rb"Scoreboard \(phones\): http://127\.0\.0\.1:(\d+)/")


class Served:
    """A ``companion serve`` child process on a free port."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        command = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                   "--port", "0", "--pin", PIN, *args]
        clean = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        self.proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env={**clean, **(env or {})})
        self.out = b""
        self.port = self._wait_for_port(timeout=60)

    def _wait_for_port(self, timeout: float) -> int:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline - time.monotonic())
            chunk = os.read(self.proc.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                break
            self.out += chunk
            found = ANNOUNCE.search(self.out)
            if found:
                return int(found.group(1))
        self.proc.kill()  # reaped and its pipes closed here: no fixture holds it yet
        self.proc.wait(timeout=30)
        err = self.stderr()
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()  # type: ignore[union-attr]
        raise AssertionError(f"no address announced: {self.out!r} {err!r}")

    def get(self, path: str, *, host: bool = False) -> tuple[int, str, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", path, headers={"Authorization": f"Bearer {PIN}"} if host else {})
            response = conn.getresponse()
            return response.status, response.getheader("Content-Type", ""), response.read()
        finally:
            conn.close()

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)

    def stderr(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")


@pytest.fixture
def served() -> Iterator[list[Served]]:
    started: list[Served] = []
    yield started
    for proc in started:
        if proc.proc.poll() is None:
            proc.proc.kill()
            proc.proc.wait(timeout=10)
        for stream in (proc.proc.stdout, proc.proc.stderr):
            if stream is not None:
                stream.close()


def test_serve_starts_answers_and_stops_on_sigterm(tmp_path: Path, served: list[Served]) -> None:
    # an unknown pin factory: no GPIO even when the tests run on a Pi
    server = Served("--camera", "none", "--data-dir", str(tmp_path / "data"),
                    env={"GPIOZERO_PIN_FACTORY": "no-such-factory"})
    served.append(server)
    assert f"PIN {PIN}".encode() in server.out
    status, kind, body = server.get("/api/state")
    assert status == 200 and kind.startswith("application/json")
    state = json.loads(body)
    # without a camera the state has none: phones show no "camera offline" card, the host
    # no camera preview, and a Toss Your Cookies claim is not sent to a camera
    assert state["version"] == 0 and "camera" not in state
    status, _, body = server.get("/api/camera/preview.jpg", host=True)
    assert status == 404 and "without a camera" in json.loads(body)["error"]
    assert server.stop() == 0
    err = server.stderr()
    assert "Traceback" not in err
    assert err.count("not used") == 2  # without GPIO: one log line for buttons, one for LEDs


def test_serve_shows_the_replay_preview_and_wires_gpio(tmp_path: Path,
                                                       served: list[Served]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), scene(["green", "yellow", "red"]))
    data = tmp_path / "data"
    data.mkdir()
    (data / "companion.toml").write_text('[buzzer]\npin = "none"\n[leds]\nbust = 12\n')
    server = Served("--camera", f"replay:{frames}", "--data-dir", str(data),
                    "--replay-fps", "20", env={"GPIOZERO_PIN_FACTORY": "mock"})
    served.append(server)
    # the stream waits for the camera's first picture by itself
    status, kind, body = server.get("/api/camera/preview.mjpeg?frames=1", host=True)
    assert status == 200 and kind.startswith("multipart/x-mixed-replace")
    jpeg = body.split(b"\r\n\r\n", 1)[1].rsplit(b"\r\n", 1)[0]
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape == (360, 480, 3)
    state = json.loads(server.get("/api/state")[2])
    assert state["camera"]["online"] is True
    assert server.stop() == 0
    err = server.stderr()
    assert "Traceback" not in err and "not used" not in err  # mock pins: GPIO wired


def test_a_bad_config_file_stops_serve_with_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "companion.toml").write_text("[leds]\nready = 'top'\n")
    done = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--camera", "none",
                           "--data-dir", str(data)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "leds.ready must be a GPIO number" in done.stderr


def test_an_empty_pin_stops_serve_with_one_line(tmp_path: Path) -> None:
    # An empty --pin (a shell variable left unset) must not quietly serve with another PIN.
    done = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--camera", "none",
                           "--data-dir", str(tmp_path / "data"), "--pin", " "], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--pin is empty" in done.stderr
    assert not (tmp_path / "data").exists()  # refused before anything was made


def test_a_taken_port_stops_serve_with_one_line(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--camera",
                               "none", "--host", "127.0.0.1", "--port", str(port), "--pin", PIN,
                               "--data-dir", str(tmp_path / "data")], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, env=clean)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"companion serve: cannot listen on 127.0.0.1:{port}: ")


def test_serve_goes_on_when_its_output_is_closed(tmp_path: Path) -> None:
    # `companion serve | head -3`: printing the address raised BrokenPipeError (a traceback)
    # before the server ran, and the process hung on its threads instead of serving
    read, write = os.pipe()
    os.close(read)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host",
                             "127.0.0.1", "--port", "0", "--pin", PIN, "--camera", "none",
                             "--data-dir", str(tmp_path / "data")],
                            cwd=ROOT, stdout=write, stderr=subprocess.PIPE,
                            env={**clean, "GPIOZERO_PIN_FACTORY": "no-such-factory"})
    os.close(write)
    assert proc.stderr is not None
    try:
        err, port, deadline = b"", None, time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], deadline - time.monotonic())
            chunk = os.read(proc.stderr.fileno(), 4096) if ready else b""
            if not chunk:
                break
            err += chunk
            found = re.search(rb"scoreboard http://127\.0\.0\.1:(\d+)/", err)
            port = int(found.group(1)) if found else None
        assert port is not None, err
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", "/api/state")
            assert conn.getresponse().status == 200
        finally:
            conn.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        err += proc.stderr.read()
        assert b"Traceback" not in err and b"Exception ignored" not in err, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        proc.stderr.close()


def test_a_demo_restart_gives_back_a_finished_game(tmp_path: Path) -> None:
    # `./run demo` again after a game ended started a new Toss Up! for Ann, Ben and Cleo:
    # the phones' winner screen gave way to it, and the version moved on
    from companion.journal import Journal
    from companion.serve import _start_demo_game
    from companion.session import Session

    journal = Journal(tmp_path)
    try:
        session = Session(journal)
        _start_demo_game(session)
        assert session.state()["game"] == "toss-up" and session.state()["version"] == 1
        session.start("toss-up", ["Dee", "Eve"], {"target": 5})
        for action in ({"type": "roll", "green": 6, "yellow": 4, "red": 0}, {"type": "bank"},
                       {"type": "roll", "green": 1, "yellow": 9, "red": 0}, {"type": "bank"}):
            session.act(action)
        before = session.state()
        assert before["over"]
        restarted = Session(journal)
        _start_demo_game(restarted)
        after = restarted.state()
        assert ([p["name"] for p in after["players"]], after["version"], after["over"]) == (
            ["Dee", "Eve"], before["version"], True)
    finally:
        journal.close()


@pytest.mark.parametrize("flags, said", [
    (["--host", "999.1.1.1"], "server.host must be an IP address"),
    (["--set", "server.host=999.1.1.1"], "server.host must be an IP address"),
    (["--host", "nosuch.invalid"], "server.host 'nosuch.invalid' cannot be looked up"),
])
def test_a_bad_host_stops_serve_with_one_line(tmp_path: Path, flags: list[str],
                                              said: str) -> None:
    # waitress raised a bare ValueError with a traceback, after the journal was opened.
    clean = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    done = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--camera", "none",
                           "--port", "0", "--pin", PIN, "--data-dir", str(tmp_path / "data"),
                           *flags], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=clean)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert not (tmp_path / "data").exists()  # refused before anything was made


def test_no_camera_in_any_spelling_gives_no_camera_warning(tmp_path: Path,
                                                          served: list[Served]) -> None:
    # "--camera None" opened the null camera and logged "no frames from none for 5 s".
    server = Served("--camera", "None", "--data-dir", str(tmp_path / "data"))
    served.append(server)
    time.sleep(1)  # a capture thread would have opened its camera by now
    status, _, body = server.get("/api/state")
    assert status == 200 and "camera" not in json.loads(body)
    assert server.stop() == 0
    assert "no frames" not in server.stderr() and "camera starting" not in server.stderr()
