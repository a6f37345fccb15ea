"""The history no snapshot shows: every UID a pod name held and when, restarts, the revisions a
group ran and when two ran side by side, the StatefulSets seen with their owners, who held a UID,
and the bounds the cluster's own times put on the tutor's clock.

The store feeds it through its kinds' handlers (tutor/cluster/handlers.py), as client-go's
informers feed theirs: pod_changed, pod_deleted, statefulset_changed and event_seen, each called
once per change it applies.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from tutor.cluster import objects as o
from tutor.cluster.objects import Controller, Obj

# Bounds on the history kept across events, so a busy namespace cannot grow the tutor without
# end; they sit far above what a lab namespace sees, so what the checkers read is unchanged there.
# - Mixed revisions: the first MAX_MIXED per LWS, one per change of what the group runs. Step 6
#   shows the first; the groups pane marks every group that ever held two (mixed_groups).
MAX_MIXED = 20
# - StatefulSets seen (with their owner), the newest MAX_STATEFULSETS: the timeline shows a
#   worker StatefulSet removed with its leader pod (garbage collection) only from these owner
#   references. A lab namespace makes one per group recreation or rollout step.
MAX_STATEFULSETS = 500

# Two revisions running in one group: (the revisions, sorted; the (pod, revision) of its running pods, sorted)
Mix = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]
GroupPods = Callable[[str, int, str], Iterable[Obj]]  # (lws, group, namespace) -> its pods now


@dataclass
class UidSeen:
    uid: str
    first_t: float
    last_t: float
    revision: str = ""
    ips: list[str] = field(default_factory=list)
    gone_t: float | None = None  # when this UID was deleted or replaced
    # The API server's own times (wall clock, as the API gave them): when this UID was created,
    # and the deletionTimestamp and grace period of its deletion, once one was asked for.
    # tutor/cluster/timeline.py puts them on one time axis with the events.
    created: str = ""
    deletion: tuple[str, int] | None = None
    # Its controller (kind, name, uid) from ownerReferences, and when the tutor first saw it
    # Running: the timeline ties a pod to the StatefulSet that made it, and times a recovery.
    owner: Controller = ()
    running_t: float | None = None
    terminating_t: float | None = None  # when the tutor first saw its deletion asked for


@dataclass
class StatefulSetSeen:
    name: str
    uid: str
    owner: Controller  # its controller (kind, name, uid): a worker StatefulSet's is its leader pod
    first_t: float
    gone_t: float | None = None


@dataclass(frozen=True)
class RestartSeen:
    pod: str
    uid: str
    count: int
    exit_code: int | None
    t: float


@dataclass(frozen=True)
class MixedRevisions:
    lws: str
    group: int
    revisions: tuple[str, ...]
    t: float
    # (pod, revision) of the pods whose containers ran at that moment: Running, or Terminating
    # with a container still running (an old worker through its grace period)
    pods: tuple[tuple[str, str], ...] = ()
    terminating: tuple[str, ...] = ()  # those of `pods` that were Terminating
    until: float | None = None  # when the tutor first saw the group run one revision again (or another mix)


@dataclass
class Observations:
    """History kept across events: recreations, restarts, revisions, expired events."""

    uids: dict[str, list[UidSeen]] = field(default_factory=lambda: defaultdict(list))
    restarts: list[RestartSeen] = field(default_factory=list)
    # (lws, group index) -> revisions in the order first seen
    group_revisions: dict[tuple[str, int], list[str]] = field(default_factory=lambda: defaultdict(list))
    mixed: list[MixedRevisions] = field(default_factory=list)  # at most MAX_MIXED per LWS
    mixed_per_lws: dict[str, int] = field(default_factory=dict)
    mixed_last: dict[tuple[str, int], Mix] = field(default_factory=dict)  # (lws, group) -> last recorded
    mixed_groups: set[tuple[str, int]] = field(default_factory=set)  # (lws, group) of every `mixed`
    events_seen: dict[str, Obj] = field(default_factory=dict)  # event uid -> last version seen
    statefulsets: dict[str, StatefulSetSeen] = field(default_factory=dict)  # uid -> seen, oldest first
    # The wall-clock time of t=0 is at least this: an Event happened before the tutor saw it, so
    # its own time less when it was seen bounds t=0 from below (to the millisecond, where the
    # Event's time has them). The story's times use it to put sightings beside events.
    start_bound: float | None = None
    # Likewise from pods: one created at wall time c (to the second) and first seen at t bounds t=0
    # from below by c - t (the timeline's anchor, tutor/cluster/timeline.py).
    created_bound: float | None = None
    # Pod UID (lower case) -> the pod name that held it, from every pod seen and every Event about
    # a pod: who a UID an answer file names belongs to.
    uid_owner: dict[str, str] = field(default_factory=dict)

    def uid_history(self, pod: str) -> list[UidSeen]:
        return self.uids.get(pod, [])

    def recreations(self, pod: str) -> int:
        return max(0, len(self.uid_history(pod)) - 1)

    def uid_seen(self, pod: str, uid: str) -> UidSeen | None:
        return next((u for u in self.uid_history(pod) if u.uid == uid), None)

    # --- handlers: the store calls one per change it applies ----------------------------------
    def own_uid(self, uid: str, pod: str) -> bool:
        """Notes who held a UID; True when it was not known before."""
        uid = uid.lower()
        if uid and uid not in self.uid_owner:
            self.uid_owner[uid] = pod
            return True
        return False

    def pod_changed(self, old: Obj | None, pod: Obj, t: float, group_pods: GroupPods) -> bool:
        """A pod added or modified. True when it named a UID not known before."""
        name, uid = o.name(pod), o.uid(pod)
        hist = self.uids[name]
        cur = hist[-1] if hist else None
        if cur is None or cur.uid != uid:
            if cur is not None and cur.gone_t is None:
                cur.gone_t = t
            cur = UidSeen(uid=uid, first_t=t, last_t=t)
            hist.append(cur)
        cur.last_t = t
        cur.revision = o.revision(pod) or cur.revision
        if not cur.created:
            cur.created = str(o.dig(pod, "metadata", "creationTimestamp", default=""))
            self._bound_by_creation(cur)
        new_uid = self.own_uid(uid, name)
        if cur.deletion is None and o.is_terminating(pod):
            cur.deletion = (str(o.dig(pod, "metadata", "deletionTimestamp")),
                            o.int_or_none(o.dig(pod, "metadata", "deletionGracePeriodSeconds")) or 0)
        cur.owner = cur.owner or o.controller_of(pod)
        if cur.running_t is None and o.phase(pod) == "Running" and not o.is_terminating(pod):
            cur.running_t = t
        if cur.terminating_t is None and o.is_terminating(pod):
            cur.terminating_t = t
        ip = o.pod_ip(pod)
        if ip and ip not in cur.ips:
            cur.ips.append(ip)
        self._restarts(old, pod, t)
        self._revisions(pod, t, group_pods)
        return new_uid

    def pod_deleted(self, pod: Obj, t: float, group_pods: GroupPods) -> None:
        hist = self.uids.get(o.name(pod))
        if hist and hist[-1].uid == o.uid(pod) and hist[-1].gone_t is None:
            hist[-1].gone_t = t
        self._revisions(pod, t, group_pods)

    def statefulset_changed(self, sts: Obj, deleted: bool, t: float) -> str | None:
        """A StatefulSet added, modified or deleted. The name of one forgotten to make room
        (MAX_STATEFULSETS), whose history readers must be told is gone, else None."""
        forgotten = None
        seen = self.statefulsets.get(o.uid(sts))
        if seen is None and o.uid(sts):
            seen = self.statefulsets[o.uid(sts)] = StatefulSetSeen(o.name(sts), o.uid(sts), o.controller_of(sts), t)
            if len(self.statefulsets) > MAX_STATEFULSETS:
                forgotten = self.statefulsets.pop(next(iter(self.statefulsets))).name
        if seen is not None and deleted and seen.gone_t is None:
            seen.gone_t = t
        return forgotten

    def event_seen(self, ev: Obj, t: float) -> None:
        """An Event added or modified: its own time bounds the clock's start."""
        parsed = o.parse_time(o.event_time(ev))
        if parsed is not None and parsed[1] and (self.start_bound is None or parsed[0] - t > self.start_bound):
            self.start_bound = parsed[0] - t  # only a time to the millisecond bounds it usefully

    # --- what the handlers keep ---------------------------------------------------------------
    def _bound_by_creation(self, seen: UidSeen) -> None:
        created = o.parse_time(seen.created)
        if created is None:
            return
        bound = created[0] - seen.first_t
        if self.created_bound is None or bound > self.created_bound:
            self.created_bound = bound

    def _restarts(self, old: Obj | None, pod: Obj, t: float) -> None:
        # str(): a container name of the wrong type (a list, say) must not break the dict
        before = {str(c.get("name")): o.int_or_none(c.get("restartCount")) or 0
                  for c in o.container_statuses(old)} if old is not None and o.uid(old) == o.uid(pod) else {}
        for cs in o.container_statuses(pod):
            count = o.int_or_none(cs.get("restartCount")) or 0
            if count > before.get(str(cs.get("name")), 0):
                exit_code = o.int_or_none(o.dig(cs, "lastState", "terminated", "exitCode"))
                self.restarts.append(RestartSeen(o.name(pod), o.uid(pod), count, exit_code, t))

    def _revisions(self, pod: Obj, t: float, group_pods: GroupPods) -> None:
        lws, group = o.lws_name(pod), o.group_index(pod)
        if not lws or group is None:
            return
        rev = o.revision(pod)
        seen = self.group_revisions[(lws, group)]
        if rev and rev not in seen:
            seen.append(rev)
        # Two revisions running side by side in one group is what LWS promises never happens for
        # an old leader and a new worker; a new leader beside its old worker, Terminating through
        # its grace period with its container still running, is counted too.
        running: list[tuple[str, str]] = []
        terminating: list[str] = []
        for p in group_pods(lws, group, o.namespace(pod)):
            if o.phase(p) != "Running" or not o.revision(p):
                continue
            if o.is_terminating(p):
                if not _container_running(p):
                    continue
                terminating.append(o.name(p))
            running.append((o.name(p), o.revision(p)))
        running.sort()
        revs = {rev for _, rev in running}
        last = self.mixed_last.get((lws, group))
        now = (tuple(sorted(revs)), tuple(running)) if len(revs) > 1 else None
        if last is not None and last != now:
            self._close_mixed(lws, group, t)
        if now is None:
            self.mixed_last.pop((lws, group), None)
            return
        self.mixed_groups.add((lws, group))
        if last != now and self.mixed_per_lws.get(lws, 0) < MAX_MIXED:
            self.mixed_last[(lws, group)] = now
            self.mixed_per_lws[lws] = self.mixed_per_lws.get(lws, 0) + 1
            self.mixed.append(MixedRevisions(lws, group, now[0], t, now[1], tuple(sorted(terminating))))

    def _close_mixed(self, lws: str, group: int, t: float) -> None:
        """The group's last recorded mix ended at t (the tutor saw something else)."""
        for i in range(len(self.mixed) - 1, -1, -1):
            m = self.mixed[i]
            if m.lws == lws and m.group == group:
                if m.until is None:
                    self.mixed[i] = replace(m, until=t)
                return


def _container_running(pod: Obj) -> bool:
    """Some container of the pod is running (state.running), as one is while a Terminating pod
    waits out its grace period."""
    return any(isinstance(o.dig(cs, "state", "running"), dict) for cs in o.container_statuses(pod))
