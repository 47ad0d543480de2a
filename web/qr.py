"""Join by QR: the scoreboard's address as an SVG for the host page and as text blocks for
the terminal.

Phones resolve ``.local`` names unreliably, so the address is by IP: a configured
``PUBLIC_URL`` wins; else the request's Host header, with a loopback or ``.local`` name
replaced by this machine's LAN address (the one its default route uses).
"""

from __future__ import annotations

import io
import ipaddress
import socket
from urllib.parse import urlsplit

import segno

#: Module size in pixels of the SVG (it scales; this sets the default width).
_SVG_SCALE = 6


def lan_address() -> str | None:
    """This machine's LAN IP address (of the default route), or None without a network.

    Uses a UDP socket's ``connect``, which sends nothing.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never contacted
        address = str(sock.getsockname()[0])
    except OSError:
        return None
    finally:
        sock.close()
    return None if address.startswith(("0.", "127.")) else address


def _is_local_name(host: str) -> bool:
    """True for names a phone cannot reach: loopback addresses, localhost, ``.local``."""
    if host in ("localhost", "") or host.endswith(".local"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def join_url(host_header: str, *, scheme: str = "http", public_url: str | None = None,
             lan: str | None = None) -> str:
    """The scoreboard address to show and encode, ending in ``/``.

    Parameters
    ----------
    host_header : the request's Host header, e.g. ``"localhost:8000"``.
    scheme : the request's scheme.
    public_url : a configured address; used as given (a ``/`` is appended if missing).
    lan : the LAN address replacing a loopback or ``.local`` host (``lan_address()``).
    """
    if public_url:
        return public_url if public_url.endswith("/") else public_url + "/"
    parts = urlsplit(f"//{host_header}")
    host, port = parts.hostname or "", parts.port
    if _is_local_name(host) and lan:
        host = lan
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host if port is None else f"{host}:{port}"
    return f"{scheme}://{netloc}/"


def qr_svg(url: str) -> str:
    """An SVG document (text) of a QR code for ``url``; dark modules on white, quiet zone 4."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, nl=False, scale=_SVG_SCALE,
              border=4, dark="#000", light="#fff", title=url)
    return out.getvalue().decode()


def terminal_qr(url: str) -> str:
    """A QR code for ``url`` drawn with text blocks, two rows per line, for the terminal.

    Made for the usual dark terminal: light modules (the quiet zone of 2 included) are
    drawn as full or half blocks in the text colour, dark modules are left blank, so the
    terminal's background shows through as the dark squares.
    """
    code = segno.make(url, error="m", micro=False)
    rows = [[bool(v) for v in row] for row in code.matrix_iter(border=2)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    glyph = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    lines = ["".join(glyph[(top, bottom)] for top, bottom in zip(upper, lower))
             for upper, lower in zip(rows[::2], rows[1::2])]
    return "\n".join(lines)
