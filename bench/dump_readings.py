"""Every reading of the recorded suites in full, one line an image: to show a change reads alike.

A refactor must not change a reading. ``companion eval`` prints totals; this prints each
image's whole reading (every die's outline, centre, colour and confidence; every card's
id, corners and distance), so two checkouts can be compared with ``cmp``::

    PYTHONPATH=/path/to/main .venv/bin/python bench/dump_readings.py /tmp/before dice
    .venv/bin/python bench/dump_readings.py /tmp/after dice
    for f in /tmp/before/*.txt; do cmp "$f" "/tmp/after/${f##*/}"; done

The suites are read from this checkout's folders whichever code ``PYTHONPATH`` picks.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
SUITES = {"dice": ("tests/data/dice-scenes", "tests/data/realdice-byler", "companion/demo/frames"),
          "cards": ("tests/data/cards-scenes", "tests/data/cards-pinochle")}


def reader(kind: str, suite: Path, labels: dict) -> Callable:
    """The recognizer of ``kind``, as a function of one frame (cards: the suite's deck)."""
    if kind == "dice":
        from vision.dice import read_dice

        return read_dice
    from vision.cards import read_cards
    from vision.deck import load_deck

    deck = load_deck(suite / labels["deck"])
    return lambda frame: read_cards(frame, deck)


def main(argv: list[str] | None = None) -> int:
    """Write ``OUT/<suite>.txt`` for every suite of the kind; print the code used and CPU."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the <suite>.txt files")
    parser.add_argument("kind", choices=sorted(SUITES))
    args = parser.parse_args(argv)
    import vision
    from vision.imageio import read_image

    args.out.mkdir(parents=True, exist_ok=True)
    print(f"code: {Path(vision.__file__).parent}", file=sys.stderr)
    start = time.process_time()
    for name in SUITES[args.kind]:
        suite = ROOT / name
        labels = json.loads((suite / "labels.json").read_text(encoding="utf-8"))
        read = reader(args.kind, suite, labels)
        with open(args.out / f"{suite.name}.txt", "w", encoding="utf-8") as fh:
            for image in sorted(labels["images"]):
                fh.write(f"{image}\t{read(read_image(suite / image))!r}\n")
    print(f"CPU {time.process_time() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
