"""Render labelled, photo-like scenes of Toss Up! dice on a table, deterministically.

    python -m scenes.dice --out tests/data/dice-scenes --seed 1 --per-condition 14
    python -m scenes.dice --out companion/demo/frames --seed 7 --count 16 --dice 10 \\
        --conditions plain --flat
    python -m scenes.dice --out companion/demo/fewer/K --seed 70K --count 2 --dice K \
        --conditions plain --flat          # K = 1..9, the seed 701..709

Each image gets a ``condition`` (one of :data:`CONDITIONS`) that sets what is hard about
it; everything else (table, die style, light, camera) is drawn at random from the seed.
The folder gets ``img/NNNN.jpg`` and a ``labels.json`` in the recorded-suite format, with
extra keys per image: ``other``, ``condition``, ``size`` and ``dice`` (each die's top-face
centre (x, y) in pixels and its colour).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

import cv2

from scenes import photo, props
from scenes.camera import Camera, draw_table
from scenes.surfaces import SURFACES, make_surface

CONDITIONS = ("plain", "solid-style", "mark-style", "tilted", "clusters",
              "felt", "cloth", "checkered", "wood-dark", "wood-light", "laminate", "stone",
              "warm", "cool", "dim", "uneven", "hard-shadow", "glare", "motion-blur",
              "noise", "jpeg", "hires", "distractors", "hand", "other-dice")


@dataclass(frozen=True)
class Plan:
    """Everything random about one scene, drawn from the seed before drawing anything."""

    condition: str
    size: tuple[int, int] = (640, 480)
    surface: str = "felt"
    style: str = "solid"
    n_dice: int = 6
    die_size: float = 16.0
    tilt: float = 5.0
    distance: float = 330.0
    light: tuple[float, float, float] = (0.3, 0.2, 0.93)
    tint: str = "neutral"
    level: float = 1.0
    uneven: float = 0.0
    hard_shadow: float = 0.0
    glare: float = 0.0
    blur: float = 0.0
    noise: float = 3.0
    quality: int = 88
    clusters: bool = False
    distractors: int = 0
    hand: bool = False
    others: int = 0
    extras: dict = field(default_factory=dict)


def make_plan(condition: str, rng: np.random.Generator, n_dice: int | None = None) -> Plan:
    """Draw a random plan and apply the condition's hard part."""
    el, az = np.radians(rng.uniform(50, 80)), rng.uniform(0, 2 * np.pi)
    plan = Plan(condition=condition, surface=str(rng.choice(SURFACES)),
                style=str(rng.choice(["solid", "mark"])),
                n_dice=int(n_dice or rng.integers(1, 11)), die_size=float(rng.uniform(15, 19)),
                tilt=float(rng.uniform(0, 12)), distance=float(rng.uniform(270, 420)),
                light=(float(np.cos(el) * np.cos(az)), float(np.cos(el) * np.sin(az)),
                       float(np.sin(el))),
                level=float(rng.uniform(0.9, 1.1)), noise=float(rng.uniform(1.5, 4)),
                quality=int(rng.integers(82, 93)), extras={"defocus": float(rng.uniform(0.3, 0.7))})
    u = rng.uniform
    changes = {
        "solid-style": dict(style="solid"), "mark-style": dict(style="mark"),
        "tilted": dict(tilt=u(20, 30)), "clusters": dict(clusters=True, n_dice=max(plan.n_dice, 4)),
        "warm": dict(tint="warm"), "cool": dict(tint="cool"),
        "dim": dict(level=u(0.3, 0.45), noise=u(5, 9)), "uneven": dict(uneven=u(0.5, 0.8)),
        "hard-shadow": dict(hard_shadow=u(0.4, 0.6)), "glare": dict(glare=u(110, 200)),
        "motion-blur": dict(blur=u(4, 8)), "noise": dict(noise=u(9, 14)),
        "jpeg": dict(quality=int(rng.integers(22, 40))), "hires": dict(size=(1280, 960)),
        "distractors": dict(distractors=int(rng.integers(2, 6))), "hand": dict(hand=True),
        "other-dice": dict(others=int(rng.integers(1, 3))),
    }
    if condition in SURFACES:
        return replace(plan, surface=condition)
    if condition not in changes and condition != "plain":
        raise ValueError(f"condition must be one of {', '.join(CONDITIONS)}, not {condition!r}")
    return replace(plan, **changes.get(condition, {}))


def _look(rng: np.random.Generator) -> dict:
    """Per-set die appearance: palette, body, mark shape and pips."""
    palette = {}
    for name, bgr in props.FACE_BGR.items():
        k = rng.uniform(0.85, 1.1)
        palette[name] = tuple(float(np.clip(c * k + rng.uniform(-12, 12), 0, 255)) for c in bgr)
    pip = [(245, 245, 245), (30, 30, 30)][int(rng.random() < 0.3)]
    with_pips = rng.random() < 0.7
    return {"palette": palette, "body": tuple(float(c) for c in rng.uniform([215, 228, 232], [240, 245, 248])),
            "mark": str(rng.choice(["circle", "square", "star"])),
            "mark_size": float(rng.uniform(0.45, 0.7)), "pip": pip, "with_pips": with_pips,
            "gloss": float(rng.uniform(0, 0.5))}


