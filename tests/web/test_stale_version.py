"""Actions and undo carry the state version the host saw: a stale one is refused (409).

Two hosts (or a host and the GPIO Undo button) tapping Undo for one mistake must take back
one action, not two; a double tap on Record roll must record one roll. Clients that send
no version (old scripts, the contract's examples) keep working unchanged.
"""

from __future__ import annotations

import threading

import pytest


def test_an_action_for_the_shown_version_is_applied(client, host):
    version = host.start(["Ann", "Ben"]).get_json()["version"]
    rolled = host.act(type="roll", green=3, yellow=4, red=3, version=version)
    assert rolled.status_code == 200
    assert rolled.get_json()["version"] == version + 1
    assert "version" not in rolled.get_json()["recent"][-1]  # not journaled as part of the roll


def test_a_double_tap_records_the_roll_once(client, host):
    version = host.start(["Ann", "Ben"]).get_json()["version"]
    host.act(type="roll", green=4, yellow=3, red=3, version=version)
    before = client.get("/api/state").get_json()
    again = host.act(type="roll", green=0, yellow=4, red=3, version=version)  # same screen
    assert again.status_code == 409
    assert again.get_json()["error"] == ("Ann's roll was just recorded: look again "
                                         "before you tap.")
    assert client.get("/api/state").get_json() == before


def test_two_undos_for_one_mistake_take_back_one_action(client, host):
    host.start(["Ann", "Ben"])
    host.roll(3, 4, 3)
    shown = host.roll(3, 3, 1).get_json()
    first = host.post("/api/undo", {"version": shown["version"]})
    assert first.status_code == 200
    second = host.post("/api/undo", {"version": shown["version"]})
    assert second.status_code == 409
    assert second.get_json()["error"] == ("The last action was just undone: look again "
                                          "before you tap.")
    state = client.get("/api/state").get_json()
    assert state["turn"]["rolls"] == 1 and state["version"] == shown["version"] + 1


def test_without_a_version_nothing_changes_for_old_clients(client, host):
    host.start(["Ann", "Ben"])
    host.roll(3, 4, 3)
    host.roll(3, 3, 1)
    assert host.undo().status_code == 200
    assert host.undo().status_code == 200
    assert client.get("/api/state").get_json()["turn"]["rolls"] == 0


@pytest.mark.parametrize("version", ["3", 2.5, True, [1], {"v": 1}])
def test_a_version_that_is_no_whole_number_is_400(client, host, version):
    start = host.start(["Ann", "Ben"]).get_json()
    for path, body in (("/api/actions", {"type": "bank", "version": version}),
                       ("/api/undo", {"version": version})):
        refused = host.post(path, body)
        assert refused.status_code == 400, path
        assert "'version'" in refused.get_json()["error"]
    assert client.get("/api/state").get_json()["version"] == start["version"]


def test_parallel_undos_through_the_real_server_take_back_one(live_server):
    live_server.request("POST", "/api/games", {"game": "toss-up", "players": ["Ann", "Ben"]})
    live_server.request("POST", "/api/actions", {"type": "roll", "green": 3, "yellow": 4, "red": 3})
    _, shown = live_server.request("POST", "/api/actions",
                                   {"type": "roll", "green": 3, "yellow": 3, "red": 1})
    statuses: list[int] = []

    def undo() -> None:
        statuses.append(live_server.request("POST", "/api/undo",
                                            {"version": shown["version"]})[0])

    threads = [threading.Thread(target=undo) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409]
    _, state = live_server.request("GET", "/api/state")
    assert state["turn"]["rolls"] == 1


def test_the_openapi_description_documents_the_optional_version(client):
    spec = client.get("/api/openapi.json").get_json()
    roll = spec["components"]["schemas"]["toss-up.roll"]
    assert roll["properties"]["version"]["type"] == "integer"
    assert "version" not in roll["required"]
    undo = spec["paths"]["/api/undo"]["post"]["requestBody"]
    assert undo["required"] is False
    assert "version" in undo["content"]["application/json"]["schema"]["properties"]
