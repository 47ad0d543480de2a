"""Render labelled, photo-like scenes of cards on a table, deterministically.

    python -m scenes.cards --out tests/data/cards-scenes --seed 4 --per-condition 8

The deck is the project's own (``scenes.card_faces``); the suite folder gets ``deck/``
(one reference face per card id, a clean scan-like image), ``img/NNNN.jpg`` and a
``labels.json`` in the recorded-suite format (kind "cards", "deck": "deck"), with extra
keys per image: ``condition``, ``surface``, ``face_down`` and ``outside`` (how many of
each lie there).
Only face-up cards of the deck are listed in ``cards``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scenes import photo
from scenes.camera import Camera, draw_table, warp_patch
from scenes.card_faces import back_face, deck_specs, draw_face, outside_face
from scenes.surfaces import SURFACES, make_surface

CONDITIONS = ("plain", "overlap", "tilt", "glare", "dim", "blur", "face-down", "outside",
              "lookalike", "hand")
CARD_MM = (63.0, 88.0)


@dataclass(frozen=True)
class Plan:
    """Everything random about one scene, drawn from the seed before drawing."""

    condition: str
    size: tuple[int, int]
    surface: str
    tilt: float
    distance: float
    ids: tuple[str, ...]
    n_back: int
    n_outside: int
    overlap: bool
    level: float
    glare: float
    blur: float
    noise: float
    quality: int
    backs: tuple[int, ...] = (0, 1)  # the back designs face-down cards are drawn from
    card_mm: tuple[float, float] = CARD_MM  # the cards' width, height (a face is stretched to it)


def make_plan(condition: str, rng: np.random.Generator, deck_ids: list[str],
              size: tuple[int, int] = (960, 720)) -> Plan:
    """Draw a random plan and apply the condition's hard part."""
    if condition not in CONDITIONS:
        raise ValueError(f"condition must be one of {', '.join(CONDITIONS)}, not {condition!r}")
    u = rng.uniform
    n = int(rng.integers(1, 5))
    if condition == "lookalike":  # both halves of a look-alike pair, or two numerals
        family = [i for i in deck_ids if i.split("-")[0] == str(rng.choice(["act", "num", "rune"]))]
        ids = list(rng.choice(family, size=min(3, len(family)), replace=False))
    else:
        ids = list(rng.choice(deck_ids, size=n, replace=False))
    return Plan(condition=condition, size=size, surface=str(rng.choice(SURFACES)),
                tilt=float(u(25, 38) if condition == "tilt" else u(0, 15)),
                distance=float(u(240, 340)), ids=tuple(str(i) for i in ids),
                n_back=int(rng.integers(1, 3)) if condition == "face-down" else 0,
                n_outside=int(rng.integers(1, 3)) if condition == "outside" else 0,
                overlap=condition in ("overlap", "hand"),
                level=float(u(0.35, 0.5) if condition == "dim" else u(0.9, 1.1)),
                glare=float(u(120, 200) if condition == "glare" else 0.0),
                blur=float(u(3, 6) if condition == "blur" else 0.0),
                noise=float(u(5, 8) if condition == "dim" else u(1.5, 3.5)),
                quality=int(rng.integers(80, 92)))


