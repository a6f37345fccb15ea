"""States derived from the real recordings the way a newer LWS could differ, each built here from
a named recording and said how: verdicts that rest on what the cluster shows, not on how LWS v0.9
happens to spell it, must judge them the same.

- llm-1-1's LWS_ variables injected through valueFrom (fieldRef to the pod's own labels, as the
  kubelet resolves them, or a ConfigMap the tutor cannot read) instead of literal values;
- another subdomainPolicy (UniquePerReplica: LWS_LEADER_ADDRESS llm-1.llm-1.infer), so the
  leader's full name is llm-1-1's address plus .svc.cluster.local, not the Shared one.
"""

from __future__ import annotations

import copy

import pytest

from tests.states import check, file_written, state
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent

W = "walkthrough"
AFTER_STEP4 = file_written("restart.txt")  # steps 1 to 4 done, llm-1-1 as LWS made it


def with_worker_env(s, change) -> None:
    """Applies llm-1-1 again with its container's env changed by `change(env list)`."""
    pod = copy.deepcopy(s.store.get("Pod", "llm-1-1", "infer"))
    change(o.containers(pod["spec"])[0]["env"])
    pod["metadata"]["resourceVersion"] += "-derived"
    s.apply(ObjectEvent("MODIFIED", pod, s.store.now))


def by_field(env: list) -> None:
    """LWS_WORKER_INDEX from the pod's worker-index label (fieldRef), as a webhook may inject it."""
    for e in env:
        if e["name"] == "LWS_WORKER_INDEX":
            e.pop("value")
            e["valueFrom"] = {"fieldRef": {"fieldPath": f"metadata.labels['{o.WORKER_INDEX_LABEL}']"}}


def test_env_through_a_field_ref_is_read_as_the_kubelet_resolves_it():
    s = state(W, stop=AFTER_STEP4)
    with_worker_env(s, by_field)
    assert check(s, 3).passed  # the learner's env.txt from the real run: LWS_WORKER_INDEX=1
    wrong = s.workspace.get("env.txt").text.replace("LWS_WORKER_INDEX=1", "LWS_WORKER_INDEX=0")
    s.apply(FileChanged("env.txt", wrong, s.store.now))
    v = check(s, 3)
    assert v.status is Status.FAIL and "LWS_WORKER_INDEX=0 is not the value llm-1-1's container has" in v.message
    assert "LWS_WORKER_INDEX=1" not in v.message


def test_env_from_a_config_map_is_checked_for_presence_only():
    def from_config_map(env: list) -> None:
        for e in env:
            if e["name"] == "LWS_GROUP_SIZE":
                e.pop("value")
                e["valueFrom"] = {"configMapKeyRef": {"name": "lws-env", "key": "size"}}

    s = state(W, stop=AFTER_STEP4)
    with_worker_env(s, from_config_map)
    v = check(s, 3)
    assert v.passed and any("LWS_GROUP_SIZE: taken from outside the pod" in d for d in v.details), v
    missing = "\n".join(line for line in s.workspace.get("env.txt").text.splitlines() if "LWS_GROUP_SIZE" not in line)
    s.apply(FileChanged("env.txt", missing, s.store.now))
    v = check(s, 3)
    assert v.status is Status.FAIL and "LWS_GROUP_SIZE is missing" in v.message


def unique_per_replica(env: list) -> None:
    for e in env:
        if e["name"] == "LWS_LEADER_ADDRESS":
            e["value"] = "llm-1.llm-1.infer"


def lookup(name: str, ip: str) -> str:
    return f"Server:\t\t10.43.0.10\nAddress:\t10.43.0.10:53\n\nName:\t{name}\nAddress: {ip}\n"


def test_the_leaders_name_is_the_workers_own_address_under_another_subdomain_policy():
    s = state(W, stop=AFTER_STEP4)
    with_worker_env(s, unique_per_replica)
    ip = o.pod_ip(s.store.get("Pod", "llm-1", "infer"))
    s.apply(FileChanged("dns.txt", lookup("llm-1.llm-1.infer.svc.cluster.local", ip), s.store.now))
    assert check(s, 4).passed
    s.apply(FileChanged("dns.txt", lookup("llm-1.llm.infer.svc.cluster.local", ip), s.store.now))
    v = check(s, 4)
    assert v.status is Status.FAIL and "a lookup of llm-1.llm.infer.svc.cluster.local, which is not the leader's " \
        "full name" in v.message and "llm-1.llm-1.infer" not in " ".join((v.message, *v.details))


