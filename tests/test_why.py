"""The scheduler model (tutor/cluster/placement.py) and its explanations (tutor/checks/explain.py).

On the recordings of the real control plane: every PodScheduled=False message the scheduler wrote
gets the same per-reason node counts from the model, and every node the scheduler bound a pod to
is one the model says fits. Then the rules the recordings do not exercise, one by one, on small
objects (the e2e agreement test proves those against the real scheduler).
"""

from __future__ import annotations

import pytest

from tests import waits
from tests.states import check, recording, running, state
from tutor.checks.explain import explain, explain_in_store
from tutor.cluster import objects as o
from tutor.cluster import placement as pl
from tutor.cluster import resources as res
from tutor.cluster import scheduler_message as sm
from tutor.cluster.source_events import ObjectEvent
from tutor.lesson.loader import load
from tutor.session import Session

RECORDINGS = ["walkthrough", "orphan-without-llm", "wrong-annotation", "names-swapped", "restart-after-failure",
              "version-worker-only", "dns-short-name"]


def _moments(name: str):
    """(kind, pod, session just before the pod changed): 'refused' where the scheduler wrote a new
    PodScheduled=False message (the session holds that pod), 'bound' where a pod got its node."""
    s = Session(load(), "/root/gsb-lws", "en")
    for it in recording(name).items:
        if isinstance(it, ObjectEvent) and o.kind(it.obj) == "Pod" and it.type != "DELETED":
            pod, old = it.obj, s.store.get("Pod", o.name(it.obj), o.namespace(it.obj))
            msg = o.condition(pod, "PodScheduled").get("message") if \
                o.condition(pod, "PodScheduled").get("status") == "False" else None
            if msg and (old is None or o.condition(old, "PodScheduled").get("message") != msg):
                s.apply(it)
                yield "refused", pod, s
                continue
            if o.node_name(pod) and (old is None or not o.node_name(old)):
                yield "bound", pod, s
        s.apply(it)


def _place(pod: dict, s: Session) -> pl.Placement:
    return pl.place(pod, s.store.all("Node"), list(s.store.pods_named(o.namespace(pod)).values()))


def test_the_model_agrees_with_every_scheduler_decision_in_the_recordings():
    refused = bound = 0
    for name in RECORDINGS:
        for kind, pod, s in _moments(name):
            p = _place(pod, s)
            if kind == "refused":
                refused += 1
                said = sm.parse_message(o.condition(pod, "PodScheduled")["message"])
                assert p.histogram() == said.histogram() and said.total == len(p.nodes), (name, o.name(pod))
                assert p.fitting == []
            else:
                bound += 1
                assert o.node_name(pod) in p.fitting, (name, o.name(pod), p.nodes)
    assert refused >= 1 and bound >= 40  # the walkthrough's orphan worker, and every pod placed


def test_parse_message_splits_the_clauses_and_keeps_the_preemption_report():
    msg = o.condition(state("walkthrough").store.get("Pod", "orphan-0-1", "infer"), "PodScheduled")["message"]
    m = sm.parse_message(msg)
    assert m.total == 3
    assert m.histogram() == {"Insufficient nvidia.com/gpu": 1, "node(s) had untolerated taint(s)": 2}
    assert m.rest.startswith("preemption: ")
    assert sm.parse_message("0/2 nodes are available: node(s) didn't satisfy plugin NodeAffinity.").prefilter \
        == "node(s) didn't satisfy plugin NodeAffinity"
    assert sm.parse_message("binding rejected: x").total is None


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_step8_names_the_gpu_holders_and_the_kwok_taint(lang):
    v = check(state("walkthrough", lang=lang), 8)
    assert v.passed
    gpu = next(d for d in v.details if d.strip().startswith("lab-server: nvidia.com/gpu"))
    for holder in ("llm-0", "llm-0-1", "llm-1", "llm-1-1"):
        assert holder in gpu
    assert "4" in gpu and "orphan-0-1" in gpu
    taint = next(d for d in v.details if d.strip().startswith("gpu-a, gpu-b: "))
    assert "kwok.x-k8s.io/node=fake:NoSchedule" in taint and "orphan-0-1" in taint
    assert ("1 Insufficient nvidia.com/gpu" in v.details) and ("2 node(s) had untolerated taint(s)" in v.details)
    assert any("infer" in d for d in v.details)  # says the view is one namespace's pods


