"""The tutor's sender against the real class server process: it queues while the server is
away (killed), and what it queued arrives once the server is back on its port; it keeps only the
newest state of a step; a name taken stops it with the server's reason; its key brings it back
to its place after the tutor restarts."""

from __future__ import annotations

import asyncio

from tests import waits
from tests.classroom.class_server import ClassServer
from tutor.classroom.address import JoinAddress
from tutor.classroom.learner_keys import KeyBook
from tutor.classroom.report import StepState
from tutor.classroom.sender import Link, Sender


def sender(server: ClassServer, name: str = "ana", keys: KeyBook | None = None, **kw) -> Sender:
    return Sender(JoinAddress.parse(server.join_url), name, "lws", keys, **kw)


async def until(cond, what: str, timeout: float = waits.PROCESS):
    return await waits.until(asyncio.sleep, cond, what, timeout)


async def statuses(server: ClassServer, name: str = "ana") -> dict[str, str]:
    learners = await asyncio.to_thread(server.learners)
    return {n: s["status"] for n, s in learners.get(name, {}).get("steps", {}).items()}


async def test_reports_queued_while_the_server_is_away_arrive_when_it_is_back(server):
    s = sender(server)
    task = asyncio.create_task(s.run())
    try:
        s.put(StepState(1, "pass", "done"), current=2)
        await until(lambda: s.sent >= 1, "the first report")
        server.kill()
        s.put(StepState(2, "fail", "no LWS yet"), current=2)
        s.put(StepState(3, "waiting", "pods starting"), current=2)
        s.put(StepState(2, "pass", "LWS applied"), current=3)  # newer: the fail is never sent
        await until(lambda: s.link is Link.AWAY, "the sender to find the server away")
        assert s.pending == 2  # one per step, the newest
        again = ClassServer(server.db, server.port).start()
        try:
            got = {}
            for _ in range(int(waits.PROCESS / waits.STEP)):
                got = await statuses(again)
                if got.get("3") == "waiting":
                    break
                await asyncio.sleep(waits.STEP * 10)
            assert got == {"1": "pass", "2": "pass", "3": "waiting"}
            # the server stored the report before it answered: the sender learns it went a moment later
            await until(lambda: s.link is Link.REPORTING, "the sender to hear the report was taken")
            assert s.pending == 0
            learner = (await asyncio.to_thread(again.learners))["ana"]
            assert learner["current"] == 3
        finally:
            again.kill()
    finally:
        task.cancel()


async def test_a_heartbeat_when_nothing_changed(server):
    s = sender(server, heartbeat=0.2)
    task = asyncio.create_task(s.run())
    try:
        await until(lambda: s.sent >= 3, "three heartbeats")
        assert await statuses(server) == {}  # a heartbeat carries no step
    finally:
        task.cancel()


async def test_a_name_taken_stops_the_sender_with_the_servers_reason(server):
    await asyncio.to_thread(server.join, "ana")
    s = sender(server)
    await asyncio.wait_for(s.run(), waits.PROCESS)  # it ends: refused is final
    assert s.link is Link.REFUSED and "another learner" in s.refusal


async def test_a_tutor_started_again_keeps_its_place(server, tmp_path):
    keys = KeyBook(tmp_path / "keys.json")
    first = sender(server, keys=keys)
    task = asyncio.create_task(first.run())
    first.put(StepState(1, "pass", "done", seconds=100.0))
    await until(lambda: first.sent >= 1, "the first tutor's report")
    task.cancel()
    second = sender(server, keys=KeyBook(tmp_path / "keys.json"))  # a new process reads the same file
    before: list[dict] = []
    second.on_joined = before.append
    task = asyncio.create_task(second.run())
    try:
        second.put(StepState(2, "fail", "not yet"))
        await until(lambda: second.sent >= 1, "the second tutor's report")
        learners = await asyncio.to_thread(server.learners)
        assert list(learners) == ["ana"] and set(learners["ana"]["steps"]) == {"1", "2"}
        assert before == [{1: 100.0}]  # the time on its steps so far, to count on from
    finally:
        task.cancel()


def test_the_tutor_counts_on_from_the_time_the_class_had(monkeypatch):
    """A step's time goes on from the runs before (the class's), once a run."""
    from types import SimpleNamespace

    from tutor.ui.services import class_report

    clock = [1000.0]
    monkeypatch.setattr(class_report, "monotonic", lambda: clock[0])
    session = SimpleNamespace(progress=SimpleNamespace(current=2, passed={}, hints={}, predictions={}), verdicts={},
                              lesson=SimpleNamespace(steps=[]))
    put: list[StepState] = []
    reports = class_report.ClassReport(session, SimpleNamespace(put=lambda state, current: put.append(state)))
    clock[0] += 30
    reports.carry_on({1: 100.0, 2: 50.0})
    reports.carry_on({2: 500.0})  # a second join in the same run brings nothing
    assert reports.state(1).seconds == 100.0 and reports.state(2).seconds == 80.0
    assert put[-1].step == 2 and put[-1].seconds == 80.0  # and the step the learner is on goes at once
