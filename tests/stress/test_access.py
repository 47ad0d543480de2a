"""Access: anyone may watch, only PIN holders act; wrong PINs make a client wait longer and
longer; the cookie cannot be read by scripts or sent by other sites; no cross-origin
page can act; pages load only the companion's own assets; player text stays text."""

from __future__ import annotations

import re

import pytest

from tests.support.clock import FakeClock
from web import create_app
from web.app import get_companion
from web.auth import COOKIE, pin_delay

PIN = "8642"
GOOD = {"Authorization": f"Bearer {PIN}"}
BAD = {"Authorization": "Bearer 0000"}
XSS = '<img src=x onerror=alert(1)>'


@pytest.fixture
def app(tmp_path):
    """An app on a fresh data folder with a fake throttle clock; its journal closed after."""
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PIN": PIN,
                      "SSE_MAX_SECONDS": 0.2, "SSE_POLL": 0.05, "PIN_MAX_FAILURES": 3,
                      "PIN_DELAY_BASE": 1.0, "PIN_DELAY_MAX": 30.0, "PIN_FAILURE_WINDOW": 60.0})
    get_companion(app).clock = FakeClock()
    yield app
    get_companion(app).session.journal.close()


@pytest.fixture
def clock(app) -> FakeClock:
    return get_companion(app).clock


