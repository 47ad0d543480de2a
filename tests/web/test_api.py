"""The HTTP API through Flask's test client: the contract's endpoints, PIN and refusals."""

from __future__ import annotations

import http.client
import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.journal import Journal
from companion.session import Session
from web import create_app, get_companion
from web.app import PIN_FILE, SECRET_FILE
from web.auth import COOKIE

PIN = "4321"  # the PIN the conftest's apps use (checked by test_the_fixture_pin)

CONTRACT_FIELDS = {"game", "version", "players", "current", "over", "winners"}


def test_the_fixture_pin(pin, app):
    assert pin == PIN == app.config["PIN"]


def test_state_before_any_game(client):
    state = client.get("/api/state").get_json()
    assert CONTRACT_FIELDS <= set(state)
    assert state["game"] is None and state["version"] == 0 and state["players"] == []


def test_a_turn_story(client, host):
    started = host.start(["Ann", "Ben"])
    assert started.status_code == 201
    state = started.get_json()
    assert CONTRACT_FIELDS <= set(state)
    assert state["game"] == "toss-up" and state["current"] == 0 and state["version"] == 1
    assert state["turn"] == {"points": 0, "dice_in_hand": 10, "rolls": 0, "number": 1}

    rolled = host.roll(3, 4, 3)
    assert rolled.status_code == 200
    assert rolled.get_json()["turn"]["points"] == 3
    assert rolled.get_json()["turn"]["dice_in_hand"] == 7

    banked = host.act(type="bank").get_json()
    assert banked["players"][0]["score"] == 3 and banked["current"] == 1
    assert banked["version"] == 3
    assert client.get("/api/state").get_json() == banked


def test_red_light_passes_the_dice_at_once(host):
    host.start(["Ann", "Ben"])
    host.roll(4, 3, 3)
    state = host.roll(0, 3, 3).get_json()
    assert state["current"] == 1 and state["players"][0]["score"] == 0
    assert any(e["kind"] == "red-light" for e in state["events"])


def test_undo_walks_back(client, host):
    host.start(["Ann", "Ben"])
    before = client.get("/api/state").get_json()
    host.roll(3, 4, 3)
    undone = host.undo()
    assert undone.status_code == 200
    after = undone.get_json()
    assert after["version"] == before["version"] + 2
    assert after["turn"] == before["turn"] and after["players"] == before["players"]


BAD_GAMES = [
    ("malformed json", b"{not json", 400),
    ("a list", b"[1, 2]", 400),
    ("a string", b'"toss-up"', 400),
    ("no game", b'{"players": ["Ann", "Ben"]}', 400),
    ("no players", b'{"game": "toss-up"}', 400),
    ("unknown game", b'{"game": "chess", "players": ["Ann", "Ben"]}', 400),
    ("game not a string", b'{"game": ["toss-up"], "players": ["Ann", "Ben"]}', 400),
    ("players not a list", b'{"game": "toss-up", "players": "Ann, Ben"}', 400),
    ("a player not a name", b'{"game": "toss-up", "players": ["Ann", 7]}', 400),
    ("one player", b'{"game": "toss-up", "players": ["Ann"]}', 400),
    ("same name twice", b'{"game": "toss-up", "players": ["Ann", "ann"]}', 400),
    ("empty name", b'{"game": "toss-up", "players": ["Ann", "  "]}', 400),
    ("options not an object", b'{"game": "toss-up", "players": ["A", "B"], "options": 3}', 400),
    ("unknown option", b'{"game": "toss-up", "players": ["A", "B"], "options": {"x": 1}}', 400),
    ("bad option value", b'{"game": "toss-up", "players": ["A", "B"], "options": {"target": "a"}}',
     400),
]

BAD_ACTIONS = [
    ("malformed json", b'{"type": "roll", ', 400),
    ("empty body", b"", 400),
    ("a list", b'[{"type": "bank"}]', 400),
    ("no type", b'{"green": 3}', 400),
    ("unknown type", b'{"type": "fly"}', 400),
    ("type not a string", b'{"type": 5}', 400),
    ("count as text", b'{"type": "roll", "green": "3", "yellow": 4, "red": 3}', 400),
    ("count as bool", b'{"type": "roll", "green": true, "yellow": 4, "red": 5}', 400),
    ("count as float", b'{"type": "roll", "green": 3.5, "yellow": 4, "red": 2.5}', 400),
    ("negative count", b'{"type": "roll", "green": -1, "yellow": 6, "red": 5}', 400),
    ("count too big", b'{"type": "roll", "green": 11, "yellow": 0, "red": 0}', 400),
    ("missing colour", b'{"type": "roll", "green": 3, "yellow": 7}', 400),
    ("null count", b'{"type": "roll", "green": null, "yellow": 7, "red": 3}', 400),
    ("too few dice", b'{"type": "roll", "green": 3, "yellow": 4, "red": 2}', 400),
    ("too many dice", b'{"type": "roll", "green": 3, "yellow": 4, "red": 4}', 400),
    ("bank before rolling", b'{"type": "bank"}', 409),
    ("huge number", b'{"type": "roll", "green": 1e400, "yellow": 4, "red": 3}', 400),
    ("deep nesting", b"[" * 5000 + b"]" * 5000, 400),
]


