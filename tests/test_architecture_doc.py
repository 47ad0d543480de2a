"""docs/architecture.md names every module of the four packages, so a reader can find each
one's place (vision/cards_glance, cards_tell and dice_gate were missing from it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_is_named_in_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", page))
    modules = [path for package in ("vision", "companion", "web", "hardware")
               for path in sorted((ROOT / package).rglob("*.py"))
               if path.stem != "__init__" and "demo" not in path.parts]
    assert len(modules) > 100  # the packages were found
    missing = [str(path.relative_to(ROOT)) for path in modules if path.stem not in named]
    assert missing == []


def test_the_game_pages_point_to_rules_digests_in_the_repository() -> None:
    # They pointed to shared/rules/*.md, which is not in the repository.
    for page in sorted((ROOT / "docs" / "games").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        links = re.findall(r"\]\((\.\./rules/[^)]+)\)", text)
        assert links, f"{page.name} names no rules digest"
        assert all((page.parent / link).resolve().is_file() for link in links), page.name
        assert "shared/rules" not in text
