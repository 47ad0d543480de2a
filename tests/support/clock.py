"""Test helpers shared across packages: a clock the test moves by hand."""

from __future__ import annotations


class FakeClock:
    """A clock the test moves by hand: ``clock()`` reads it, ``advance(s)`` moves it."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
