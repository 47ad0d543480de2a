"""Rasterize a folder of SVG card faces into a deck folder (one PNG a face) with Chromium.

    .venv/bin/python scripts/rasterize_deck.py SVG_DIR DECK_DIR [--height 352] [--keep REGEX]

Each ``<stem>.svg`` becomes ``DECK_DIR/<stem>.png``: headless Chromium (Playwright, driving
Debian's ``/usr/bin/chromium``, never a downloaded browser) draws the SVG on a white page at
``--height`` pixels, the width following the SVG's own aspect (its ``viewBox``, else its
``width``/``height``), so a card's rounded corners come out white. ``--keep`` keeps only the
stems that match (e.g. ``'^(10|[2-9AJQK])[CDHS]$'`` drops jokers and backs).
How ``tests/data/cards-kennard`` and ``tests/data/cards-knoll`` were made: see their SOURCE.md.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
_SVG_TAG = re.compile(r"<svg\b[^>]*>", re.S)
_NUMBER = re.compile(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?")


def svg_aspect(svg: str) -> float:
    """Width over height of an SVG document, from its viewBox, else its width and height."""
    tag = _SVG_TAG.search(svg)
    if tag is None:
        raise ValueError("The file holds no <svg> element.")
    box = re.search(r'viewBox="([^"]+)"', tag.group(0))
    if box:
        numbers = [float(v) for v in _NUMBER.findall(box.group(1))]
        if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0:
            return numbers[2] / numbers[3]
    width = re.search(r'\swidth="([^"]+)"', tag.group(0))
    height = re.search(r'\sheight="([^"]+)"', tag.group(0))
    if width and height:
        w, h = (float(_NUMBER.match(v.group(1)).group(0)) for v in (width, height))
        if w > 0 and h > 0:
            return w / h
    raise ValueError("The <svg> element gives neither a viewBox nor a width and height.")


def sized_svg(svg: str, width: int, height: int) -> str:
    """The same SVG with its outer width and height set to pixels (the art stretched to fit)."""
    tag = _SVG_TAG.search(svg)
    if tag is None:
        raise ValueError("The file holds no <svg> element.")
    head = re.sub(r'\s(width|height|preserveAspectRatio)="[^"]*"', "", tag.group(0))
    head = head[:-1].rstrip("/") + (f' width="{width}" height="{height}"'
                                   ' preserveAspectRatio="none">')
    if tag.group(0).endswith("/>"):
        head = head[:-1] + "/>"
    return svg[tag.start():].replace(tag.group(0), head, 1)


def rasterize(sources: list[Path], out: Path, height: int) -> list[tuple[str, int, int]]:
    """Draw each SVG file to ``out/<stem>.png``; return (stem, width, height) of each."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    done = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 4 * height, "height": height},
                                device_scale_factor=1)
        for path in sources:
            svg = path.read_text(encoding="utf-8")
            width = round(height * svg_aspect(svg))
            page.set_content('<html><body style="margin:0;background:#fff">'
                             f"{sized_svg(svg, width, height)}</body></html>")
            page.screenshot(path=str(out / f"{path.stem}.png"),
                            clip={"x": 0, "y": 0, "width": width, "height": height})
            done.append((path.stem, width, height))
        browser.close()
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("svg_dir", type=Path)
    parser.add_argument("deck_dir", type=Path)
    parser.add_argument("--height", type=int, default=352, help="pixels (default 352)")
    parser.add_argument("--keep", default="", help="keep only the stems matching this regex")
    args = parser.parse_args(argv)
    keep = re.compile(args.keep)
    sources = [p for p in sorted(args.svg_dir.glob("*.svg")) if keep.search(p.stem)]
    if not sources:
        print(f"No SVG file in {args.svg_dir} matches {args.keep!r}.", file=sys.stderr)
        return 2
    for stem, width, height in rasterize(sources, args.deck_dir, args.height):
        print(f"{stem}.png {width}x{height}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
