"""One in-memory store of the lesson's cluster objects, plus what no single snapshot shows.

The store is applied on one thread only (the UI's event loop, or the CLI's main thread);
sources on other threads hand it events through a queue. `version` grows on every change so
consumers can tell cheaply whether anything moved; `take_changes` tells one reader which objects
moved since it last asked, so a pane can redo only those.
"""

from __future__ import annotations

import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from tutor.cluster import objects as o
from tutor.cluster.events import ObjectEvent, Relisted

KINDS = ("Pod", "LeaderWorkerSet", "Event", "StatefulSet", "Node")

# Bounds on the history kept across events, so a busy namespace cannot grow the tutor without
# end. A lab namespace sees a few hundred Events and a handful of mixed-revision moments; the
# bounds sit far above that, so what the checkers read is unchanged there.
# - Events (live or expired): the newest MAX_EVENTS per namespace by last change. The events
#   pane shows the newest 60; checkers read the events about one object (step 8 the orphan
#   worker's FailedScheduling, which the scheduler keeps updating; step 5 llm's RecreateGroup).
# - Mixed revisions: the first MAX_MIXED per LWS, one per change of what the group runs. Step 6
#   shows the first; the groups pane marks every group that ever held two (mixed_groups).
MAX_EVENTS = 1000
MAX_MIXED = 20
# - StatefulSets seen (with their owner), the newest MAX_STATEFULSETS: the timeline shows a
#   worker StatefulSet removed with its leader pod (garbage collection) only from these owner
#   references. A lab namespace makes one per group recreation or rollout step.
MAX_STATEFULSETS = 500
# - Changes not yet taken by every reader (take_changes): past this many, the oldest half is
#   dropped and a reader that had not taken them is told to rebuild (a hidden pane can go unread
#   for a long time); readers that keep up are not affected.
MAX_JOURNAL = 50_000


def name_key(kind: str, name: str) -> tuple[str, str]:
    """A key of Store.name_version: (kind, name) for an object of the kind; ("Event", name) for
    the Events about an object of that name; ("pods of", lws) for the pods labelled as an LWS's;
    ("named after", lws) for every Pod, StatefulSet and Event subject named like one of an LWS's
    (see named_after); ("UIDs", "") grows when a pod UID is first known (Observations.uid_owner)."""
    return (kind, name)


_SUFFIX_RE = re.compile(r"-\d+$")


def named_after(name: str) -> tuple[str, ...]:
    """The LWS names an object's name says it may belong to, by the names LWS gives: a leader pod
    or worker StatefulSet `<lws>-<group>`, a worker pod `<lws>-<group>-<index>`. The timeline reads
    pods by name (a pod may have lost its labels, or be known from Events only), so the store notes
    changes under these names too."""
    out = []
    for _ in range(2):
        name, n = _SUFFIX_RE.subn("", name)
        if not n or not name:
            break
        out.append(name)
    return tuple(out)


def _subject(ev: dict) -> tuple[str, str]:
    """(namespace, name of the object an Event is about): how events_about finds them."""
    return (o.namespace(ev), str(o.event_regarding(ev).get("name", "")))


def _unindex(index: dict[tuple | str, dict], key, member: str) -> None:
    """Removes member from index[key], and the key once nothing is left under it."""
    members = index.get(key)
    if members is not None:
        members.pop(member, None)
        if not members:
            del index[key]


@dataclass
class Changes:
    """What changed in the store since a reader last took its changes (Store.take_changes).

    `everything`: the reader must rebuild from the store (its first take, or it fell more than
    MAX_JOURNAL changes behind); the sets are then empty. Otherwise, by key:
    - objects: kind -> (namespace, name) of the objects added, modified or deleted;
    - groups: (namespace, LWS, group index) of every group a changed pod left or joined (its
      pods, mixed revisions or recreations may have changed);
    - events: (namespace, key) of the Events seen (Store.events_for) that were added, changed or
      forgotten, in the order they last changed; key is the event's uid, or "namespace/name".
    """

    everything: bool = False  # one Changes can be handed to several readers: read it, never change it
    objects: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: {k: set() for k in KINDS})
    groups: set[tuple[str, str, int | None]] = field(default_factory=set)
    events: dict[tuple[str, str], None] = field(default_factory=dict)

    @property
    def pods(self) -> set[tuple[str, str]]:
        return self.objects["Pod"]

    def __bool__(self) -> bool:
        return self.everything or bool(self.groups or self.events or any(self.objects.values()))

    @classmethod
    def of(cls, entries) -> Changes:
        """The changes a run of journal entries (what, key) makes."""
        changes = cls()
        objects, groups, events = changes.objects, changes.groups, changes.events
        for what, key in entries:
            if what == "group":
                groups.add(key)
            elif what == "event":
                events.pop(key, None)  # re-added last: the order of the last change
                events[key] = None
            else:
                objects[what].add(key)
        return changes


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
    owner: tuple[str, str, str] = ()
    running_t: float | None = None
    terminating_t: float | None = None  # when the tutor first saw its deletion asked for


