"""`why` against the real kube-scheduler on what its node model does not cover: gangs (Kubernetes
1.37 PodGroups, the lab runs with GenericWorkload on), a pod of another scheduler, a pod waiting
for its PersistentVolumeClaim.

Each case makes its own KWOK node (one free GPU, or none, or room), the pods and PodGroups, waits
until the scheduler has settled on them, then explains every pod with checks/explain.py from what
kubectl reads and holds the explanation against the scheduler, pod by pod:
- a pod with the scheduler's own message ("0/N nodes are available: …") must get that message's
  counts from the model (its gang's other pods counted as placed, as the scheduler's attempt had
  them) and no node that fits; in a gang it is the one named as holding the gang back;
- a pod with its gang's message ("pod group is unschedulable, …", "minCount (N) cannot be …")
  must be explained by its gang, naming exactly the gang's pods that have a message of their own;
- a pod the scheduler holds without a word must be said to be held, for the reason the
  scheduler's queues show: scheduler_pending_pods{queue="incomplete"} counts the pods whose
  PodGroup is missing, {queue="gated"} those PreEnqueue holds for minCount, and a pod of another
  scheduler is in no queue at all;
- a reason the model has no rule for (a volume's) must be said to be one, never replaced by the
  model's own (the taints) nor followed by "Fits now";
- a bound pod's node must fit it, and its PodGroup must read Scheduled.
The live `lwstutor why` is run on the blocker case too: it reads the PodGroups itself.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

import pytest
import yaml

from tests import waits
from tests.e2e.labcluster.lab import GPU, LOOPBACK
from tests.e2e.test_why_agreement import AGREE_WITHIN, CASE_LABEL, Bench, _node
from tutor.checks import holds
from tutor.checks.explain import explain
from tutor.cluster import gang as gg
from tutor.cluster import objects as o
from tutor.cluster import placement as pl
from tutor.cluster import scheduler_message as sm

PENDING = re.compile(r'^scheduler_pending_pods\{queue="(\w+)"\} (\d+)', re.M)
SETTLE = waits.LAB  # how long a case's pods may take to reach the state the case waits for


@dataclass
class GangTally:
    cases: int = 0
    pods: int = 0
    kinds: dict = field(default_factory=dict)  # what the tutor said, by Hold kind ("bound", "nodes")
    disagreements: list[str] = field(default_factory=list)


TALLY = GangTally()


class GangBench(Bench):
    """A Bench whose cases are gangs and pods the node model alone does not explain."""

    def pending(self) -> dict[str, int]:
        url = f"https://{LOOPBACK}:{self.lab.ports['scheduler']}/metrics"
        return {q: int(n) for q, n in PENDING.findall(self.lab.get(url, insecure=True))}

    def pod_groups(self, ns: str) -> list[dict]:
        return self.kubectl_json("get", "podgroups.scheduling.k8s.io", "-n", ns)["items"]

    def case(self, nodes: list[dict], bound: list[dict]) -> tuple[str, str, list[str]]:
        self.n += 1
        case = f"g{self.n}-{int(time.time()) % 100000}"
        ns = f"why-{case}"
        names = [f"{case}-n{i}" for i in range(len(nodes))]
        self.apply([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}},
                    *(_node(name, case, spec) for name, spec in zip(names, nodes))])
        self.wait("the case's nodes Ready and untainted by the node controller", lambda: self._ready(names))
        self.wait("the scheduler to hold the case's nodes", self._scheduler_caught_up)
        if bound:
            self.apply([_pod(f"held-{i}", ns, case, node_name=names[b["node"]], gpus=b["gpus"])
                        for i, b in enumerate(bound)])
            self.wait("the scheduler to hold the bound pods", self._scheduler_caught_up)
        return case, ns, names

    def clean(self, ns: str, names: list[str]) -> None:
        self.lab.kubectl("delete", "namespace", ns, "--wait=true", check=False, timeout=120)
        self.lab.kubectl("delete", "nodes", *names, "--wait=true", check=False, timeout=120)
        self.wait("the scheduler to drop the case's nodes", self._scheduler_caught_up)

    def settled(self, ns: str, want) -> dict:
        """Waits until every pod of the namespace but the held ones is bound or has the
        scheduler's message, and `want(pods, queues)` holds; returns the queues then."""
        def ready():
            pods = [p for p in self.kubectl_json("get", "pods", "-n", ns)["items"] if not o.name(p).startswith("held-")]
            queues = self.pending()
            return queues if pods and want(pods, queues) else None
        return self.wait("the scheduler to settle on the case", ready, timeout=SETTLE)

    def compare(self, ns: str, silent: str = "") -> list[dict]:
        """Explains every pod of the case and holds it against the scheduler; `silent` is the Hold
        kind the case's unmessaged pods must get. Returns the pods compared."""
        TALLY.cases += 1
        deadline = time.monotonic() + AGREE_WITHIN
        while True:  # the scheduler writes a gang's messages one pod at a time: a read may fall between
            nodes, pods = self.snapshot()
            pgs = self.pod_groups(ns)
            mine = [p for p in pods if o.namespace(p) == ns and not o.name(p).startswith("held-")]
            kinds: dict[str, int] = {}
            problems = [d for pod in mine for d in _disagreements(pod, nodes, pods, pgs, silent, kinds)]
            if not problems or time.monotonic() > deadline:
                break
            time.sleep(1.0)
        TALLY.pods += len(mine)
        TALLY.disagreements += problems
        for k, n in kinds.items():
            TALLY.kinds[k] = TALLY.kinds.get(k, 0) + n
        return mine


