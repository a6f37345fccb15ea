"""Smoke tests: what the real LWS controller, StatefulSet controller, scheduler and kwok do on
the lab control plane. These are the facts the checkers are built on."""

from __future__ import annotations

import json


from tests.e2e.learner import NS


def labels(pod):
    return pod["metadata"]["labels"]


def test_topology(lab):
    nodes = {n["metadata"]["name"]: n for n in json.loads(lab.kubectl("get", "nodes", "-o", "json").stdout)["items"]}
    assert set(nodes) == {"lab-server", "gpu-a", "gpu-b"}
    for name, n in nodes.items():
        assert n["status"]["allocatable"]["nvidia.com/gpu"] == "4"
        ready = next(c for c in n["status"]["conditions"] if c["type"] == "Ready")
        assert ready["status"] == "True", name
    for kwok in ("gpu-a", "gpu-b"):
        assert nodes[kwok]["metadata"]["labels"]["type"] == "kwok"
        assert nodes[kwok]["spec"]["taints"] == [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]
    assert not nodes["lab-server"]["spec"].get("taints")
    assert lab.kubectl("get", "namespace", NS).returncode == 0


def test_llm_groups_labels_and_env(learner):
    learner.step1()
    pods = {n: learner.pod(n) for n in learner.LLM_PODS}
    expect = {"llm-0": ("0", "0"), "llm-0-1": ("0", "1"), "llm-1": ("1", "0"), "llm-1-1": ("1", "1")}
    for name, (g, w) in expect.items():
        lab = labels(pods[name])
        assert (lab["leaderworkerset.sigs.k8s.io/group-index"], lab["leaderworkerset.sigs.k8s.io/worker-index"]) == (g, w)
        assert pods[name]["status"]["phase"] == "Running"
        assert pods[name]["spec"]["nodeName"] == "lab-server"  # no toleration: the real node
        assert pods[name]["status"]["podIP"].startswith("10.42.")
    env = {e["name"]: e.get("value") for e in pods["llm-1-1"]["spec"]["containers"][0]["env"]}
    assert env["LWS_LEADER_ADDRESS"] == "llm-1.llm.infer"
    assert env["LWS_GROUP_SIZE"] == "2"
    assert env["LWS_WORKER_INDEX"] == "1"


def test_failing_worker_recreates_only_its_group(learner):
    g0, g1 = learner.fail_worker()
    new0, new1 = learner.uids()
    assert new0 != g0, "group 0's leader must be recreated"
    assert new1 == g1, "group 1 must be untouched"
    events = json.loads(learner.lab.kubectl("get", "events", "-n", NS, "-o", "json").stdout)["items"]
    recreate = [e for e in events if e["involvedObject"].get("kind") == "LeaderWorkerSet"
                and e["reason"] in ("RecreateGroup", "RecreateGroupOnPodRestart")]
    assert recreate, [(e["reason"], e["message"]) for e in events]
    assert any("group 0" in e["message"] or "llm-0" in e["message"] for e in recreate)


def test_template_change_rolls_out(learner):
    before = {n: labels(learner.pod(n))["leaderworkerset.sigs.k8s.io/template-revision-hash"] for n in learner.LLM_PODS}
    learner.step6()
    obj = learner.get("leaderworkerset", "llm")
    assert obj["status"]["updatedReplicas"] == 2
    assert any(c["type"] == "Available" and c["status"] == "True" for c in obj["status"]["conditions"])
    after = {n: labels(learner.pod(n))["leaderworkerset.sigs.k8s.io/template-revision-hash"] for n in learner.LLM_PODS}
    assert len(set(after.values())) == 1 and set(after.values()).isdisjoint(before.values())


def test_exclusive_topology_one_group_per_kwok_node(learner):
    learner.step7()
    node = {n: learner.pod(n)["spec"]["nodeName"] for n in ("wide-0", "wide-0-1", "wide-1", "wide-1-1")}
    assert node["wide-0"] == node["wide-0-1"]
    assert node["wide-1"] == node["wide-1-1"]
    assert {node["wide-0"], node["wide-1"]} == {"gpu-a", "gpu-b"}


def test_orphan_worker_stays_pending(learner):
    msg = learner.step8()
    assert learner.pod("orphan-0")["status"]["phase"] == "Running"
    worker = learner.pod("orphan-0-1")
    assert worker["status"]["phase"] == "Pending" and not worker["spec"].get("nodeName")
    assert "nvidia.com/gpu" in msg
    events = json.loads(learner.lab.kubectl("get", "events", "-n", NS, "--field-selector",
                                            "involvedObject.name=orphan-0-1", "-o", "json").stdout)["items"]
    assert any(e["reason"] == "FailedScheduling" and "nvidia.com/gpu" in e["message"] for e in events)
