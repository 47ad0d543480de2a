"""The hand detector: arms of every skin tone are seen; tables, cards, dice and edges are not."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cv2

from tests.vision.hand_support import MONK_BGR, with_arm
from vision.hand import HandParams, HandWatcher, find_hand, table_picture
from vision.imageio import read_image

DATA = Path(__file__).resolve().parents[1] / "data"
#: The one real photo with a hand in it (checked by eye: a hand holding a die at the edge).
REAL_HAND = "img/IMG_20191208_112623.jpg"


def noisy(image: np.ndarray, seed: int = 0, sigma: float = 3.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


def flat(bgr, shape=(480, 640)) -> np.ndarray:
    return noisy(np.full((*shape, 3), bgr, np.float32))


def checkered(a, b, cell=40) -> np.ndarray:
    yy, xx = np.mgrid[:480, :640]
    board = ((yy // cell + xx // cell) % 2).astype(bool)
    return noisy(np.where(board[..., None], np.float32(a), np.float32(b)))


def wood() -> np.ndarray:
    """A warm, skin-coloured wood grain with a lighter streak."""
    rng = np.random.default_rng(3)
    noise = rng.normal(0, 1, (480, 640)).astype(np.float32)
    grain = cv2.GaussianBlur(noise, (0, 0), sigmaX=40, sigmaY=3)
    grain = grain / np.abs(grain).max()
    base = np.float32((95, 140, 190))
    return noisy(base * (1 + 0.25 * grain[..., None]))


TABLES = {"grey": lambda: flat((128, 128, 128)), "red cloth": lambda: flat((40, 40, 170)),
          "green felt": lambda: flat((50, 110, 40)), "wood": wood,
          "checkered": lambda: checkered((30, 30, 30), (230, 230, 230)),
          "red checkered": lambda: checkered((45, 40, 190), (235, 235, 240))}


def suite(name):
    return json.loads((DATA / name / "labels.json").read_text())["images"]


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("frame, words", [
    (np.zeros((480, 640), np.uint8), "(H, W, 3)"),
    (np.zeros((480, 640, 3), np.float32), "uint8"),
    (np.zeros((4, 4, 3), np.uint8), "too small"),
    ("frame.jpg", "(H, W, 3)"),
])
def test_bad_frames_are_refused_with_a_sentence(frame, words):
    with pytest.raises(ValueError, match="frame") as err:
        find_hand(frame)
    assert words in str(err.value)


def test_a_table_picture_of_another_size_is_refused():
    with pytest.raises(ValueError, match="table must have shape"):
        find_hand(flat((128, 128, 128)), table=np.zeros((10, 10, 3), np.float32))


# --- things that are not hands --------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLES))
def test_an_empty_table_shows_no_hand(name):
    frame = TABLES[name]()
    assert not find_hand(frame).hand
    watcher = HandWatcher()
    assert not any(watcher.update(noisy(frame, seed)).hand for seed in range(4))


@pytest.mark.parametrize("corner", [False, True])
def test_the_table_edge_of_a_tilted_view_is_not_a_hand(corner):
    frame = flat((150, 150, 150))
    floor = np.float32((70, 110, 160))  # a wooden floor: skin-coloured, beyond a straight edge
    yy, xx = np.mgrid[:480, :640]
    beyond = (yy < 200 - 0.6 * xx) if corner else (yy < 25 + 0.08 * xx)
    frame[beyond] = noisy(np.broadcast_to(floor, frame.shape))[beyond]
    sighting = find_hand(frame)
    assert not sighting.hand and sighting.area > 0.01, "seen as a region, but not as a hand"


def _card(frame, centre, angle, colour=(170, 200, 235)):
    box = cv2.boxPoints((centre, (140, 200), angle)).astype(np.int32)
    cv2.fillPoly(frame, [box], colour)
    return frame


@pytest.mark.parametrize("centre", [(20, 240), (600, 470), (320, 10)])
def test_a_card_cut_by_the_border_is_not_a_hand(centre):
    frame = _card(flat((60, 110, 40)), centre, 20)  # a skin-tinted card on green felt
    sighting = find_hand(noisy(frame))
    assert not sighting.hand


def test_dice_coins_and_a_pencil_at_the_border_are_not_a_hand():
    frame = flat((128, 128, 128))
    for i, (x, y) in enumerate([(5, 100), (630, 300), (300, 475), (320, 240), (330, 240)]):
        colour = [(40, 40, 200), (40, 200, 220), (60, 140, 230)][i % 3]  # red, yellow, orange
        cv2.rectangle(frame, (x - 12, y - 12), (x + 12, y + 12), colour, -1)
    cv2.circle(frame, (630, 40), 14, (60, 150, 190), -1)  # a copper coin
    cv2.line(frame, (0, 400), (200, 330), (40, 160, 230), 7)  # a yellow pencil
    assert not find_hand(noisy(frame)).hand
    watcher = HandWatcher()
    watcher.update(flat((128, 128, 128)))
    assert not watcher.update(noisy(frame)).hand, "dice rolled onto the table are no hand"


# --- arms and hands ---------------------------------------------------------------------


@pytest.mark.parametrize("table, least", [
    ("grey", 18), ("green felt", 18), ("red cloth", 18), ("checkered", 18),
    ("red checkered", 18),
    # Wood has skin's own hue: an arm of the same hue, darker than the wood, passes for
    # its shadow (which the watcher must ignore: someone leaning in front of the lamp).
    ("wood", 15),
])
def test_arms_of_every_skin_tone_are_seen_against_the_empty_table(table, least):
    empty = TABLES[table]()
    seen, missed = 0, []
    for tone in range(len(MONK_BGR)):
        for sleeve in (None, tone % 6):
            watcher = HandWatcher()
            watcher.update(empty)
            frame = with_arm(empty, tone=tone, sleeve=sleeve, side=tone % 4,
                             along=0.3 + 0.04 * tone, reach=0.35, angle=10 - 2 * tone)
            if watcher.update(frame).hand:
                seen += 1
            else:
                missed.append((tone + 1, sleeve))
    assert seen >= least, f"missed arms (Monk tone, sleeve): {missed}"


def test_a_soft_shadow_reaching_in_is_not_a_hand():
    empty = TABLES["wood"]()
    blob = np.zeros(empty.shape[:2], np.float32)
    cv2.ellipse(blob, (320, 480), (200, 170), 0, 0, 360, 1.0, -1)
    blob = cv2.GaussianBlur(blob, (0, 0), 30)
    shaded = (empty * (1 - 0.4 * blob[..., None])).astype(np.uint8)
    watcher = HandWatcher()
    watcher.update(empty)
    assert not watcher.update(noisy(shaded, 7)).hand


@pytest.mark.parametrize("table", ["grey", "green felt", "red checkered"])
@pytest.mark.parametrize("tone", [4, 5, 6, 7, 8])
def test_a_bare_arm_is_seen_in_a_single_frame_by_its_skin(table, tone):
    """Monk tones 5-9 carry enough chroma to be seen without the empty table (1-4 and 10
    need the table picture, which the camera loop always has)."""
    frame = with_arm(TABLES[table](), tone=tone, side=2, along=0.6, reach=0.4)
    sighting = find_hand(frame)
    assert sighting.hand and sighting.skin >= HandParams().skin_share
    x, y, w, h = sighting.box
    assert x == 0 and w > 100, "the box holds the arm entering from the left"


def test_the_watcher_lets_go_when_the_hand_leaves():
    empty = TABLES["green felt"]()
    watcher = HandWatcher()
    watcher.update(empty)
    arm = with_arm(empty, tone=8, sleeve=1, side=0, reach=0.4)
    assert all(watcher.update(noisy(arm, s)).hand for s in range(5))
    assert not watcher.update(noisy(empty, 9)).hand
    assert watcher.last == watcher.update(noisy(empty, 10))


def test_an_arm_in_view_at_start_up_is_not_learned_as_table():
    empty = TABLES["green felt"]()
    arm = with_arm(empty, tone=5, side=0, reach=0.4)
    watcher = HandWatcher()
    assert watcher.update(arm).hand and watcher.update(noisy(arm, 1)).hand
    assert not watcher.update(noisy(empty, 2)).hand, "no ghost of the arm once it leaves"
    assert watcher.update(arm).hand, "the empty table is learned from then on"


def test_a_cup_put_down_at_the_edge_is_soon_table_but_a_resting_hand_is_not():
    empty = TABLES["grey"]()
    cup = cv2.circle(empty.copy(), (600, 240), 60, (40, 60, 200), -1)
    arm = with_arm(empty, tone=5, side=0, reach=0.4)
    for thing, hand_after in ((cup, False), (arm, True)):
        watcher = HandWatcher()
        watcher.update(empty)
        shots = [noisy(thing, i) for i in range(3)]  # the same view, new sensor noise
        seen = [watcher.update(shots[i % 3]).hand for i in range(60)]
        assert seen[0], "anything new coming in from the edge is first taken for a hand"
        assert seen[-1] == hand_after


def test_skin_coloured_clutter_there_from_the_start_becomes_table():
    """The floor beyond the table's edge, ragged with chair legs: a hand to one frame alone,
    table to the watcher within a few seconds (it never changes)."""
    frame = TABLES["grey"]()
    floor = np.array([[0, 0], [260, 0], [230, 40], [250, 70], [180, 90], [200, 130],
                      [120, 120], [90, 170], [40, 140], [0, 180]], np.int32)
    frame = cv2.fillPoly(frame, [floor], (70, 110, 160))
    assert find_hand(noisy(frame)).hand
    watcher = HandWatcher()
    shots = [noisy(frame, i) for i in range(3)]
    seen = [watcher.update(shots[i % 3]).hand for i in range(40)]
    assert not any(seen[-5:])


def test_the_watcher_takes_new_light_as_a_new_table():
    empty = TABLES["wood"]()
    watcher = HandWatcher()
    watcher.update(empty)
    dim_and_cool = noisy(empty.astype(np.float32) * np.float32((0.9, 0.6, 0.45)), 4)
    assert not watcher.update(dim_and_cool).hand
    assert not watcher.update(noisy(dim_and_cool, 5)).hand


def test_the_table_picture_is_small_lab():
    picture = table_picture(TABLES["grey"]())
    assert picture.shape == (120, 160, 3) and picture.dtype == np.float32


# --- the recorded suites ------------------------------------------------------------------


@pytest.mark.parametrize("name, least", [("dice-scenes", 9), ("cards-scenes", 5)])
def test_the_rendered_hands_are_seen_and_nothing_else_fires(name, least):
    hits, alarms = 0, []
    for key, label in suite(name).items():
        hand = find_hand(read_image(DATA / name / key)).hand
        if label["condition"] == "hand":
            hits += hand
        elif hand:
            alarms.append((key, label["condition"]))
    assert hits >= least
    assert alarms == []


def test_real_photos_fire_only_where_a_hand_is():
    fired = [key for key in suite("realdice-byler")
             if find_hand(read_image(DATA / "realdice-byler" / key)).hand]
    assert fired == [REAL_HAND]
