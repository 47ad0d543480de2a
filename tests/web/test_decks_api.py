"""Teaching a deck from the host page: /api/decks on the real app and a real Recognizer
looking at tables drawn in the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.camera_link import DiceLink
from companion.games.paper_toss import CARDS as PAPER_TOSS_CARDS
from companion.journal import Journal
from companion.recognition import Recognizer
from companion.session import Session
from tests.vision import cards_support as cs
from web import create_app
from web.openapi import build_spec

PIN = "8642"
HOST = {"Authorization": f"Bearer {PIN}"}


class Table:
    """What lies under the camera; the recognizer's capture source."""

    frame: np.ndarray | None = None

    def latest(self) -> np.ndarray | None:
        return self.frame


@pytest.fixture
def rig(tmp_path: Path) -> Any:
    """(client, table, recognizer, data folder) with no game running."""
    data = tmp_path / "data"
    session = Session(Journal(data))
    table = Table()
    recognizer = Recognizer(table.latest, session, link=DiceLink(session))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "PIN": PIN},
                     session=session, camera=recognizer)
    yield app.test_client(), table, recognizer, data
    session.journal.close()


def show(table: Table, recognizer: Recognizer, frame: np.ndarray) -> None:
    table.frame = frame
    recognizer.step()  # the recognition thread's next look


def one_card(art: str, seed: int = 0, angle: float = 15.0) -> np.ndarray:
    return cs.place(cs.table(seed=seed), cs.faces()[art], cs.card_corners((480, 360), 320, angle))


def test_the_card_games_and_their_faces_are_listed(rig):
    client, *_ = rig
    games = client.get("/api/decks", headers=HOST).get_json()["games"]
    # not Paper Tales: the camera reads nothing in it, so teaching its 42 Units was for naught
    assert [g["game"] for g in games] == ["paper-toss", "sorry-21", "toss-your-cookies"]
    assert all(g["taught"] == 0 and g["total"] > 0 for g in games)
    assert client.get("/api/decks/paper-toss/dog", headers=HOST).get_json() == {
        "id": "dog", "name": "Dog", "taught": False, "photos": 0, "image": None}
    deck = client.get("/api/decks/paper-toss", headers=HOST).get_json()
    assert [f["id"] for f in deck["faces"]] == list(PAPER_TOSS_CARDS)
    assert deck["faces"][0] == {"id": "good-throw", "name": "Good Throw", "taught": False,
                                "photos": 0, "image": None}
    assert deck["camera"] is True and deck["taught"] == 0 and deck["total"] == 16


def test_capture_saves_the_rectified_face_then_redo_and_delete(rig):
    client, table, recognizer, data = rig
    show(table, recognizer, one_card("hero-fox", seed=1))
    answer = client.post("/api/decks/paper-toss/perfect/capture", headers=HOST)
    assert answer.status_code == 201
    body = answer.get_json()
    assert body["card"]["id"] == "perfect" and body["card"]["taught"] is True
    assert body["deck"]["taught"] == 1
    saved = data / "decks" / "paper-toss" / "perfect.png"
    assert saved.is_file()
    picture = client.get(body["card"]["image"], headers=HOST)
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    face = cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR)
    assert face.shape[0] == 400 and 0.6 < face.shape[1] / 400 < 0.82

    show(table, recognizer, one_card("act-fire", seed=2, angle=-30))  # redo: another card
    again = client.post("/api/decks/paper-toss/perfect/capture", headers=HOST)
    assert again.status_code == 201
    assert client.get(again.get_json()["card"]["image"], headers=HOST).data != picture.data
    assert sorted(p.name for p in saved.parent.iterdir() if not p.name.startswith(".")) == \
        ["perfect.png"]

    gone = client.delete("/api/decks/paper-toss/perfect", headers=HOST)
    assert gone.status_code == 200 and gone.get_json()["taught"] == 0
    assert not saved.exists()
    missing = client.get("/api/decks/paper-toss/perfect/face.png", headers=HOST)
    assert missing.status_code == 404 and "not taught" in missing.get_json()["error"]


