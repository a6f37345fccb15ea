"""The tutor's scheduler model against the real kube-scheduler on the lab control plane.

Each case creates its own KWOK nodes (capacity, labels, taints, cordon), pods already bound to
them (holding GPUs), then one pod for the scheduler to place, or an LWS with exclusive topology.
For every pod the scheduler refused, the model's per-reason node counts must equal the counts in
the scheduler's own message and the model must find no node that fits; for every pod it bound,
the model must say the chosen node fits. The model sees every node and every pod of the cluster
(the lab's own nodes count in "0/N" too). Cases: a fixed list covering each rule, then a bounded
hypothesis generator over small cluster shapes. The figures are printed and asserted (zero
disagreements); docs/testing.md quotes them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import waits
from tests.e2e.labcluster.lab import GPU, LOOPBACK, node as lab_node
from tutor.cluster import objects as o
from tutor.cluster import placement as pl
from tutor.cluster import scheduler_message as sm

CASE_LABEL = "why-case"
TAINT = {"key": "why/dedicated", "value": "yes", "effect": "NoSchedule"}
TAINT_EXEC = {"key": "why/evict", "value": "now", "effect": "NoExecute"}
NOT_READY_TAINTS = ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")
# The scheduler's cache sizes, as its /metrics says them (refreshed there every second): a case
# places its pods only once the scheduler holds the nodes and pods the API server holds.
CACHE_SIZE = re.compile(r'^scheduler_cache_size\{type="(nodes|pods)"\} (\d+)', re.M)
AGREE_WITHIN = waits.LAB  # a refused pod's message is compared until it holds still and agrees


@dataclass
class Tally:
    cases: int = 0
    pods: int = 0
    refused: int = 0
    bound: int = 0
    disagreements: list[str] = field(default_factory=list)
    reasons: Counter = field(default_factory=Counter)  # the scheduler's reasons seen, by nodes counted


TALLY = Tally()


class Bench:
    """Creates a case's objects with the lab's kubectl, reads back with it, and cleans up."""

    def __init__(self, lab):
        self.lab = lab
        self.n = 0

    def kubectl_json(self, *args) -> dict:
        return json.loads(self.lab.kubectl(*args, "-o", "json").stdout)

    def apply(self, objs: list[dict]) -> None:
        self.lab.kubectl("create", "-f", "-", input=yaml.safe_dump_all(objs))

    def snapshot(self) -> tuple[list[dict], list[dict]]:
        nodes = self.kubectl_json("get", "nodes")["items"]
        pods = self.kubectl_json("get", "pods", "--all-namespaces")["items"]
        return nodes, pods

    def wait(self, what: str, cond, timeout: float = waits.LAB):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = cond()
            if got:
                return got
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}")

    def run(self, nodes: list[dict], bound: list[dict], pending: list[dict], lws: dict | None = None) -> None:
        self.n += 1
        case = f"c{self.n}-{int(time.time()) % 100000}"
        ns = f"why-{case}"
        names = [f"{case}-n{i}" for i in range(len(nodes))]
        node_objs = [_node(name, case, spec) for name, spec in zip(names, nodes)]
        try:
            self.apply([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}, *node_objs])
            self.wait("the case's nodes Ready and untainted by the node controller", lambda: self._ready(names))
            self.wait("the scheduler to hold the case's nodes", self._scheduler_caught_up)
            if bound:
                self.apply([_pod(f"held-{i}", ns, case, node_name=names[b["node"]], gpus=b["gpus"],
                                 tolerations=[{"operator": "Exists"}], labels=b.get("labels"), anti=b.get("anti", ""))
                            for i, b in enumerate(bound)])
                self.wait("the scheduler to hold the bound pods", self._scheduler_caught_up)
            watched = []
            for i, p in enumerate(pending):
                name = f"p{i}"
                self.apply([_pod(name, ns, case, names=names, **p)])
                watched.append((ns, name))
                self.wait(f"{name} tried by the scheduler", lambda: self._tried(ns, name))
            if lws is not None:
                self.lab.kubectl("apply", "-f", "-", input=yaml.safe_dump(_lws(ns, case, **lws)))
                want = lws["replicas"]
                self.wait("every LWS leader tried", lambda: self._leaders_tried(ns, want))
                watched += [(ns, o.name(p)) for p in self.kubectl_json("get", "pods", "-n", ns)["items"]
                            if o.name(p).startswith("excl")]
            self.compare(watched)
        finally:
            self.lab.kubectl("delete", "namespace", ns, "--wait=false", check=False)
            self.lab.kubectl("delete", "nodes", *names, "--wait=true", check=False, timeout=120)
            self.wait("the scheduler to drop the case's nodes", self._scheduler_caught_up)

    def _scheduler_caught_up(self) -> bool:
        """The scheduler's cache holds what the API server holds: the pods bound to a node and not
        finished (what its informer keeps), and a node for each node there and for each node a
        held pod is still bound to (a deleted node's entry stays while its pods do)."""
        nodes, pods = self.snapshot()
        bound = [p for p in pods if o.node_name(p) and p.get("status", {}).get("phase") not in ("Succeeded", "Failed")]
        node_names = {o.name(n) for n in nodes} | {o.node_name(p) for p in bound}
        url = f"https://{LOOPBACK}:{self.lab.ports['scheduler']}/metrics"
        held = dict(CACHE_SIZE.findall(self.lab.get(url, insecure=True)))
        return held == {"nodes": str(len(node_names)), "pods": str(len(bound))}

    def _ready(self, names: list[str]) -> bool:
        nodes = {o.name(n): n for n in self.kubectl_json("get", "nodes")["items"]}
        return all(n in nodes and o.node_ready(nodes[n])
                   and not any(t.get("key") in NOT_READY_TAINTS for t in o.taints(nodes[n]))
                   for n in names)

    def _tried(self, ns: str, name: str) -> bool:
        pod = self.kubectl_json("get", "pod", name, "-n", ns)
        return bool(o.node_name(pod)) or o.condition(pod, "PodScheduled").get("status") == "False"

    def _leaders_tried(self, ns: str, replicas: int) -> bool:
        pods = self.kubectl_json("get", "pods", "-n", ns)["items"]
        leaders = [p for p in pods if o.worker_index(p) == 0]
        return len(leaders) == replicas and all(
            o.node_name(p) or o.condition(p, "PodScheduled").get("status") == "False" for p in leaders)

    def compare(self, watched: list[tuple[str, str]]) -> None:
        TALLY.cases += 1
        deadline = time.monotonic() + AGREE_WITHIN
        while True:
            nodes, pods = self.snapshot()
            by_key = {(o.namespace(p), o.name(p)): p for p in pods}
            problems, counted, seen = [], [], Counter()
            for key in watched:
                pod = by_key.get(key)
                if pod is None:
                    continue
                placement = pl.place(pod, nodes, pods)
                if o.node_name(pod):
                    counted.append("bound")
                    if o.node_name(pod) not in placement.fitting:
                        problems.append(f"{key[1]} bound to {o.node_name(pod)}, which the tutor says does not fit: "
                                        f"{[(f.node, f.rejection) for f in placement.nodes if f.node == o.node_name(pod)]}")
                    continue
                cond = o.condition(pod, "PodScheduled")
                if cond.get("status") != "False" or not cond.get("message"):
                    continue  # a worker not tried yet: nothing to compare
                counted.append("refused")
                said = sm.parse_message(cond["message"])
                seen.update(said.histogram())
                if said.prefilter:
                    seen[said.prefilter] += said.total or 0
                ours = placement.histogram()
                if said.total != len(nodes) or said.histogram() != ours or placement.fitting \
                        or said.prefilter != placement.prefilter_failure:
                    problems.append(f"{key[1]}: scheduler {cond['message']!r}; tutor {placement.message()!r}, "
                                    f"fits {placement.fitting}")
            if not problems or time.monotonic() > deadline:
                break
            time.sleep(1.0)
        TALLY.pods += len(counted)
        TALLY.refused += counted.count("refused")
        TALLY.bound += counted.count("bound")
        TALLY.disagreements += problems
        TALLY.reasons.update(seen)


def _node(name: str, case: str, spec: dict) -> dict:
    labels = {CASE_LABEL: case, **spec.get("labels", {})}
    taints = spec.get("taints", [])
    n = lab_node(name, labels, taints, pods=spec.get("pods", 110))
    for field_ in ("capacity", "allocatable"):
        n["status"][field_][GPU] = str(spec.get("gpus", 4))
    if spec.get("cordoned"):
        n["spec"]["unschedulable"] = True
    return n


def _app_term(app: str) -> list[dict]:
    return [{"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": pl.HOSTNAME}]


def _pod(name: str, ns: str, case: str, node_name: str = "", gpus: int = 0, tolerations=None, selector=None,
         affinity=None, names=None, init_gpus: int = 0, own_nodes: bool = False, labels=None,
         anti: str = "", pod_affinity: str = "") -> dict:
    c = {"name": "c", "image": "busybox:1.36"}
    if gpus:
        c["resources"] = {"limits": {GPU: gpus}}
    spec: dict = {"containers": [c], "terminationGracePeriodSeconds": 0}
    if init_gpus:
        spec["initContainers"] = [{"name": "init", "image": "busybox:1.36", "resources": {"limits": {GPU: init_gpus}}}]
    if node_name:
        spec["nodeName"] = node_name
    if tolerations:
        spec["tolerations"] = tolerations
    sel = dict(selector or {})
    if own_nodes:
        sel[CASE_LABEL] = case
    if sel:
        spec["nodeSelector"] = sel
    if affinity is not None:
        terms = affinity(names or [])
        spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": terms}}}
    if anti:
        spec.setdefault("affinity", {})["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution":
                                                              _app_term(anti)}
    if pod_affinity:
        spec.setdefault("affinity", {})["podAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution":
                                                          _app_term(pod_affinity)}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": labels or {}},
            "spec": spec}