@dataclass
class StatefulSetSeen:
    name: str
    uid: str
    owner: tuple[str, str, str]  # its controller (kind, name, uid): a worker StatefulSet's is its leader pod
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
    pods: tuple[tuple[str, str], ...] = ()  # (pod, revision) of the Running pods at that moment


@dataclass
class Observations:
    """History kept across events: recreations, restarts, revisions, expired events."""

    uids: dict[str, list[UidSeen]] = field(default_factory=lambda: defaultdict(list))
    restarts: list[RestartSeen] = field(default_factory=list)
    # (lws, group index) -> revisions in the order first seen
    group_revisions: dict[tuple[str, int], list[str]] = field(default_factory=lambda: defaultdict(list))
    mixed: list[MixedRevisions] = field(default_factory=list)  # at most MAX_MIXED per LWS
    mixed_per_lws: dict[str, int] = field(default_factory=dict)
    mixed_last: dict[tuple[str, int], tuple] = field(default_factory=dict)  # (lws, group) -> last recorded
    mixed_groups: set[tuple[str, int]] = field(default_factory=set)  # (lws, group) of every `mixed`
    events_seen: dict[str, dict] = field(default_factory=dict)  # event uid -> last version seen
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


class Store:
    def __init__(self) -> None:
        self._objs: dict[str, dict[tuple[str, str], dict]] = {k: {} for k in KINDS}
        self.obs = Observations()
        self.version = 0
        self.kind_version = {k: 0 for k in KINDS}  # grows on every change of that kind
        # name_key(...) -> a count that grows whenever what it names changes: checkers that read
        # a few objects by name re-run only when those moved (tutor/checks/reads.py).
        self.name_version: dict[tuple[str, str], int] = {}
        self._touches = 0
        self.now = 0.0  # time of the newest event applied (seconds since the source started)
        # Wall-clock time (epoch seconds) of the source's t=0, when the source knows it: a
        # recording's started_at, or the moment a live source started. Events and object
        # timestamps are wall-clock times; the timeline relates them to `t` through this.
        self.started_at: float | None = None
        # Pods by (namespace, LWS) and by (namespace, LWS, group), then by name: pods_of and the
        # per-group revision check read only what they need, never the whole namespace (a busy
        # one has thousands of pods and every pod event would scan them all).
        self._pods_by_lws: dict[tuple, dict[str, dict]] = {}
        self._pods_by_group: dict[tuple, dict[int | None, dict[str, dict]]] = {}  # (ns, LWS) -> group -> name -> pod
        self._pods_in: dict[str, dict[str, dict]] = {}  # namespace -> name -> pod
        # Events seen, by (namespace, name of the object they are about), for the checkers.
        self._events_about: dict[tuple[str, str], dict[str, dict]] = {}
        self._events_in: dict[str, dict[str, dict]] = {}  # namespace -> events_seen key -> event
        # What changed, for take_changes: one entry per change, kept until every reader took it.
        # Nothing is noted while no reader has asked (the CLI never does).
        self._journal: list[tuple] = []
        self._journal_start = 0  # the position of _journal[0] among all entries ever noted
        # reader -> position of the first entry it has not taken. Held weakly: a pane that is gone
        # stops holding entries back.
        self._readers: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
        self._noting = False  # once a reader has asked (a plain flag: apply checks it on every change)
        self._last_taken: tuple[int, int, Changes] | None = None  # readers in step share one Changes

    # --- reading ---------------------------------------------------------------------------
    def all(self, kind: str, namespace: str | None = None) -> list[dict]:
        objs = self._objs.get(kind, {})
        if namespace is None:
            return list(objs.values())
        return [obj for (ns, _), obj in objs.items() if ns == namespace]

    def get(self, kind: str, name: str, namespace: str = "") -> dict | None:
        return self._objs.get(kind, {}).get((namespace, name))

    def pods_of(self, lws: str, namespace: str) -> list[dict]:
        return list(self._pods_by_lws.get((namespace, lws), {}).values())

    def pods_named(self, namespace: str) -> dict[str, dict]:
        """The namespace's pods by name: the store's own index, to read and never to change."""
        return self._pods_in.get(namespace, {})

    def lws_with_pods(self, namespace: str) -> set[str]:
        """The LWS names the namespace's pods are labelled with."""
        return {key[1] for key in self._pods_by_lws if key[0] == namespace}

    def groups_of(self, lws: str, namespace: str) -> dict[int | None, list[dict]]:
        """One LWS's pods by group index, groups in no particular order."""
        return {g: list(members.values()) for g, members in self._pods_by_group.get((namespace, lws), {}).items()}

    def group_indexes(self, lws: str, namespace: str):
        """The group indexes one LWS's pods are in (a view: read it, never keep it)."""
        return self._pods_by_group.get((namespace, lws), {}).keys()

    def pods_in_group(self, lws: str, group: int | None, namespace: str) -> list[dict]:
        return list(self._pods_by_group.get((namespace, lws), {}).get(group, {}).values())

    def _index_pod(self, old: dict | None, new: dict | None) -> None:
        old_key = (o.namespace(old), o.lws_name(old), o.group_index(old)) if old is not None and o.lws_name(old) else None
        new_key = (o.namespace(new), o.lws_name(new), o.group_index(new)) if new is not None and o.lws_name(new) else None
        if old_key is not None and old_key[:2] != (new_key or ())[:2]:
            _unindex(self._pods_by_lws, old_key[:2], o.name(old))
        if new_key is not None:
            self._pods_by_lws.setdefault(new_key[:2], {})[o.name(new)] = new  # a known name keeps its place
        if old_key is not None and old_key != new_key:
            groups = self._pods_by_group[old_key[:2]]
            _unindex(groups, old_key[2], o.name(old))
            if not groups:
                del self._pods_by_group[old_key[:2]]
        if new_key is not None:
            self._pods_by_group.setdefault(new_key[:2], {}).setdefault(new_key[2], {})[o.name(new)] = new
        if self._noting:
            if old_key is not None:
                self._noted("group", old_key)
            if new_key is not None and new_key != old_key:
                self._noted("group", new_key)

    def events_for(self, namespace: str) -> list[dict]:
        """Events in the namespace, including those the cluster has since dropped."""
        return list(self._events_in.get(namespace, {}).values())

    def events_named(self, namespace: str) -> dict[str, dict]:
        """events_for by key (Changes.events), in the order they last changed: the store's own
        index, to read and never to change."""
        return self._events_in.get(namespace, {})

    def events_about(self, name: str, namespace: str) -> list[dict]:
        """Events (seen, as events_for) about the object called `name`, of any kind."""
        return list(self._events_about.get((namespace, name), {}).values())

    # --- what changed ------------------------------------------------------------------------
    def take_changes(self, reader: object) -> Changes:
        """What changed since `reader` (any object that can be weakly referenced: a pane, say) last
        took its changes; its first take says `everything`. Each reader has its own position, so
        one taking does not hide a change from another."""
        at = self._readers.get(reader)
        end = self._journal_start + len(self._journal)
        self._readers[reader] = end
        self._noting = True
        if at is None or at < self._journal_start:
            changes = Changes(everything=True)
        elif self._last_taken is not None and self._last_taken[:2] == (at, end):
            changes = self._last_taken[2]  # the panes of one refresh take the same changes
        else:
            changes = Changes.of(self._journal[at - self._journal_start:])
            self._last_taken = (at, end, changes)
        taken = min(self._readers.values()) - self._journal_start  # what every reader has
        if taken > 0:
            del self._journal[:taken]
            self._journal_start += taken
        return changes

    def _noted(self, what: str, key: tuple) -> None:
        if not self._noting:
            return
        self._journal.append((what, key))
        if len(self._journal) > MAX_JOURNAL:  # a reader fell far behind: the oldest half goes, it rebuilds
            cut = len(self._journal) // 2
            del self._journal[:cut]
            self._journal_start += cut

    # --- writing ---------------------------------------------------------------------------
    def apply(self, ev: ObjectEvent) -> bool:
        obj = ev.obj
        kind = o.kind(obj)
        if kind not in self._objs or not o.name(obj):
            return False
        o.drop_managed_fields(obj)  # the live source drops them already; a recording may not
        self.now = max(self.now, ev.t)
        k = (o.namespace(obj), o.name(obj))
        bucket = self._objs[kind]
        if ev.type == "DELETED":
            gone = bucket.pop(k, None)
            if gone is None:
                return False
            self._touch_object(kind, gone)
            if kind == "Pod":
                _unindex(self._pods_in, k[0], k[1])
                self._index_pod(gone, None)
                self._pod_gone(obj, ev.t)
        elif ev.type in ("ADDED", "MODIFIED"):
            old = bucket.get(k)
            if old is not None and o.resource_version(old) == o.resource_version(obj) != "":
                return False
            bucket[k] = obj
            if old is not None:
                self._touch_object(kind, old)
            if kind == "Pod":
                self._pods_in.setdefault(k[0], {})[k[1]] = obj
                self._index_pod(old, obj)
                self._observe_pod(old, obj, ev.t)
        else:
            return False
        self._touch_object(kind, obj)
        if kind == "Event":
            self._observe_event(obj)
        if kind == "StatefulSet":
            self._observe_statefulset(obj, ev.type == "DELETED", ev.t)
        if kind == "Event" and ev.type != "DELETED":
            self._bound_start(obj, ev.t)
        self.version += 1
        self.kind_version[kind] += 1
        self._noted(kind, k)
        return True

    def replace(self, rl: Relisted) -> list[ObjectEvent]:
        """Applies a full list; returns the events that turned the old state into it."""
        have = self._objs.get(rl.kind)
        if have is None:
            return []
        listed = {(o.namespace(x), o.name(x)): x for x in rl.objs if o.name(x)}
        changes = [ObjectEvent("DELETED", obj, rl.t) for k, obj in have.items() if k not in listed]
        for k, obj in listed.items():
            old = have.get(k)
            if old is None:
                changes.append(ObjectEvent("ADDED", obj, rl.t))
            elif o.resource_version(old) != o.resource_version(obj) or o.resource_version(obj) == "":
                changes.append(ObjectEvent("MODIFIED", obj, rl.t))
        for ch in changes:
            self.apply(ch)
        return changes

    def _touch(self, key: tuple[str, str]) -> None:
        self._touches += 1
        self.name_version[key] = self._touches

    def _touch_object(self, kind: str, obj: dict) -> None:
        """Notes a change of `obj` (its old or its new version) under every key it is read by."""
        if kind == "Event":  # an Event is read by what it is about; its own name is no key
            subject = _subject(obj)[1]
            self._touch(name_key("Event", subject))
            self._touch_named_after(subject)
            return
        self._touch(name_key(kind, o.name(obj)))
        if kind == "Pod" and o.lws_name(obj):
            self._touch(name_key("pods of", o.lws_name(obj)))
        if kind in ("Pod", "StatefulSet"):
            self._touch_named_after(o.name(obj))

    def _touch_named_after(self, name: str) -> None:
        for lws in named_after(name):
            self._touch(name_key("named after", lws))

    def _own_uid(self, uid: str, pod: str) -> None:
        uid = uid.lower()
        if uid and uid not in self.obs.uid_owner:
            self.obs.uid_owner[uid] = pod
            self._touch(name_key("UIDs", ""))

    def clock(self) -> tuple | None:
        """What relates the tutor's clock `t` to the cluster's wall clock (the timeline's anchor,
        the story's): the source's start time and the bounds the pods and Events seen put on it;
        None when nothing does (the anchor is then the wall clock, which moves by itself)."""
        if self.started_at is None and self.obs.created_bound is None:
            return None
        return (self.started_at, self.obs.created_bound, self.obs.start_bound)

    # --- observations ------------------------------------------------------------------------
    def _observe_pod(self, old: dict | None, pod: dict, t: float) -> None:
        name, uid = o.name(pod), o.uid(pod)
        hist = self.obs.uids[name]
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
        self._own_uid(uid, name)
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
        self._observe_restarts(old, pod, t)
        self._observe_revisions(pod, t)

    def _bound_by_creation(self, seen: UidSeen) -> None:
        try:
            created = datetime.fromisoformat(seen.created) if seen.created else None
        except ValueError:
            return
        if created is None or created.tzinfo is None:
            return
        bound = created.timestamp() - seen.first_t
        if self.obs.created_bound is None or bound > self.obs.created_bound:
            self.obs.created_bound = bound

    def _pod_gone(self, pod: dict, t: float) -> None:
        hist = self.obs.uids.get(o.name(pod))
        if hist and hist[-1].uid == o.uid(pod) and hist[-1].gone_t is None:
            hist[-1].gone_t = t
        self._observe_revisions(pod, t)

    def _observe_restarts(self, old: dict | None, pod: dict, t: float) -> None:
        same_pod = old is not None and o.uid(old) == o.uid(pod)
        # str(): a container name of the wrong type (a list, say) must not break the dict
        before = {str(c.get("name")): o.int_or_none(c.get("restartCount")) or 0
                  for c in o.container_statuses(old)} if same_pod else {}
        for cs in o.container_statuses(pod):
            count = o.int_or_none(cs.get("restartCount")) or 0
            if count > before.get(str(cs.get("name")), 0):
                exit_code = o.int_or_none(o.dig(cs, "lastState", "terminated", "exitCode"))
                self.obs.restarts.append(RestartSeen(o.name(pod), o.uid(pod), count, exit_code, t))

    def _observe_revisions(self, pod: dict, t: float) -> None:
        lws, group = o.lws_name(pod), o.group_index(pod)
        if not lws or group is None:
            return
        rev = o.revision(pod)
        seen = self.obs.group_revisions[(lws, group)]
        if rev and rev not in seen:
            seen.append(rev)
        # Two revisions running side by side in one group is what LWS promises never happens.
        running = sorted(
            (o.name(p), o.revision(p))
            for p in self.pods_in_group(lws, group, o.namespace(pod))
            if o.phase(p) == "Running"
            and not o.is_terminating(p) and o.revision(p)
        )
        revs = {rev for _, rev in running}
        if len(revs) > 1:
            self.obs.mixed_groups.add((lws, group))
            seen = (tuple(sorted(revs)), tuple(running))
            obs = self.obs
            if obs.mixed_last.get((lws, group)) != seen and obs.mixed_per_lws.get(lws, 0) < MAX_MIXED:
                obs.mixed_last[(lws, group)] = seen
                obs.mixed_per_lws[lws] = obs.mixed_per_lws.get(lws, 0) + 1
                obs.mixed.append(MixedRevisions(lws, group, seen[0], t, seen[1]))

    def _observe_statefulset(self, sts: dict, deleted: bool, t: float) -> None:
        seen = self.obs.statefulsets.get(o.uid(sts))
        if seen is None and o.uid(sts):
            seen = self.obs.statefulsets[o.uid(sts)] = StatefulSetSeen(o.name(sts), o.uid(sts), o.controller_of(sts), t)
            if len(self.obs.statefulsets) > MAX_STATEFULSETS:
                oldest = self.obs.statefulsets.pop(next(iter(self.obs.statefulsets)))
                self._touch_named_after(oldest.name)  # what the story read of it is gone
        if seen is not None and deleted and seen.gone_t is None:
            seen.gone_t = t

    def _bound_start(self, ev: dict, t: float) -> None:
        when = o.event_time(ev)
        try:
            parsed = datetime.fromisoformat(when) if "." in when else None
        except ValueError:
            return
        at = parsed.timestamp() if parsed is not None and parsed.tzinfo is not None else None
        if at is not None and (self.obs.start_bound is None or at - t > self.obs.start_bound):
            self.obs.start_bound = at - t

    def _observe_event(self, ev: dict) -> None:
        key = o.uid(ev) or f"{o.namespace(ev)}/{o.name(ev)}"
        about_key = _subject(ev)
        old = self.obs.events_seen.get(key)
        if old is not None:
            self._touch_object("Event", old)
            old_key = _subject(old)
            if old_key != about_key:
                _unindex(self._events_about, old_key, key)
            _unindex(self._events_in, old_key[0], key)  # re-added last: the newest change
        self.obs.events_seen[key] = ev
        about = o.event_regarding(ev)
        if about.get("kind") == "Pod" and about.get("uid"):
            self._own_uid(str(about["uid"]), about_key[1])
        self._events_about.setdefault(about_key, {})[key] = ev  # a known event keeps its place
        in_ns = self._events_in.setdefault(about_key[0], {})
        in_ns[key] = ev
        self._noted("event", (about_key[0], key))
        if len(in_ns) > MAX_EVENTS:
            self._forget_event(next(iter(in_ns)))

    def _forget_event(self, key: str) -> None:
        """Drops the event least recently changed in its namespace (see MAX_EVENTS)."""
        ev = self.obs.events_seen.pop(key)
        self._touch_object("Event", ev)
        ns = o.namespace(ev)
        _unindex(self._events_in, ns, key)
        _unindex(self._events_about, _subject(ev), key)
        self._noted("event", (ns, key))
        live = self._objs["Event"]
        if live.get((ns, o.name(ev))) is ev:
            del live[(ns, o.name(ev))]
            self._noted("Event", (ns, o.name(ev)))
