"""The layers stay clean: each package imports only the ones below it (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Package -> top-level modules it must never import (anywhere in the file).
FORBIDDEN = {
    "hardware": {"companion", "vision", "web"},
    "vision": {"companion", "web", "hardware", "flask", "gpiozero"},
    "companion/games": {"flask", "cv2", "numpy", "gpiozero", "web", "hardware", "vision"},
    "companion": {"flask", "web", "gpiozero", "cv2"},
    "web": {"hardware", "gpiozero"},
}
#: The root of the stack wires real devices together (imports inside its functions).
ROOTS = {"companion/cli.py", "companion/serve.py"}


def imported(path: Path) -> set[str]:
    """Top-level names of every module ``path`` imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_package_imports_upward(package):
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ROOTS or (package == "companion" and rel.startswith("companion/games/")):
            continue
        bad = imported(path) & FORBIDDEN[package]
        if bad:
            offenders.append(f"{rel}: {sorted(bad)}")
    assert not offenders, offenders
