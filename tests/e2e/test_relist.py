"""410 Gone on the real control plane: the live source relists and the store equals a fresh list.

The apiserver runs without its watch cache here, so a watch resumed from a compacted etcd
revision gets 410 straight from etcd (with the cache, 1.37 keeps streaming instead)."""

from __future__ import annotations

import json
import queue
import time

import pytest

from tests import waits
from tests.e2e.labcluster.lab import compact_etcd, running_lab
from tests.e2e.learner import NS, Learner
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.source_events import Relisted
from tutor.cluster.live import LiveSource
from tutor.lesson.loader import load
from tutor.session import Session


@pytest.fixture(scope="module")
def lab():
    with running_lab(apiserver_args=("--watch-cache=false",), node="kwok") as the_lab:  # a watch matter only
        yield the_lab


def test_compaction_forces_a_relist_and_the_store_stays_true(lab, tmp_path):
    ln = Learner(lab, tmp_path / "gsb-lws", prompt_stop=True)
    q: queue.SimpleQueue = queue.SimpleQueue()
    session = Session(load(), str(ln.workdir), "en")
    relists: list[Relisted] = []
    src = LiveSource(connect(str(lab.kubeconfig)).api_client, NS, q.put, watch_seconds=2).start()

    def pump(until, timeout=waits.LAB, what=""):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = q.get(timeout=0.1)
            except queue.Empty:
                item = None
            if isinstance(item, Relisted) and item.kind == "Pod":
                relists.append(item)
            if item is not None:
                session.apply(item)
            if until():
                return
        raise AssertionError(f"timed out waiting for {what}: pod relists={len(relists)} gone={src.gone} "
                             f"states={[(s.resource, s.state.value, s.detail) for s in session.states.values()]} "
                             f"store={sorted(have())}")

    def fresh():
        items = json.loads(lab.kubectl("get", "pods", "-n", NS, "-o", "json").stdout)["items"]
        return {(i["metadata"]["name"], i["metadata"]["uid"]) for i in items}

    def have():
        return {(o.name(p), o.uid(p)) for p in session.store.all("Pod", NS)}

    try:
        pump(lambda: len(relists) == 1, what="the first list")
        ln.step1()
        pump(lambda: have() == fresh() and len(have()) == 4, what="the four llm pods")
        # Move etcd's revision past the last one this namespace showed us, then compact it away:
        # the next resumed watch (every 2 s here) asks for a revision etcd no longer has.
        for i in range(3):
            lab.kubectl("create", "configmap", f"churn-{i}", "-n", "default")
        compact_etcd(lab)
        pump(lambda: len(relists) >= 2, what="a relist after the compaction")
        assert src.gone.get("pods", 0) >= 1  # the relist came from a 410, not from an error
        pump(lambda: have() == fresh(), what="the store to equal a fresh list")
        assert len(have()) == 4
    finally:
        src.stop()
        src.join()
