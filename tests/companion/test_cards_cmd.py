"""``companion detect cards``, ``companion eval`` on card suites, and teaching a deck."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards_cmd import detect, evaluate, learn_from_folder
from companion.cli import main
from tests.vision import cards_support as cs
from vision.deck import load_deck


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    """A small suite in the contract format: a deck of 6 faces and 3 table photos."""
    root = tmp_path_factory.mktemp("suite")
    (root / "deck").mkdir()
    ids = ["num-1", "num-2", "act-swap", "act-skip", "hero-fox", "rune-star"]
    for cid in ids:
        cv2.imwrite(str(root / "deck" / f"{cid}.png"), cs.faces()[cid])
    (root / "img").mkdir()
    scenes = {"img/a.jpg": ["act-swap", "num-2"], "img/b.jpg": ["hero-fox"], "img/c.jpg": []}
    for k, (name, cards) in enumerate(scenes.items()):
        frame = cs.table(seed=20 + k)
        for j, cid in enumerate(cards):
            corners = cs.card_corners((300 + 360 * j, 360), 330, 20 * j - 9)
            frame = cs.place(frame, cs.faces()[cid], corners)
        if name == "img/c.jpg":  # a face-down card only
            frame = cs.place(frame, cs.back(), cs.card_corners((480, 360), 330, 30))
        cv2.imwrite(str(root / name), frame)
    labels = {"kind": "cards", "deck": "deck",
              "images": {name: {"cards": cards} for name, cards in scenes.items()}}
    (root / "labels.json").write_text(json.dumps(labels))
    return root


def test_detect_prints_one_json_line_per_image_in_order(suite):
    out = io.StringIO()
    paths = [str(suite / "img/b.jpg"), str(suite / "img/a.jpg"), str(suite / "img/c.jpg")]
    assert detect(paths, str(suite / "deck"), out=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["image"] for line in lines] == paths
    assert [sorted(line["cards"]) for line in lines] == [["hero-fox"], ["act-swap", "num-2"], []]


def test_unreadable_image_gets_an_error_line_and_exit_1(suite, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    out = io.StringIO()
    paths = [str(bad), str(tmp_path / "missing.png"), str(suite / "img/b.jpg")]
    assert detect(paths, str(suite / "deck"), out=out) == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["image"] == str(bad) and "\n" not in lines[0]["error"]
    assert lines[1]["error"] == "no such file"
    assert lines[2] == {"image": str(suite / "img/b.jpg"), "cards": ["hero-fox"]}


def test_cli_detect_cards_with_a_missing_deck_is_a_usage_error(tmp_path, capsys):
    assert main(["detect", "cards", "--deck", str(tmp_path / "nodeck"), "--json", "x.jpg"]) == 2
    err = capsys.readouterr().err
    assert "nodeck" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_cli_detect_cards_end_to_end(suite, capsys):
    assert main(["detect", "cards", "--deck", str(suite / "deck"), "--json",
                 str(suite / "img/a.jpg")]) == 0
    line = json.loads(capsys.readouterr().out)
    assert sorted(line["cards"]) == ["act-swap", "num-2"]


def test_a_broken_deck_file_is_named_on_stderr_and_detection_goes_on(suite, tmp_path, capsys):
    deck = tmp_path / "deck"
    deck.mkdir()
    for f in (suite / "deck").glob("*.png"):
        (deck / f.name).write_bytes(f.read_bytes())
    (deck / "torn.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["detect", "cards", "--deck", str(deck), "--json", str(suite / "img/b.jpg")]) == 0
    captured = capsys.readouterr()
    assert "torn.png" in captured.err and len(captured.err.strip().splitlines()) == 1
    assert json.loads(captured.out)["cards"] == ["hero-fox"]


def test_eval_scores_a_card_suite(suite, capsys):
    assert main(["eval", str(suite)]) == 0
    out = capsys.readouterr().out
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("3 images: exact set 3/3 (100.0%)")
    assert "precision 100.0%" in summary and "recall 100.0%" in summary
    assert "ms per image" in summary


def test_eval_reports_each_mistake(suite):
    labels = json.loads((suite / "labels.json").read_text())
    labels["images"]["img/b.jpg"] = {"cards": ["num-1"]}  # a wrong label: must show up
    out = io.StringIO()
    assert evaluate(suite, labels, out=out) == 0
    text = out.getvalue()
    assert "img/b.jpg: missed ['num-1'], wrongly named ['hero-fox']" in text
    assert "exact set 2/3" in text


def test_eval_without_a_deck_is_refused(tmp_path, capsys):
    (tmp_path / "labels.json").write_text(json.dumps({"kind": "cards", "deck": "deck",
                                                      "images": {}}))
    assert main(["eval", str(tmp_path)]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_learn_from_folder_teaches_faces_from_table_photos(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for k, cid in enumerate(["num-1", "num-2", "hero-fox"]):
        frame = cs.place(cs.table((600, 700), seed=k), cs.faces()[cid],
                         cs.card_corners((300, 350), 520, 9 * k - 8))
        cv2.imwrite(str(photos / f"{cid}.jpg"), frame)
    (photos / "readme.txt").write_text("not a photo")
    out = io.StringIO()
    assert learn_from_folder(photos, tmp_path / "deck", out=out) == 0
    assert "taught 3 card faces" in out.getvalue()
    deck = load_deck(tmp_path / "deck")
    assert deck.card_ids == ("hero-fox", "num-1", "num-2")
    frame = cs.place(cs.table(seed=30), cs.faces()["num-1"], cs.card_corners((480, 360), 320, 35))
    from vision.cards import read_cards

    assert read_cards(frame, deck).ids == ("num-1",)


def test_learn_from_phone_photos_names_each_photo_saved_whole(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    frame = cs.place(cs.table((600, 700), seed=3), cs.faces()["num-2"],
                     cs.card_corners((300, 350), 520, 6))
    big = cv2.resize(frame, None, fx=4.5, fy=4.5, interpolation=cv2.INTER_CUBIC)  # 8.5 Mpx
    cv2.imwrite(str(photos / "num-2.JPG"), big)  # capitals, as phones name them
    cv2.imwrite(str(photos / "num-1.jpeg"), cs.table((600, 700), seed=4))  # no card in it
    out = io.StringIO()
    assert learn_from_folder(photos, tmp_path / "deck", out=out) == 0
    said = out.getvalue().splitlines()
    assert said[0].startswith("num-1.jpeg: taught as num-1, but no card edge was found, so "
                              "the whole photo is its face")
    assert said[1] == "num-2.JPG: taught as num-2"
    assert said[-1].endswith("(1 of them whole photos: see above)")
    face = cv2.imread(str(tmp_path / "deck" / "num-2.png"))
    assert face.shape[0] == 400 and 0.6 < face.shape[1] / 400 < 0.8  # the card, rectified


def test_a_picture_too_small_for_a_card_is_an_error_line_not_a_traceback(suite, tmp_path):
    cv2.imwrite(str(tmp_path / "dot.png"), np.full((8, 8, 3), 120, np.uint8))
    out = io.StringIO()
    paths = [str(tmp_path / "dot.png"), str(suite / "img/b.jpg")]
    assert detect(paths, str(suite / "deck"), out=out) == 1
    dot, good = (json.loads(line) for line in out.getvalue().splitlines())
    assert "too small" in dot["error"] and "\n" not in dot["error"]
    assert good["cards"] == ["hero-fox"]


def test_learn_from_photos_it_cannot_use_says_why_for_each(tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    heic = Path(__file__).parents[1] / "data" / "phone-formats" / "tiny.heic"
    (photos / "num-1.HEIC").write_bytes(heic.read_bytes())  # an iPhone's default format
    cv2.imwrite(str(photos / "num-2.png"), np.full((6, 6, 3), 120, np.uint8))
    out = io.StringIO()
    assert learn_from_folder(photos, tmp_path / "deck", out=out) == 1
    heic_line, tiny_line = out.getvalue().splitlines()
    assert heic_line.startswith("num-1.HEIC:") and ("JPEG" in heic_line  # or, read: 32x24
                                                    or "too small" in heic_line)
    assert tiny_line == "num-2.png: too small to hold a card (6x6 pixels); skipped"
    assert "none of its photos could be used" in capsys.readouterr().err


def test_learn_from_a_photo_too_bright_for_the_camera_skips_it_with_what_to_do(tmp_path):
    # the camera's teaching refuses such a capture (its light print is lost with the paper);
    # teaching from photos found the same card again by a reference's outline and saved it
    from tests.companion.test_deck_teach import one_card
    from tests.vision.test_cards_exposure import exposed

    photos = tmp_path / "photos"
    photos.mkdir()
    frame = one_card("act-bank", angle=20)
    cv2.imwrite(str(photos / "act-bank.png"), exposed(frame, 1.3))
    cv2.imwrite(str(photos / "act-bark.png"), exposed(frame, 0.95))
    out = io.StringIO()
    assert learn_from_folder(photos, tmp_path / "deck", out=out) == 1
    bright, kept = out.getvalue().splitlines()[:2]
    assert bright == ("act-bank.png: the card is too bright in this photo: its light colours "
                      "are lost. Retake it with less light on the card, out of the lamp's "
                      "glare; skipped")
    assert kept == "act-bark.png: taught as act-bark"
    assert sorted(p.name for p in (tmp_path / "deck").iterdir()) == ["act-bark.png"]
