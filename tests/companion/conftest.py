"""Fixtures shared by the companion tests: a session with a game, or with none yet."""

from __future__ import annotations

from typing import Iterator

import pytest

from companion.journal import Journal
from companion.session import Session
from tests.support.clock import FakeClock


@pytest.fixture
def empty_session(tmp_path, clock: FakeClock) -> Iterator[Session]:
    """A session with no game yet on a real journal in ``tmp_path``, on the fake clock."""
    s = Session(Journal(tmp_path), clock=clock)
    yield s
    s.journal.close()


@pytest.fixture
def session(empty_session: Session) -> Session:
    """A Toss Up! game for Ann and Bob on a real journal in ``tmp_path``, on the fake clock."""
    empty_session.start("toss-up", ["Ann", "Bob"])
    return empty_session
