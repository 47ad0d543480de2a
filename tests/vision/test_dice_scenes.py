"""The scene renderer: deterministic, labelled, every condition, both sizes."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cv2

from scenes import dice as scenes
from scenes.surfaces import SURFACES, make_surface


def render(condition: str, seed: int = 3):
    rng = np.random.default_rng([seed, 1])
    return scenes.render(scenes.make_plan(condition, rng), rng)


def test_same_seed_same_picture():
    a, label_a = render("tilted")
    b, label_b = render("tilted")
    c, _ = render("tilted", seed=4)
    assert a == b and label_a == label_b
    assert a != c


@pytest.mark.parametrize("condition", ["plain", "hires", "mark-style", "other-dice", "hand"])
def test_labels_match_the_picture(condition):
    data, label = render(condition)
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert (frame.shape[1], frame.shape[0]) == tuple(label["size"])
    assert label["condition"] == condition
    assert len(label["dice"]) == sum(label[c] for c in ("green", "yellow", "red", "other")) >= 1
    for die in label["dice"]:
        assert 0 <= die["x"] < label["size"][0] and 0 <= die["y"] < label["size"][1]
    if condition == "other-dice":
        assert label["other"] >= 1


def test_unknown_condition_is_refused():
    with pytest.raises(ValueError, match="condition"):
        scenes.make_plan("underwater", np.random.default_rng(1))


@pytest.mark.parametrize("kind", SURFACES)
def test_surfaces(kind):
    tex = make_surface(kind, (60, 80), 2.0, np.random.default_rng(1))
    assert tex.shape == (60, 80, 3) and tex.dtype == np.uint8
    assert tex.std() > 0.5  # a texture, not a flat colour
    again = make_surface(kind, (60, 80), 2.0, np.random.default_rng(1))
    assert np.array_equal(tex, again)


def test_unknown_surface_is_refused():
    with pytest.raises(ValueError, match="kind"):
        make_surface("lava", (10, 10), 1.0, np.random.default_rng(1))


def test_command_line_writes_a_suite(tmp_path):
    assert scenes.main(["--out", str(tmp_path), "--seed", "2", "--conditions", "plain,felt",
                        "--per-condition", "1", "--dice", "3"]) == 0
    labels = json.loads((tmp_path / "labels.json").read_text())
    assert labels["kind"] == "dice" and len(labels["images"]) == 2
    for name, label in labels["images"].items():
        assert (tmp_path / name).is_file() and len(label["dice"]) == 3