def _post_raw(client, path: str, raw: bytes, content_type: str = "application/json") -> Any:
    return client.post(path, data=raw, headers={"Authorization": f"Bearer {PIN}",
                                                 "Content-Type": content_type})


@pytest.mark.parametrize("raw,status", [c[1:] for c in BAD_GAMES], ids=[c[0] for c in BAD_GAMES])
def test_bad_new_game_is_refused_with_a_sentence(client, host, raw, status):
    host.start(["Ann", "Ben"])
    before = client.get("/api/state").get_json()
    response = _post_raw(client, "/api/games", raw)
    assert response.status_code == status
    error = response.get_json()["error"]
    assert isinstance(error, str) and error.endswith(".") and "Traceback" not in error
    assert client.get("/api/state").get_json() == before


@pytest.mark.parametrize("raw,status", [c[1:] for c in BAD_ACTIONS],
                         ids=[c[0] for c in BAD_ACTIONS])
def test_bad_action_is_refused_with_a_sentence(client, host, raw, status):
    host.start(["Ann", "Ben"])
    before = client.get("/api/state").get_json()
    response = _post_raw(client, "/api/actions", raw)
    assert response.status_code == status
    error = response.get_json()["error"]
    assert isinstance(error, str) and len(error) > 10 and "Traceback" not in error
    assert client.get("/api/state").get_json() == before


def test_illegal_roll_names_the_dice_in_hand(client, host):
    host.start(["Ann", "Ben"])
    host.roll(3, 4, 3)
    response = host.roll(3, 4, 3)
    assert response.status_code == 400
    assert "7 dice" in response.get_json()["error"]


def test_wrong_content_type_is_refused(client, host):
    host.start(["Ann", "Ben"])
    response = _post_raw(client, "/api/actions", b'{"type": "bank"}', "text/plain")
    assert response.status_code == 400
    assert "JSON" in response.get_json()["error"]


def test_actions_before_any_game_are_not_now(client, host):
    assert host.roll(3, 4, 3).status_code == 409
    assert host.undo().status_code == 409
    assert client.get("/api/state").get_json()["version"] == 0


def test_nothing_to_undo_is_not_now(host):
    host.start(["Ann", "Ben"])
    response = host.undo()
    assert response.status_code == 409
    assert "undo" in response.get_json()["error"]


def test_a_finished_game_refuses_actions(client, host):
    host.start(["Ann", "Ben"], options={"target": 5})
    host.roll(6, 2, 2)
    host.act(type="bank")  # Ann passes 5: Ben gets one last turn
    state = host.roll(0, 10, 0).get_json()
    assert not state["over"]
    state = host.act(type="bank").get_json()
    assert state["over"] and state["winners"] == ["Ann"] and state["current"] is None
    response = host.roll(5, 5, 0)
    assert response.status_code == 409
    assert client.get("/api/state").get_json() == state


AUTH_CASES = [
    ("no header", {}),
    ("wrong pin", {"Authorization": "Bearer 0000"}),
    ("pin prefix", {"Authorization": f"Bearer {PIN[:-1]}"}),
    ("empty bearer", {"Authorization": "Bearer "}),
    ("basic scheme", {"Authorization": f"Basic {PIN}"}),
    ("pin without scheme", {"Authorization": PIN}),
    ("forged cookie", {"Cookie": f"{COOKIE}=abc.def.ghi"}),
    ("non-ascii pin", {"Authorization": "Bearer p\u00e9n"}),
]


@pytest.mark.parametrize("headers", [c[1] for c in AUTH_CASES], ids=[c[0] for c in AUTH_CASES])
@pytest.mark.parametrize("path,body", [
    ("/api/games", {"game": "toss-up", "players": ["X", "Y"]}),
    ("/api/actions", {"type": "roll", "green": 3, "yellow": 4, "red": 3}),
    ("/api/undo", None),
])
def test_host_calls_need_the_pin(client, host, headers, path, body):
    host.start(["Ann", "Ben"])
    host.roll(2, 4, 4)
    before = client.get("/api/state").get_json()
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == 401
    assert response.get_json()["error"]
    assert client.get("/api/state").get_json() == before