def render(plan: Plan, rng: np.random.Generator, faces: dict[str, np.ndarray]
           ) -> tuple[bytes, dict]:
    """Render one scene; returns the JPEG bytes and its label."""
    ss = 2
    w, h = plan.size
    cam = Camera(size=(w * ss, h * ss), distance=plan.distance, tilt_deg=plan.tilt,
                 roll_deg=float(rng.uniform(-10, 10)))
    extent = cam.table_extent(margin=40)
    ppm = min(cam.focal / plan.distance, 2400 / max(extent[2] - extent[0], extent[3] - extent[1]))
    tex_shape = (int((extent[3] - extent[1]) * ppm), int((extent[2] - extent[0]) * ppm))
    canvas = draw_table(cam, make_surface(plan.surface, tex_shape, ppm, rng), extent)
    patches = [(cid, faces[cid]) for cid in plan.ids]
    patches += [(None, back_face(plan.backs[int(rng.integers(len(plan.backs)))]))
                for _ in range(plan.n_back)]
    patches += [(None, outside_face(f"other{int(rng.integers(1000))}"))
                for _ in range(plan.n_outside)]
    order = rng.permutation(len(patches))
    for _ in range(50):  # a layout where every deck card stays nameable
        placed = _place(len(patches), plan.overlap, cam, rng, plan.card_mm)
        quads = [_card_quad(cam, *placed[k], plan.card_mm) for k in order]
        keys = [_key_box(patches[k][0]) for k in order]
        if _nameable(quads, keys, cam.size):
            break
    shadow = np.zeros(canvas.shape[:2], np.float32)
    for quad in quads:
        cv2.fillPoly(shadow, [np.round(quad + [6, 8]).astype(np.int32)], 1.0)
    canvas *= (1 - 0.3 * cv2.GaussianBlur(shadow, (0, 0), 6 * ss))[..., None]
    for k, quad in zip(order, quads):
        face = patches[k][1].astype(np.float32)
        patch = np.dstack([face, np.ones(face.shape[:2], np.float32)])
        patch[..., :3] *= _sheen(face.shape[:2], rng)
        warp_patch(canvas, None, patch, quad)
    if plan.condition == "hand":
        from scenes.props import draw_hand

        draw_hand(canvas, np.zeros(canvas.shape[:2], np.float32), ss, rng)
    img = _photo(canvas, plan, rng)
    label = {"cards": sorted(c for c, _ in patches if c is not None),
             "condition": plan.condition, "surface": plan.surface,
             "face_down": plan.n_back, "outside": plan.n_outside}
    return photo.to_jpeg(img, plan.quality), label


def _card_quad(cam: Camera, x: float, y: float, yaw: float,
               card_mm: tuple[float, float] = CARD_MM) -> np.ndarray:
    """Image corners (top-left, top-right, bottom-right, bottom-left) of a flat card."""
    cw, ch = card_mm
    c, s = np.cos(yaw), np.sin(yaw)
    pts = np.array([[-cw / 2, ch / 2], [cw / 2, ch / 2], [cw / 2, -ch / 2], [-cw / 2, -ch / 2]])
    world = np.c_[pts @ np.array([[c, s], [-s, c]]) + [x, y], np.full(4, 0.3)]
    return cam.project(world).astype(np.float32)


def _place(n: int, overlap: bool, cam: Camera, rng: np.random.Generator,
           card_mm: tuple[float, float] = CARD_MM) -> list[tuple[float, float, float]]:
    """World (x, y, yaw) per card, wholly in view: apart, or (overlap) partly on each
    other (centres 48 mm or more apart, so at most about 30% of a card is hidden)."""
    x0, y0, x1, y1 = cam.table_extent()
    w, h = cam.size
    lo, hi = np.array([0.03 * w, 0.03 * h]), np.array([0.97 * w, 0.97 * h])
    spots: list[tuple[float, float, float]] = []
    for attempt in range(4000):
        if len(spots) == n:
            break
        if (overlap or attempt > 1500) and spots:  # a crowded table: cards go on cards
            bx, by, _ = spots[int(rng.integers(len(spots)))]
            ang = rng.uniform(0, 2 * np.pi)
            x, y = bx + 55 * np.cos(ang), by + 70 * np.sin(ang)
            min_gap = 50.0
        else:
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            min_gap = 112.0
        yaw = float(rng.uniform(0, 2 * np.pi))
        quad = _card_quad(cam, x, y, yaw, card_mm)
        if (quad < lo).any() or (quad > hi).any():
            continue
        if all(np.hypot(x - a, y - b) > min_gap for a, b, _ in spots):
            spots.append((float(x), float(y), yaw))
    if len(spots) < n:
        raise ValueError(f"no room for {n} cards on this table")
    return spots


