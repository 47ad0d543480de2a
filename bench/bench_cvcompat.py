"""CPU per warp: OpenCV's own bilinear warp against vision.cvcompat's (A/B, one process).

On OpenCV 4.x cvcompat blends at the exact position in numpy (as OpenCV 5 does); on 5 it
calls OpenCV, so both rows are the same there. Run with the Pi's versions to see the cost:

    OPENBLAS_NUM_THREADS=1 .venv-ci-pi/bin/python bench/bench_cvcompat.py
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision import cvcompat


def main() -> None:
    frame = (np.random.default_rng(0).random((480, 640, 3)) * 255).astype(np.uint8)
    quad = np.array([[100, 80], [400, 90], [420, 400], [90, 390]], np.float32)
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}: a 640x480 frame warped to")
    for w, h in ((110, 160), (252, 352)):
        dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        m = cv2.getPerspectiveTransform(quad, dst)
        for name, warp in (("cv2.warpPerspective", cv2.warpPerspective),
                           ("cvcompat.warp_perspective", cvcompat.warp_perspective)):
            start, n = time.process_time(), 30
            for _ in range(n):
                warp(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            print(f"  {w}x{h} {name}: {(time.process_time() - start) / n * 1000:.2f} ms")


if __name__ == "__main__":
    main()
