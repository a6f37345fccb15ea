"""The class server as a process, its class in SQLite on disk: what it takes, what it refuses
(with a 4xx and a JSON reason, storing nothing), and a kill -9 and restart that loses nothing."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import pytest

from tests import waits
from tests.classroom.class_server import ClassServer
from tutor.classroom.report import MAX_BODY


def report(learner: str, *steps: dict, current: int = 1) -> dict:
    return {"learner": learner, "lesson": "lws", "current": current, "steps": list(steps)}


def step(n: int, status: str, message: str = "") -> dict:
    return {"step": n, "status": status, "message": message, "hints": 0, "predictions": 0, "seconds": 1.0}


def test_a_report_is_in_the_class_state_and_survives_a_kill(server, tmp_path):
    learner, key = server.join("ana")
    assert server.post("report", report(learner, step(1, "pass", "done"), step(2, "fail", "no LWS yet"), current=2),
                       key) == (200, {})
    addresses = server.join_url, server.state_url
    server.kill()  # no clean stop: only what was on disk is left
    again = ClassServer(server.db, server.port).start()
    try:
        assert (again.join_url, again.state_url) == addresses  # the tokens are the class's, kept with it
        ana = again.learners()["ana"]
        assert ana["current"] == 2
        assert {n: (s["status"], s["message"]) for n, s in ana["steps"].items()} == \
            {"1": ("pass", "done"), "2": ("fail", "no LWS yet")}
        assert again.post("report", report(learner, step(2, "pass", "ok"), current=3), key)[0] == 200  # the key holds
        assert again.learners()["ana"]["steps"]["2"]["status"] == "pass"
    finally:
        again.kill()


def test_a_clean_stop_says_so_and_exits_0(server):
    assert server.stop() == 0
    said = [server.said.get(timeout=waits.PROCESS) for _ in range(2)]
    assert said == ["Ctrl-C stops the server.\n", "The class server stopped.\n"]


def test_a_wrong_token_is_401(server):
    learner, key = server.join("ana")
    base = server.join_url.rsplit("/c/", 1)[0]
    wrong = f"{base}/c/{'x' * 32}"
    for code, body in (server.post("join", {"name": "bo", "lesson": "lws"}, url=wrong),
                       server.post("report", report(learner, step(1, "pass")), key, url=wrong),
                       server.state(url=f"{base}/i/{'x' * 32}/state"),
                       server.state(url=server.join_url.replace("/c/", "/i/") + "/state")):  # the learners' token
        assert code == 401 and body["error"]["kind"] == "token", body
    code, body = server.post("report", report(learner, step(1, "pass")))  # no key at all
    assert code == 401 and body["error"]["kind"] == "no-key"
    assert server.learners()["ana"]["steps"] == {}
    assert "bo" not in server.learners()


def test_a_learner_cannot_speak_for_another(server):
    ana, ana_key = server.join("ana")
    bo, bo_key = server.join("bo")
    code, body = server.post("report", report(ana, step(1, "pass", "forged")), bo_key)  # ana's id, bo's key
    assert code == 403 and body["error"]["kind"] == "not-yours"
    code, body = server.post("join", {"name": "ana", "lesson": "lws"})  # ana's name again, without her key
    assert code == 409 and body["error"]["kind"] == "name-taken"
    code, body = server.post("join", {"name": "ANA", "lesson": "lws", "key": bo_key})  # nor with another's
    assert code == 409
    assert server.learners()["ana"]["steps"] == {} and len(server.learners()) == 2
    assert server.join("ana", key=ana_key) == (ana, ana_key)  # her own tutor, started again, keeps her place


def test_oversized_is_413_and_not_stored(server):
    learner, key = server.join("ana")
    big = json.dumps(report(learner, step(1, "pass", "x" * 400))).encode() + b" " * MAX_BODY
    code, body = server.post("report", big, key)
    assert code == 413 and body["error"]["kind"] == "too-large"
    assert server.learners()["ana"]["steps"] == {}


def test_malformed_reports_are_refused_and_not_stored(server):
    learner, key = server.join("ana")
    for body, status, kind in ((b"{nope", 400, "not-json"),
                               (report(learner, {**step(1, "pass"), "answer": "kind: LeaderWorkerSet"}), 422, "schema"),
                               (report(learner, step(1, "done")), 422, "schema"),
                               ({"name": "x"}, 422, "schema")):
        code, answer = server.post("report", body, key)
        assert (code, answer["error"]["kind"]) == (status, kind), answer
        assert answer["error"]["message"]
    assert server.learners()["ana"]["steps"] == {}


def test_a_slow_client_holds_up_no_one(server):
    """A client that sends half a body and stalls: the others are answered meanwhile."""
    learner, key = server.join("ana")
    parts = urlsplit(server.join_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=waits.PROCESS) as slow:
        slow.sendall(f"POST {parts.path}/report HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Authorization: Bearer {key}\r\nContent-Length: 500\r\n\r\n{{\"learner\": ".encode())
        start = time.monotonic()
        assert server.post("report", report(learner, step(1, "pass")), key)[0] == 200
        assert server.learners()["ana"]["steps"]["1"]["status"] == "pass"
        assert time.monotonic() - start < waits.MOMENT


def test_a_full_class_takes_no_one_more(tmp_path, monkeypatch):
    """The store's own bound (a few learners here: the process's is MAX_LEARNERS)."""
    from tutor.classroom import class_store as store_module

    monkeypatch.setattr(store_module, "MAX_LEARNERS", 2)
    store = store_module.ClassStore(tmp_path / "c.sqlite3")
    try:
        store.join("ana", "lws")
        store.join("bo", "lws")
        with pytest.raises(store_module.ClassFull):
            store.join("cy", "lws")
        assert [learner["name"] for learner in store.state()["learners"]] == ["ana", "bo"]
    finally:
        store.close()


def test_an_oversized_chunked_body_is_413_too(server):
    """No Content-Length to refuse it by: the server stops reading at its limit."""
    learner, key = server.join("ana")
    parts = urlsplit(server.join_url)
    chunk = b"x" * (MAX_BODY + 1024)
    with socket.create_connection((parts.hostname, parts.port), timeout=waits.PROCESS) as conn:
        conn.sendall(f"POST {parts.path}/report HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Authorization: Bearer {key}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
                     + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            got = conn.recv(65536)
            if not got:
                break
            answer += got
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    assert json.loads(body)["error"]["kind"] == "too-large"
    assert server.learners()["ana"]["steps"] == {}