def _lws(ns: str, case: str, replicas: int, tolerate: bool = True) -> dict:
    extra = {"nodeSelector": {CASE_LABEL: case}, "terminationGracePeriodSeconds": 0}
    if tolerate:
        extra["tolerations"] = [{"operator": "Exists"}]
    tmpl = {"spec": {"containers": [{"name": "c", "image": "busybox:1.36", "resources": {"limits": {GPU: 1}}}],
                     **extra}}
    return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
            "metadata": {"name": "excl", "namespace": ns,
                         "annotations": {o.EXCLUSIVE_ANNOTATION: pl.HOSTNAME}},
            "spec": {"replicas": replicas, "leaderWorkerTemplate": {"size": 2, "leaderTemplate": tmpl,
                                                                    "workerTemplate": tmpl}}}


# --- node affinity shapes, as functions of the case's node names ------------------------------------

def _expr(key, op, *values):
    return {"matchExpressions": [{"key": key, "operator": op, **({"values": list(values)} if values else {})}]}


AFFINITIES = {
    "zone In [a]": lambda names: [_expr("zone", "In", "a")],
    "zone NotIn [a]": lambda names: [_expr("zone", "NotIn", "a")],
    "zone Exists": lambda names: [_expr("zone", "Exists")],
    "zone DoesNotExist": lambda names: [_expr("zone", "DoesNotExist")],
    "gpus Gt 3": lambda names: [_expr("gpus", "Gt", "3")],
    "gpus Lt 3": lambda names: [_expr("gpus", "Lt", "3")],
    "zone In [z] or zone In [b]": lambda names: [_expr("zone", "In", "z"), _expr("zone", "In", "b")],
    "name In [first]": lambda names: [{"matchFields": [{"key": "metadata.name", "operator": "In",
                                                        "values": names[:1]}]}],
    "name NotIn [first]": lambda names: [{"matchFields": [{"key": "metadata.name", "operator": "NotIn",
                                                           "values": names[:1]}]}],
}
TOLERATIONS = {
    "none": None,
    "all": [{"operator": "Exists"}],
    "dedicated=yes": [{"key": TAINT["key"], "operator": "Equal", "value": "yes", "effect": "NoSchedule"}],
    "dedicated=no": [{"key": TAINT["key"], "operator": "Equal", "value": "no"}],
    "dedicated exists, NoExecute only": [{"key": TAINT["key"], "operator": "Exists", "effect": "NoExecute"}],
    "cordon": [{"key": pl.UNSCHEDULABLE_TAINT, "operator": "Exists", "effect": "NoSchedule"}],
}


