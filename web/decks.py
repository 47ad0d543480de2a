"""Teaching a deck from the host page: the faces a game needs, capture, see, redo, delete.

Host-only addresses under ``/api/decks`` (the PIN as a bearer header, or the login cookie
from the companion's own page; the faces may be copyrighted art and the camera shows the
room). A game's deck is ``<DATA_DIR>/decks/<game-id>/``, where the recognizer looks while
the game runs; every change there is a renamed file, which makes the recognizer load the
deck again (``vision.deck`` rebuilds its cached index when a file changes).

* ``GET /api/decks``: each card game and how many of its faces are taught;
* ``GET /api/decks/<game>``: the game's faces, each taught or not;
* ``GET /api/decks/<game>/<card>``: one face, taught or not;
* ``POST /api/decks/<game>/<card>/capture``: learn ``card`` from the camera's latest
  picture (exactly one card must be in view): 201 with the face and the deck;
* ``GET /api/decks/<game>/<card>/face.png``: the face as it was saved (rectified);
* ``DELETE /api/decks/<game>/<card>``: forget the card's face(s).

A card id must be one the game's module lists (``CARDS``), so no name reaches the file
system that the companion did not write itself. The PIN is checked first (401), then the
game and card (404 with a sentence).
"""

from __future__ import annotations

import shlex
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify
from werkzeug.exceptions import NotFound

from companion import deck_teach
from companion.errors import InvalidAction, NotNow
from web.app import get_companion
from web.auth import check_host, host_required

bp = Blueprint("decks", __name__, url_prefix="/api/decks")

_NO_STORE = {"Cache-Control": "no-store"}
_MEDIA = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


@bp.record_once
def _install(state: Any) -> None:
    state.app.extensions["companion-decks"] = threading.Lock()  # one capture at a time


def _folder(game: str) -> Path:
    return deck_teach.deck_folder(current_app.config["DATA_DIR"], game)


def _learn_command(game: str) -> str:
    """The command that teaches `game` from a folder of photos into this companion's decks."""
    data_dir = Path(current_app.config["DATA_DIR"]).resolve()
    return (f"companion deck learn --from DIR --game {shlex.quote(game)} "
            f"--data-dir {shlex.quote(str(data_dir))}")


def _faces(game: str) -> tuple[deck_teach.CardFace, ...]:
    """The game's faces, or 404 with a sentence for an unknown game or one without cards."""
    try:
        return deck_teach.card_faces(game)
    except InvalidAction as exc:
        raise NotFound(str(exc)) from None


def _face(game: str, card: str) -> deck_teach.CardFace:
    _faces(game)
    try:
        return deck_teach.find_face(game, card)
    except InvalidAction as exc:
        raise NotFound(str(exc)) from None


def _entry(summary: dict[str, Any], face: deck_teach.CardFace) -> dict[str, Any]:
    """The face's entry in a ``deck_summary``."""
    return next(f for f in summary["faces"] if f["id"] == face.id)


@contextmanager
def _writing(what: str) -> Iterator[None]:
    """Change the deck folder under the one-capture lock; an OSError is a 503 saying the
    companion could not ``what``."""
    with current_app.extensions["companion-decks"]:
        try:
            yield
        except OSError as exc:
            raise _Unavailable(f"The companion could not {what}: "
                               f"{exc.strerror or exc}.") from None


def _image_url(game: str, face: deck_teach.CardFace, files: list[Path]) -> str | None:
    """The face's picture address, with a version that changes on every redo."""
    if not files:
        return None
    stamp = max(f.stat().st_mtime_ns for f in files) // 1_000_000
    return f"/api/decks/{game}/{face.id}/face.png?v={stamp}"


def deck_summary(game: str) -> dict[str, Any]:
    """The game's faces in its own order, each with whether (and how often) it is taught."""
    faces = _faces(game)
    folder = _folder(game)
    counts = deck_teach.taught_counts(folder)
    listed = []
    for face in faces:
        files = deck_teach.face_files(folder, face.id) if counts.get(face.id) else []
        listed.append({"id": face.id, "name": face.name, "taught": bool(files),
                       "photos": len(files), "image": _image_url(game, face, files)})
    module_name = dict(deck_teach.card_games()).get(game, game)
    return {"game": game, "name": module_name, "total": len(listed),
            "taught": sum(1 for f in listed if f["taught"]), "faces": listed,
            "camera": get_companion(current_app).camera is not None,
            "learn_command": _learn_command(game)}


@bp.get("")
@host_required
def games() -> Any:
    """Each card game and how many of its faces are taught."""
    listed = []
    for game, name in deck_teach.card_games():
        counts = deck_teach.taught_counts(_folder(game))
        faces = deck_teach.card_faces(game)
        listed.append({"game": game, "name": name, "total": len(faces),
                       "taught": sum(1 for f in faces if counts.get(f.id))})
    return jsonify(games=listed), 200, _NO_STORE


@bp.get("/<game>")
def deck(game: str) -> Any:
    """One game's faces, each taught or not."""
    check_host()
    _faces(game)
    return jsonify(deck_summary(game)), 200, _NO_STORE


@bp.get("/<game>/<card>")
def card_info(game: str, card: str) -> Any:
    """One face: its name, whether it is taught, and its picture's address."""
    check_host()
    face = _face(game, card)
    return jsonify(_entry(deck_summary(game), face)), 200, _NO_STORE


@bp.post("/<game>/<card>/capture")
def capture(game: str, card: str) -> Any:
    """Learn ``card`` from the camera's latest picture: 201 with the face and the deck."""
    check_host()
    face = _face(game, card)
    camera = get_companion(current_app).camera
    if camera is None:
        raise NotNow("This companion runs without a camera; teach from photos instead: "
                     + _learn_command(game) + ".")
    frame, _ = camera.snapshot()
    if frame is None:
        raise NotNow("The camera has not delivered a picture yet; try again in a moment.")
    image = deck_teach.card_image(frame)
    with _writing("save the card"):
        deck_teach.save_taught(_folder(game), face.id, image)
    summary = deck_summary(game)
    return jsonify(card=_entry(summary, face), deck=summary), 201, _NO_STORE


@bp.get("/<game>/<card>/face.png")
def face_image(game: str, card: str) -> Any:
    """The card's saved face (its first reference image)."""
    check_host()
    face = _face(game, card)
    files = deck_teach.face_files(_folder(game), face.id)
    if not files:
        raise NotFound(f"{face.name} is not taught yet.")
    first = next((f for f in files if f.stem == face.id), files[0])
    try:
        data = first.read_bytes()
    except OSError:
        raise NotFound(f"{face.name} is not taught yet.") from None
    return Response(data, mimetype=_MEDIA.get(first.suffix.lower(), "image/png"),
                    headers=_NO_STORE)


@bp.delete("/<game>/<card>")
def forget(game: str, card: str) -> Any:
    """Forget the card's face(s); the deck as it is now."""
    check_host()
    face = _face(game, card)
    with _writing("delete the card"):
        deck_teach.forget(_folder(game), face.id)
    return jsonify(deck_summary(game)), 200, _NO_STORE


class _Unavailable(NotNow):
    """The deck folder cannot be written (503)."""

    status = 503
