"""CPU cost of the host's live preview (process time, so a busy machine does not skew it).

Run from the repository root:  .venv/bin/python scripts/bench_preview.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_common import cpu_ms  # noqa: E402  (same folder)
from tests.vision.dice_support import scene  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.overlay import encode_jpeg, preview_image  # noqa: E402


def main() -> None:
    colours = ["green", "yellow", "red", "green", "green", "yellow", "red", "green", "yellow",
               "red"]
    for size in ((640, 480), (1280, 960)):
        frame = scene(colours, size=size, side=34 * size[0] // 640, spacing=90 * size[0] // 640)
        reading = read_dice(frame)
        small = preview_image(frame, reading, width=480)
        jpeg = encode_jpeg(small, quality=70)
        draw = cpu_ms(lambda: preview_image(frame, reading, width=480), 200)
        total = cpu_ms(lambda: encode_jpeg(preview_image(frame, reading, width=480),
                                           quality=70), 200)
        print(f"{size[0]}x{size[1]} frame, {reading.count} dice: shrink+draw {draw:.2f} ms, "
              f"shrink+draw+JPEG {total:.2f} ms, {len(jpeg) / 1024:.1f} KiB per picture, "
              f"at 5 pictures/s {total * 5 / 10:.2f}% of one core")
    print(f"(OpenCV threads: {cv2.getNumThreads()})")


if __name__ == "__main__":
    main()
