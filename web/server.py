"""The production server: waitress sized for a table full of phones holding event streams.

Sizing. Every open Server-Sent Events stream holds one waitress worker thread for as long
as the phone watches (waitress runs each response on a thread from start to end). With
waitress's default of 4 threads, 4 open streams stall every other request. A table has up
to ~30 phones, each with a scoreboard stream and at most a camera-preview stream: 60 held
threads. ``threads=96`` leaves 36 for ordinary requests (state, actions, pages, assets)
and for streams of phones that went to sleep, which linger until their next keep-alive
write fails (at most ``SSE_KEEPALIVE`` seconds); ``web/streams.py`` refuses streams past
``SSE_MAX_STREAMS`` (60, plus 8 for the host's own) so they never take every thread. Idle
threads cost little memory (they sleep on a condition variable; see docs/benchmarks.md "## Web" for the measured size).
``connection_limit=200`` covers 96 busy connections plus browsers' idle keep-alive
sockets (a phone keeps a few open); ``channel_timeout=60`` closes idle keep-alive sockets
after a minute (it never applies to a stream that is still running).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from waitress import create_server  # type: ignore[import-untyped]
from waitress import wasyncore  # type: ignore[import-untyped]

log = logging.getLogger(__name__)

THREADS = 96
CONNECTION_LIMIT = 200
CHANNEL_TIMEOUT = 60


class Server:
    """A running waitress server: ``run()`` blocks; ``close()`` from any thread stops it."""

    def __init__(self, app: Any, host: str, port: int, *, threads: int = THREADS,
                 connection_limit: int = CONNECTION_LIMIT,
                 channel_timeout: int = CHANNEL_TIMEOUT) -> None:
        self.app = app
        self._server = create_server(
            app, host=host, port=port, threads=threads, connection_limit=connection_limit,
            channel_timeout=channel_timeout, ident="companion",
            clear_untrusted_proxy_headers=True)
        self._map = getattr(self._server, "_map", None) or getattr(self._server, "map")
        self._closed = threading.Event()
        self._done = threading.Event()
        self._loop_thread: threading.Thread | None = None
        self._state_lock = threading.Lock()  # run() starting vs close() from another thread

    @property
    def host(self) -> str:
        return str(getattr(self._server, "effective_host", "127.0.0.1"))

    @property
    def port(self) -> int:
        """The bound port (the real one when 0 was asked for)."""
        return int(getattr(self._server, "effective_port"))

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self.port}"

    def run(self) -> None:
        """Serve until :meth:`close` is called from another thread, then return.

        On Ctrl-C (KeyboardInterrupt) it closes everything, streams included, and
        re-raises, so the caller's ``except KeyboardInterrupt`` runs after a clean stop.
        """
        with self._state_lock:
            if self._closed.is_set():  # closed before the loop ever ran
                self._done.set()
                return
            self._loop_thread = threading.current_thread()
        adj = self._server.adj
        try:
            wasyncore.loop(timeout=adj.asyncore_loop_timeout, map=self._map,
                           use_poll=adj.asyncore_use_poll)
        except KeyboardInterrupt:
            self.close()
            raise
        finally:
            self._done.set()

    def close(self, timeout: float = 5.0) -> None:
        """End the event streams, finish the workers and release the socket; idempotent.

        Safe from any thread; waits at most about ``timeout`` seconds for busy workers.
        """
        with self._state_lock:
            if self._closed.is_set():
                return
            self._closed.set()
            loop_thread = self._loop_thread
        holder = getattr(self.app, "extensions", {}).get("companion")
        if holder is not None:
            holder.shutdown()  # streams see it within SSE_POLL seconds and end
        self._server.task_dispatcher.shutdown(timeout=timeout)
        here = threading.current_thread() is loop_thread
        if loop_thread is None or here or self._done.is_set():
            _close_all(self._map)
            return
        # Close every socket from the loop's own thread; the loop then finds its map empty.
        try:
            self._server.trigger.pull_trigger(lambda: _close_all(self._map))
        except OSError:  # the loop ended meanwhile and closed the trigger itself
            pass
        if not self._done.wait(timeout):
            log.warning("The web server loop did not stop within %.0f s", timeout)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _close_all(socket_map: dict[int, Any]) -> None:
    """Close every socket in the map, and the unsent replies of every connection.

    ``wasyncore.close_all`` closes only the sockets: a reply still queued on a connection
    (a static file waitress sends from the open file, say) would keep its file open until
    the garbage collector finds it. A connection's ``handle_close`` closes its queued
    replies first, then its socket.
    """
    for dispatcher in list(socket_map.values()):
        closer = dispatcher.handle_close if hasattr(dispatcher, "outbufs") else dispatcher.close
        try:
            closer()
        except OSError:  # a socket the peer already closed
            pass
    socket_map.clear()


def make_server(app: Any, host: str = "0.0.0.0", port: int = 8000, *,
                threads: int = THREADS, connection_limit: int = CONNECTION_LIMIT,
                channel_timeout: int = CHANNEL_TIMEOUT) -> Server:
    """Bind a waitress server for ``app`` on ``host:port`` (0: any free port); not started."""
    return Server(app, host, port, threads=threads, connection_limit=connection_limit,
                  channel_timeout=channel_timeout)
