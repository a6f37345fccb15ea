"""What a checker reads, declared beside it (its module's READS), so a session re-runs a checker
only when something it reads changed (tutor/session.py). A declaration must cover what the
checker reads through helpers too (helpers.py, Context, the store's observations, the timeline,
the scheduler explanations); when in doubt, it names the whole kind.

The store and the workspace count changes per kind, per object name and per answer file
(`Store.kind_version`, `Store.name_version`, `Workspace.file_version`): `inputs()` reads those
counts, and equal inputs mean the checker would see exactly what it saw last time.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.cluster import deps, kinds as kind_table
from tutor.cluster.store import Store
from tutor.cluster.timeline import evidence_keys
from tutor.workspace.watch import Workspace


@dataclass(frozen=True)
class Reads:
    kinds: tuple[str, ...] = ()  # every object of these kinds, and all the store observes of them
    named: tuple[tuple[str, str], ...] = ()  # these objects by (kind, name), of any kind the tutor watches
    pods: tuple[str, ...] = ()  # these pods by name, with their history (UIDs, IPs, restarts)
    lws: tuple[str, ...] = ()  # these LeaderWorkerSets by name (the object only)
    pods_of: tuple[str, ...] = ()  # every pod labelled as one of these LeaderWorkerSets'
    statefulsets: tuple[str, ...] = ()
    events_about: tuple[str, ...] = ()  # the Events about objects of these names
    files: tuple[str, ...] = ()  # answer files (text, problem and when written)
    # The timeline and the story of these LWS (tutor/cluster/timeline.py, timeline_of): all their
    # evidence, and the clock that puts it on one axis.
    evidence_of: tuple[str, ...] = ()
    uid_owners: bool = False  # who held a pod UID, any pod of the namespace (Observations.uid_owner)
    # What relates the tutor's clock to the cluster's (Store.clock): the source's start, and the
    # bounds the pods and Events seen put on it.
    clock: bool = False
    # What it reads besides when its details carry the scheduler explanations (checks/explain.py).
    explained: Reads | None = None

    def __post_init__(self) -> None:
        unknown = [k for k in (*self.kinds, *(k for k, _ in self.named)) if kind_table.of(k) is None]
        if unknown:  # a kind the store has no bucket for would never count as changed
            raise ValueError(f"Reads names kinds the tutor does not watch: {', '.join(unknown)}")

    def keys(self) -> tuple[deps.Dep, ...]:
        # pods, lws and statefulsets are the LWS lessons' shorthands for named (Pod/LeaderWorkerSet/StatefulSet, n).
        pod, lws, sts = kind_table.POD.kind, kind_table.LEADER_WORKER_SET.kind, kind_table.STATEFUL_SET.kind
        return (*(deps.Named(pod, n) for n in self.pods), *(deps.Named(lws, n) for n in self.lws),
                *(deps.PodsOf(n) for n in self.pods_of), *(deps.Named(sts, n) for n in self.statefulsets),
                *(deps.Named(k, n) for k, n in self.named),
                *(deps.EventsAbout(n) for n in self.events_about),
                *(key for lws in self.evidence_of for key in evidence_keys(lws)),
                *((deps.UIDS,) if self.uid_owners else ()))


def evidence(lws: str) -> Reads:
    """What reading one LWS's timeline or story (timeline_of, story_of) reads."""
    return Reads(evidence_of=(lws,), clock=True)
# checks/explain.py: placement reads every node and every pod of the namespace, and a gang's
# explanation its PodGroup (when the lesson watches PodGroups; else the kind never changes).
EXPLAIN = (kind_table.NODE.kind, kind_table.POD.kind, kind_table.POD_GROUP.kind)


def merged(*reads: Reads) -> Reads:
    """One declaration reading everything the given ones read."""
    def union(field: str) -> tuple[str, ...]:
        return tuple(sorted({x for r in reads for x in getattr(r, field)}))
    explained = [r.explained for r in reads if r.explained is not None]
    named = tuple(sorted({pair for r in reads for pair in r.named}))  # (kind, name) pairs, not names
    return Reads(kinds=union("kinds"), named=named, pods=union("pods"), lws=union("lws"),
                 pods_of=union("pods_of"), statefulsets=union("statefulsets"), events_about=union("events_about"),
                 files=union("files"),
                 evidence_of=union("evidence_of"), uid_owners=any(r.uid_owners for r in reads),
                 clock=any(r.clock for r in reads), explained=merged(*explained) if explained else None)


def inputs(reads: Reads, store: Store, workspace: Workspace, explain: bool) -> tuple | None:
    """The versions of everything `reads` names, now; None when they cannot be told (the clock
    of a source with no start time is the wall clock, which moves by itself)."""
    parts = [reads] + ([reads.explained] if explain and reads.explained is not None else [])
    out: list = []
    for r in parts:
        if r.clock:
            clock = store.clock()
            if clock is None:
                return None
            out += clock
        out += [store.kind_version[k] for k in r.kinds]
        out += [store.name_version.get(key, 0) for key in r.keys()]
        out += [workspace.file_version.get(f, 0) for f in r.files]
    return tuple(out)