def _place(plan: Plan, cam: Camera, rng: np.random.Generator, hand_side: int | None):
    """World (x, y, yaw) for each die: inside the view, apart, clusters touching."""
    w, h = cam.size
    lo, hi = np.array([0.1 * w, 0.1 * h]), np.array([0.9 * w, 0.9 * h])
    if hand_side is not None:  # keep the dice clear of the hand
        axis, end = (1, 1) if hand_side == 0 else (1, 0) if hand_side == 1 else (0, 0) if hand_side == 2 else (0, 1)
        (hi if end else lo)[axis] = (0.62 if end else 0.38) * (h if axis else w)
    s = plan.die_size
    spots: list[tuple[float, float, float]] = []
    for _ in range(2000):
        if len(spots) >= plan.n_dice:
            break
        xy = cam.to_table(rng.uniform(lo, hi)[None])[0, :2]
        yaw = rng.uniform(0, np.pi / 2)
        group = [(xy[0], xy[1], yaw)]
        if plan.clusters and len(spots) < plan.n_dice - 1:
            k = int(min(rng.integers(2, 5), plan.n_dice - len(spots)))
            c, sn = np.cos(yaw), np.sin(yaw)
            offs = [(0, 0), (1, 0), (0, 1), (1, 1)][:k]
            gap = s + rng.uniform(0.2, 0.8)
            group = [(xy[0] + gap * (c * a - sn * b), xy[1] + gap * (sn * a + c * b), yaw)
                     for a, b in offs]
        pts = cam.project(np.array([[g[0], g[1], 0] for g in group]))
        if (pts < lo).any() or (pts > hi).any():
            continue
        if all(np.hypot(g[0] - o[0], g[1] - o[1]) > 1.5 * s for g in group for o in spots):
            spots.extend(group)
    return spots[:plan.n_dice]


def render(plan: Plan, rng: np.random.Generator) -> tuple[bytes, dict]:
    """Render one scene; returns the JPEG bytes and its label."""
    ss = 2
    w, h = plan.size
    cam = Camera(size=(w * ss, h * ss), distance=plan.distance, tilt_deg=plan.tilt,
                 roll_deg=float(rng.uniform(-8, 8)))
    extent = cam.table_extent(margin=40)
    ppm = min(cam.focal / plan.distance, 2400 / max(extent[2] - extent[0], extent[3] - extent[1]))
    tex_shape = (int((extent[3] - extent[1]) * ppm), int((extent[2] - extent[0]) * ppm))
    canvas = draw_table(cam, make_surface(plan.surface, tex_shape, ppm, rng), extent)
    light = np.array(plan.light)
    hand_side = int(rng.integers(4)) if plan.hand else None
    look = _look(rng)
    dice = []
    for x, y, yaw in _place(plan, cam, rng, hand_side):
        pips = {k: int(rng.integers(1, 7)) if look["with_pips"] else 0 for k in props._DIRS}
        dice.append(props.Die(x, y, yaw, plan.die_size, props.random_faces(rng), plan.style,
                              {**look, "pips": pips}))
    for i in range(min(plan.others, len(dice))):
        d = dice[-1 - i]
        col = props.OTHER_BGR[int(rng.integers(len(props.OTHER_BGR)))]
        pipc = (30, 30, 30) if sum(col) > 500 else (240, 240, 240)
        dice[-1 - i] = replace(d, faces={k: col for k in d.faces}, style="solid",
                               look={**d.look, "pip": pipc,
                                     "pips": {k: int(rng.integers(1, 7)) for k in d.faces}})
    _shadows(canvas, cam, dice, light, rng)
    _distractors(canvas, cam, plan, dice, rng)
    for d in sorted(dice, key=lambda d: -cam.depth(np.array([[d.x, d.y, 0]]))[0]):
        props.draw_die(canvas, cam, d, light, 1.0, rng)
    if plan.hand:
        hshadow = np.zeros(canvas.shape[:2], np.float32)
        canvas *= 1.0  # the hand's shadow falls on the table first
        props.draw_hand(canvas, hshadow, ss, np.random.default_rng(int(rng.integers(1 << 30)) + hand_side * 0))
    img = _photo(canvas, plan, rng, ss)
    label = _label(plan, cam, dice, ss)
    return photo.to_jpeg(img, plan.quality), label


