"""A phone that falls behind (a busy server, a slow Wi-Fi) still gets every version, in
order: the stream replays the recent changes it missed instead of jumping to the latest."""

from __future__ import annotations

import json
import threading

from companion.session import Session
from web.sse import state_stream

ROLL = {"type": "roll", "green": 0, "yellow": 10, "red": 0}


def _versions(chunks: list[str]) -> list[int]:
    out = []
    for chunk in chunks:
        for line in chunk.splitlines():
            if line.startswith("data: ") and chunk.startswith("event: state"):
                out.append(json.loads(line[6:])["version"])
    return out


def test_a_late_stream_sends_every_version_it_missed_in_order(tmp_path, open_journal):
    session = Session(open_journal(tmp_path))
    session.start("toss-up", ["Ann", "Ben"])
    stream = state_stream(session, last_seen=None, keepalive=60, max_seconds=None,
                          stop=threading.Event(), poll=0.01)
    sent = [next(stream), next(stream)]  # hello, then the state at version 1
    for _ in range(5):  # five changes while the stream's thread was not scheduled
        session.act(ROLL)
    while _versions(sent)[-1:] != [6]:
        sent.append(next(stream))
    assert _versions(sent) == [1, 2, 3, 4, 5, 6]
    events = [json.loads(c.split("data: ", 1)[1])["events"] for c in sent[2:]]
    assert all(e and e[0]["kind"] == "roll" for e in events)  # each change's own cues


def test_a_stream_far_behind_jumps_to_the_latest(tmp_path, open_journal):
    session = Session(open_journal(tmp_path))
    session.start("toss-up", ["Ann", "Ben"])
    stream = state_stream(session, last_seen=None, keepalive=60, max_seconds=None,
                          stop=threading.Event(), poll=0.01)
    sent = [next(stream), next(stream)]
    for _ in range(500):  # more than anyone keeps: the newest state is what matters
        session.act(ROLL)
    while _versions(sent)[-1:] != [501]:
        sent.append(next(stream))
    versions = _versions(sent)
    assert versions == sorted(set(versions)) and versions[-1] == 501