def test_wrong_pins_are_throttled(tmp_path, make_app, host_for):
    app = make_app(tmp_path, PIN_MAX_FAILURES=3)
    client = app.test_client()
    for _ in range(3):
        assert host_for(client, "9999").start().status_code == 401
    refused = host_for(client).start()  # even the right PIN waits now
    assert refused.status_code == 401
    assert "wait" in refused.get_json()["error"]
    assert client.get("/api/state").get_json()["version"] == 0


def test_login_cookie_lets_the_host_page_act(client):
    page = client.get("/host")
    assert b'name="pin"' in page.data and b"catalog" not in page.data
    wrong = client.post("/login", data={"pin": "1111"})
    assert wrong.status_code == 401 and b"not right" in wrong.data
    response = client.post("/login", data={"pin": PIN, "next": "//evil.example/"})
    assert response.status_code == 303 and response.headers["Location"] == "/host"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and PIN not in cookie
    assert b'id="catalog"' in client.get("/host").data
    started = client.post("/api/games", json={"game": "toss-up", "players": ["Ann", "Ben"]})
    assert started.status_code == 201
    other_site = client.post("/api/actions", json={"type": "roll", "green": 3, "yellow": 4,
                                                   "red": 3},
                             headers={"Origin": "http://evil.example"})
    assert other_site.status_code == 401
    assert client.get("/api/state").get_json()["version"] == 1
    client.post("/logout")
    assert client.post("/api/undo").status_code == 401


def test_cookie_survives_a_restart_but_not_a_new_pin(tmp_path, make_app):
    first = make_app(tmp_path)
    client = first.test_client()
    client.post("/login", data={"pin": PIN})
    token = client.get_cookie(COOKIE).value
    again = make_app(tmp_path).test_client()
    again.set_cookie(COOKIE, token)
    assert again.post("/api/games", json={"game": "toss-up", "players": ["A", "B"]}
                      ).status_code == 201
    changed = make_app(tmp_path, PIN="8888").test_client()
    changed.set_cookie(COOKIE, token)
    assert changed.post("/api/undo").status_code == 401


def test_a_second_app_on_the_same_data_dir_resumes(tmp_path, client, host, make_app):
    data = tmp_path / "data"
    host.start(["Ann", "Ben", "Cleo"])
    for roll in [(3, 4, 3), (2, 3, 2)]:
        host.roll(*roll)
    host.act(type="bank")
    host.roll(0, 4, 6)  # Ben runs a red light
    host.roll(4, 4, 2)
    host.undo()
    live = client.get("/api/state").get_json()
    restarted = make_app(data).test_client().get("/api/state").get_json()
    live.pop("events"), restarted.pop("events")
    assert restarted == live
    assert restarted["version"] == 7  # start, 5 actions, undo


def test_storage_failure_is_503_and_changes_nothing(tmp_path, host_for):
    journal = Journal(tmp_path)
    session = Session(journal)
    app = create_app({"DATA_DIR": str(tmp_path), "PIN": PIN}, session=session)
    assert get_companion(app).session is session
    host = host_for(app.test_client())
    host.start(["Ann", "Ben"])
    journal.close()
    response = host.roll(3, 4, 3)
    assert response.status_code == 503
    assert "nothing was changed" in response.get_json()["error"]
    assert app.test_client().get("/api/state").get_json()["version"] == 1


def test_secret_and_pin_are_kept_per_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_PIN", raising=False)
    one = create_app({"DATA_DIR": str(tmp_path / "one")})
    again = create_app({"DATA_DIR": str(tmp_path / "one")})
    other = create_app({"DATA_DIR": str(tmp_path / "two")})
    assert one.secret_key == again.secret_key != other.secret_key
    assert one.secret_key not in ("dev", b"dev") and len(one.secret_key) >= 32
    pin = one.config["PIN"]
    assert pin.isdigit() and len(pin) == 6 and again.config["PIN"] == pin
    assert (tmp_path / "one" / PIN_FILE).read_text().strip() == pin
    assert (tmp_path / "one" / SECRET_FILE).stat().st_mode & 0o077 == 0
    for app in (one, again, other):
        app.extensions["companion"].session.journal.close()


def test_environment_configures_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PIN", "007")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("COMPANION_SSE_KEEPALIVE", "3")
    app = create_app()
    assert app.config["PIN"] == "007" and app.config["SSE_KEEPALIVE"] == 3.0
    assert (tmp_path / "env" / SECRET_FILE).exists()
    app.extensions["companion"].session.journal.close()


