"""Fixtures for the web layer: an app on a fresh data folder, a client, the host's PIN,
and a real waitress server on localhost."""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app, make_server
from web.server import Server

PIN = "4321"


def make_app(data_dir: Path, **config: Any) -> Flask:
    """An app on ``data_dir`` with the test PIN and streams that end by themselves."""
    return create_app({"TESTING": True, "DATA_DIR": str(data_dir), "PIN": PIN,
                       "SSE_MAX_SECONDS": 2.0, "SSE_POLL": 0.05, **config})


def close_app(app: Flask) -> None:
    """Close the journal the app opened (its SQLite connection; Python 3.13 warns when the
    garbage collector finds one open, so the warning failed whichever test ran then)."""
    app.extensions["companion"].session.journal.close()


@pytest.fixture(name="make_app")
def make_app_fixture() -> Iterator[Any]:
    """``make_app(data_dir, **config)``: another app, e.g. a restart on the same folder."""
    made: list[Flask] = []

    def make(data_dir: Path, **config: Any) -> Flask:
        made.append(make_app(data_dir, **config))
        return made[-1]

    yield make
    for app in made:
        close_app(app)


@pytest.fixture
def pin() -> str:
    return PIN


@pytest.fixture
def host_for() -> Any:
    """``host_for(client, pin=PIN)``: host helpers for another client or PIN."""
    return HostActions


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path / "data")
    yield app
    close_app(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class HostActions:
    """The host's calls: each adds ``Authorization: Bearer <PIN>``."""

    def __init__(self, client: FlaskClient, pin: str = PIN) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {pin}"}

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers)

    def start(self, players: list[str] | None = None, game: str = "toss-up",
              options: dict[str, Any] | None = None) -> Any:
        body: dict[str, Any] = {"game": game, "players": players or ["Ann", "Ben", "Cleo"]}
        if options is not None:
            body["options"] = options
        return self.post("/api/games", body)

    def act(self, **action: Any) -> Any:
        return self.post("/api/actions", action)

    def roll(self, green: int, yellow: int, red: int) -> Any:
        return self.act(type="roll", green=green, yellow=yellow, red=red)

    def undo(self) -> Any:
        return self.post("/api/undo")


@pytest.fixture
def host(client: FlaskClient) -> HostActions:
    return HostActions(client)


class LiveServer:
    """A real waitress server in a thread, with small helpers speaking plain HTTP."""

    def __init__(self, app: Flask, server: Server) -> None:
        self.app = app
        self.server = server
        self.port = server.port
        self.url = f"http://127.0.0.1:{server.port}"

    def connection(self, timeout: float = 5.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, body: Any = None, *, pin: str | None = PIN,
                raw: bytes | None = None) -> tuple[int, Any]:
        """Send one request; return (status, parsed JSON or text)."""
        conn = self.connection()
        headers = {"Content-Type": "application/json"}
        if pin is not None:
            headers["Authorization"] = f"Bearer {pin}"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read().decode()
        finally:
            conn.close()
        is_json = response.getheader("Content-Type", "").startswith("application/json")
        return response.status, json.loads(text) if is_json else text


@contextlib.contextmanager
def serve_live(app: Flask, *, threads: int = 16,
               before_close: Callable[[], None] = lambda: None) -> Iterator[LiveServer]:
    """Serve ``app`` with web.server on 127.0.0.1 at a free port, in a thread; then close
    it (after ``before_close``) and the app's journal."""
    server = make_server(app, "127.0.0.1", 0, threads=threads)
    thread = threading.Thread(target=server.run, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(app, server)
    finally:
        before_close()
        server.close()
        thread.join(timeout=10)
        close_app(app)
        assert not thread.is_alive(), "the server thread did not stop"


@pytest.fixture
def live_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """The app served by web.server on 127.0.0.1 at a free port; closed at teardown.

    Pages a browser test left open (it failed before closing them) are closed first: an
    open page keeps loading scripts and streams while the server shuts down under it.
    """
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None

    def close_pages() -> None:
        for context in browser.contexts if browser is not None else ():
            context.close()

    app = make_app(tmp_path / "live", SSE_MAX_SECONDS=None, SSE_KEEPALIVE=0.5)
    with serve_live(app, before_close=close_pages) as live:
        yield live
