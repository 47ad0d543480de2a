"""A camera over a table for recognizer tests: ``latest()`` is whatever the test laid there."""

from __future__ import annotations

from typing import Any


class Table:
    """The frame the camera shows now; set ``frame`` to change what lies on the table."""

    def __init__(self, frame: Any = None) -> None:
        self.frame = frame

    def latest(self) -> Any:
        return self.frame


def watch(recognizer: Any, clock: Any, steps: int = 8) -> None:
    """Step the recognition loop ``steps`` times, 0.1 s of table time apart."""
    for _ in range(steps):
        recognizer.step()
        clock.advance(0.1)