@pytest.fixture(scope="module")
def bench(lab):
    yield Bench(lab)
    print(f"\nscheduler agreement: {TALLY.cases} cases, {TALLY.pods} pods compared "
          f"({TALLY.refused} refused, {TALLY.bound} bound), {len(TALLY.disagreements)} disagreements")
    for reason, n in TALLY.reasons.most_common():
        print(f"  {n:4} node(s): {reason}")
    for d in TALLY.disagreements:
        print("  DISAGREE", d)


FIXED = {
    "gpus over what is free": ([{"gpus": 4}, {"gpus": 2}], [{"node": 0, "gpus": 3}, {"node": 1, "gpus": 2}],
                               [{"gpus": 2, "own_nodes": True}]),
    "more gpus than any node has": ([{"gpus": 4}], [], [{"gpus": 5}]),
    "untolerated taint and a toleration": ([{"taints": [TAINT]}, {"taints": [TAINT_EXEC]}], [],
                                           [{"own_nodes": True},
                                            {"own_nodes": True, "tolerations": TOLERATIONS["dedicated=yes"]}]),
    "nodeSelector matching nothing": ([{"labels": {"zone": "a"}}, {"labels": {"zone": "b"}}], [],
                                      [{"selector": {"zone": "z"}}]),
    "required affinity matching some nodes, all full": ([{"labels": {"zone": "a"}, "gpus": 1}, {"labels": {"zone": "b"}}],
                                                        [{"node": 0, "gpus": 1}],
                                                        [{"gpus": 1, "own_nodes": True, "affinity": AFFINITIES["zone In [a]"]}]),
    "cordoned node": ([{"cordoned": True}, {"cordoned": True, "taints": [TAINT]}], [],
                      [{"own_nodes": True}, {"own_nodes": True, "tolerations": TOLERATIONS["cordon"]}]),
    "metadata.name affinity": ([{}, {}], [{"node": 0, "gpus": 4}],
                               [{"gpus": 1, "affinity": AFFINITIES["name In [first]"]}]),
    "too many pods": ([{"pods": 1}], [{"node": 0, "gpus": 0}], [{"own_nodes": True}]),
    "existing pod's anti-affinity": ([{}, {"cordoned": True}],
                                     [{"node": 0, "gpus": 0, "labels": {"app": "solo"}, "anti": "solo"}],
                                     [{"own_nodes": True, "labels": {"app": "solo"}}]),
    "pod affinity to a pod on a full node": ([{"gpus": 1}, {}], [{"node": 0, "gpus": 1, "labels": {"app": "db"}}],
                                             [{"own_nodes": True, "gpus": 1, "pod_affinity": "db"}]),
    "pod affinity to no pod at all": ([{}, {}], [], [{"own_nodes": True, "pod_affinity": "ghost"}]),
    "init container asks more than the containers": ([{"gpus": 2}], [], [{"own_nodes": True, "gpus": 1,
                                                                          "init_gpus": 3}]),
}


