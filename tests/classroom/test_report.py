"""The schema of what a tutor may send: anything else in a body is refused whole."""

from __future__ import annotations

import json

import msgspec
import pytest

from tutor.classroom.report import MAX_STEPS, decode_join, decode_report

LEARNER = "abcdefgh1234"
GOOD = {"learner": LEARNER, "lesson": "lws", "current": 2,
        "steps": [{"step": 1, "status": "pass", "message": "ok", "hints": 1, "predictions": 2, "seconds": 30.5}]}


def with_(**changes) -> bytes:
    return json.dumps({**GOOD, **changes}).encode()


def step(**changes) -> bytes:
    return with_(steps=[{**GOOD["steps"][0], **changes}])


def test_a_good_report_and_a_heartbeat_decode():
    got = decode_report(json.dumps(GOOD).encode())
    assert (got.learner, got.current, got.steps[0].status, got.steps[0].hints) == (LEARNER, 2, "pass", 1)
    assert decode_report(with_(steps=[])).steps == []


@pytest.mark.parametrize("body", [
    with_(answers={"lws.yaml": "kind: LeaderWorkerSet"}),  # no answer file ever
    step(objects=[{"kind": "Pod"}]),                      # nor a cluster object, inside a step
    step(status="done"),                                 # a status there is not
    step(step=0), step(step=MAX_STEPS + 1),
    step(message="x" * 401), step(hints=-1), step(seconds=-1.0),
    with_(steps=[GOOD["steps"][0]] * (MAX_STEPS + 1)),
    with_(lesson="../etc"), with_(learner="short"), with_(current="2"),
], ids=["answer-files", "cluster-object", "status", "step-0", "step-too-big", "long-message", "negative-hints",
        "negative-seconds", "too-many-steps", "lesson-path", "learner-id", "current-as-text"])
def test_anything_else_is_refused(body):
    with pytest.raises(msgspec.ValidationError):
        decode_report(body)


@pytest.mark.parametrize("name", ["", "x" * 41, "a\nb", "bell\x07"])
def test_a_join_needs_a_printable_name(name):
    with pytest.raises(msgspec.ValidationError):
        decode_join(json.dumps({"name": name, "lesson": "lws"}).encode())


def test_not_json_is_a_decode_error_not_a_crash():
    with pytest.raises(msgspec.DecodeError):
        decode_report(b"{not json")
