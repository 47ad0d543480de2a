"""CPU per warp: OpenCV's own bilinear warp against vision.cvcompat's (A/B, one process).

On OpenCV 4.x cvcompat blends at the exact position (as OpenCV 5 does; vision/bilinear.py);
on 5 it calls OpenCV, so those rows are the same there. The third row is session 12's
plain-numpy exact warp (tests/vision/bilinear_reference.py, the same bits). Each figure is
the quickest of 30 (CPU time). Run with the Pi's versions to see the cost:

    OPENBLAS_NUM_THREADS=1 .venv-ci-pi/bin/python bench/bench_cvcompat.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.vision import bilinear_reference  # noqa: E402
from vision import cvcompat  # noqa: E402


def main() -> None:
    cv2.setNumThreads(1)  # as the other benches: CPU time of one thread's work
    frame = (np.random.default_rng(0).random((480, 640, 3)) * 255).astype(np.uint8)
    quad = np.array([[100, 80], [400, 90], [420, 400], [90, 390]], np.float32)
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}: a 640x480 frame warped to")
    for w, h in ((110, 160), (252, 352)):
        dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        m = cv2.getPerspectiveTransform(quad, dst)
        def reference(src, m, dsize, flags, borderMode):
            return bilinear_reference.warp(src, m, dsize, flags, borderMode, 0)
        for name, warp in (("cv2.warpPerspective", cv2.warpPerspective),
                           ("cvcompat.warp_perspective", cvcompat.warp_perspective),
                           ("numpy reference (session 12)", reference)):
            best = float("inf")
            for _ in range(30):
                start = time.process_time()
                warp(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                best = min(best, time.process_time() - start)
            print(f"  {w}x{h} {name}: {best * 1000:.2f} ms")


if __name__ == "__main__":
    main()