def test_step8_failure_explains_too():
    s = state("walkthrough", files={"partial.txt": "no idea"})
    v = check(s, 8)
    assert not v.passed and any(d.strip().startswith("lab-server: nvidia.com/gpu") for d in v.details)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_step7_says_why_each_group_landed_where_it_did(lang):
    s = state("walkthrough", after=running("wide-1-1"), lang=lang)
    v = check(s, 7)
    assert v.passed
    text = "\n".join(v.details)
    n0, n1 = (o.node_name(s.store.get("Pod", p, "infer")) for p in ("wide-0", "wide-1"))
    assert {n0, n1} == {"gpu-a", "gpu-b"}  # the scheduler's choice, as recorded
    g0 = next(d for d in v.details if n0 in d and "wide-0-1" in d and "wide-0" in d)
    g1 = next(d for d in v.details if n1 in d and "wide-1-1" in d)
    assert g0 != g1
    # what keeps a group together is its worker StatefulSet's nodeSelector, as the objects show
    assert any(f"StatefulSet wide-0 pins wide-0-1 to its leader's node by nodeSelector kubernetes.io/hostname={n0}" in d
               for d in v.details) if lang == "en" else any(
        f"StatefulSet wide-0이 nodeSelector kubernetes.io/hostname={n0}" in d for d in v.details)
    # the anti-affinity keeps each group off the other's node, naming the pod there
    assert any(n1 in d and "wide-1" in d and d.startswith("  ") for d in v.details)
    assert any(n0 in d and "wide-0" in d and d.startswith("  ") for d in v.details)
    assert "lab-server" in text and "type=kwok" in text


def test_a_running_pod_is_judged_without_itself_and_its_binding():
    s = state("walkthrough")
    why = explain_in_store(s.store, "infer", "llm-0", "en")
    assert why.placement.fitting == ["lab-server"]  # its own GPU is not counted against it
    assert "lab-server" in why.headline and "fits" in why.headline
    assert any("gpu-a, gpu-b: taint" in line for _, line in why.lines)


# --- the rules, one by one ---------------------------------------------------------------------

