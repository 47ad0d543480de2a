"""Fixtures shared by every test package."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from tests.support.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A wall clock the test advances by hand."""
    return FakeClock()


@pytest.fixture
def mock_factory():
    """A fresh gpiozero MockFactory per test, passed as ``pin_factory`` (never set globally).

    As in gpiozero's own tests/conftest.py, ``reset()`` at the end clears the pins and
    reservations that MockFactory keeps at class level.
    """
    factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
