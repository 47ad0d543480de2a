"""Fixtures shared by every test package."""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path
from typing import Any, Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings

from tests.support.clock import FakeClock

# Hypothesis times each example (deadline, 200 ms) and its data generation (too_slow) on
# the wall clock, so a busy machine that pauses the process fails a passing property
# (DeadlineExceeded, then FlakyFailure). Examples and their number stay as each test says.
settings.register_profile("companion", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")


@pytest.fixture(scope="module", autouse=True)
def _collect_garbage_after_each_module() -> Iterator[None]:
    """Collect garbage as each test module ends (about 50 ms of CPU a module).

    An object left unclosed in a reference cycle (a file, socket or SQLite connection)
    warns only when the collector finds it: under ``filterwarnings = error`` that failed
    whichever test, of any module, was running then. Collected here, it fails the last
    test of the module that left it (a per-test collect would cost minutes).
    """
    yield
    gc.collect()


@pytest.fixture
def clock() -> FakeClock:
    """A wall clock the test advances by hand."""
    return FakeClock()


@pytest.fixture
def open_journal() -> Iterator[Any]:
    """``open_journal(data_dir)``: a ``companion.journal.Journal`` closed when the test ends.

    For a test that opens a journal of its own (a session, a restart on the same folder):
    its SQLite connection is closed even when the test fails, where Python 3.13 would warn.
    """
    from companion.journal import Journal

    with contextlib.ExitStack() as opened:
        yield lambda data_dir: opened.enter_context(Journal(data_dir))


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


#: Debian's Chromium: the browser tests drive it and never download a browser.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright, one per test module.

    Skipped with a reason when /usr/bin/chromium is missing, except under CI (the env var
    CI set), where that fails the test.
    """
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