@pytest.mark.parametrize("case", list(FIXED))
def test_fixed_cases_agree_with_the_scheduler(bench, case):
    nodes, bound, pending = FIXED[case]
    before = len(TALLY.disagreements)
    bench.run(nodes, bound, pending)
    assert TALLY.disagreements[before:] == []


def test_exclusive_topology_with_more_groups_than_nodes(bench):
    before, refused = len(TALLY.disagreements), TALLY.refused
    bench.run([{}, {"taints": [TAINT]}], [], [], lws={"replicas": 3})
    assert TALLY.disagreements[before:] == []
    assert TALLY.refused > refused  # the third group's leader had no node left


node_shape = st.fixed_dictionaries({
    "gpus": st.sampled_from([0, 2, 4]),
    "labels": st.sampled_from([{}, {"zone": "a"}, {"zone": "b", "gpus": "8"}, {"zone": "a", "gpus": "2"}]),
    "taints": st.sampled_from([[], [], [TAINT], [TAINT_EXEC]]),
    "cordoned": st.sampled_from([False, False, False, True]),
    "pods": st.sampled_from([110, 110, 2]),
})


@st.composite
def shapes(draw):
    nodes = draw(st.lists(node_shape, min_size=1, max_size=3))
    bound = draw(st.lists(st.fixed_dictionaries({"node": st.integers(0, len(nodes) - 1),
                                                 "gpus": st.sampled_from([0, 1, 2]),
                                                 "labels": st.sampled_from([None, {"app": "a"}]),
                                                 "anti": st.sampled_from(["", "", "a"])}), max_size=2))
    bound = [b for b in bound if b["gpus"] <= nodes[b["node"]]["gpus"]]
    pod = draw(st.fixed_dictionaries({
        "gpus": st.sampled_from([0, 1, 2, 3, 5]),
        "tolerations": st.sampled_from(list(TOLERATIONS.values())),
        "selector": st.sampled_from([None, {"zone": "a"}, {"zone": "z"}]),
        "affinity": st.sampled_from([None, *AFFINITIES.values()]),
        "own_nodes": st.booleans(),
        "labels": st.sampled_from([None, {"app": "a"}]),
        "pod_affinity": st.sampled_from(["", "", "a", "ghost"]),
    }))
    return nodes, bound, [pod]


