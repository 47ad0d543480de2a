"""The live state stream: format, Last-Event-ID, keep-alives, and a second client seeing a
change through the real waitress server on localhost."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
import time
from typing import Any

import pytest

from web import make_server
from web.sse import format_event, parse_last_event_id, state_stream

WAIT = 5.0  # safety net only: every get returns as soon as the message is there


def parse_stream(text: str) -> list[dict[str, Any]]:
    """SSE text -> messages: {"event", "id", "data"} or {"comment"}."""
    messages = []
    for block in text.split("\n\n"):
        message: dict[str, Any] = {}
        for line in block.splitlines():
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "":
                message.setdefault("comment", value)
            elif field == "data":
                message["data"] = json.loads(value)
            else:
                message[field] = value
        if message:
            messages.append(message)
    return messages


def read_into(response: http.client.HTTPResponse, out: "queue.Queue[dict[str, Any] | None]"
              ) -> None:
    """Push each message of an open stream into ``out``; None when the stream ends.

    A stream cut without its last chunk (the server closed mid-stream, or the test hung
    up) ends like any other: ``IncompleteRead`` is an ``HTTPException``, and raised in
    this thread it failed whichever test was running when the thread got to it.
    """
    lines: list[str] = []
    try:
        while True:
            raw = response.readline()
            if not raw:
                break
            line = raw.decode().rstrip("\n")
            if line:
                lines.append(line)
            elif lines:
                for message in parse_stream("\n".join(lines)):
                    out.put(message)
                lines = []
    except (OSError, ValueError, http.client.HTTPException):
        pass
    out.put(None)


class Stream:
    """An open event stream read by a thread; ``close()`` hangs up and waits for the thread.

    The server answers a stream with ``Connection: close``, so ``http.client`` hands the
    socket to the response and ``HTTPConnection.close()`` no longer reaches it: the
    stream, its server thread and the reader stayed open until the server closed, and
    the reader ended during a later test.
    """

    def __init__(self, sock: socket.socket, response: http.client.HTTPResponse,
                 messages: "queue.Queue[dict[str, Any] | None]") -> None:
        self._sock = sock
        self._reader = threading.Thread(target=read_into, args=(response, messages),
                                        daemon=True)
        self._reader.start()

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the reader blocked in recv
        except OSError:  # the server already closed it
            pass
        self._reader.join(WAIT)
        assert not self._reader.is_alive(), "the stream reader did not stop"


def open_stream(live, last_event_id: str | None = None):
    """Open /api/events on the live server; (a :class:`Stream` to close, queue of messages)."""
    conn = live.connection(timeout=WAIT)
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    conn.request("GET", "/api/events", headers=headers)
    sock = conn.sock
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type").startswith("text/event-stream")
    assert response.getheader("Cache-Control") == "no-cache"
    assert response.getheader("X-Accel-Buffering") == "no"
    messages: queue.Queue = queue.Queue()
    return Stream(sock, response, messages), messages


def next_state(messages: queue.Queue) -> dict[str, Any]:
    """The next state message, skipping comments and retry hints."""
    while True:
        message = messages.get(timeout=WAIT)
        assert message is not None, "the stream ended"
        if message.get("event") == "state":
            assert int(message["id"]) == message["data"]["version"]
            assert isinstance(message["data"].pop("now"), float), "the server's clock rides along"
            return message["data"]


# -- through Flask's test client (streams end after SSE_MAX_SECONDS) -------------------

def test_stream_starts_with_the_state_and_keeps_alive(make_app, tmp_path, host_for):
    app = make_app(tmp_path, SSE_KEEPALIVE=0.05, SSE_MAX_SECONDS=0.3)
    client = app.test_client()
    host_for(client).start(["Ann", "<script>"])
    response = client.get("/api/events")
    messages = parse_stream(response.get_data(as_text=True))
    assert messages[0].get("retry") and messages[0].get("comment") == "hello"
    states = [m for m in messages if m.get("event") == "state"]
    assert len(states) == 1
    assert abs(states[0]["data"].pop("now") - time.time()) < 60
    assert states[0]["data"] == client.get("/api/state").get_json()
    assert states[0]["id"] == "1"
    assert any(m.get("comment") == "keep-alive" for m in messages[1:])


def test_last_event_id_skips_a_state_already_shown(make_app, tmp_path, host_for):
    app = make_app(tmp_path, SSE_MAX_SECONDS=0.1)
    client = app.test_client()
    host_for(client).start(["Ann", "Ben"])
    same = client.get("/api/events", headers={"Last-Event-ID": "1"}).get_data(as_text=True)
    assert "event: state" not in same
    older = client.get("/api/events", headers={"Last-Event-ID": "0"}).get_data(as_text=True)
    assert [m["id"] for m in parse_stream(older) if "event" in m] == ["1"]


@pytest.mark.parametrize("value,expected", [
    (None, None), ("12", 12), (" 7 ", 7), ("-1", None), ("abc", None), ("", None),
    ("9" * 40, None)])
def test_parse_last_event_id(value, expected):
    assert parse_last_event_id(value) == expected


def test_format_event_is_one_message():
    text = format_event({"version": 3, "players": [{"name": "A\nB"}]})
    assert text.endswith("\n\n") and text.count("\n") == 4
    assert parse_stream(text)[0]["data"]["players"][0]["name"] == "A\nB"


def test_stop_ends_a_stream_at_once(app):
    holder = app.extensions["companion"]
    stream = state_stream(holder.session, last_seen=None, keepalive=60, max_seconds=None,
                          stop=holder.stop)
    assert next(stream).startswith("retry:")
    assert next(stream).startswith("event: state")
    holder.shutdown()
    assert list(stream) == []


# -- through the real waitress server on localhost -----------------------------------

def test_a_second_client_sees_each_change(live_server):
    assert live_server.request("POST", "/api/games", {"game": "toss-up",
                                                      "players": ["Ann", "Ben"]})[0] == 201
    streams = [open_stream(live_server) for _ in range(2)]
    for _, messages in streams:
        assert next_state(messages)["version"] == 1
    status, state = live_server.request("POST", "/api/actions",
                                        {"type": "roll", "green": 3, "yellow": 4, "red": 3})
    assert status == 200
    for _, messages in streams:
        seen = next_state(messages)
        assert seen == state
        assert seen["turn"]["points"] == 3 and seen["turn"]["dice_in_hand"] == 7
    live_server.request("POST", "/api/undo")
    for conn, messages in streams:
        assert next_state(messages)["version"] == 3
        conn.close()


def test_refused_action_sends_nothing(live_server):
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    conn, messages = open_stream(live_server)
    assert next_state(messages)["version"] == 1
    assert live_server.request("POST", "/api/actions", {"type": "bank"})[0] == 409
    assert live_server.request("POST", "/api/actions", {"type": "bank"}, pin="0")[0] == 401
    live_server.request("POST", "/api/actions", {"type": "roll", "green": 1, "yellow": 9,
                                                 "red": 0})
    assert next_state(messages)["version"] == 2  # the refusals never reached the stream
    conn.close()


def test_reconnect_with_last_event_id_gets_what_was_missed(live_server):
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    live_server.request("POST", "/api/actions", {"type": "roll", "green": 2, "yellow": 8,
                                                 "red": 0})
    conn, messages = open_stream(live_server, last_event_id="1")
    assert next_state(messages)["version"] == 2
    conn.close()


def test_keep_alive_comments_flow_on_a_quiet_stream(live_server):
    conn, messages = open_stream(live_server)
    assert next_state(messages)["version"] == 0
    while True:
        message = messages.get(timeout=WAIT)
        assert message is not None
        if message.get("comment") == "keep-alive":
            break
    conn.close()


def test_closing_the_server_ends_open_streams(make_app, tmp_path):
    app = make_app(tmp_path, SSE_MAX_SECONDS=None)
    server = make_server(app, "127.0.0.1", 0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
    conn.request("GET", "/api/events")
    response = conn.getresponse()
    messages: queue.Queue = queue.Queue()
    reader = threading.Thread(target=read_into, args=(response, messages), daemon=True)
    reader.start()
    assert next_state(messages)["version"] == 0
    server.close()
    thread.join(WAIT)
    reader.join(WAIT)
    assert not thread.is_alive() and not reader.is_alive()
    conn.close()


def test_plain_requests_are_served_while_many_streams_are_open(make_app, tmp_path):
    app = make_app(tmp_path, SSE_MAX_SECONDS=None)
    with make_server(app, "127.0.0.1", 0) as server:  # the production sizing
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        streams = []
        for _ in range(40):  # more than 30 phones
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
            conn.request("GET", "/api/events")
            assert conn.getresponse().status == 200  # headers arrive at once
            streams.append(conn)
        plain = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
        plain.request("GET", "/api/state")
        assert json.loads(plain.getresponse().read())["version"] == 0
        plain.close()
        for conn in streams:
            conn.close()
    thread.join(WAIT)
    assert not thread.is_alive()
