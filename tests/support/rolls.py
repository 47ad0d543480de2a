"""Rendered rolls for the camera loop: dice thrown onto a table, sliding to rest, picked up.

A roll is a list of frames as the recognition loop would see them 0.1 s apart (the
renderer's table, seeded; a fresh grain of sensor noise on every frame, as a camera gives):
the empty table (2 s by default, the player getting ready), an arm reaching in, the dice
sliding and turning to rest, the dice still (3 s by default, while the host confirms), an
arm picking them up. Used by the loop's tests and by
``bench/loop_dice.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator
from unittest import mock

import numpy as np

import cv2

from scenes import dice as scenes
from scenes import props
from tests.vision.hand_support import with_arm

#: How far the dice still have to go in each moving frame (1 = where the throw lands them).
SLIDE = (1.0, 0.55, 0.3, 0.15, 0.07, 0.03)
#: Moving frames at least this far from rest still tumble (another face up in each).
TUMBLING = 0.15


@dataclass(frozen=True)
class Roll:
    """One roll's frames, with where each phase starts (indices into ``frames``)."""

    frames: tuple[np.ndarray, ...]
    first_still: int  # the first frame in which the dice lie where they stop
    picked_up: int  # the first frame of the arm picking the dice up
    label: dict  # the renderer's label of the still dice (green, yellow, red, other, ...)


def render_roll(seed: int, *, condition: str = "plain", n_dice: int = 10, empty: int = 20,
                still: int = 30, tone: int = 5) -> Roll:
    """A roll of ``n_dice`` dice on the table drawn from ``seed`` (deterministic)."""
    rng = np.random.default_rng(seed)
    throw = rng.uniform(-1.0, 1.0, (n_dice, 3)) * (60.0, 60.0, 3.0)  # table units, radians
    pictures, label = [], {}
    away = np.tile((5000.0, 0.0, 0.0), (n_dice, 1))  # the empty table: dice far off
    for k, step in enumerate((None, *SLIDE, 0.0)):
        offsets = away if step is None else throw * step
        tumble = [seed, k] if step is not None and step >= TUMBLING else None
        picture, label = _render(seed, condition, n_dice, offsets, tumble)
        pictures.append(picture)
    empty_table, moving, rest = pictures[0], pictures[1:-1], pictures[-1]
    grain = np.random.default_rng([seed, 1])
    arm = dict(tone=tone, side=seed % 4, along=0.5, reach=0.35, angle=10.0)
    frames = [empty_table] * empty + [with_arm(empty_table, **arm, seed=k) for k in range(2)]
    frames += moving
    first_still = len(frames)
    frames += [rest] * still
    picked_up = len(frames)
    frames += [with_arm(rest, **arm, seed=k) for k in range(2)]
    return Roll(tuple(_grain(f, grain) for f in frames), first_still, picked_up, label)


def _render(seed: int, condition: str, n_dice: int, offsets: np.ndarray,
            tumble: list[int] | None) -> tuple[np.ndarray, dict]:
    """The seeded scene with each die moved by ``offsets`` (x, y, yaw) from where it lands,
    and another face up (drawn from ``tumble``'s seed) unless ``tumble`` is None."""
    rng = np.random.default_rng([seed, 0])
    plan = replace(scenes.make_plan(condition, rng), n_dice=n_dice, hand=False)
    place, faces = scenes._place, props.random_faces
    turn = None if tumble is None else np.random.default_rng(tumble)

    def moved(*args: object) -> list[tuple[float, float, float]]:
        return [(x + dx, y + dy, yaw + da)
                for (x, y, yaw), (dx, dy, da) in zip(place(*args), offsets)]

    def turned(*args: object, **kwargs: object) -> dict:
        landed = faces(*args, **kwargs)  # drawn all the same: the scene stays the same
        return landed if turn is None else faces(turn)

    with mock.patch.object(scenes, "_place", moved), \
            mock.patch.object(props, "random_faces", turned):
        data, label = scenes.render(plan, rng)
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), label


def _grain(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A new copy of ``frame`` with a camera's frame-to-frame noise (sd 1.5 levels)."""
    noise = rng.normal(0.0, 1.5, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def sequence(rolls: list[Roll]) -> Iterator[np.ndarray]:
    """The rolls' frames one after the other, as one evening at the table."""
    for roll in rolls:
        yield from roll.frames
