"""The dice reader over recorded images: the rendered suite and real photos of dice.

The floors below sit a little under the figures measured when they were set (see the
"Dice vision" section of docs/benchmarks.md): they catch a reader that got worse, and
should be raised whenever the reader gets better.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.dice_cmd import find_rate
from vision.dice import read_dice
from vision.imageio import read_image

DATA = Path(__file__).resolve().parents[1] / "data"
SCENES = DATA / "dice-scenes"
BYLER = DATA / "realdice-byler"


def _labels(suite: Path) -> dict:
    return json.loads((suite / "labels.json").read_text(encoding="utf-8"))


def test_rendered_suite_covers_every_condition():
    from scenes.dice import CONDITIONS

    images = _labels(SCENES)["images"]
    assert len(images) >= 300
    per = {c: sum(1 for lab in images.values() if lab["condition"] == c) for c in CONDITIONS}
    assert min(per.values()) >= 12, per
    assert {tuple(lab["size"]) for lab in images.values()} == {(640, 480), (1280, 960)}
    for name, lab in images.items():
        assert (SCENES / name).is_file()
        assert len(lab["dice"]) == lab["green"] + lab["yellow"] + lab["red"] + lab["other"]


def test_rendered_suite_accuracy():
    labels = _labels(SCENES)["images"]
    exact = dice = right = 0
    for name, lab in labels.items():
        reading = read_dice(read_image(SCENES / name))
        exact += reading.counts() == (lab["green"], lab["yellow"], lab["red"], lab["other"])
        for want in lab["dice"]:
            near = [d for d in reading.dice
                    if (d.centre[0] - want["x"]) ** 2 + (d.centre[1] - want["y"]) ** 2
                    < (0.03 * lab["size"][0]) ** 2]
            dice += 1
            right += any(d.colour == want["colour"] for d in near)
    assert exact / len(labels) >= 0.985
    assert right / dice >= 0.997


def test_real_photos_the_finder_finds_dice_and_little_else():
    labels = _labels(BYLER)
    assert labels["kind"] == "dice-count"
    assert (BYLER / "LICENSE.txt").is_file() and "Byler" in (BYLER / "SOURCE.md").read_text()
    labelled = hits = found = false = 0
    for name, lab in labels["images"].items():
        reading = read_dice(read_image(BYLER / name))
        h, f = find_rate(lab["boxes"], reading)
        labelled, hits, found, false = labelled + len(lab["boxes"]), hits + h, found + reading.count, false + f
    assert hits / labelled >= 0.970
    assert false / found <= 0.009


def test_demo_frames_are_read():
    demo = Path(__file__).resolve().parents[2] / "companion" / "demo" / "frames"
    labels = _labels(demo)["images"]
    assert 12 <= len(labels) <= 20
    readings = [read_dice(read_image(demo / name)) for name in labels]
    assert sum(r.count for r in readings) >= 0.9 * 10 * len(labels)
    exact = sum(r.counts() == (lab["green"], lab["yellow"], lab["red"], lab["other"])
                for r, lab in zip(readings, labels.values()))
    assert exact >= len(labels) - 1  # the first thing a new user sees