def _disagreements(pod: dict, nodes: list[dict], pods: list[dict], pgs: list[dict], silent: str,
                   kinds: dict[str, int]) -> list[str]:
    name = o.name(pod)
    why = explain(pod, nodes, pods, [], "en", pod_groups=pgs)
    kind = why.hold.kind if why.hold else ("bound" if o.node_name(pod) else "nodes")
    kinds[kind] = kinds.get(kind, 0) + 1
    text = "\n".join(why.text_lines())
    said = str(o.condition(pod, "PodScheduled").get("message", "")) if not o.node_name(pod) else ""
    group = o.scheduling_group(pod)
    gang = gg.gang_of(pod, pods, pgs) if group else None
    out = []

    def bad(what: str) -> None:
        out.append(f"{name}: {what}; scheduler {said!r}; tutor says:\n{text}")

    if o.node_name(pod):
        if o.node_name(pod) not in why.placement.fitting:
            bad(f"bound to {o.node_name(pod)}, which the tutor says does not fit")
        if gang is not None and (gang.state != gg.SCHEDULED or f"PodGroup {group}: Scheduled" not in text):
            bad(f"bound, and its PodGroup reads {gang.state}")
    elif said and gg.is_group_message(said):
        blockers = tuple(sorted(o.name(m) for m in gang.members if not o.node_name(m)
                                and (m_said := str(o.condition(m, "PodScheduled").get("message", "")))
                                and not gg.is_group_message(m_said)))
        if why.hold is None or why.hold.kind != holds.GANG or why.hold.subject != group \
                or tuple(sorted(why.hold.pods)) != blockers:
            bad(f"turned away for its gang {group} (blocked by {blockers}), the tutor holds {why.hold}")
    elif said:
        parsed = sm.parse_message(said)
        if parsed.prefilter and not why.hold:
            bad("the scheduler's reason is not the model's, and the tutor does not say so")
        elif parsed.total is not None and [r for r in parsed.histogram() if not pl.modelled_reason(r)]:
            if why.hold is None or why.hold.kind not in (holds.UNMODELLED, holds.BLOCKS_GANG):
                bad("a reason the model has no rule for, and the tutor does not say so")
        elif parsed.total is not None and not parsed.prefilter:
            if parsed.total != len(nodes) or parsed.histogram() != why.placement.histogram() or why.placement.fitting:
                bad(f"counts differ: tutor {why.placement.message()!r}, fits {why.placement.fitting}")
            if gang is not None and (why.hold is None or why.hold.kind != holds.BLOCKS_GANG):
                bad(f"its own message holds gang {group} back, the tutor holds {why.hold}")
        if why.hold is not None and why.hold.kind == holds.UNMODELLED and "Fits now" in text:
            bad("a reason the tutor cannot check, and still 'Fits now'")
    else:  # the scheduler holds it without a word
        if why.hold is None or why.hold.kind != silent:
            bad(f"held silently ({silent}), the tutor holds {why.hold}")
        if "Fits now" in text or "taint" in text:
            bad("a silent hold explained by the node filters")
        if gang is not None and gang.pod_group is not None and o.condition(gang.pod_group, gg.CONDITION):
            bad("held before scheduling, yet its PodGroup has a condition")
    return out


