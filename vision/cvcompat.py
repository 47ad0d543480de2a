"""The one place where vision copes with the OpenCV and numpy versions it runs on.

The companion runs on a developer's pip wheels (OpenCV 5, numpy 2) and on a Raspberry Pi's
own apt packages (Bookworm: OpenCV 4.6 + numpy 1.24; Trixie: OpenCV 4.10 + numpy 2.2),
which picamera2 needs. Where their APIs differ, vision calls this module instead of
guessing; ``.ci/run`` runs the OpenCV paths on the Pi's pinned versions to prove it.

- Log level: OpenCV 4.x has ``cv2.setLogLevel``/``cv2.getLogLevel``; OpenCV 5 has only
  ``cv2.utils.logging``. Both take the same numbers (0 silent ... 2 error ... 6 verbose).
"""

from __future__ import annotations

import cv2

LOG_SILENT = 0
LOG_ERROR = 2


def set_log_level(level: int) -> int:
    """Set OpenCV's log level (``LOG_SILENT``, ``LOG_ERROR``...); return the previous one."""
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None and hasattr(logging, "setLogLevel"):
        previous = logging.getLogLevel()
        logging.setLogLevel(level)
    else:
        previous = cv2.getLogLevel()
        cv2.setLogLevel(level)
    return int(previous)
