"""A real browser (headless Debian Chromium through Playwright), logged in as the host,
visits another site's page that tries to act on the companion: nothing changes. And the
companion's own pages refuse injected inline scripts (the CSP is enforced).

Skipped with a reason when /usr/bin/chromium is missing (never downloads a browser).
"""

from __future__ import annotations

import http.server
import threading
from typing import Any, Iterator

import pytest

from tests.stress.harness import PIN, ServeProcess

pytestmark = pytest.mark.browser


_EVIL = """<!doctype html><html><head><title>evil</title></head><body>
<form id="json" method="post" action="{target}/api/games" enctype="text/plain">
<input name='{{"game":"toss-up","players":["Eve","Mal"],"x":"' value='"}}'></form>
<iframe name="sink"></iframe>
<script>
const target = "{target}";
const tries = [
  fetch(target + "/api/actions", {{method: "POST", credentials: "include", mode: "no-cors",
    headers: {{"Content-Type": "text/plain"}}, body: '{{"type":"bank"}}'}}),
  fetch(target + "/api/undo", {{method: "POST", credentials: "include",
    headers: {{"Content-Type": "application/json"}}, body: "{{}}"}}),
  fetch(target + "/api/state", {{credentials: "include"}}).then(r => r.text())
    .then(t => {{ window.stolen = t; }}),
];
Promise.allSettled(tries).then(() => {{
  const form = document.getElementById("json");
  form.target = "sink";
  form.submit();
  document.title = "tried";
}});
</script></body></html>"""




@pytest.fixture
def evil_site() -> Iterator[Any]:
    """Another site on this machine (``localhost``, not the companion's 127.0.0.1)."""
    pages: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            body = pages.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield pages, f"http://localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_another_sites_page_cannot_act_for_a_logged_in_host(browser, evil_site, tmp_path):
    pages, evil_url = evil_site
    with ServeProcess(tmp_path / "data") as server:
        target = f"http://127.0.0.1:{server.port}"
        host = server.client()
        assert host.call("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})[0] \
            == 201
        assert host.call("POST", "/api/actions", {"type": "roll", "green": 5, "yellow": 5,
                                                  "red": 0})[0] == 200
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{target}/login")
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        page.wait_for_url(f"{target}/host")
        cookies = [c for c in context.cookies() if c["name"] == "companion_host"]
        assert cookies and cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Strict"
        assert page.evaluate("document.cookie").find("companion_host") == -1
        before = server.client().call("GET", "/api/state")[1]

        pages["/"] = _EVIL.format(target=target).encode()
        page.goto(evil_url + "/")
        page.wait_for_function("document.title === 'tried'", timeout=15000)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.stolen") is None  # no CORS: it cannot even read
        after = server.client().call("GET", "/api/state")[1]
        assert after["version"] == before["version"] and after["players"] == before["players"]

        # The control: the same browser on the companion's own page can act.
        page.goto(f"{target}/host")
        status = page.evaluate("""() => fetch('/api/actions', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: '{"type":"bank"}'})
            .then(r => r.status)""")
        assert status == 200
        context.close()


def test_injected_inline_script_is_blocked_by_the_csp(browser, tmp_path):
    with ServeProcess(tmp_path / "data") as server:
        context = browser.new_context()
        page = context.new_page()
        violations: list[str] = []
        page.on("console", lambda m: violations.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.evaluate("""() => { const s = document.createElement('script');
            s.textContent = 'window.pwned = 1'; document.body.appendChild(s);
            const i = document.createElement('img'); i.src = 'http://localhost:9/x.png';
            document.body.appendChild(i); }""")
        page.wait_for_function("() => true")
        assert page.evaluate("window.pwned") is None
        context.close()
    assert violations, "the browser reported no CSP violation"
