"""POST /api/camera/confirm with the offer the host's screen showed: a changed offer is
refused with a sentence and nothing is applied; clients that send no offer keep working."""

from __future__ import annotations

from typing import Any

import pytest

from companion.camera_link import DiceLink
from vision.results import DiceReading


@pytest.fixture
def link(app: Any, host: Any) -> DiceLink:
    """A Toss Up! game with the camera's link in place of the recognition loop."""
    assert host.start(["Ann", "Ben"]).status_code == 201
    companion = app.extensions["companion"]
    companion.camera = DiceLink(companion.session)
    return companion.camera


def test_the_offer_shown_is_applied(link, host):
    link.on_reading(DiceReading(green=4, yellow=4, red=2))
    response = host.post("/api/camera/confirm", {"offer": {"type": "roll", "green": 4, "yellow": 4, "red": 2}})
    assert response.status_code == 200
    assert response.get_json()["turn"]["points"] == 4


def test_an_offer_changed_since_the_screen_showed_it_is_refused(link, host, client):
    link.on_reading(DiceReading(green=4, yellow=4, red=2))
    shown = client.get("/api/state").get_json()["dice"]["offer"]
    link.on_reading(DiceReading(green=7, yellow=1, red=2))  # same version, another offer
    before = client.get("/api/state").get_json()
    response = host.post("/api/camera/confirm", {"offer": shown})
    assert response.status_code == 409
    assert response.get_json()["error"].startswith("The camera's reading changed: look again")
    after = client.get("/api/state").get_json()
    assert (after["version"], after["turn"]) == (before["version"], before["turn"])


@pytest.mark.parametrize("body", [None, {}])
def test_a_client_that_sends_no_offer_applies_the_camera_s(link, host, body):
    link.on_reading(DiceReading(green=7, yellow=1, red=2))
    response = host.post("/api/camera/confirm", body)
    assert response.status_code == 200
    assert response.get_json()["turn"]["points"] == 7


@pytest.mark.parametrize("offer", [[1, 2], "4 green", 3])
def test_an_offer_that_is_no_object_is_refused_with_a_sentence(link, host, offer):
    link.on_reading(DiceReading(green=7, yellow=1, red=2))
    response = host.post("/api/camera/confirm", {"offer": offer})
    assert response.status_code == 400
    assert "'offer'" in response.get_json()["error"]


def test_the_openapi_description_documents_the_offer_field(client):
    post = client.get("/api/openapi.json").get_json()["paths"]["/api/camera/confirm"]["post"]
    body = post["requestBody"]
    assert body["required"] is False
    offer = body["content"]["application/json"]["schema"]["properties"]["offer"]
    assert offer["type"] == "object" and "look again" in offer["description"]