def node(name, labels=None, taints=(), alloc=None, unschedulable=False, ready=True):
    return {"kind": "Node", "metadata": {"name": name, "labels": {pl.HOSTNAME: name, **(labels or {})}},
            "spec": {"taints": list(taints), **({"unschedulable": True} if unschedulable else {})},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110", **(alloc or {})},
                       "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}


def pod(name, ns="t", node_name="", labels=None, requests=None, init=(), **spec):
    c = {"name": "c", "resources": {"requests": requests or {}}}
    return {"kind": "Pod", "metadata": {"name": name, "namespace": ns, "uid": f"uid-{name}", "labels": labels or {}},
            "spec": {"containers": [c], "initContainers": list(init),
                     **({"nodeName": node_name} if node_name else {}), **spec},
            "status": {"phase": "Running" if node_name else "Pending"}}


TAINT = {"key": "k", "value": "v", "effect": "NoSchedule"}


@pytest.mark.parametrize("tolerations, ok", [
    ([], False),
    ([{"key": "k", "operator": "Equal", "value": "v"}], True),
    ([{"key": "k", "value": "other"}], False),
    ([{"key": "k", "operator": "Exists"}], True),
    ([{"operator": "Exists"}], True),  # empty key + Exists tolerates everything
    ([{"key": "k", "operator": "Exists", "effect": "NoExecute"}], False),
    ([{"key": "k", "operator": "Gt", "value": "1"}], False),  # comparison operators: gate off
])
def test_taint_toleration(tolerations, ok):
    p = pl.place(pod("x", tolerations=tolerations), [node("n", taints=[TAINT])], [])
    assert p.fitting == (["n"] if ok else [])
    if not ok:
        assert p.histogram() == {pl.R_TAINT: 1} and p.nodes[0].rejection.taint == TAINT


def test_prefer_no_schedule_taints_do_not_filter():
    assert pl.place(pod("x"), [node("n", taints=[{**TAINT, "effect": "PreferNoSchedule"}])], []).fitting == ["n"]


def test_filter_order_counts_a_node_under_its_first_failing_plugin():
    n = node("n", taints=[TAINT], unschedulable=True, alloc={"nvidia.com/gpu": "0"})
    p = pl.place(pod("x", requests={"nvidia.com/gpu": "1"}, nodeSelector={"a": "b"}), [n], [])
    assert p.histogram() == {pl.R_UNSCHEDULABLE: 1}
    tolerant = pod("x", requests={"nvidia.com/gpu": "1"}, nodeSelector={"a": "b"},
                   tolerations=[{"operator": "Exists"}])
    assert pl.place(tolerant, [n], []).histogram() == {pl.R_AFFINITY: 1}


def test_unschedulable_is_tolerated_by_its_taint_key():
    tol = [{"key": pl.UNSCHEDULABLE_TAINT, "operator": "Exists", "effect": "NoSchedule"}]
    assert pl.place(pod("x", tolerations=tol), [node("n", unschedulable=True)], []).fitting == ["n"]


@pytest.mark.parametrize("expr, fits", [
    ({"key": "type", "operator": "In", "values": ["kwok"]}, ["a"]),
    ({"key": "type", "operator": "NotIn", "values": ["kwok"]}, ["b", "c"]),  # a missing label is NotIn
    ({"key": "type", "operator": "Exists"}, ["a", "b"]),
    ({"key": "type", "operator": "DoesNotExist"}, ["c"]),
    ({"key": "gpus", "operator": "Gt", "values": ["3"]}, ["b"]),
    ({"key": "gpus", "operator": "Lt", "values": ["3"]}, ["a"]),
])
def test_node_affinity_operators(expr, fits):
    nodes = [node("a", {"type": "kwok", "gpus": "2"}), node("b", {"type": "real", "gpus": "8"}), node("c")]
    aff = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [expr]}]}}}
    p = pl.place(pod("x", affinity=aff), nodes, [])
    assert p.fitting == fits
    assert p.histogram() == ({pl.R_AFFINITY: 3 - len(fits)} if len(fits) < 3 else {})


def test_node_affinity_terms_are_ored_and_match_fields_narrow_in_prefilter():
    nodes = [node("a"), node("b"), node("c")]
    aff = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a"]}]},
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["b"]}],
         "matchExpressions": [{"key": "x", "operator": "Exists"}]}]}}}
    p = pl.place(pod("x", affinity=aff), nodes, [])
    assert p.fitting == ["a"]
    assert p.histogram() == {pl.R_AFFINITY: 1, "node(s) didn't satisfy plugin(s) [NodeAffinity]": 1}
    none = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["zz"]}]}]}}}
    p = pl.place(pod("x", affinity=none), nodes, [])
    assert p.fitting == []  # the set names no node that exists
    assert p.message() == "0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [NodeAffinity]."


def test_resources_count_requests_of_pods_on_the_node_and_init_containers():
    n = node("n", alloc={"nvidia.com/gpu": "4", "cpu": "2"})
    held = [pod(f"h{i}", node_name="n", requests={"nvidia.com/gpu": "2"}) for i in range(2)]
    done = {**pod("old", node_name="n", requests={"nvidia.com/gpu": "4"}), "status": {"phase": "Succeeded"}}
    p = pl.place(pod("x", requests={"nvidia.com/gpu": "1"}), [n], held + [done])
    assert p.histogram() == {"Insufficient nvidia.com/gpu": 1}
    short = p.nodes[0].rejection.shortages[0]
    assert (short.used, short.allocatable, short.requested) == (4, 4, 1)
    assert [h for h, _ in short.holders] == ["t/h0", "t/h1"]
    # an init container's request counts when it is bigger than the containers' sum
    big_init = pod("y", requests={"cpu": "500m"}, init=[{"name": "i", "resources": {"requests": {"cpu": "3"}}}])
    assert res.pod_requests(big_init)["cpu"] == 3000
    assert pl.place(big_init, [n], []).histogram() == {"Insufficient cpu": 1}
    # a sidecar (restartable init container) adds to the containers
    side = pod("z", requests={"cpu": "1"}, init=[{"name": "s", "restartPolicy": "Always",
                                                 "resources": {"requests": {"cpu": "1500m"}}}])
    assert res.pod_requests(side)["cpu"] == 2500
    # a resource the node does not have at all is insufficient too
    assert pl.place(pod("w", requests={"example.com/foo": "1"}), [n], []).histogram() == \
        {"Insufficient example.com/foo": 1}


