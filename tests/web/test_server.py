"""The production server's shutdown: nothing it was sending is left open."""

from __future__ import annotations

import socket
import threading
from typing import Any

from web import make_server

WAIT = 10.0


def test_closing_the_server_closes_a_file_it_was_still_sending(tmp_path):
    # A browser that stops reading mid-download leaves the rest of a static file queued on
    # its connection; closing the server must close that file, not leave it to the
    # garbage collector (a ResourceWarning, and an open file per phone on a long night).
    path = tmp_path / "big.js"
    path.write_bytes(b"x" * (32 << 20))  # far more than the sockets' buffers hold
    opened: list[Any] = []
    sent = threading.Event()

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        f = open(path, "rb")
        opened.append(f)
        start_response("200 OK", [("Content-Type", "text/javascript"),
                                  ("Content-Length", str(path.stat().st_size))])
        sent.set()
        return environ["wsgi.file_wrapper"](f)

    server = make_server(app, "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    client = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    client.sendall(b"GET /big.js HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert client.recv(64).startswith(b"HTTP/1.1 200")  # the reply has begun; stop reading
    assert sent.wait(WAIT)
    server.close()
    thread.join(WAIT)
    assert not thread.is_alive()
    assert len(opened) == 1 and opened[0].closed
    client.close()