def _pod(name: str, ns: str, case: str, node_name: str = "", gpus: int = 0, group: str = "", scheduler: str = "",
         claim: str = "", labels=None) -> dict:
    c: dict = {"name": "c", "image": "busybox:1.36"}
    if gpus:
        c["resources"] = {"limits": {GPU: gpus}}
    spec: dict = {"containers": [c], "terminationGracePeriodSeconds": 0}
    if node_name:
        spec["nodeName"] = node_name
    else:
        spec["nodeSelector"] = {CASE_LABEL: case}
    if group:
        spec["schedulingGroup"] = {"podGroupName": group}
    if scheduler:
        spec["schedulerName"] = scheduler
    if claim:
        spec["volumes"] = [{"name": "data", "persistentVolumeClaim": {"claimName": claim}}]
        c["volumeMounts"] = [{"name": "data", "mountPath": "/data"}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": labels or {}},
            "spec": spec}


def _pod_group(name: str, ns: str, min_count: int) -> dict:
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": name, "namespace": ns},
            "spec": {"schedulingPolicy": {"gang": {"minCount": min_count}}}}


def _lws(name: str, ns: str, case: str, size: int, group: str, leader_gpus: int, worker_gpus: int) -> dict:
    """An LWS whose pods join one gang, the way a learner writes it: schedulingGroup in both templates."""
    def template(gpus: int) -> dict:
        c: dict = {"name": "c", "image": "busybox:1.36"}
        if gpus:
            c["resources"] = {"limits": {GPU: gpus}}
        return {"spec": {"containers": [c], "nodeSelector": {CASE_LABEL: case}, "terminationGracePeriodSeconds": 0,
                         "schedulingGroup": {"podGroupName": group}}}
    return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"replicas": 1, "leaderWorkerTemplate": {"size": size, "leaderTemplate": template(leader_gpus),
                                                            "workerTemplate": template(worker_gpus)}}}


def _tried(pods: list[dict]) -> bool:
    return all(o.node_name(p) or o.condition(p, "PodScheduled").get("status") == "False" for p in pods)


@pytest.fixture(scope="module")
def gangs(lab):
    if "podgroups" not in lab.kubectl("api-resources", "--api-group=scheduling.k8s.io", "-o", "name").stdout:
        pytest.fail("the lab does not serve scheduling.k8s.io PodGroups: GenericWorkload is off")
    yield GangBench(lab)
    print(f"\ngang agreement: {TALLY.cases} cases, {TALLY.pods} pods compared, {len(TALLY.disagreements)} "
          f"disagreements; the tutor said: {dict(sorted(TALLY.kinds.items()))}")
    for d in TALLY.disagreements:
        print("  DISAGREE", d)


def _check(before: int) -> None:
    assert TALLY.disagreements[before:] == [], "\n\n".join(TALLY.disagreements[before:])