def test_too_many_pods():
    n = node("n", alloc={"pods": "1"})
    p = pl.place(pod("x"), [n], [pod("h", node_name="n")])
    assert p.histogram() == {pl.R_TOO_MANY_PODS: 1}


def _exclusive(name, key, node_name=""):
    """A leader pod as the LWS webhook shapes it for exclusive topology on hostname."""
    gk = "leaderworkerset.sigs.k8s.io/group-key"
    aff = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
        "labelSelector": {"matchExpressions": [{"key": gk, "operator": "In", "values": [key]}]},
        "topologyKey": pl.HOSTNAME}]},
        "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
            "labelSelector": {"matchExpressions": [{"key": gk, "operator": "Exists"},
                                                   {"key": gk, "operator": "NotIn", "values": [key]}]},
            "topologyKey": pl.HOSTNAME}]}}
    return pod(name, node_name=node_name, labels={gk: key}, affinity=aff)


def test_exclusive_topology_more_groups_than_nodes():
    nodes = [node("a"), node("b")]
    placed = [_exclusive("g0", "k0", "a"), _exclusive("g1", "k1", "b")]
    p = pl.place(_exclusive("g2", "k2"), nodes, placed)
    assert p.fitting == [] and p.histogram() == {pl.R_POD_ANTI_AFFINITY: 2}
    assert {f.rejection.blocker for f in p.nodes} == {"t/g0", "t/g1"}
    # a pod with no affinity of its own is kept off by the existing pods' anti-affinity
    plain = pod("p", labels={"leaderworkerset.sigs.k8s.io/group-key": "k9"})
    assert pl.place(plain, nodes, placed).histogram() == {pl.R_EXISTING_ANTI_AFFINITY: 2}
    # the first pod of a group passes its own affinity anywhere (no pod matches it yet)
    assert pl.place(_exclusive("g3", "k3"), nodes + [node("c")], placed).fitting == ["c"]
    # a second pod of group 0 must join it on node a
    assert pl.place(_exclusive("g0b", "k0"), nodes, placed).fitting == ["a"]


def test_explain_groups_nodes_by_cause_and_says_when_it_cannot_tell():
    nodes = [node("a", taints=[TAINT]), node("b", taints=[TAINT]), node("c", {"type": "x"})]
    p = pod("x", nodeSelector={"type": "kwok"},
            containers=[{"name": "c", "ports": [{"containerPort": 80, "hostPort": 80}]}])
    why = explain(p, nodes, [], [], "en")
    lines = [line for _, line in why.lines]
    assert "2 node(s) had untolerated taint(s)" in lines
    assert any(line.startswith("a, b: taint k=v:NoSchedule") for line in lines)
    assert any(line.startswith("c: ") and "type=kwok (node: type=x)" in line for line in lines)
    assert any("cannot tell" in line and "NodePorts" in line for line in lines)
    ko = explain(p, nodes, [], [], "ko")
    assert any("알 수 없습니다" in line for _, line in ko.lines)


def test_quantities():
    assert res.quantity("500m") * 1000 == 500 and res.quantity("1Gi") == 2**30 and res.quantity("2e3") == 2000
    assert res.quantity("abc") is None and res.quantity(True) is None and res.quantity(None) is None
    assert res.scaled("cpu", res.quantity("0.0001")) == 1  # rounded up, as MilliValue does


# --- lwstutor why --------------------------------------------------------------------------------

def _why(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "tutor", "why", *args], capture_output=True, text=True,
                          timeout=waits.PROCESS, stdin=subprocess.DEVNULL)