def _key_box(card_id: str | None) -> tuple[float, float, float, float] | None:
    """The part of a face (x0, y0, x1, y1 as fractions) that tells it from its look-alikes."""
    if card_id is None:
        return None
    family = card_id.split("-")[0]
    return {"act": (0.05, 0.03, 0.95, 0.16), "num": (0.3, 0.35, 0.7, 0.63),
            "rune": (0.75, 0.84, 0.97, 0.97)}.get(family, (0.2, 0.2, 0.8, 0.8))


def _nameable(quads: list[np.ndarray], keys: list, size: tuple[int, int]) -> bool:
    """Every deck card (key not None) keeps 70% of its area and 85% of its key part in
    view, given the cards drawn after it (later quads lie on top)."""
    w, h = size
    f = 0.25
    for i, key in enumerate(keys):
        if key is None:
            continue
        top = np.zeros((int(h * f), int(w * f)), np.uint8)
        for q in quads[i + 1:]:
            cv2.fillConvexPoly(top, np.round(q * f).astype(np.int32), 1)
        card = np.zeros_like(top)
        cv2.fillConvexPoly(card, np.round(quads[i] * f).astype(np.int32), 1)
        x0, y0, x1, y1 = key
        src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        hom = cv2.getPerspectiveTransform(src, quads[i].astype(np.float32))
        box = cv2.perspectiveTransform(
            np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32), hom)[0]
        part = np.zeros_like(top)
        cv2.fillConvexPoly(part, np.round(box * f).astype(np.int32), 1)
        if (card & top).sum() > 0.3 * card.sum() or (part & top).sum() > 0.15 * part.sum():
            return False
    return True


def _sheen(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A card is not perfectly flat or matte: a soft gradient across it."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    g = 1 + rng.uniform(0.0, 0.08) * (np.cos(a) * (xx / w - 0.5) + np.sin(a) * (yy / h - 0.5))
    return g[..., None]


def _photo(canvas: np.ndarray, plan: Plan, rng: np.random.Generator) -> np.ndarray:
    img = canvas
    if plan.glare:
        img = photo.glare(img, rng, plan.glare)
    img = photo.tint(img, str(rng.choice(list(photo.LIGHT_TINTS))), plan.level)
    img = photo.uneven(img, rng, float(rng.uniform(0.1, 0.4)))
    img = cv2.resize(img, plan.size, interpolation=cv2.INTER_AREA)
    img = photo.defocus(img, float(rng.uniform(0.3, 0.8)))
    if plan.blur:
        img = photo.motion_blur(img, rng, plan.blur)
    img = photo.vignette(img, float(rng.uniform(0.1, 0.3)))
    return photo.sensor_noise(img, rng, plan.noise)


def deck_faces(size: int = 24) -> dict[str, np.ndarray]:
    """Card id -> reference face of the synthetic deck."""
    return {cid: draw_face(spec) for cid, spec in deck_specs(size).items()}


def render_suite(out: Path, seed: int, per_condition: int, *,
                 size: tuple[int, int] = (960, 720), conditions=CONDITIONS) -> dict:
    """Write a suite folder (deck, images, labels.json); returns the labels."""
    faces = deck_faces()
    (out / "deck").mkdir(parents=True, exist_ok=True)
    (out / "img").mkdir(parents=True, exist_ok=True)
    for cid, face in faces.items():
        cv2.imwrite(str(out / "deck" / f"{cid}.png"), face)
    rng = np.random.default_rng(seed)
    images = {}
    for condition in conditions:
        for _ in range(per_condition):
            plan = make_plan(condition, rng, sorted(faces), size)
            data, label = render(plan, rng, faces)
            name = f"img/{len(images):04d}.jpg"
            (out / name).write_bytes(data)
            images[name] = label
    labels = {"kind": "cards", "deck": "deck", "images": images}
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    return labels


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scenes.cards", description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--per-condition", type=int, default=8)
    args = ap.parse_args(argv)
    labels = render_suite(args.out, args.seed, args.per_condition)
    print(f"wrote {len(labels['images'])} images to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
