"""Fixtures shared by every test package."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A wall clock the test advances by hand."""
    return FakeClock()
