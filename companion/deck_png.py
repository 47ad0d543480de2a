"""A taught face's PNG file: its size and the card's measured shape, read from its first
chunks without decoding it (``companion.deck_teach.deck_aspect``).

``companion.deck_teach.save_taught`` stores the card's width / height measured in
perspective as a ``tEXt`` chunk keyed ``card-aspect`` right after the header; image
readers skip it, and a face without it (decks taught before) reads as before.
"""

from __future__ import annotations

import zlib
from pathlib import Path

SHAPE_KEY = b"card-aspect"  # the text chunk's key
SHAPES = (0.5, 1.0)  # a stored shape outside these is ignored


def png_head(path: Path) -> tuple[int, int, float | None] | None:
    """(width, height, stored shape or None) from a PNG file's first chunks, or None when
    it is not a readable PNG."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(33 + 12 + len(SHAPE_KEY) + 1 + 16)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    return width, height, _stored_shape(head[33:])


def _stored_shape(chunk: bytes) -> float | None:
    """The shape of a ``tEXt`` chunk keyed ``SHAPE_KEY`` at the start of ``chunk``, if one."""
    size = int.from_bytes(chunk[:4], "big") if len(chunk) >= 8 else 0
    key = SHAPE_KEY + b"\x00"
    if chunk[4:8] != b"tEXt" or len(chunk) < 8 + size or not chunk[8:].startswith(key):
        return None
    try:
        shape = float(chunk[8 + len(key):8 + size].decode("ascii"))
    except ValueError:
        return None
    return shape if SHAPES[0] <= shape <= SHAPES[1] else None


def with_shape(png: bytes, shape: float) -> bytes:
    """``png`` with a ``tEXt`` chunk holding ``shape`` right after its header."""
    data = b"tEXt" + SHAPE_KEY + b"\x00" + f"{shape:.4f}".encode("ascii")
    chunk = (len(data) - 4).to_bytes(4, "big") + data + zlib.crc32(data).to_bytes(4, "big")
    return png[:33] + chunk + png[33:]