def test_why_on_a_recording_prints_the_clauses_with_their_nodes():
    from tests.conftest import WALKTHROUGH

    res = _why("orphan-0-1", "--replay", str(WALKTHROUGH), "--lang", "en")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("orphan-0-1 is Pending. The scheduler said: 0/3 nodes are available")
    assert lines[1] == "1 Insufficient nvidia.com/gpu" and lines[2].startswith("  lab-server: nvidia.com/gpu: 4 of 4")
    assert "only" in res.stdout and "infer" in res.stdout  # the replay holds one namespace's pods


def test_why_json_and_a_running_pod():
    import json

    from tests.conftest import WALKTHROUGH

    res = _why("orphan-0", "--replay", str(WALKTHROUGH), "--json", "--lang", "ko")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["node"] == "lab-server" and out["tutor"]["fitting"] == ["lab-server"]
    assert {n["node"]: n["plugin"] for n in out["nodes"]} == {"gpu-a": "TaintToleration", "gpu-b": "TaintToleration",
                                                               "lab-server": None}
    assert out["tutor"]["pods_seen"] == "namespace infer" and "스케줄러" in out["explanation"][0]


def test_why_unknown_pod_is_a_usage_error():
    from tests.conftest import WALKTHROUGH

    res = _why("nope", "--replay", str(WALKTHROUGH), "--lang", "en")
    assert res.returncode == 2 and "pod nope not found in namespace infer" in res.stderr
    res = _why("nope", "--replay", str(WALKTHROUGH), "--lang", "ko")
    assert res.returncode == 2 and "infer 네임스페이스에 nope 파드가 없습니다" in res.stderr


def test_a_gated_pod_says_the_gates_hold_it():
    gated = pod("x", schedulingGates=[{"name": "wait-for-quota"}])
    why = explain(gated, [node("n")], [], [], "en")
    assert "wait-for-quota" in why.lines[0][1] and why.placement.fitting == ["n"]


def test_a_busy_node_names_a_few_holders_and_counts_the_rest():
    from tutor.checks.explain import holders_text

    pods = [pod(f"g{g}-{w}", node_name="n", labels={o.NAME_LABEL: "big", o.GROUP_INDEX_LABEL: str(g),
                                                  o.WORKER_INDEX_LABEL: str(w)}) for g in range(10) for w in range(2)]
    text = holders_text([(f"t/{o.name(p)}", 1) for p in pods], "t", {f"t/{o.name(p)}": p for p in pods})
    assert text.startswith("g0-0, g0-1 (big #0); g1-0, g1-1 (big #1)") and text.endswith("12 more in 6 groups")


def test_node_name_narrows_in_prefilter_and_filters():
    nodes = [node("a"), node("b", taints=[TAINT])]
    p = pl.place(pod("x"), nodes, [], want="b")
    assert p.fitting == [] and p.histogram() == {"node(s) didn't satisfy plugin(s) [NodeName]": 1, pl.R_TAINT: 1}
    assert pl.place(pod("x"), nodes, [], want="zz").message() == \
        "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeName]."


def test_holders_with_odd_group_labels_do_not_break_the_explanation():
    from tutor.checks.explain import holders_text

    odd = pod("odd", node_name="n", labels={o.NAME_LABEL: "big", o.GROUP_INDEX_LABEL: "\u00b2"})
    good = pod("good", node_name="n", labels={o.NAME_LABEL: "big", o.GROUP_INDEX_LABEL: "0"})
    assert holders_text([("t/odd", 1), ("t/good", 1)], "t", {"t/odd": odd, "t/good": good}) == "odd (big #?); good (big #0)"


# --- gangs and what the node filters do not explain ------------------------------------------------
# Shapes measured on the lab's v1.37.2 scheduler (tests/e2e/test_why_gangs.py holds them against it).

GPU = "nvidia.com/gpu"