def _shadows(canvas, cam: Camera, dice, light, rng) -> None:
    mask = np.zeros(canvas.shape[:2], np.float32)
    contact = np.zeros_like(mask)
    for d in dice:
        poly = props.die_shadow_polygon(cam, d, light)
        cv2.fillPoly(mask, [np.round(poly * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        _, base = props._face_geometry(d, "-z")
        cv2.fillPoly(contact, [np.round(cam.project(base) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    die_px = cam.focal * dice[0].size / cam.distance if dice else 40
    mask = cv2.GaussianBlur(mask, (0, 0), die_px * rng.uniform(0.08, 0.3))
    contact = cv2.GaussianBlur(contact, (0, 0), die_px * 0.12)
    canvas *= (1 - rng.uniform(0.35, 0.6) * mask - 0.35 * contact)[..., None]


def _distractors(canvas, cam: Camera, plan: Plan, dice, rng) -> None:
    w, h = cam.size
    for _ in range(plan.distractors):
        for _try in range(50):
            xy = cam.to_table(rng.uniform([0.05 * w, 0.05 * h], [0.95 * w, 0.95 * h])[None])[0, :2]
            kind = str(rng.choice(["coin", "card", "pencil"], p=[0.45, 0.25, 0.3]))
            room = {"coin": 20, "card": 60, "pencil": 90}[kind]
            if all(np.hypot(xy[0] - d.x, xy[1] - d.y) > room + d.size for d in dice):
                break
        else:
            continue
        if kind == "coin":
            props.draw_coin(canvas, cam, xy[0], xy[1], rng.uniform(8, 13), 1.0, rng)
        elif kind == "card":
            props.draw_card(canvas, cam, xy[0], xy[1], rng.uniform(0, np.pi), 1.0, rng)
        else:
            props.draw_pencil(canvas, cam, xy[0], xy[1], rng.uniform(0, 2 * np.pi), 1.0, rng)


def _photo(canvas, plan: Plan, rng, ss: int) -> np.ndarray:
    img = canvas
    if plan.glare:
        img = photo.glare(img, rng, plan.glare)
    img = photo.tint(img, plan.tint, plan.level)
    if plan.tint == "neutral":  # auto white balance is never perfect
        img = img * rng.uniform(0.95, 1.05, 3).astype(np.float32)
    if plan.uneven:
        img = photo.uneven(img, rng, plan.uneven)
    if plan.hard_shadow:
        img = photo.hard_shadow(img, rng, plan.hard_shadow)
    img = cv2.resize(img, plan.size, interpolation=cv2.INTER_AREA)
    scale = plan.size[0] / 640
    img = photo.defocus(img, plan.extras["defocus"] * scale)
    if plan.blur:
        img = photo.motion_blur(img, rng, plan.blur * scale)
    img = photo.vignette(img, rng.uniform(0.15, 0.35))
    return photo.sensor_noise(img, rng, plan.noise)


def _label(plan: Plan, cam: Camera, dice, ss: int) -> dict:
    counts = {"green": 0, "yellow": 0, "red": 0, "other": 0}
    items = []
    for d in dice:
        counts[d.top] += 1
        x, y = cam.project(np.array([[d.x, d.y, d.size]]))[0] / ss
        items.append({"x": round(float(x), 1), "y": round(float(y), 1), "colour": d.top})
    return {**counts, "condition": plan.condition, "size": list(plan.size), "dice": items}


def render_suite(out: Path, seed: int, conditions, per_condition: int,
                 n_dice: int | None = None, *, flat: bool = False) -> dict:
    """Render ``per_condition`` scenes for each condition into ``out``; returns the labels.

    Images go to ``out/img/NNNN.jpg``, or straight into ``out`` when ``flat``.
    """
    folder = "" if flat else "img/"
    (out / folder).mkdir(parents=True, exist_ok=True)
    labels: dict = {"kind": "dice", "images": {}}
    k = 0
    for cond in conditions:
        for _ in range(per_condition):
            k += 1
            rng = np.random.default_rng([seed, k])
            data, label = render(make_plan(cond, rng, n_dice), rng)
            name = f"{folder}{k:04d}.jpg"
            (out / name).write_bytes(data)
            labels["images"][name] = label
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    return labels


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scenes.dice", description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--conditions", default=",".join(CONDITIONS),
                    help="comma-separated subset of: " + ", ".join(CONDITIONS))
    ap.add_argument("--per-condition", type=int, default=None)
    ap.add_argument("--count", type=int, default=None, help="total images (spread over conditions)")
    ap.add_argument("--dice", type=int, default=None, help="dice per image (default 1-10)")
    ap.add_argument("--flat", action="store_true",
                    help="images next to labels.json (for the replay camera), not in img/")
    args = ap.parse_args(argv)
    conds = [c for c in args.conditions.split(",") if c]
    bad = [c for c in conds if c not in CONDITIONS]
    if bad:
        ap.error(f"unknown condition {bad[0]!r}")
    per = args.per_condition or max(1, -(-(args.count or 14 * len(conds)) // len(conds)))
    labels = render_suite(args.out, args.seed, conds, per, args.dice, flat=args.flat)
    print(f"{len(labels['images'])} images in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
