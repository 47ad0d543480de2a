"""The stress package: long runs (``@pytest.mark.slow``) only when asked for.

``pytest`` runs the short version of each proof; ``pytest -m slow tests/stress`` (or
``bench/bench_stress.py``) runs the long ones: 100+ power cuts, 5,000+ fuzzed requests,
a minute of 30 phones, 30 minutes of camera frames.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip this package's slow tests unless the -m expression names ``slow``."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long run: use pytest -m slow tests/stress")
    for item in items:
        if item.get_closest_marker("slow") and _HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)