def test_a_gang_whose_pod_group_is_missing_is_held_where_the_scheduler_holds_it(gangs):
    before = len(TALLY.disagreements)
    case, ns, names = gangs.case([{"labels": {"room": "yes"}}], [])
    try:
        base = gangs.pending()
        gangs.lab.kubectl("apply", "-f", "-", input=json.dumps(_lws("orphan", ns, case, 2, "orphan-0", 1, 1)))
        gangs.settled(ns, lambda pods, q: len(pods) == 2 and q.get("incomplete", 0) - base.get("incomplete", 0) == 2)
        pods = gangs.compare(ns, silent=holds.NO_POD_GROUP)
        assert {o.name(p) for p in pods} == {"orphan-0", "orphan-0-1"}
        assert not [e for e in gangs.kubectl_json("get", "events", "-n", ns)["items"]
                    if o.event_reason(e) == "FailedScheduling"]  # silent, as the tutor says
    finally:
        gangs.clean(ns, names)
    _check(before)


def test_min_count_above_the_gangs_size_is_held_silently(gangs):
    before = len(TALLY.disagreements)
    case, ns, names = gangs.case([{}], [])
    try:
        base = gangs.pending()
        gangs.apply([_pod_group("few", ns, 3), *(_pod(f"few-{i}", ns, case, group="few") for i in range(2))])
        gangs.settled(ns, lambda pods, q: len(pods) == 2 and q.get("gated", 0) - base.get("gated", 0) == 2)
        gangs.compare(ns, silent=holds.MIN_COUNT)
        assert gg.state(gangs.pod_groups(ns)[0]) == gg.PENDING  # no condition: the scheduler never tried it
    finally:
        gangs.clean(ns, names)
    _check(before)


@pytest.mark.parametrize("free", [1, 0], ids=["one GPU free", "no GPU free"])
def test_an_unschedulable_gang_and_the_pod_that_blocks_it(gangs, free):
    """An LWS of two 1-GPU pods in one gang (minCount 2). With one GPU free, one pod fits and is
    turned away for the gang, the other has its own message. With none free, the attempt stops at
    the first pod, and the other gets the group's reason alone."""
    before = len(TALLY.disagreements)
    case, ns, names = gangs.case([{}], [{"node": 0, "gpus": 4 - free}])
    try:
        gangs.apply([_pod_group("orphan-0", ns, 2)])
        gangs.lab.kubectl("apply", "-f", "-", input=json.dumps(_lws("orphan", ns, case, 2, "orphan-0", 1, 1)))
        gangs.settled(ns, lambda pods, q: len(pods) == 2 and _tried(pods))
        pods = gangs.compare(ns)
        said = {o.name(p): o.condition(p, "PodScheduled").get("message", "") for p in pods}
        assert not any(o.node_name(p) for p in pods)
        assert sorted(gg.is_group_message(m) for m in said.values()) == [False, True], said
        blocker = next(n for n, m in said.items() if not gg.is_group_message(m))
        # the live command reads the PodGroups itself and says the same
        for name in said:
            res = subprocess.run([sys.executable, "-m", "tutor", "why", name, "-n", ns, "--kubeconfig",
                                  str(gangs.lab.kubeconfig), "--lang", "en", "--json"],
                                 capture_output=True, text=True, timeout=waits.PROCESS)
            assert res.returncode == 0, res.stderr
            held = json.loads(res.stdout)["held"]
            assert held["subject"] == "orphan-0"
            assert held["kind"] == (holds.BLOCKS_GANG if name == blocker else holds.GANG)
            assert name == blocker or held["pods"] == [blocker]
    finally:
        gangs.clean(ns, names)
    _check(before)


