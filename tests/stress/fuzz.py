"""Schemathesis against a real ``companion serve``, driven by its ``GET /api/openapi.json``.

Every generated request (valid by the schema, or deliberately not) is sent with the host
PIN or with none. The rules checked on each answer:

- never a 5xx;
- every 4xx is JSON ``{"error": sentence}`` (a non-empty string);
- a refused request changes nothing: the state before and after is the same, version
  included.

Works offline: the schema comes from the server on 127.0.0.1, nothing else is contacted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tests.stress.harness import PIN, durable

#: Streams never end by themselves; they are fuzzed separately (query strings, headers).
SKIPPED_PATHS = ["/api/events", "/api/camera/preview.mjpeg"]


@dataclass
class FuzzReport:
    """Counts of what the fuzzer sent and got back, and every broken rule."""

    requests: int = 0
    by_status: dict[int, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def load_schema(base_url: str) -> Any:
    """The API description as the running server publishes it, minus the stream."""
    schema = schemathesis.openapi.from_url(f"{base_url}/api/openapi.json", timeout=10)
    return schema.exclude(path=SKIPPED_PATHS)


def run_fuzz(base_url: str, examples: int, *, seed: int = 0) -> FuzzReport:
    """Send about ``examples`` generated requests; return what happened."""
    schema = load_schema(base_url)
    report = FuzzReport()
    cases = st.one_of(schema.as_strategy(GenerationMode.POSITIVE),
                      schema.as_strategy(GenerationMode.NEGATIVE))
    session = requests.Session()

    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=cases, with_pin=st.sampled_from([True, True, True, False]))
    def fuzz(case: Any, with_pin: bool) -> None:
        _ensure_game(session, base_url)
        before = _state(session, base_url)
        # Wrong PINs would trip the throttle and hide everything behind 401 (the throttle
        # has its own tests): a request carries the right PIN or none.
        case.headers = {k: v for k, v in (case.headers or {}).items()
                        if k.lower() != "authorization"}
        case.cookies = {k: v for k, v in (case.cookies or {}).items() if k != "companion_host"}
        headers = {"Authorization": f"Bearer {PIN}"} if with_pin else {}
        response = case.call(base_url=base_url, session=session, headers=headers, timeout=10)
        report.requests += 1
        report.by_status[response.status_code] = report.by_status.get(response.status_code, 0) + 1
        problem = _check(case, response, before, _state(session, base_url))
        if problem:
            report.problems.append(problem)

    try:
        import random

        random.seed(seed)
        fuzz()
    finally:
        session.close()
    return report


def _check(case: Any, response: Any, before: dict[str, Any], after: dict[str, Any]) -> str:
    """One line describing the broken rule, or '' when the answer is fine."""
    where = f"{case.method} {case.formatted_path} body={_short(case.body)}"
    status = response.status_code
    if status >= 500:
        return f"{status} for {where}: {response.text[:200]}"
    if 400 <= status < 500:
        try:
            error = response.json().get("error")
        except (ValueError, AttributeError):
            return f"{status} without a JSON error for {where}: {response.text[:200]}"
        if not isinstance(error, str) or not error.strip():
            return f"{status} with an empty error for {where}"
        if durable(after) != durable(before):
            return f"{status} but the state changed for {where}"
    return ""


def _short(body: Any) -> str:
    try:
        text = json.dumps(body, default=str)
    except (TypeError, ValueError):
        text = repr(body)
    return text[:160]


def _state(session: requests.Session, base_url: str) -> dict[str, Any]:
    response = session.get(f"{base_url}/api/state", timeout=10)
    response.raise_for_status()
    return dict(response.json())


def _ensure_game(session: requests.Session, base_url: str) -> None:
    """Keep a game running so that valid actions have something to act on."""
    state = _state(session, base_url)
    if state["game"] is None or state["over"]:
        session.post(f"{base_url}/api/games", json={"game": "toss-up", "players": ["A", "B"]},
                     headers={"Authorization": f"Bearer {PIN}"}, timeout=10)
