"""Fixtures shared by the companion tests (a module may define its own ``session``)."""

from __future__ import annotations

from typing import Iterator

import pytest

from companion.journal import Journal
from companion.session import Session
from tests.support.clock import FakeClock


@pytest.fixture
def session(tmp_path, clock: FakeClock) -> Iterator[Session]:
    """A Toss Up! game for Ann and Bob on a real journal in ``tmp_path``, on the fake clock."""
    s = Session(Journal(tmp_path), clock=clock)
    s.start("toss-up", ["Ann", "Bob"])
    yield s
    s.journal.close()