def test_a_bad_environment_value_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SSE_KEEPALIVE", "soon")
    with pytest.raises(ValueError, match="COMPANION_SSE_KEEPALIVE must be a number"):
        create_app({"DATA_DIR": str(tmp_path)})


@pytest.mark.parametrize("method,path,status", [
    ("get", "/api/nothing", 404), ("delete", "/api/state", 405), ("get", "/api/actions", 405),
    ("put", "/api/games", 405)])
def test_http_errors_are_json_sentences(client, method, path, status):
    response = getattr(client, method)(path)
    assert response.status_code == status
    assert response.get_json()["error"].endswith(".")


def test_oversized_body_is_refused(client, host):
    response = _post_raw(client, "/api/actions", b'{"type": "' + b"x" * 100_000 + b'"}')
    assert response.status_code == 413
    assert response.get_json()["error"]


def test_pages_are_served_without_the_internet(client):
    for path in ("/", "/login"):
        page = client.get(path)
        assert page.status_code == 200
        assert path == "/login" or page.headers["Cache-Control"] == "no-cache"
        assert b"http://" not in page.data and b"https://" not in page.data
    board = client.get("/").data.decode()
    for asset in ("css/app.css", "js/live.js", "js/scoreboard.js", "js/panels/toss_up.js"):
        assert asset in board
        with client.get(f"/static/{asset}") as served:
            assert served.status_code == 200 and served.data
    assert "script-src 'self'" in client.get("/").headers["Content-Security-Policy"]


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
_actions = st.dictionaries(
    st.sampled_from(["type", "green", "yellow", "red", "at", "x"]),
    st.sampled_from(["roll", "bank", "undo"]) | _json_values, max_size=5)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=_actions | _json_values, path=st.sampled_from(["/api/actions", "/api/games"]))
def test_no_input_causes_a_500(client, host, body, path):
    if client.get("/api/state").get_json()["game"] is None:
        host.start(["Ann", "Ben"])
    response = client.post(path, data=json.dumps(body), headers={
        "Authorization": f"Bearer {PIN}", "Content-Type": "application/json"})
    assert response.status_code in (200, 201, 400, 409)
    if response.status_code >= 400:
        assert response.get_json()["error"]


_CHILD = """
import sys
from web import create_app, make_server
app = create_app({"DATA_DIR": sys.argv[1], "PIN": sys.argv[2]})
server = make_server(app, "127.0.0.1", 0, threads=8)
print(server.port, flush=True)
server.run()
"""


def _start_child(data_dir: Path) -> tuple[Any, int]:
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(data_dir), PIN],
                             stdout=subprocess.PIPE, cwd=root, text=True)
    ready, _, _ = select.select([child.stdout], [], [], 30)
    assert ready, "the server did not start"
    return child, int(child.stdout.readline())


def _call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Authorization": f"Bearer {PIN}",
                          "Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


def test_kill_9_loses_nothing(tmp_path):
    """Every acknowledged action survives SIGKILL of the real server, version included."""
    child, port = _start_child(tmp_path)
    try:
        assert _call(port, "POST", "/api/games", {"game": "toss-up",
                                                  "players": ["Ann", "Ben"]})[0] == 201
        for action in ({"type": "roll", "green": 4, "yellow": 3, "red": 3}, {"type": "bank"},
                       {"type": "roll", "green": 2, "yellow": 5, "red": 3}):
            assert _call(port, "POST", "/api/actions", action)[0] == 200
        acknowledged = _call(port, "POST", "/api/undo")[1]
    finally:
        child.kill()  # SIGKILL: no clean shutdown
        child.wait(10)
        child.stdout.close()
    child, port = _start_child(tmp_path)
    try:
        resumed = _call(port, "GET", "/api/state")[1]
    finally:
        child.kill()
        child.wait(10)
        child.stdout.close()
    acknowledged.pop("events"), resumed.pop("events")
    assert resumed == acknowledged and resumed["version"] == 5


def test_refusals_through_the_real_server(live_server):
    """The same bad inputs through waitress on localhost: same statuses, state unchanged."""
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    before = live_server.request("GET", "/api/state")[1]
    for name, raw, status in BAD_ACTIONS:
        got, body = live_server.request("POST", "/api/actions", raw=raw)
        assert (name, got) == (name, status) and body["error"]
    for name, raw, status in BAD_GAMES:
        got, body = live_server.request("POST", "/api/games", raw=raw)
        assert (name, got) == (name, status) and body["error"]
    assert live_server.request("POST", "/api/undo", pin=None)[0] == 401
    assert live_server.request("POST", "/api/undo", pin="0000")[0] == 401
    assert live_server.request("GET", "/api/state")[1] == before
