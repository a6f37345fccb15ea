"""The kinds of Kubernetes object the tutor can watch: one row each, as k9s keeps one registry of
resource kinds. Everything a kind needs elsewhere is read from its row: the live source's list
and watch calls and what a 404 on them means (tutor/cluster/live.py), the store's buckets
(tutor/cluster/store.py), which kinds a checker may name (tutor/checks/reads.py), doctor's
access review (tutor/preflight.py), what a pane says when the kind is not served (worded from the
row by tutor/narration/absent_kinds.py), and the read-only role (deploy/rbac.yaml, checked
against these rows by tests/test_kinds.py). A row also registers what the store does with its
objects beyond keeping them (tutor/cluster/handlers.py): their indexes, the handlers each change
runs and the keys a change moves, as client-go's informers take AddIndexers and
AddEventHandler; the store runs every row the same way.

A lesson names the kinds it watches (lesson.yaml `kinds`); a lesson that names none watches
every row not marked optional. An optional kind is one a cluster may well not serve (a group
behind a feature gate): only the lesson that asks for it watches it, so no other lesson warns,
reconnects or fails doctor over it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.cluster import handlers as h

READ = ("get", "list", "watch")


@dataclass(frozen=True)
class Kind:
    kind: str  # as in an object's `kind`
    group: str  # the API group; "" for the core group
    version: str
    plural: str  # the resource's name in URLs and RBAC rules; also the watch's name in the header
    namespaced: bool
    crd: str = ""  # a custom resource: the name of its CustomResourceDefinition
    gate: str = ""  # a built-in kind served only with this feature gate and its group/version switched on
    optional: bool = False  # watched only by a lesson that names it
    # (API class, method) of the client's typed list call where the client has one; a kind without
    # one is listed and watched through CustomObjectsApi, which serves any group but the core one.
    typed: tuple[str, str] | tuple[()] = ()
    verbs: tuple[str, ...] = READ  # what the tutor's role must grant on it
    # What the store does with its objects (tutor/cluster/handlers.py): the indexes they are
    # filed in, the handlers each change runs (in order), and the keys a change of one moves.
    indexers: tuple[h.Indexer, ...] = ()
    handlers: tuple[h.Handler, ...] = ()
    read_by: h.Keys = h.by_name
    # Whether the store keeps its objects past their deletion (the Events seen): an old version
    # then stays in use, and is let go by the handler that drops it.
    kept_after_delete: bool = False

    @property
    def name(self) -> str:
        """The watch's name (SourceState.resource): the plural, as kubectl and RBAC say it."""
        return self.plural

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def may_be_absent(self) -> bool:
        """Whether a 404 on its list means the cluster does not serve the kind (no CRD, or a gate
        off), a settled answer, rather than a broken link."""
        return bool(self.crd or self.gate)

    def absent_brief(self) -> str:
        """Why its list answered 404, in a few English words (SourceState.detail)."""
        if self.crd:
            return f"{self.kind} CRD not installed (kubectl get crd {self.crd})"
        return f"{self.api_version} not served ({self.gate} feature gate off)"


POD = Kind("Pod", "", "v1", "pods", True, typed=("CoreV1Api", "list_namespaced_pod"),
           indexers=(h.PODS_IN, h.PODS_BY_LWS, h.PODS_BY_GROUP, h.GROUPS_BY_LWS),
           handlers=(h.note_groups, h.pod_history), read_by=h.by_name_and_lws)
LEADER_WORKER_SET = Kind("LeaderWorkerSet", "leaderworkerset.x-k8s.io", "v1", "leaderworkersets", True,
                         crd="leaderworkersets.leaderworkerset.x-k8s.io")
EVENT = Kind("Event", "", "v1", "events", True, typed=("CoreV1Api", "list_namespaced_event"),
             indexers=(h.EVENTS_ABOUT, h.EVENTS_IN), handlers=(h.events_seen(POD.kind),), read_by=h.by_subject,
             kept_after_delete=True)
STATEFUL_SET = Kind("StatefulSet", "apps", "v1", "statefulsets", True, typed=("AppsV1Api", "list_namespaced_stateful_set"),
                    handlers=(h.statefulset_history,), read_by=h.by_name_after_lws)
NODE = Kind("Node", "", "v1", "nodes", False, typed=("CoreV1Api", "list_node"))
# Gang scheduling (Kubernetes 1.37): served only with the GenericWorkload gate and
# --runtime-config=scheduling.k8s.io/v1beta1=true.
POD_GROUP = Kind("PodGroup", "scheduling.k8s.io", "v1beta1", "podgroups", True, gate="GenericWorkload", optional=True)
WORKLOAD = Kind("Workload", "scheduling.k8s.io", "v1beta1", "workloads", True, gate="GenericWorkload", optional=True)

# Every kind, in the order the watches start (and the header lists them).
TABLE: tuple[Kind, ...] = (POD, LEADER_WORKER_SET, EVENT, STATEFUL_SET, NODE, POD_GROUP, WORKLOAD)
# What a lesson that names no kinds watches.
DEFAULT: tuple[Kind, ...] = tuple(k for k in TABLE if not k.optional)
# The kinds the tutor can watch and stores, by their `kind`.
KINDS: tuple[str, ...] = tuple(k.kind for k in TABLE)

_BY_KIND = {k.kind: k for k in TABLE}
_BY_NAME = {k.name: k for k in TABLE}


def of(kind: str) -> Kind | None:
    """The row of a kind by its `kind` (Pod), or None when the tutor does not know it."""
    return _BY_KIND.get(kind)


def named(name: str) -> Kind | None:
    """The row of a watch by its name (pods), or None."""
    return _BY_NAME.get(name)


def chosen(kinds: tuple[str, ...] | None) -> tuple[Kind, ...]:
    """The rows of the kinds named (in the table's order), or DEFAULT when none are; an unknown
    name raises ValueError naming the kinds there are."""
    if kinds is None:
        return DEFAULT
    unknown = [k for k in kinds if k not in _BY_KIND]
    if unknown:
        raise ValueError(f"unknown kind {', '.join(unknown)} (the tutor knows {', '.join(_BY_KIND)})")
    return tuple(k for k in TABLE if k.kind in kinds)

