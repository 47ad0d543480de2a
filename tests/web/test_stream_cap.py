"""Too many open live streams must not freeze the host (web/streams.py).

Each open /api/events holds a server thread; past the cap a stream gets 503 + Retry-After,
the host's own stream may use a few reserved slots, and state and undo still answer.
"""

from __future__ import annotations

import socket
from typing import Iterator

import numpy as np
import pytest

from .conftest import PIN, LiveServer, close_app, make_app, serve_live


@pytest.fixture
def small_server(tmp_path) -> Iterator[LiveServer]:
    """A real server with 8 threads and room for 3 streams (+1 for the host)."""
    app = make_app(tmp_path / "cap", SSE_MAX_SECONDS=None, SSE_KEEPALIVE=0.5,
                   SSE_MAX_STREAMS=3, SSE_HOST_STREAMS=1)
    with serve_live(app, threads=8) as live:
        yield live


def open_stream(port: int, *, host: bool = False) -> tuple[socket.socket, bytes]:
    """Open /api/events on a raw socket; return it and the reply's first bytes."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    auth = f"Authorization: Bearer {PIN}\r\n" if host else ""
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def test_streams_past_the_cap_are_refused_and_the_host_still_acts(small_server):
    small_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    small_server.request("POST", "/api/actions", {"type": "roll", "green": 3, "yellow": 4, "red": 3})
    socks = []
    try:
        for _ in range(3):
            sock, head = open_stream(small_server.port)
            socks.append(sock)
            assert head.startswith(b"HTTP/1.1 200")
        sock, head = open_stream(small_server.port)
        socks.append(sock)
        assert head.startswith(b"HTTP/1.1 503")
        assert b"Retry-After: 5" in head
        sock, head = open_stream(small_server.port, host=True)  # the host's reserved slot
        socks.append(sock)
        assert head.startswith(b"HTTP/1.1 200")
        assert small_server.request("GET", "/api/state")[0] == 200
        status, state = small_server.request("POST", "/api/undo")
        assert status == 200 and state["turn"]["rolls"] == 0
    finally:
        for sock in socks:
            sock.close()


def test_a_closed_stream_gives_its_slot_back(tmp_path):
    app = make_app(tmp_path / "slots", SSE_MAX_STREAMS=1, SSE_MAX_SECONDS=0.2)
    try:
        client = app.test_client()
        first = client.get("/api/events", buffered=False)
        assert first.status_code == 200
        assert client.get("/api/events").status_code == 503
        first.close()  # the phone went away before the stream was read
        again = client.get("/api/events")
        assert again.status_code == 200
        assert b"event: state" in again.data
        assert app.extensions["companion"].streams.open == 0
    finally:
        close_app(app)


@pytest.mark.parametrize("path", ["/api/events", "/api/camera/preview.mjpeg"])
def test_the_openapi_description_names_the_refusal(client, path):
    responses = client.get("/api/openapi.json").get_json()["paths"][path]["get"]
    assert "Retry-After" in responses["responses"]["503"]["description"]


class _Still:
    """A camera side that always shows the same grey table and has read nothing on it."""

    frame = np.full((48, 64, 3), 90, np.uint8)

    def snapshot(self) -> tuple[np.ndarray, None]:
        return self.frame, None


def test_camera_previews_share_the_cap_with_the_event_streams(tmp_path):
    """A camera preview holds a server thread as an event stream does: past the cap (here
    1 + 1 for the host) it gets 503 + Retry-After too, and a closed one frees its slot."""
    app = make_app(tmp_path / "preview", SSE_MAX_STREAMS=1, SSE_HOST_STREAMS=1,
                   SSE_MAX_SECONDS=0.2)
    app.extensions["companion"].camera = _Still()
    host = {"Authorization": f"Bearer {PIN}"}
    try:
        client = app.test_client()
        first = client.get("/api/camera/preview.mjpeg", headers=host, buffered=False)
        second = client.get("/api/camera/preview.mjpeg", headers=host, buffered=False)
        assert (first.status_code, second.status_code) == (200, 200)
        refused = client.get("/api/camera/preview.mjpeg", headers=host, buffered=False)
        refused.close()  # (unread: without the cap it would stream for ever)
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "5"
        assert "tries again" in refused.get_json()["error"]
        events = client.get("/api/events", headers=host, buffered=False)
        events.close()
        assert events.status_code == 503, "one cap for every stream"
        first.close()
        assert app.extensions["companion"].streams.open == 1
        third = client.get("/api/camera/preview.mjpeg", headers=host, buffered=False)
        assert third.status_code == 200
        third.close()
        second.close()
        assert app.extensions["companion"].streams.open == 0
    finally:
        app.extensions["companion"].shutdown()
        close_app(app)