def _client(app, address="192.168.1.20"):
    """A test client whose requests come from ``address`` (the throttle's key)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _start(client, headers=GOOD, players=("Ann", "Ben")):
    return client.post("/api/games", json={"game": "toss-up", "players": list(players)},
                       headers=headers)


# -- the throttle ------------------------------------------------------------------------

def test_pin_delay_grows_and_is_capped():
    delays = [pin_delay(n, free=3, base=1.0, most=30.0) for n in range(1, 10)]
    assert delays == [0, 0, 1, 2, 4, 8, 16, 30, 30]
    assert pin_delay(10**9, free=3, base=1.0, most=60.0) == 60.0


def test_wrong_pins_make_a_client_wait_longer_each_time(app, clock):
    phone = _client(app)
    for _ in range(2):  # the first few mistakes cost nothing
        assert _start(phone, BAD).get_json()["error"] == "That PIN is not right."
    waits = []
    for _ in range(4):
        assert _start(phone, BAD).get_json()["error"] == "That PIN is not right."
        refused = _start(phone, GOOD)  # even the right PIN waits
        assert refused.status_code == 401 and "wait" in refused.get_json()["error"]
        waits.append(int(refused.headers["Retry-After"]))
        clock.advance(waits[-1] - 0.5)
        assert _start(phone, GOOD).status_code == 401  # not yet
        clock.advance(0.5)
    assert waits == [1, 2, 4, 8]
    assert _start(phone, GOOD).status_code == 201  # the wait is over
    assert _client(app).get("/api/state").get_json()["version"] == 1


def test_the_throttle_is_per_client_and_forgets(app, clock):
    guesser, host = _client(app, "10.0.0.66"), _client(app, "10.0.0.2")
    for _ in range(6):
        _start(guesser, BAD)
        clock.advance(0.1)
    assert _start(guesser, GOOD).status_code == 401
    assert _start(host, GOOD).status_code == 201  # another phone is not affected
    clock.advance(16 + 61)  # the last wait, then the window
    for _ in range(2):  # a fresh count: free mistakes again
        assert _start(guesser, BAD).get_json()["error"] == "That PIN is not right."
    assert _start(guesser, GOOD).status_code == 201


def test_the_login_form_is_throttled_too(app, clock):
    phone = _client(app)
    for _ in range(3):
        assert phone.post("/login", data={"pin": "1111"}).status_code == 401
    page = phone.post("/login", data={"pin": PIN})
    assert page.status_code == 401 and b"wait" in page.data and page.headers["Retry-After"]
    clock.advance(1)
    assert phone.post("/login", data={"pin": PIN}).status_code == 303


def test_refused_requests_change_nothing(app):
    phone, host = _client(app), _client(app, "10.0.0.2")
    assert _start(host).status_code == 201
    before = phone.get("/api/state").get_json()
    for headers in ({}, BAD, {"Authorization": "Basic " + PIN}, {"Authorization": "Bearer"},
                    {"Authorization": f"Bearer {PIN}x"}, {"Cookie": f"{COOKIE}=forged"}):
        for path, body in (("/api/actions", {"type": "bank"}), ("/api/undo", None),
                           ("/api/games", {"game": "toss-up", "players": ["X", "Y"]})):
            response = phone.post(path, json=body, headers=headers)
            assert response.status_code == 401 and response.get_json()["error"]
    assert phone.get("/api/state").get_json() == before


# -- who may do what -----------------------------------------------------------------------

def test_anyone_may_watch_only_the_host_acts(app):
    phone = _client(app)
    for path in ("/", "/api/state", "/api/openapi.json", "/host", "/login"):
        assert phone.get(path).status_code == 200, path
    with phone.get("/api/events", buffered=True) as stream:
        assert stream.status_code == 200 and b"event: state" in stream.data
    posts = [rule.rule for rule in app.url_map.iter_rules()
             if "POST" in rule.methods and rule.rule not in ("/login", "/logout")]
    assert "/api/actions" in posts
    for path in posts:  # every route that changes something, present and future
        response = phone.post(path, json={})
        assert response.status_code == 401 and response.get_json()["error"], path


def _log_in(client, **headers):
    return client.post("/login", data={"pin": PIN, "next": "/host"}, headers=headers)


def test_the_cookie_is_http_only_strict_and_does_not_hold_the_pin(app):
    phone = _client(app)
    response = _log_in(phone)
    assert response.status_code == 303
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert PIN not in cookie.split(";")[0]
    assert _start(phone, {}).status_code == 201  # the cookie lets the host page act
    value = cookie.split(";")[0].split("=", 1)[1]
    forged = _client(app, "10.0.0.3")
    forged.set_cookie(COOKIE, value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert _start(forged, {}).status_code == 401


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost:8000"},  # another site, even on this machine
    {"Origin": "null"},  # a sandboxed frame or a data: page
    {"Sec-Fetch-Site": "cross-site"},
])
def test_pages_of_other_sites_cannot_act_or_log_in(app, headers):
    phone = _client(app)
    assert _log_in(phone).status_code == 303
    before = phone.get("/api/state").get_json()
    assert _start(phone, headers).status_code == 401
    assert phone.post("/api/undo", headers=headers).status_code == 401
    login = _client(app, "10.0.0.9").post("/login", data={"pin": PIN}, headers=headers)
    assert login.status_code == 403 and "Set-Cookie" not in login.headers
    assert phone.post("/logout", headers=headers).status_code == 403
    assert phone.get("/api/state").get_json() == before


def test_no_permissive_cors(app):
    phone = _client(app)
    preflight = phone.options("/api/actions", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    for response in (preflight, phone.get("/api/state", headers={"Origin": "http://evil.example"}),
                     _start(phone, {**GOOD, "Origin": "http://evil.example"})):
        assert not [h for h in response.headers.keys() if h.lower().startswith("access-control")]


# -- what pages may load, and player text --------------------------------------------------

def _pages(app):
    host = _client(app, "10.0.0.2")
    assert _log_in(host).status_code == 303
    paths = [rule.rule for rule in app.url_map.iter_rules()
             if "GET" in rule.methods and not rule.arguments and not rule.rule.startswith("/api")]
    return host, paths


def test_every_page_has_a_strict_content_security_policy(app):
    host, paths = _pages(app)
    seen = 0
    for path in paths:
        response = host.get(path)
        if response.mimetype != "text/html":
            continue
        seen += 1
        csp = response.headers["Content-Security-Policy"]
        rules = dict(part.strip().split(" ", 1) for part in csp.split(";"))
        assert rules["default-src"] == "'self'" and rules["frame-ancestors"] == "'none'"
        assert "unsafe" not in csp and "*" not in csp and "http" not in csp, csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        html = response.get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", html):  # only own files, or inert data
            assert re.search(r'src="/static/', tag) or 'type="application/json"' in tag, tag
        assert not re.search(r"\son[a-z]+\s*=", html), f"inline event handler on {path}"
    assert seen >= 3


def test_player_names_and_user_text_stay_text(app):
    host, paths = _pages(app)
    assert _start(host, GOOD, players=(XSS, '"><script>alert(2)</script>')).status_code == 201
    for path in paths:
        body = host.get(path).get_data(as_text=True)
        assert "<img src=x" not in body and "<script>alert" not in body, path
    login = host.get("/login?next=/%22%3E%3Cscript%3Ealert(3)%3C/script%3E")
    assert b"<script>alert(3)" not in login.data
    state = host.get("/api/state")
    assert state.mimetype == "application/json" and state.get_json()["players"][0]["name"] == XSS


def test_oversized_login_forms_are_refused(app):
    phone = _client(app)
    for data, kind in (({"pin": "1" * 70_000}, None),  # beyond MAX_CONTENT_LENGTH
                       ({f"f{i}": "x" for i in range(200)}, "multipart/form-data"),
                       ({"pin": "1" * 20_000}, "multipart/form-data")):
        response = phone.post("/login", data=data, content_type=kind)
        assert response.status_code == 413 and response.get_json()["error"], data.keys()
    assert get_companion(app).failures == {}  # not counted as wrong PINs either