@settings(max_examples=30, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(shape=shapes())
def test_generated_shapes_agree_with_the_scheduler(bench, shape):
    nodes, bound, pending = shape
    before = len(TALLY.disagreements)
    bench.run(nodes, bound, pending)
    assert TALLY.disagreements[before:] == []


def test_why_orphan_on_the_live_lab(lab, learner):
    """`lwstutor why orphan-0-1 -n infer` on the lab names lab-server's GPU holders and the KWOK taint,
    and its counts are the scheduler's."""
    learner.step1()
    learner.step8()
    run = [sys.executable, "-m", "tutor", "why", "orphan-0-1", "-n", "infer", "--kubeconfig", str(lab.kubeconfig),
           "--lang", "en"]
    res = subprocess.run(run, capture_output=True, text=True, timeout=waits.PROCESS)
    assert res.returncode == 0, res.stderr
    assert "Insufficient nvidia.com/gpu" in res.stdout
    server = next(line for line in res.stdout.splitlines() if line.strip().startswith("lab-server: nvidia.com/gpu"))
    assert all(p in server for p in ("llm-0", "llm-0-1", "llm-1", "llm-1-1"))
    assert "gpu-a, gpu-b: taint kwok.x-k8s.io/node=fake:NoSchedule" in res.stdout
    out = json.loads(subprocess.run(run + ["--json"], capture_output=True, text=True, timeout=waits.PROCESS).stdout)
    assert out["tutor"]["counts"] == out["scheduler"]["counts"] and out["tutor"]["fitting"] == []
    assert out["tutor"]["pods_seen"] == "all namespaces"
    learner.reset()