def member(name, group="g0", gpus=1, message="", node_name="", **spec):
    p = pod(name, node_name=node_name, requests={GPU: str(gpus)} if gpus else None,
            schedulingGroup={"podGroupName": group}, **spec)
    if message:
        p["status"]["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                      "message": message}]
    return p


def pod_group(name, min_count, ns="t", condition=None):
    return {"kind": "PodGroup", "metadata": {"name": name, "namespace": ns, "uid": f"uid-pg-{name}"},
            "spec": {"schedulingPolicy": {"gang": {"minCount": min_count}}},
            "status": {"conditions": [condition] if condition else []}}


UNSCHEDULABLE = {"type": "PodGroupInitiallyScheduled", "status": "False", "reason": "Unschedulable",
                 "message": "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining"}
ONE_FREE = [node("server", alloc={GPU: "4"}), node("kwok", taints=[TAINT], alloc={GPU: "4"})]
HOLDING = [pod("filler", node_name="server", requests={GPU: "3"})]


def _texts(why):
    return why.text_lines()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_pod_whose_pod_group_is_missing_is_held_silently_and_names_it(lang):
    p = member("a", group="nowhere")
    why = explain(p, ONE_FREE, [p, *HOLDING], [], lang, pod_groups=[])
    assert why.hold.kind == "no-pod-group" and why.hold.subject == "nowhere"
    assert "nowhere" in why.headline and "t" in why.headline
    assert not any("Fits now" in line or "들어갈 수 있음" in line for line in _texts(why))
    assert ("지정한 PodGroup nowhere가 네임스페이스 t에 없습니다" in why.headline) if lang == "ko" else \
        ("does not exist" in why.headline and "no event, no message" in why.lines[0][1])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_min_count_above_the_pods_that_name_the_group_is_held_silently(lang):
    pods = [member("a", gpus=0), member("b", gpus=0)]
    why = explain(pods[0], ONE_FREE, pods, [], lang, pod_groups=[pod_group("g0", 3)])
    assert why.hold.kind == "min-count" and why.hold.pods == ("a", "b")
    assert "3" in why.headline and "a, b" in why.headline and "Pending" in why.lines[0][1]
    assert not any(line.startswith(("Fits now", "지금은 들어갈")) for line in _texts(why))
    # a finished pod is no member: the scheduler's informer drops it
    done = {**member("c", gpus=0), "status": {"phase": "Succeeded"}}
    assert explain(pods[0], ONE_FREE, [*pods, done], [], lang, pod_groups=[pod_group("g0", 3)]).hold.pods == ("a", "b")
    # enough pods: PreEnqueue lets them through, and the pod is judged on the nodes
    assert explain(pods[0], ONE_FREE, pods, [], lang, pod_groups=[pod_group("g0", 2)]).hold is None


GROUP_SAID = ("pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, "
              "pod group preemption: No preemption victims found for incoming preemptor")
OWN_SAID = "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint(s)."


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_pod_turned_away_for_its_gang_names_the_pod_that_blocks_it(lang):
    gang = [member("g0", gpus=0, message=GROUP_SAID), member("g0-1", message=GROUP_SAID), member("g0-2", message=OWN_SAID)]
    why = explain(gang[1], ONE_FREE, [*gang, *HOLDING], [], lang, pod_groups=[pod_group("g0", 3, condition=UNSCHEDULABLE)])
    assert why.hold.kind == "gang" and why.hold.subject == "g0" and why.hold.pods == ("g0-2",)
    text = "\n".join(_texts(why))
    assert "g0-2" in text and "Insufficient nvidia.com/gpu" in text and "server" in text
    assert not any(line.startswith(("Fits now", "지금은 들어갈")) for line in _texts(why))
    assert ("혼자라면 g0-1은 들어갈 수 있습니다: server" in text) if lang == "ko" else ("Alone, g0-1 would fit: server" in text)
    # the group's reason alone, on a pod the attempt stopped before, is the gang's too
    bare = member("g0-1", message="minCount (3) cannot be satisfied: 0 scheduled, 1 remaining")
    assert explain(bare, ONE_FREE, [gang[0], bare, gang[2]], [], lang,
                   pod_groups=[pod_group("g0", 3, condition=UNSCHEDULABLE)]).hold.kind == "gang"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_blocker_is_counted_with_its_gang_placed_first(lang):
    gang = [member("g0", gpus=0, message=GROUP_SAID), member("g0-1", message=GROUP_SAID), member("g0-2", message=OWN_SAID)]
    pgs = [pod_group("g0", 3, condition=UNSCHEDULABLE)]
    why = explain(gang[2], ONE_FREE, [*gang, *HOLDING], [], lang, pod_groups=pgs)
    # alone it would fit the one free GPU; with g0-1 on it first, as the scheduler's attempt had it, it does not
    assert pl.place(gang[2], ONE_FREE, [*gang, *HOLDING]).fitting == ["server"]
    assert why.placement.fitting == [] and why.placement.histogram() == sm.parse_message(OWN_SAID).histogram()
    assert why.hold.kind == "blocks-gang" and why.hold.subject == "g0"
    text = "\n".join(_texts(why))
    assert "g0-1 → server" in text and "g0 → server" in text
    assert ("g0-2가 갱을 막고 있습니다" in text) if lang == "ko" else ("g0-2 holds back its gang" in text)


def test_a_pod_of_a_gang_the_tutor_cannot_read_says_so():
    p = member("a", gpus=0)
    why = explain(p, ONE_FREE, [p], [], "en", pod_groups=None)
    assert why.hold.kind == "gang-unseen" and "cannot tell" in "\n".join(_texts(why))
    assert not any(line.startswith("Fits now") for line in _texts(why))
    assert any(line.startswith("Alone, it would fit: server") for line in _texts(why))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_another_scheduler_is_named_and_the_taints_are_not_blamed(lang):
    p = pod("x", schedulerName="volcano")
    why = explain(p, ONE_FREE, [p], [], lang)
    assert why.hold.kind == "scheduler-name" and why.hold.subject == "volcano" and "volcano" in why.headline
    assert not any("taint" in line or "테인트" in line or "Fits now" in line for line in _texts(why))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_unbound_claim_is_a_reason_the_tutor_does_not_check(lang):
    said = "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found"
    p = pod("x", volumes=[{"name": "d", "persistentVolumeClaim": {"claimName": "data"}}])
    p["status"]["conditions"] = [{"type": "PodScheduled", "status": "False", "message": said}]
    why = explain(p, ONE_FREE, [p], [], lang)
    text = "\n".join(_texts(why))
    assert why.hold.kind == "unmodelled" and "data" in text
    assert "finds instead" not in text and "Fits now" not in text and "지금은 들어갈" not in text
    assert ("Passes the filters the tutor models: server" in text) if lang == "en" else ("튜터가 다루는 필터로는" in text)


def test_group_messages_are_told_from_a_pods_own():
    from tutor.cluster import gang

    assert gang.is_group_message(GROUP_SAID)
    assert gang.is_group_message("minCount (2) cannot be satisfied: 0 scheduled, 1 remaining")
    assert not gang.is_group_message(OWN_SAID) and not gang.is_group_message("")
    assert gang.state(None) == "no PodGroup" and gang.state(pod_group("g", 2)) == "Pending"
    assert gang.state(pod_group("g", 2, condition=UNSCHEDULABLE)) == "Unschedulable"
    assert gang.state(pod_group("g", 2, condition={"type": "PodGroupInitiallyScheduled", "status": "True"})) == "Scheduled"


def test_the_store_reads_pod_groups_only_where_the_lesson_watches_them():
    from tutor.cluster import kinds
    from tutor.cluster.source_events import Conn, SourceState
    from tutor.cluster.store import Store

    def store(watched):
        st = Store(watched=watched)
        for obj in (*ONE_FREE, member("a", gpus=0)):
            st.apply(ObjectEvent("ADDED", obj, 0.0))
        return st

    # a lesson without PodGroups: the store's empty bucket says nothing about the cluster
    assert explain_in_store(store(("Pod", "Node")), "t", "a", "en").hold.kind == "gang-unseen"
    assert explain_in_store(store(("Pod", "Node", "PodGroup")), "t", "a", "en").hold.kind == "no-pod-group"
    # watched, but the cluster refused the list: cannot tell either
    s = Session(load(), "/root/gsb-lws", "en")
    s.store.watched = frozenset({"Pod", "Node", "PodGroup"})
    s.apply(SourceState("podgroups", Conn.FORBIDDEN, "denied"))
    assert not s.store.sees("PodGroup") and kinds.POD_GROUP.kind in s.store.refused
    s.apply(SourceState("podgroups", Conn.OK, ""))
    assert s.store.sees("PodGroup")
