"""Hostile and malformed input against a real ``companion serve`` on 127.0.0.1: a fuzzer
driven by the published OpenAPI description, and hand-made nasties (huge bodies, deep
JSON, invalid UTF-8, absurd numbers, long names, path traversal)."""

from __future__ import annotations

import http.client
import json
import socket

import pytest

from tests.stress.fuzz import run_fuzz
from tests.stress.harness import PIN, ServeProcess, durable


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    with ServeProcess(tmp_path_factory.mktemp("hostile") / "data") as server:
        yield server
        assert "Traceback" not in server.log()


@pytest.fixture
def api(serve):
    """A host client with a game under way; closed after the test."""
    client = serve.client()
    assert client.call("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})[0] \
        == 201
    assert client.call("POST", "/api/actions", {"type": "roll", "green": 5, "yellow": 4,
                                                "red": 1})[0] == 200
    yield client
    client.close()


def _raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are (no client-side normalisation); (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def _refused(api, path, *, status, raw=None, body=None, headers=None) -> str:
    """Send one host request that must be refused with ``status``; the state must not move."""
    before = api.call("GET", "/api/state")[1]
    got, answer = api.call("POST", path, body, raw=raw, headers=headers)
    assert got == status, answer
    assert isinstance(answer, dict) and isinstance(answer["error"], str) and answer["error"]
    assert durable(api.call("GET", "/api/state")[1]) == durable(before)
    return answer["error"]


# -- the fuzzer -------------------------------------------------------------------------

def _fuzz(serve, examples):
    report = run_fuzz(f"http://127.0.0.1:{serve.port}", examples)
    assert report.problems == []
    assert report.requests >= examples * 0.9
    assert sum(n for s, n in report.by_status.items() if s >= 500) == 0
    assert report.by_status.get(400, 0) > 0 and report.by_status.get(200, 0) > 0
    return report


def test_fuzzed_requests_never_5xx_and_refusals_change_nothing(serve):
    _fuzz(serve, 200)


@pytest.mark.slow
def test_five_thousand_fuzzed_requests(serve):
    _fuzz(serve, 5200)


# -- hand-made nasties --------------------------------------------------------------------

def test_oversized_bodies_are_refused(api, serve):
    huge = json.dumps({"type": "roll", "pad": "x" * 200_000}).encode()
    assert "too large" in _refused(api, "/api/actions", status=413, raw=huge)
    # The same without Content-Length (chunked): still cut off at the limit.
    chunk = b"x" * 100_000
    request = (b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Authorization: Bearer " + PIN.encode() + b"\r\nTransfer-Encoding: chunked\r\n"
               b"Connection: close\r\n\r\n" + f"{len(chunk):x}\r\n".encode() + chunk
               + b"\r\n0\r\n\r\n")
    status, headers, body = _raw(serve.port, request)
    assert status in (400, 413) and json.loads(body)["error"]


@pytest.mark.parametrize("raw", [
    b"[" * 100_000 + b"]" * 100_000,  # deep JSON (too long anyway)
    b"[" * 5_000 + b"]" * 5_000,  # deep JSON within the size limit
    b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
    b'{"type": "roll", "green": "\xff\xfe"}',  # invalid UTF-8
    b"\xc3\x28\xa0\xa1",
    b'{"type": "roll", "green": 1e999, "yellow": 0, "red": 0}',
    b'{"type": "roll", "green": NaN, "yellow": 0, "red": 0}',
    b'{"type": "roll", "green": ' + b"9" * 5000 + b', "yellow": 0, "red": 0}',
    b'{"type": "roll", "green": -99999999999999999999, "yellow": 0, "red": 0}',
    b'{"type": "roll", "green": 2.5, "yellow": 2.5, "red": 0}',
    b'{"type": "roll", "green": true, "yellow": 4, "red": 5}',
    b'{"type": "' + b"r" * 60_000 + b'"}',
    b'{"type": null}', b"null", b"", b"{", b'"roll"', b"\x00" * 100,
])
def test_malformed_actions_get_a_sentence(api, raw):
    status = 413 if len(raw) > 64 * 1024 else 400
    _refused(api, "/api/actions", status=status, raw=raw)


@pytest.mark.parametrize("players", [
    ["A" * 10_000, "Ben"],
    ["Ann", "Ben", "<img src=x onerror=alert(1)>" * 100],
    [f"P{i}" for i in range(5_000)],
    ["", "Ben"], ["   ", "Ben"], [None, "Ben"], [["Ann"], "Ben"], "Ann,Ben",
    [str(10**100), {"name": "x"}],
])
def test_unreasonable_players_are_refused(api, players):
    _refused(api, "/api/games", status=400, body={"game": "toss-up", "players": players})


@pytest.mark.parametrize("options", [
    {"target": 10**30}, {"target": -1}, {"target": 1e308}, {"target": "100"},
    {"target": float("inf")}, {"nonsense": 1}, [1, 2], "fast",
])
def test_absurd_options_are_refused(api, options):
    body = json.dumps({"game": "toss-up", "players": ["A", "B"], "options": options},
                      allow_nan=True).encode()
    _refused(api, "/api/games", status=400, raw=body)


_TRAVERSALS = ["../web/app.py", "..%2fapp.py", "%2e%2e/%2e%2e/pyproject.toml", "..\\app.py",
               "....//....//pyproject.toml", "/etc/passwd", "%2fetc%2fpasswd",
               "..%252f..%252fpyproject.toml", "css/../../app.py", "%00", "a\x00b"]


def _file_routes(serve) -> list[str]:
    """Every route of the app that takes a path-like argument (static, decks, recordings)."""
    from web import create_app

    app = create_app({"DATA_DIR": str(serve.data_dir), "PIN": PIN})
    app.extensions["companion"].session.journal.close()  # only its routes are read
    routes = []
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and rule.arguments:
            prefix = rule.rule.split("<", 1)[0]
            routes.append(prefix)
    return routes


def test_path_traversal_never_leaves_the_served_folders(serve):
    routes = _file_routes(serve)
    assert "/static/" in routes
    secrets = [b"SECRET_KEY", b"[build-system]", b"root:x:0:0", b"def create_app"]
    for route in routes:
        for attempt in _TRAVERSALS:
            target = (route + attempt).encode("utf-8").replace(b"\x00", b"%00")
            status, headers, body = _raw(serve.port, b"GET " + target + b" HTTP/1.1\r\n"
                                         b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if status == 308:  # "//" merged into "/": a redirect that stays under the route
                assert headers["location"].split("127.0.0.1", 1)[-1].startswith(route)
                continue
            assert status in (400, 401, 404), (target, status)  # 401: host-only routes
            assert not any(secret in body for secret in secrets), target
    # The data folder (journal, PIN, cookie key) is never served either.
    for name in ("companion.db", "host-pin.txt", "web-secret.key"):
        for prefix in ("/", "/static/", "/static/../", "/api/"):
            status, _, body = _raw(serve.port, f"GET {prefix}{name} HTTP/1.1\r\nHost: x\r\n"
                                   "Connection: close\r\n\r\n".encode())
            assert status in (400, 404) and PIN.encode() not in body


def test_wrong_methods_and_content_types_get_json_errors(api):
    for method, path in (("GET", "/api/actions"), ("PUT", "/api/state"),
                         ("DELETE", "/api/games"), ("PATCH", "/api/undo")):
        status, answer = api.call(method, path)
        assert status == 405 and answer["error"], (method, path)
    _refused(api, "/api/actions", status=400, raw=b"type=bank",
             headers={"Content-Type": "application/x-www-form-urlencoded"})
    status, answer = api.call("GET", "/api/nothing/here")
    assert status == 404 and answer["error"]


def test_garbage_on_the_socket_does_not_take_the_server_down(serve, api):
    for junk in (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64,  # a TLS hello
                 b"GET / HTTP/9.9\r\n\r\n", b"GARBAGE\r\n\r\n",
                 b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 300_000 + b"\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as sock:
            try:
                sock.sendall(junk)
                sock.shutdown(socket.SHUT_WR)
                while sock.recv(65536):
                    pass
            except OSError:
                pass  # the server may cut off an absurd request: that is fine
    assert api.call("GET", "/api/state")[0] == 200


@pytest.mark.parametrize("last_id", ["-1", "99999999999999999999999", "1e9", "abc", "\u00e9", ""])
def test_event_stream_shrugs_off_absurd_last_event_ids(serve, last_id):
    with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as sock:
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: "
                     + last_id.encode("latin-1") + b"\r\n\r\n")
        with sock.makefile("rb") as stream:
            assert stream.readline().startswith(b"HTTP/1.1 200")
            for line in stream:  # a fresh stream: the whole state at once
                if line.startswith(b"data: "):
                    assert json.loads(line[6:])["version"] >= 0
                    break
