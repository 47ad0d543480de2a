"""Deck folders: ids from file names, the cached index, broken files, reference photos."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_keys import face_keys
from vision.cards_match import sharp_size
from vision.deck import CACHE_NAME, card_id_of, load_deck, rectified_face


def _write_deck(folder: Path, ids: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for cid in ids:
        cv2.imwrite(str(folder / f"{cid}.png"), cs.faces()[cid])


@pytest.mark.parametrize("name, cid", [("perfect.png", "perfect"), ("perfect@2.jpg", "perfect"),
                                       ("good-throw@10.png", "good-throw"), ("10C.png", "10C")])
def test_card_id_is_the_stem_before_the_at(name, cid):
    assert card_id_of(name) == cid


def test_load_names_faces_by_file_stem_and_extra_photos_share_an_id(tmp_path):
    _write_deck(tmp_path, ["num-1", "num-2", "act-swap"])
    cv2.imwrite(str(tmp_path / "num-1@2.jpg"), cs.faces()["num-1"])
    deck = load_deck(tmp_path)
    assert sorted(deck.ids) == ["act-swap", "num-1", "num-1", "num-2"]
    assert deck.card_ids == ("act-swap", "num-1", "num-2")
    assert deck.problems == ()
    assert abs(deck.aspect - 252 / 352) < 0.02


def test_index_is_cached_and_rebuilt_when_a_file_changes(tmp_path):
    _write_deck(tmp_path, ["num-1", "num-2"])
    first = load_deck(tmp_path)
    cache = tmp_path / CACHE_NAME
    assert cache.is_file()
    # a cache that no longer matches the folder must not be used: change a face
    cv2.imwrite(str(tmp_path / "num-2.png"), cs.faces()["hero-fox"])
    stamp = os.stat(tmp_path / "num-2.png")
    os.utime(tmp_path / "num-2.png", ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 10**9))
    second = load_deck(tmp_path)
    j = second.ids.index("num-2")
    assert not np.array_equal(first.faces[first.ids.index("num-2")], second.faces[j])
    # and an unchanged folder loads the same faces back from the cache
    third = load_deck(tmp_path)
    assert third.ids == second.ids and np.array_equal(third.faces, second.faces)
    # with the larger faces the close look-alike duels are judged on
    assert third.bank.sharp is not None and np.array_equal(third.bank.sharp, second.bank.sharp)
    assert third.bank.sharp.shape[1:3] == sharp_size(third.aspect)


def test_the_index_keeps_the_faces_keypoints(tmp_path):
    # found once when the deck is built, not on every process's first frame that needs
    # the keypoint search: built or loaded from the index, the bank holds them
    _write_deck(tmp_path, ["num-1", "hero-fox"])
    built, cached = load_deck(tmp_path), load_deck(tmp_path)
    want = face_keys(cached.faces)
    assert len(want[0]) > 0
    for deck in (built, cached):
        assert deck.bank.keys is not None
        for got, exp in zip(deck.bank.keys, want):
            np.testing.assert_array_equal(got, exp)


def test_a_damaged_cache_is_rebuilt(tmp_path):
    _write_deck(tmp_path, ["num-3"])
    (tmp_path / CACHE_NAME).write_bytes(b"not a cache")
    assert load_deck(tmp_path).ids == ("num-3",)


def test_a_cache_cut_short_by_a_power_cut_is_rebuilt(tmp_path):
    _write_deck(tmp_path, ["num-3", "num-4"])
    load_deck(tmp_path)
    cache = tmp_path / CACHE_NAME
    whole = cache.read_bytes()
    for cut in (len(whole) // 2, len(whole) - 30):
        cache.write_bytes(whole[:cut])  # a zip whose directory or last member is missing
        assert load_deck(tmp_path).ids == ("num-3", "num-4")
        with np.load(cache, allow_pickle=False) as z:  # and the index is written whole again
            assert z["faces"].shape[0] == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(CACHE_NAME)] == [CACHE_NAME]


def test_broken_and_foreign_files_are_named_and_the_rest_load(tmp_path):
    _write_deck(tmp_path, ["num-1", "num-2"])
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    (tmp_path / "notes.txt").write_text("my deck")
    deck = load_deck(tmp_path)
    assert deck.card_ids == ("num-1", "num-2")
    assert len(deck.problems) == 2
    assert all("\n" not in line for line in deck.problems)
    assert any("broken.png" in line for line in deck.problems)
    assert any("notes.txt" in line for line in deck.problems)
    # problems survive a load from the cache
    assert len(load_deck(tmp_path).problems) == 2


def test_missing_or_empty_deck_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        load_deck(tmp_path / "nope")
    with pytest.raises(ValueError, match="no readable"):
        load_deck(tmp_path)


def test_a_photo_of_a_card_on_a_table_is_rectified_like_a_scan():
    face = cs.faces()["hero-anchor"]
    photo = cs.place(cs.table((400, 480), seed=9), face, cs.card_corners((200, 240), 380, 7))
    rect = rectified_face(photo)
    scan = cv2.resize(face, (rect.shape[1], rect.shape[0]), interpolation=cv2.INTER_AREA)
    a, b = (x.astype(np.float32).ravel() for x in (rect, scan))
    a, b = a - a.mean(), b - b.mean()
    assert float(a @ b / np.sqrt((a @ a) * (b @ b))) > 0.8


def test_build_deck_from_photos_names_the_right_card():
    deck = cs.photo_deck(["num-1", "num-2", "hero-fox"])
    frame = cs.place(cs.table(seed=11), cs.faces()["num-2"], cs.card_corners((480, 360), 320, 70))
    from vision.cards import read_cards

    assert read_cards(frame, deck).ids == ("num-2",)


def test_a_card_photographed_on_a_table_is_still_cut_out_of_it():
    from vision.deck import _card_outline

    photo = cs.place(cs.table((400, 480), seed=9), cs.faces()["act-drop"],
                     cs.card_corners((200, 240), 380, 7))
    assert _card_outline(photo) is not None
    assert _card_outline(rectified_face(photo)) is None, "a rectified face is used whole"


def test_a_reference_cut_by_its_photos_edge_keeps_the_cards_own_sides():
    # a tight crop: the card's top and bottom lie beyond the photo, and so does a corner;
    # its sides show a strip of table
    face = np.full((352, 252, 3), 245, np.uint8)
    for x, y in [(70, 80), (182, 80), (126, 176), (70, 272), (182, 272)]:
        cv2.circle(face, (x, y), 26, (30, 30, 30), -1)
    corners = cs.card_corners((125, 150), 340, 3)
    photo = cs.place(cs.table((270, 300), seed=4), face, corners)
    from vision.cards_face import find_face_outline

    quad = find_face_outline(photo)
    assert quad is not None

    def x_at(p: np.ndarray, q: np.ndarray, y: float) -> float:
        return float(p[0] + (y - p[1]) / (q[1] - p[1]) * (q[0] - p[0]))

    # the two long sides, at mid height, where the card's edges are (not the photo's)
    truth = sorted([x_at(corners[0], corners[3], 150), x_at(corners[1], corners[2], 150)])
    ends = sorted(range(4), key=lambda i: quad[i][0])
    left, right = quad[ends[:2]], quad[ends[2:]]
    found = [x_at(left[0], left[1], 150), x_at(right[0], right[1], 150)]
    assert abs(found[0] - truth[0]) < 2 and abs(found[1] - truth[1]) < 2, (found, truth)


def test_a_phone_sized_reference_photo_is_looked_at_shrunk(tmp_path, monkeypatch):
    import vision.deck as deck_module

    photo = cs.place(cs.table((600, 800), seed=2), cs.faces()["num-1"],
                     cs.card_corners((300, 400), 600, 5))
    cv2.imwrite(str(tmp_path / "num-1.jpg"), cv2.resize(photo, None, fx=4, fy=4))  # 2400x3200
    cv2.imwrite(str(tmp_path / "num-2.png"), cs.faces()["num-2"])  # a small scan: as it is
    seen = {}
    build = deck_module.build_deck

    def spy(photos, **kw):
        seen.update({cid: image.shape for cid, image in photos})
        return build(photos, **kw)

    monkeypatch.setattr(deck_module, "build_deck", spy)
    deck = load_deck(tmp_path)
    assert deck.card_ids == ("num-1", "num-2")
    assert seen["num-1"] == (deck_module.REFERENCE_SIDE, 1200, 3)
    assert seen["num-2"] == cs.faces()["num-2"].shape


def test_an_index_built_by_another_opencv_is_rebuilt(tmp_path, monkeypatch):
    # SIFT keypoints and rectified faces differ between OpenCV versions (a Pi upgraded from
    # 4.6 to 4.10, a checkout tested by two venvs): an index built by another OpenCV is
    # not used, else the keypoint search reads one version's faces with another's frames
    _write_deck(tmp_path, ["num-1"])
    load_deck(tmp_path)
    cache = tmp_path / CACHE_NAME
    os.utime(cache, ns=(0, 0))
    monkeypatch.setattr(cv2, "__version__", "0.0.0")
    load_deck(tmp_path)
    assert cache.stat().st_mtime_ns != 0  # written afresh
