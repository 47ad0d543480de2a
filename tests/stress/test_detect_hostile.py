"""``companion detect`` on hostile image files, as a user runs it (a child process):
one JSON error line per bad image, exit 1, never a traceback; a decompression bomb is
refused fast and without the memory it claims."""

from __future__ import annotations

import json
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.stress.harness import ROOT

DECK = ROOT / "tests" / "data" / "cards-pinochle" / "deck"


def _png(width: int, height: int, idat: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) \
        + chunk(b"IEND", b"")


def _png_bomb(width: int, height: int) -> bytes:
    """A real bomb: a valid PNG of width x height black pixels, a few hundred KB on disk."""
    packer = zlib.compressobj(9)
    row = b"\x00" * (width + 1)  # filter byte + pixels
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return _png(width, height, body)


def _jpeg(width: int = 64, height: int = 48) -> bytes:
    import cv2
    import numpy as np

    # a plain wooden-brown picture: a grey one is refused as black-and-white by detect dice
    ok, data = cv2.imencode(".jpg", np.full((height, width, 3), (70, 110, 160), np.uint8))
    assert ok
    return data.tobytes()


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A small JPEG whose frame header claims ``width`` x ``height`` pixels."""
    data = bytearray(_jpeg())
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile-images")
    files = {
        "empty.jpg": b"",
        "text.png": b"hello, I am not an image\n" * 10,
        "truncated.jpg": _jpeg(640, 480)[:700],
        "corrupt.jpg": _jpeg(640, 480)[:200] + bytes(range(256)) * 20,
        "png-lies.png": _png(100_000, 100_000, zlib.compress(b"\x00" * 1000)),
        "png-bomb.png": _png_bomb(8_000, 6_000),  # 48 Mpx, 144 MB decoded as BGR
        "jpeg-lies.jpg": _jpeg_claiming(65_000, 65_000),
        "zero-size.png": _png(0, 0, zlib.compress(b"")),
    }
    paths = {}
    for name, data in files.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    paths["folder.jpg"] = folder / "folder.jpg"
    paths["folder.jpg"].mkdir()
    paths["missing.jpg"] = folder / "missing.jpg"
    paths["good.jpg"] = folder / "good.jpg"
    paths["good.jpg"].write_bytes(_jpeg(320, 240))
    return paths


# Peak memory of this process image: VmHWM starts afresh at exec, whereas ru_maxrss
# carries over the forking parent's peak (a big pytest process would count).
_RUN = ("import sys\n"
        "from companion.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "peak = int(hwm.split()[1]) // 1024\n"
        "print(f'peak-rss-mb {peak}', file=sys.stderr)\n"
        "sys.exit(status)\n")


def _detect(*args: str) -> tuple[int, list[dict], str, float, int]:
    """Run ``companion detect``; (status, JSON lines, stderr, CPU seconds, peak RSS in MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", _RUN, "detect", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    stderr, _, peak = proc.stderr.rpartition("peak-rss-mb ")
    return proc.returncode, lines, stderr, cpu, int(peak)


@pytest.mark.parametrize("kind", ["dice", "cards"])
def test_bad_images_get_error_lines_never_a_traceback(hostile, kind):
    names = [n for n in hostile if n not in ("good.jpg", "png-bomb.png")] + ["good.jpg"]
    args = ["--deck", str(DECK)] if kind == "cards" else []
    status, lines, stderr, _, _ = _detect(kind, "--json", *args,
                                          *(str(hostile[n]) for n in names))
    assert status == 1
    assert "Traceback" not in stderr
    assert [line["image"] for line in lines] == [str(hostile[n]) for n in names]
    for line in lines[:-1]:
        assert isinstance(line["error"], str) and line["error"] and "\n" not in line["error"]
    assert "error" not in lines[-1]  # the good image after the bad ones is still read


@pytest.mark.parametrize("kind", ["dice", "cards"])
def test_a_bomb_is_refused_fast_and_small(hostile, kind):
    bombs = [str(hostile[n]) for n in ("png-lies.png", "png-bomb.png", "jpeg-lies.jpg")]
    args = ["--deck", str(DECK)] if kind == "cards" else []
    status, lines, stderr, cpu, peak_mb = _detect(kind, "--json", *args, *bombs)
    assert status == 1 and all("error" in line for line in lines) and "Traceback" not in stderr
    # Python, numpy and OpenCV alone take ~70 MB; decoding the 48 Mpx bomb adds 144+.
    assert peak_mb < 150, f"peak RSS {peak_mb} MB"
    assert cpu < 10, f"{cpu:.1f} s of CPU"
