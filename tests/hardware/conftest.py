"""Fixtures for the hardware tests: a fresh gpiozero MockFactory per test.

The fake ``clock`` fixture comes from tests/conftest.py.
"""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory():
    """A fresh MockFactory per test, passed as ``pin_factory`` (never set globally).

    As in gpiozero's own tests/conftest.py, ``reset()`` at the end clears the pins and
    reservations that MockFactory keeps at class level.
    """
    factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
