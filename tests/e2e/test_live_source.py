"""The tutor's live source and `lwstutor check` against the real lab control plane."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import time


from tests import waits
from tests.e2e.learner import NS
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.source_events import Conn, SourceState
from tutor.cluster.live import LiveSource
from tutor.lesson.loader import load
from tutor.session import Session


def tutor_check(lab, workdir, *args):
    res = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", "--lang", "en", "--kubeconfig",
                          str(lab.kubeconfig), "--workdir", str(workdir), *args],
                         capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL,
                         env={**os.environ, "KUBECONFIG": ""})
    assert res.returncode in (0, 1, 3), res.stderr
    return res.returncode, {s["step"]: s for s in json.loads(res.stdout)["steps"]}


def fresh_list(lab, kind):
    items = json.loads(lab.kubectl("get", kind, "-n", NS, "-o", "json").stdout)["items"]
    return {(i["metadata"]["name"], i["metadata"]["uid"], i["metadata"]["resourceVersion"]) for i in items}


def test_check_fails_then_passes_on_the_live_cluster(lab, learner):
    code, steps = tutor_check(lab, learner.workdir, "--step", "1", "--step", "2")
    assert code == 1
    assert steps[1]["status"] == "fail" and "lws.yaml" in steps[1]["message"]
    learner.step1()
    learner.step2()
    code, steps = tutor_check(lab, learner.workdir, "--step", "1", "--step", "2")
    assert code == 0 and steps[1]["status"] == steps[2]["status"] == "pass", steps


def test_live_store_equals_a_fresh_list(lab, learner):
    q: queue.SimpleQueue = queue.SimpleQueue()
    session = Session(load(), str(learner.workdir), "en")
    src = LiveSource(connect(str(lab.kubeconfig)).api_client, NS, q.put).start()
    try:
        def drain_until(cond, what: str, seen, timeout=waits.LAB):
            start = time.monotonic()
            while time.monotonic() - start < timeout:
                try:
                    session.apply(q.get(timeout=0.2))
                except queue.Empty:
                    pass
                if cond():
                    return
            raise waits.ran_out(what, time.monotonic() - start, seen())

        def all_ok() -> bool:
            return len(session.states) == 5 and all(s.state is Conn.OK for s in session.states.values())

        drain_until(all_ok, "every watch OK", lambda: {r: s.state.value for r, s in session.states.items()})
        learner.fail_worker()  # the store must follow a group recreation through the watch
        want = fresh_list(lab, "pods")
        def have() -> set:
            return {(o.name(p), o.uid(p), o.resource_version(p)) for p in session.store.all("Pod", NS)}

        drain_until(lambda: have() == fresh_list(lab, "pods"), "the store's pods to equal a fresh list",
                    lambda: sorted(have() ^ fresh_list(lab, "pods")))
        assert session.store.obs.recreations("llm-0") >= 1 and session.store.obs.recreations("llm-1") == 0
        assert want  # the cluster had pods to compare
        assert isinstance(next(iter(session.states.values())), SourceState)
    finally:
        src.stop()
        src.join()



def test_record_then_check_the_recording(lab, learner, tmp_path):
    """`lwstutor record` beside a learner, then `check --replay` on what it wrote."""
    out = tmp_path / "rec.jsonl"
    rec = subprocess.Popen([sys.executable, "-m", "tutor", "record", str(out), "--kubeconfig", str(lab.kubeconfig),
                            "--workdir", str(learner.workdir), "--lws-version", lab.versions["LWS_VERSION"]],
                           stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        learner.wait("recorder listed the nodes", lambda: out.exists() and '"kind":"Node"' in out.read_text())
        learner.reset()
        learner.step1()
        learner.step2()
        learner.wait("names.txt recorded", lambda: '"file":"names.txt","content":"pod=' in out.read_text())
        learner.wait("llm-1-1 Running recorded", lambda: any(
            '"name":"llm-1-1"' in line and '"phase":"Running"' in line for line in out.read_text().splitlines()))
    finally:
        rec.terminate()
        rec.wait(timeout=30)
    assert rec.returncode == 0, rec.stderr.read()
    head = json.loads(out.read_text().splitlines()[0])
    assert head["format"] == "lwstutor-recording" and head["version"] == 1 and head["namespace"] == NS
    assert head["versions"] == {"kubernetes": lab.versions["K8S_VERSION"], "lws": lab.versions["LWS_VERSION"]}
    res = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", "--replay", str(out), "--step", "1",
                          "--step", "2"], capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    steps = json.loads(res.stdout)["steps"]
    assert res.returncode == 0 and [s["status"] for s in steps] == ["pass", "pass"], steps