def test_a_gang_that_cannot_fit_takes_nothing_and_lands_whole_once_there_is_room(gangs):
    """Size 3 (a leader without a GPU, two 1-GPU workers), minCount 3, one GPU free: nothing binds,
    the free GPU stays free. Then the pod holding the others goes, and the whole gang lands."""
    before = len(TALLY.disagreements)
    case, ns, names = gangs.case([{}], [{"node": 0, "gpus": 3}])
    try:
        gangs.apply([_pod_group("big-0", ns, 3)])
        gangs.lab.kubectl("apply", "-f", "-", input=json.dumps(_lws("big", ns, case, 3, "big-0", 0, 1)))
        gangs.settled(ns, lambda pods, q: len(pods) == 3 and _tried(pods))
        pods = gangs.compare(ns)
        assert not any(o.node_name(p) for p in pods)  # the one free GPU was not taken
        assert gg.state(gangs.pod_groups(ns)[0]) == gg.UNSCHEDULABLE
        gangs.lab.kubectl("delete", "pod", "held-0", "-n", ns, "--wait=true")
        gangs.settled(ns, lambda pods, q: len(pods) == 3 and all(o.node_name(p) for p in pods))
        gangs.wait("the PodGroup to read Scheduled", lambda: gg.state(gangs.pod_groups(ns)[0]) == gg.SCHEDULED)
        gangs.compare(ns)
    finally:
        gangs.clean(ns, names)
    _check(before)


def test_a_pod_of_a_scheduler_that_is_not_running_is_in_no_queue(gangs):
    before = len(TALLY.disagreements)
    case, ns, names = gangs.case([{}], [])
    try:
        base = gangs.pending()
        gangs.apply([_pod("elsewhere", ns, case, scheduler="volcano")])
        time.sleep(3)  # a pod the default scheduler took would be in one of its queues, or bound, by now
        gangs.settled(ns, lambda pods, q: q == base and not o.node_name(pods[0]))
        gangs.compare(ns, silent=holds.OTHER_SCHEDULER)
    finally:
        gangs.clean(ns, names)
    _check(before)


def test_a_pod_waiting_for_its_claim_is_not_blamed_on_the_nodes(gangs):
    before = len(TALLY.disagreements)
    case, ns, names = gangs.case([{}], [])
    try:
        claim = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": ns},
                 "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}
        gangs.apply([claim, _pod("needs-data", ns, case, claim="data"), _pod("needs-ghost", ns, case, claim="ghost")])
        gangs.settled(ns, lambda pods, q: len(pods) == 2 and _tried(pods))
        pods = gangs.compare(ns)
        assert all(sm.parse_message(o.condition(p, "PodScheduled")["message"]).prefilter for p in pods)
    finally:
        gangs.clean(ns, names)
    _check(before)


def test_the_lws_examples_not_written_for_this_lab(gangs):
    """Every LeaderWorkerSet of LWS's own docs/examples (the release the lab runs), each in a
    namespace of its own: GPUs and TPUs the lab lacks, 800Gi of ephemeral storage, exclusive
    placement, Volcano's schedulerName, volumeClaimTemplates with a storage class the lab has not.
    Every pod's explanation must agree with the scheduler, or say what it cannot see."""
    from tests.e2e.labcluster.lab import module_dir

    before, counted = len(TALLY.disagreements), TALLY.pods
    examples = module_dir("sigs.k8s.io/lws", gangs.lab.versions["LWS_VERSION"]) / "docs" / "examples"
    docs = [(path, doc) for path in sorted(examples.rglob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text()) if isinstance(doc, dict)
            and doc.get("kind") == "LeaderWorkerSet"]
    assert len(docs) >= 10, [str(p) for p, _ in docs]
    spaces = []
    try:
        # One example at a time, each compared before the next is applied: on the real node the
        # later examples' pods take its CPU, and a pod the scheduler last tried before that would
        # be compared with a node that has changed since (its message is as old as its last try).
        for i, (_path, doc) in enumerate(docs):
            ns = f"why-ex{i}-{int(time.time()) % 100000}"
            spaces.append(ns)
            doc["metadata"]["namespace"] = ns
            gangs.apply([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}])
            gangs.lab.kubectl("apply", "-f", "-", input=yaml.safe_dump(doc))
            gangs.settled(ns, lambda pods, q, doc=doc: _example_settled(doc, pods))
            gangs.compare(ns, silent=holds.OTHER_SCHEDULER)
    finally:
        for ns in spaces:
            gangs.lab.kubectl("delete", "namespace", ns, "--wait=false", check=False)
    print(f"\nLWS examples: {len(docs)} LeaderWorkerSets, {TALLY.pods - counted} pods explained")
    _check(before)