def test_no_card_or_two_cards_are_refused_with_a_sentence(rig):
    client, table, recognizer, data = rig
    answer = client.post("/api/decks/sorry-21/switch/capture", headers=HOST)
    assert answer.status_code == 409 and "not delivered a picture" in answer.get_json()["error"]
    show(table, recognizer, cs.table(seed=4))
    answer = client.post("/api/decks/sorry-21/switch/capture", headers=HOST)
    assert answer.status_code == 409
    assert answer.get_json() == {"error": "No card in view: put one card face up under "
                                          "the camera."}
    two = cs.place(cs.table(seed=5), cs.faces()["num-1"], cs.card_corners((260, 360), 300, 5))
    show(table, recognizer, cs.place(two, cs.faces()["num-6"],
                                     cs.card_corners((700, 360), 300, -20)))
    answer = client.post("/api/decks/sorry-21/switch/capture", headers=HOST)
    assert answer.status_code == 409
    assert answer.get_json() == {"error": "I see 2 cards; show one at a time."}
    assert not (data / "decks" / "sorry-21").exists() or \
        not any((data / "decks" / "sorry-21").glob("*.png"))


def test_a_card_too_bright_for_the_camera_is_refused_with_what_to_do(rig):
    # a yellowish lamp takes the card's green and red past the camera's ceiling: the host
    # page shows the refusal as it comes, and it says what to do
    from tests.vision.test_cards_exposure import tinted

    client, table, recognizer, data = rig
    show(table, recognizer, tinted(one_card("act-bank"), (0.8, 1.25, 1.25)))
    answer = client.post("/api/decks/sorry-21/switch/capture", headers=HOST)
    assert answer.status_code == 409
    assert answer.get_json() == {"error": "The card is too bright for the camera: its light "
                                          "colours are lost. Dim the light on it or move it "
                                          "out of the lamp's glare, and try again."}
    assert not list((data / "decks" / "sorry-21").glob("*.png"))  # nothing saved
    show(table, recognizer, tinted(one_card("act-bank"), (0.8, 0.95, 0.95)))  # dimmed
    assert client.post("/api/decks/sorry-21/switch/capture", headers=HOST).status_code == 201


@pytest.mark.parametrize("method,path", [
    ("GET", "/api/decks"), ("GET", "/api/decks/sorry-21"),
    ("POST", "/api/decks/sorry-21/switch/capture"),
    ("GET", "/api/decks/sorry-21/switch"), ("GET", "/api/decks/sorry-21/switch/face.png"),
    ("DELETE", "/api/decks/sorry-21/switch")])
def test_every_deck_address_is_host_only(rig, method, path):
    client, table, recognizer, data = rig
    show(table, recognizer, one_card("num-2"))
    answer = client.open(path, method=method)
    assert answer.status_code == 401 and answer.get_json()["error"]
    assert client.open(path, method=method,
                       headers={"Authorization": "Bearer 0000"}).status_code == 401
    assert not (data / "decks").exists()


def test_the_login_cookie_works_only_from_the_companions_own_page(rig):
    client, table, recognizer, data = rig
    show(table, recognizer, one_card("rune-star", seed=3))
    assert client.post("/login", data={"pin": PIN},
                       headers={"Origin": "http://localhost"}).status_code == 303
    evil = client.post("/api/decks/sorry-21/sorry/capture",
                       headers={"Origin": "http://evil.example"})
    assert evil.status_code == 401 and not (data / "decks").exists()
    own = client.post("/api/decks/sorry-21/sorry/capture", headers={"Origin": "http://localhost"})
    assert own.status_code == 201


