"""Gangs: pods that name a PodGroup (Kubernetes 1.37 native gang scheduling, KEP-4671), and
what kube-scheduler v1.37's GangScheduling plugin makes of them, as a pure function of objects.

- PreEnqueue holds a pod whose PodGroup does not exist, and, for a gang policy, every pod of a
  group that fewer than `minCount` pods name. Both holds are silent: no event, no PodScheduled
  condition; the PodGroup has no condition either.
- A pod group is scheduled in one attempt: its pods are placed one after another, each counted
  as on its node for the next (assumed), and none binds unless `minCount` of them fit. A pod that
  fits no node gets its own message ("0/3 nodes are available: …"); the others get the group's
  ("pod group is unschedulable, minCount (3) cannot be satisfied: …", or the group's reason
  alone for a pod the attempt stopped before).
- The outcome is the PodGroup's condition PodGroupInitiallyScheduled: True (Scheduled), False
  with reason Unschedulable or SchedulerError; none while the scheduler has not tried it.

Sources: k8s.io/kubernetes v1.37.2 pkg/scheduler/framework/plugins/gangscheduling,
pkg/scheduler/schedule_one_podgroup.go, pkg/scheduler/backend/cache/podgroupstate.go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.cluster import objects as o
from tutor.cluster.objects import Obj

CONDITION = "PodGroupInitiallyScheduled"
# What the panes and `why` call a PodGroup's state: kubectl get podgroups' STATUS words, and the
# tutor's own for a PodGroup the pods name and the cluster does not have.
SCHEDULED, UNSCHEDULABLE, PENDING, MISSING = "Scheduled", "Unschedulable", "Pending", "no PodGroup"

# The messages the scheduler writes on a pod for its group rather than for the pod itself
# (schedule_one_podgroup.go errPodGroupUnschedulable, gangscheduling.go PlacementFeasible).
_GROUP_MESSAGE = re.compile(r"^(pod group is unschedulable\b|minCount \(\d+\) (cannot be|is not yet) satisfied\b|"
                            r"0/\d+ placements are available\b)")


def group_name(pod: Obj) -> str:
    """The PodGroup a pod names (spec.schedulingGroup.podGroupName), or ""."""
    return o.scheduling_group(pod)


def state(pod_group: Obj | None) -> str:
    """Scheduled, Unschedulable (or the condition's other reason, SchedulerError), Pending (no
    condition yet), or MISSING for None."""
    if pod_group is None:
        return MISSING
    cond = o.condition(pod_group, CONDITION)
    if cond.get("status") == "True":
        return SCHEDULED
    if cond.get("status") == "False":
        return str(cond.get("reason") or UNSCHEDULABLE)
    return PENDING


def min_count(pod_group: Obj | None) -> int | None:
    """The gang's minCount; None for a PodGroup without a gang policy (basic: no gang rule)."""
    gang = o.dig(pod_group, "spec", "schedulingPolicy", "gang")
    if not isinstance(gang, dict):
        return None
    return o.int_or_none(gang.get("minCount"))


def counted(pod: Obj) -> bool:
    """A pod the scheduler counts in its group: its pod informer drops finished pods."""
    return o.phase(pod) not in ("Succeeded", "Failed")


@dataclass(frozen=True)
class Gang:
    name: str  # the PodGroup's name
    namespace: str
    pod_group: Obj | None  # None: the cluster has no PodGroup of that name
    members: tuple[Obj, ...]  # the pods that name it and that the scheduler counts, in pod order

    @property
    def state(self) -> str:
        return state(self.pod_group)

    @property
    def min_count(self) -> int | None:
        return min_count(self.pod_group)

    def held_before_scheduling(self) -> str:
        """Why PreEnqueue holds every pod of the gang: "missing", "min-count", or "" when it lets
        them through."""
        if self.pod_group is None:
            return "missing"
        want = self.min_count
        return "min-count" if want is not None and len(self.members) < want else ""


def gang_of(pod: Obj, pods: list[Obj], pod_groups: list[Obj]) -> Gang | None:
    """The gang a pod is in, or None when it names no PodGroup. `pods` and `pod_groups` are what
    the caller sees of the pod's namespace (or more)."""
    name = group_name(pod)
    if not name:
        return None
    ns = o.namespace(pod)
    pg = next((g for g in pod_groups if o.name(g) == name and o.namespace(g) == ns), None)
    members = [p for p in pods if group_name(p) == name and o.namespace(p) == ns and counted(p)]
    return Gang(name, ns, pg, tuple(sorted(members, key=_order)))


def _order(pod: Obj) -> tuple[str, bool, int, bool, int, str]:
    g, w = o.group_index(pod), o.worker_index(pod)
    return (o.lws_name(pod), g is None, g or 0, w is None, w or 0, o.name(pod))


def is_group_message(message: str) -> bool:
    """Whether the scheduler's message on a pod is its gang's reason, not the pod's own."""
    return bool(_GROUP_MESSAGE.match(" ".join(str(message).split())))


def mates_placed(pod: Obj, gang: Gang, nodes: list[Obj], pods: list[Obj]) -> tuple[Obj, ...]:
    """The gang's other unbound pods as the scheduler's attempt would hold them while it places
    `pod`: each, in pod order, on the first node (by name) that fits it with the ones before it
    counted, as copies bound there. The scheduler scores the nodes and its order may differ; in a
    gang whose pods each fit one node, the pod it calls the blocker gets the same counts."""
    # Here, not with the module: the groups pane reads a gang's state at the tutor's first frame,
    # and placement's model is not needed for that (about 3 ms of imports).
    from tutor.cluster import placement as pl

    placed: list[Obj] = []
    for mate in gang.members:
        if mate is pod or o.name(mate) == o.name(pod) or o.node_name(mate) or o.is_terminating(mate):
            continue
        fits = pl.place(mate, nodes, [*pods, *placed]).fitting
        if fits:
            placed.append({**mate, "spec": {**o.as_dict(mate.get("spec")), "nodeName": fits[0]}})
    return tuple(placed)


def fingerprint(gang: Gang | None) -> tuple[object, ...]:
    """What an explanation reads of a gang besides the placement's inputs: the PodGroup's
    version, and each member's binding and scheduler message."""
    if gang is None:
        return ()
    pg = gang.pod_group
    return (gang.name, None if pg is None else (o.uid(pg), o.resource_version(pg), gang.state, gang.min_count),
            tuple((o.name(p), o.uid(p), o.node_name(p), str(o.condition(p, "PodScheduled").get("message", "")))
                  for p in gang.members))