def test_the_shared_policy_name_still_passes_on_the_recording_as_it_was():
    s = state(W, stop=AFTER_STEP4)
    assert check(s, 4).passed  # the real run's lookup of llm-1.llm.infer.svc.cluster.local


# --- a gang scheduler holds the orphan's leader (derived from the walkthrough's end) ----------
# With LWS's gangSchedulingManagement (Volcano) or a scheduling gate, the leader waits for its
# whole group too, so step 8's half group never forms: the verdict says why and what the lab assumes.

def gang_held_leader(change, lang: str = "en") -> object:
    s = state(W, lang=lang)
    pod = copy.deepcopy(s.store.get("Pod", "orphan-0", "infer"))
    pod["status"] = {"phase": "Pending", "conditions": [
        {"type": "PodScheduled", "status": "False", "reason": "SchedulingGated", "message": "Scheduling is blocked"}]}
    pod["spec"].pop("nodeName", None)
    change(pod)
    pod["metadata"]["resourceVersion"] += "-derived"
    s.apply(ObjectEvent("MODIFIED", pod, s.store.now))
    return s


def test_a_leader_behind_a_scheduling_gate_fails_step_8_saying_why():
    s = gang_held_leader(lambda p: p["spec"].__setitem__("schedulingGates", [{"name": "example.com/gang"}]))
    v = check(s, 8)
    assert v.status is Status.FAIL and "example.com/gang" in v.message and "gang scheduling" in v.message, v
    assert "default scheduler" in v.message


def test_a_leader_handed_to_volcano_fails_step_8_in_both_languages():
    def volcano(p):
        p["spec"]["schedulerName"] = "volcano"
        p["metadata"].setdefault("annotations", {})["scheduling.k8s.io/group-name"] = "orphan-0"

    v = check(gang_held_leader(volcano), 8)
    assert v.status is Status.FAIL and "scheduler volcano, pod group orphan-0" in v.message
    ko = check(gang_held_leader(volcano, lang="ko"), 8)
    assert "갱 스케줄링" in ko.message and "volcano" in ko.message


@pytest.mark.parametrize("field,value,words", [
    ("workloadRef", {"name": "orphan", "podGroup": "orphan-0"}, ("spec.workloadRef", "spec.workloadRef")),
    ("schedulingGroup", {"podGroupName": "orphan-0"},
     ("spec.schedulingGroup: orphan-0", "spec.schedulingGroup: orphan-0")),
], ids=["1.35-workloadRef", "1.36-schedulingGroup"])
def test_a_leader_in_a_native_gang_fails_step_8_in_both_languages(field, value, words):
    """Kubernetes' own gang scheduling: the 1.35 alpha's spec.workloadRef, and from 1.36 on
    spec.schedulingGroup (podGroupName)."""
    for lang, word in zip(("en", "ko"), words):
        v = check(gang_held_leader(lambda p: p["spec"].__setitem__(field, value), lang=lang), 8)
        assert v.status is Status.FAIL and word in v.message, v.message


def test_a_plain_pending_leader_still_waits():
    v = check(gang_held_leader(lambda p: None), 8)
    assert v.status is Status.WAITING and "Waiting for leader orphan-0" in v.message


# --- the first revision told by the revision history, not by the event's words ---------------

def revision_event(name: str, message: str) -> dict:
    return {"kind": "Event", "apiVersion": "v1", "metadata": {"name": "llm.x", "namespace": "infer", "uid": name},
            "involvedObject": {"kind": "LeaderWorkerSet", "namespace": "infer", "name": "llm"},
            "reason": "CreatingRevision", "message": message, "type": "Normal",
            "eventTime": "2026-11-30T06:58:39.159244Z", "related": {"kind": "ControllerRevision", "name": name}}


def test_a_reworded_creating_revision_is_told_by_its_revision_number():
    from tutor.cluster.timeline import _lws_facts

    times = [(0.0, True)]
    first = _lws_facts(revision_event("llm-64479854b5-1", "Created revision 64479854b5"), "llm", times)[0]
    later = _lws_facts(revision_event("llm-557f644bdf-2", "Creating revision for a newly created LeaderWorkerSet"),
                       "llm", times)[0]
    assert (first.detail, first.revision) == ("initial", "64479854b5")
    assert (later.detail, later.revision) == ("update", "557f644bdf")