def _example_settled(lws: dict, pods: list[dict]) -> bool:
    """Every leader is there, every group's workers are (with exclusive placement LWS makes them
    only once their leader has a node), and the scheduler has tried or bound each pod, unless it
    is another scheduler's."""
    spec = lws["spec"]
    size = spec["leaderWorkerTemplate"].get("size", 1)
    exclusive = o.EXCLUSIVE_ANNOTATION in (lws["metadata"].get("annotations") or {})
    leaders = [p for p in pods if o.worker_index(p) == 0]
    if len(leaders) < spec.get("replicas", 1):
        return False
    for leader in leaders:
        if o.node_name(leader) or not exclusive:
            workers = [p for p in pods if o.group_index(p) == o.group_index(leader) and o.worker_index(p) != 0]
            if len(workers) < size - 1:
                return False
    return all(o.node_name(p) or o.condition(p, "PodScheduled").get("status") == "False" or holds.other_scheduler(p)
               for p in pods)


def test_the_live_source_brings_pod_groups_to_the_explanations(gangs, tmp_path):
    """A lesson that names PodGroup watches it: the store holds the PodGroups and the pods'
    schedulingGroup as the API server sends them, and the explanations read them from there."""
    import queue

    from tutor.checks.explain import explain_in_store
    from tutor.cluster.connect import connect
    from tutor.cluster.source_events import Conn
    from tutor.cluster.live import LiveSource
    from tutor.lesson.loader import load
    from tutor.session import Session

    case, ns, names = gangs.case([{}], [])
    (tmp_path / "lesson.yaml").write_text(f"id: t\nlanguages: [en]\nnamespace: {ns}\n"
                                          "kinds: [Pod, Event, Node, PodGroup]\nsteps: []\n")
    lesson = load("t", tmp_path)
    session = Session(lesson, str(tmp_path), "en")
    q: queue.SimpleQueue = queue.SimpleQueue()
    src = LiveSource(connect(str(gangs.lab.kubeconfig)).api_client, ns, q.put, resources=lesson.kinds).start()

    def drain_until(what: str, cond) -> None:
        deadline = time.monotonic() + SETTLE
        while time.monotonic() < deadline:
            try:
                session.apply(q.get(timeout=0.2))
            except queue.Empty:
                pass
            if cond():
                return
        raise AssertionError(f"the live source did not bring {what}")

    def held() -> str:
        why = explain_in_store(session.store, ns, "few-0", "en")
        return why.hold.kind if why is not None and why.hold is not None else ""

    try:
        drain_until("its first lists", lambda: len(session.states) == 4 and all(
            s.state is Conn.OK for s in session.states.values()))
        assert session.store.sees("PodGroup")
        gangs.apply([_pod(f"few-{i}", ns, case, group="few") for i in range(2)])
        drain_until("the pods, held for their missing PodGroup", lambda: held() == holds.NO_POD_GROUP)
        assert o.scheduling_group(session.store.get("Pod", "few-0", ns)) == "few"
        gangs.apply([_pod_group("few", ns, 3)])
        drain_until("the PodGroup, and its minCount", lambda: held() == holds.MIN_COUNT)
        gangs.lab.kubectl("patch", "podgroup", "few", "-n", ns, "--type=merge",
                          "-p", '{"spec":{"schedulingPolicy":{"gang":{"minCount":2}}}}')
        drain_until("the gang placed and its PodGroup Scheduled", lambda: all(
            o.node_name(p) for p in session.store.all("Pod", ns)) and gg.state(
            session.store.get("PodGroup", "few", ns)) == gg.SCHEDULED and held() == "")
    finally:
        src.stop()
        src.join()
        gangs.clean(ns, names)