@pytest.mark.parametrize("path", [
    "/api/decks/toss-up", "/api/decks/paper-tales", "/api/decks/nope", "/api/decks/sorry-21/nope/face.png",
    "/api/decks/sorry-21/..%2F..%2Fhost-pin.txt/face.png", "/api/decks/sorry-21/../capture",
    "/api/decks/sorry-21/%2E%2E/face.png", "/api/decks/..%2F..%2F/switch/face.png"])
def test_unknown_games_and_cards_and_path_tricks_are_404(rig, path):
    client, *_ = rig
    answer = client.get(path, headers=HOST)
    assert answer.status_code == (405 if path.endswith("/capture") else 404), path
    assert answer.get_json()["error"]
    for method in ("POST", "DELETE"):
        answer = client.open(path, method=method, headers=HOST)
        assert answer.status_code in (404, 405), (method, path)
        assert answer.get_json()["error"]
    for method in ("GET", "POST", "DELETE"):  # without the PIN: nothing is told
        answer = client.open(path, method=method)
        assert answer.status_code in (401, 404, 405), (method, path)
        assert answer.get_json()["error"]


def test_traversal_never_reaches_the_file_system(rig):
    client, table, recognizer, data = rig
    (data / "secret.png").write_bytes(b"\x89PNG secret")
    for card in ("..", "../secret", "..%2F..%2Fsecret", "%2e%2e"):
        answer = client.get(f"/api/decks/sorry-21/{card}/face.png", headers=HOST)
        assert answer.status_code == 404 and b"secret" not in answer.data
        assert client.delete(f"/api/decks/sorry-21/{card}", headers=HOST).status_code in (404,
                                                                                           405)
    assert (data / "secret.png").exists()


def test_a_deck_folder_that_cannot_be_written_is_a_503_sentence(rig, monkeypatch):
    client, table, recognizer, data = rig
    (data / "decks").mkdir(parents=True)
    (data / "decks" / "paper-toss").write_text("a file where the folder should be")
    show(table, recognizer, one_card("hero-fox", seed=1))
    answer = client.post("/api/decks/paper-toss/perfect/capture", headers=HOST)
    assert answer.status_code == 503
    assert answer.get_json()["error"] == "The companion could not save the card: File exists."

    def refuse(folder: object, card_id: str) -> int:
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr("companion.deck_teach.forget", refuse)
    gone = client.delete("/api/decks/paper-toss/perfect", headers=HOST)
    assert gone.status_code == 503
    assert gone.get_json()["error"] == ("The companion could not delete the card: "
                                        "Permission denied.")
    assert not client.application.extensions["companion-decks"].locked()


def test_without_a_camera_capture_says_how_else_to_teach(tmp_path):
    # the command must name this companion's data folder: without --data-dir the faces went
    # to ~/.local/share/companion, and a companion started with --data-dir never saw them
    data = tmp_path / "my data"
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "PIN": PIN})
    answer = app.test_client().post("/api/decks/sorry-21/switch/capture", headers=HOST)
    assert answer.status_code == 409
    command = f"companion deck learn --from DIR --game sorry-21 --data-dir '{data.resolve()}'"
    assert command in answer.get_json()["error"]
    deck = app.test_client().get("/api/decks/sorry-21", headers=HOST).get_json()
    assert deck["camera"] is False and deck["learn_command"] == command
    app.extensions["companion"].session.journal.close()


def test_the_openapi_description_lists_the_deck_addresses():
    paths = build_spec()["paths"]
    for path in ("/api/decks", "/api/decks/{game}", "/api/decks/{game}/{card}",
                 "/api/decks/{game}/{card}/capture", "/api/decks/{game}/{card}/face.png"):
        assert path in paths, path
    capture = paths["/api/decks/{game}/{card}/capture"]["post"]
    assert capture["security"] and {"201", "401", "404", "409"} <= set(capture["responses"])
    game = next(p for p in capture["parameters"] if p["name"] == "game")
    assert "toss-up" not in game["schema"]["enum"] and "sorry-21" in game["schema"]["enum"]
    assert "paper-tales" not in game["schema"]["enum"]
