"""The store's history is bounded (a busy namespace cannot grow the tutor without end), and the
bounds do not change what the checkers see on the real recordings."""

from __future__ import annotations

import copy

from tests.conftest import WALKTHROUGH
from tests.states import check, new_leader_running, not_yet_deleted, recording, state
from tutor.cluster import objects as o
from tutor.cluster import observations as observations_module
from tutor.cluster import store as store_module
from tutor.cluster.source_events import ObjectEvent
from tutor.cluster.store import Store


def test_managed_fields_are_not_kept():
    """The live source drops managedFields on its thread (so recordings have none); a stream that
    still carries them (an older recording) does not keep them in the store either."""
    assert "managedFields" not in WALKTHROUGH.read_text(encoding="utf-8")
    st = Store()
    for it in recording("walkthrough").items:
        if isinstance(it, ObjectEvent):
            obj = copy.deepcopy(it.obj)
            obj["metadata"]["managedFields"] = [{"manager": "kubelet", "operation": "Update", "fieldsV1": {}}]
            st.apply(ObjectEvent(it.type, obj, it.t))
    kept = [obj for kind in store_module.KINDS for obj in st.all(kind)] + st.events_for("infer")
    assert kept and not any("managedFields" in obj["metadata"] for obj in kept)


def _events(n: int) -> list[dict]:
    """n distinct copies of a real Event from the walkthrough."""
    real = next(it.obj for it in recording("walkthrough").items
                if isinstance(it, ObjectEvent) and o.kind(it.obj) == "Event")
    out = []
    for i in range(n):
        ev = copy.deepcopy(real)
        ev["metadata"].update(name=f"ev-{i}", uid=f"uid-{i}", resourceVersion=str(i + 1))
        out.append(ev)
    return out


def test_events_past_the_bound_drop_the_least_recently_changed(monkeypatch):
    monkeypatch.setattr(store_module, "MAX_EVENTS", 3)
    st = Store()
    evs = _events(5)
    for ev in evs[:3]:
        st.apply(ObjectEvent("ADDED", ev, 1.0))
    again = copy.deepcopy(evs[0])
    again["metadata"]["resourceVersion"] = "100"  # the scheduler updating its message: a change
    st.apply(ObjectEvent("MODIFIED", again, 2.0))
    for ev in evs[3:]:
        st.apply(ObjectEvent("ADDED", ev, 3.0))
    keep = {"ev-0", "ev-3", "ev-4"}
    ns = o.namespace(evs[0])
    about = str(o.event_regarding(evs[0]).get("name"))
    assert {o.name(e) for e in st.events_for(ns)} == keep
    assert {o.name(e) for e in st.events_about(about, ns)} == keep
    assert {o.name(e) for e in st.all("Event", ns)} == keep
    assert set(st.obs.events_seen) == {"uid-0", "uid-3", "uid-4"}
    assert st.apply(ObjectEvent("DELETED", evs[1], 4.0)) is False  # forgotten: nothing to delete


def test_the_walkthrough_passes_every_step_under_a_tight_event_bound(monkeypatch):
    """101 Events in the walkthrough; with only the newest 10 kept every checker still passes."""
    monkeypatch.setattr(store_module, "MAX_EVENTS", 10)
    s = state("walkthrough")
    assert len(s.store.events_for("infer")) == 10
    assert [check(s, n).status.value for n in range(1, 9)] == ["pass"] * 8


# The rollout's moments with two revisions in a group, as the KWOK lab recorded them (states.py).
MIXING = tuple((new_leader_running(g), not_yet_deleted(f"llm-{g}-1")) for g in (1, 0))


def test_mixed_revisions_are_noted_once_per_change_and_bounded(monkeypatch):
    """The rollout held two revisions in group 1, then group 0, for a moment. The same moment
    seen again (a pod update that changes nothing the check reads) is not noted again; past
    MAX_MIXED per LWS only mixed_groups still grows."""
    s = state("walkthrough", after=new_leader_running(1), hooks=MIXING)
    obs = s.store.obs
    assert [(m.lws, m.group) for m in obs.mixed] == [("llm", 1)]
    pod = copy.deepcopy(s.store.get("Pod", "llm-1", "infer"))
    for rv in range(3):
        pod = copy.deepcopy(pod)
        pod["metadata"]["resourceVersion"] = f"9{rv}"
        assert s.store.apply(ObjectEvent("MODIFIED", pod, s.store.now))
    assert [(m.lws, m.group) for m in obs.mixed] == [("llm", 1)]

    assert [(m.lws, m.group) for m in state("walkthrough", hooks=MIXING).store.obs.mixed] == [("llm", 1), ("llm", 0)]
    monkeypatch.setattr(observations_module, "MAX_MIXED", 1)
    s = state("walkthrough", hooks=MIXING)
    assert [(m.lws, m.group) for m in s.store.obs.mixed] == [("llm", 1)]
    assert s.store.obs.mixed_groups == {("llm", 0), ("llm", 1)}
    assert check(s, 6).passed and "held two revisions" in " ".join(check(s, 6).details)


def test_a_terminating_old_pod_counts_while_its_container_runs_and_the_mix_ends_when_it_stops():
    """The real node's rollout: the old worker is Terminating with its container running beside
    the new leader (two revisions), until its container stops; a Terminating pod whose containers
    have all stopped is not counted."""
    def pod(name, worker, rev, running=True, terminating=False):
        meta = {"name": name, "namespace": "infer", "uid": f"uid-{name}-{rev}", "labels": {
            o.NAME_LABEL: "llm", "leaderworkerset.sigs.k8s.io/group-index": "1",
            "leaderworkerset.sigs.k8s.io/worker-index": str(worker),
            "leaderworkerset.sigs.k8s.io/template-revision-hash": rev}}
        if terminating:
            meta["deletionTimestamp"] = "2026-01-01T00:00:00Z"
        state = {"running": {}} if running else {"terminated": {"exitCode": 137}}
        return {"kind": "Pod", "metadata": meta,
                "status": {"phase": "Running", "containerStatuses": [{"name": "c", "state": state}]}}
    obs = observations_module.Observations()
    pods = {"llm-1": pod("llm-1", 0, "new"), "llm-1-1": pod("llm-1-1", 1, "old", terminating=True)}
    group = lambda *_: list(pods.values())  # noqa: E731
    obs.pod_changed(None, pods["llm-1"], 1.0, group)
    assert [(m.group, m.terminating, m.until) for m in obs.mixed] == [(1, ("llm-1-1",), None)]
    pods["llm-1-1"] = pod("llm-1-1", 1, "old", running=False, terminating=True)
    obs.pod_changed(None, pods["llm-1-1"], 31.0, group)
    assert [(m.t, m.until) for m in obs.mixed] == [(1.0, 31.0)]
    obs.pod_changed(None, pods["llm-1"], 32.0, group)  # seen again, still one revision running
    assert len(obs.mixed) == 1 and obs.mixed_groups == {("llm", 1)}
