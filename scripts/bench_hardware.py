"""CPU cost of the hardware layer's hot paths (process time, so a busy machine does not skew it).

Run from the repository root:  .venv/bin/python scripts/bench_hardware.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from bench_common import cpu_ms  # noqa: E402  (same folder)
from hardware.buttons import Buttons  # noqa: E402
from hardware.capture import CaptureThread  # noqa: E402
from hardware.picam import yuv420_to_bgr  # noqa: E402
from hardware.replay import ReplayCamera  # noqa: E402


def main() -> None:
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(5):
            frame = rng.integers(0, 256, (960, 1280, 3), np.uint8)
            frame = cv2.GaussianBlur(frame, (0, 0), 3)  # photo-like, so JPEG sizes are real
            cv2.imwrite(f"{tmp}/{i:04d}.jpg", frame)
        unpaced = ReplayCamera(tmp, fps=None)
        print(f"replay read, new 1280x960 JPEG each call: {cpu_ms(unpaced.read, 50):.2f} ms CPU")
        now = [0.0]
        paced = ReplayCamera(tmp, fps=10, clock=lambda: now[0])
        print(f"replay read, same frame again (copy):      {cpu_ms(paced.read, 200):.2f} ms CPU")

        capture = CaptureThread(lambda: ReplayCamera(tmp, fps=None), on_frame=None)
        print(f"capture step incl. replay read:            {cpu_ms(capture.step, 50):.2f} ms CPU")

    yuv = rng.integers(0, 256, (360, 320), np.uint8)
    print(f"yuv420_to_bgr 320x240 preview:             "
          f"{cpu_ms(lambda: yuv420_to_bgr(yuv, 240, 320), 200):.2f} ms CPU")

    factory = MockFactory()
    buttons = Buttons({"confirm": 17}, pin_factory=factory)
    pin = factory.pin(17)

    def press() -> None:
        pin.drive_low()
        pin.drive_high()
        buttons.get(timeout=0)

    print(f"button edge pair + get(timeout=0):         {cpu_ms(press, 2000) * 1000:.1f} us CPU")
    buttons.close()
    factory.close()


if __name__ == "__main__":
    main()
