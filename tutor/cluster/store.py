"""One in-memory store of the lesson's cluster objects, as client-go's tools/cache cuts one.

- the objects by kind, and generic indexes over them (tutor/cluster/index.py): pods by LWS, by
  group and by namespace, the Events seen by what they are about and by namespace;
- the change journal (tutor/cluster/journal.py): which objects moved since a reader last asked,
  so a pane can redo only those;
- the history no snapshot shows (tutor/cluster/observations.py), fed by handlers on each change;
- counts under typed dependency keys (tutor/cluster/deps.py) and per kind, so a checker re-runs
  only when what it reads moved.

The store is applied on one thread only (the UI's event loop, or the CLI's main thread);
sources on other threads hand it events through a queue. `version` grows on every change so
consumers can tell cheaply whether anything moved.
"""

from __future__ import annotations

import re

from tutor.cluster import deps
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent, Relisted
from tutor.cluster.index import Index
from tutor.cluster.journal import Changes, Journal
from tutor.cluster.objects import KINDS
from tutor.cluster.observations import Observations

__all__ = ["KINDS", "MAX_EVENTS", "Changes", "Store", "named_after"]

# Events (live or expired) kept: the newest MAX_EVENTS per namespace by last change, so a busy
# namespace cannot grow the tutor without end. The events pane shows the newest 60; checkers
# read the events about one object (the scheduler keeps updating a FailedScheduling; LWS's
# RecreateGroup names a group), far fewer than this in a lab namespace. A list of Events brings
# only the newest MAX_EVENTS, kept as its pages come (tutor/cluster/live.py, list_once).
MAX_EVENTS = 1000

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


def event_key(ev: dict) -> str:
    """How the store knows an Event across its versions: its uid, else namespace/name."""
    return o.uid(ev) or f"{o.namespace(ev)}/{o.name(ev)}"


def _lws_key(pod: dict):
    return (o.namespace(pod), o.lws_name(pod)) if o.lws_name(pod) else None


def _group_key(pod: dict):
    return (o.namespace(pod), o.lws_name(pod), o.group_index(pod)) if o.lws_name(pod) else None


class Store:
    def __init__(self, watched: tuple[str, ...] = KINDS) -> None:
        self._objs: dict[str, dict[tuple[str, str], dict]] = {k: {} for k in KINDS}
        # The kinds the source brings (the lesson's), less those the cluster refused (forbidden,
        # not served): for the others the store's emptiness says nothing (sees()).
        self.watched = frozenset(watched)
        self.refused: set[str] = set()
        self.obs = Observations()
        self.journal = Journal()
        self.version = 0
        self.kind_version = {k: 0 for k in KINDS}  # grows on every change of that kind
        self.name_version: dict[deps.Dep, int] = {}  # a typed key -> a count that grows when it moves
        self._touches = 0
        self.now = 0.0  # time of the newest event applied (seconds since the source started)
        # Wall-clock time (epoch seconds) of the source's t=0, when the source knows it: a
        # recording's started_at, or the moment a live source started. Events and object
        # timestamps are wall-clock times; the timeline relates them to `t` through this.
        self.started_at: float | None = None
        # pods_of and the per-group revision check read only what they need, never the whole
        # namespace (a busy one has thousands of pods and every pod event would scan them all).
        self._pods_by_lws = Index(_lws_key, o.name)
        self._pods_by_group = Index(_group_key, o.name)
        self._pods_in = Index(o.namespace, o.name)
        self._groups: dict[tuple[str, str], dict[int | None, None]] = {}  # (ns, LWS) -> its group indexes
        # Events seen (live or expired), by what they are about and by namespace, for the checkers.
        self._events_about = Index(_subject, event_key)
        self._events_in = Index(o.namespace, event_key)  # in the order they last changed

    # --- reading ---------------------------------------------------------------------------
    def all(self, kind: str, namespace: str | None = None) -> list[dict]:
        objs = self._objs.get(kind, {})
        if namespace is None:
            return list(objs.values())
        return [obj for (ns, _), obj in objs.items() if ns == namespace]

    def sees(self, kind: str) -> bool:
        """Whether the store holds every object of that kind the cluster has: the kind is watched
        and its watch was not refused. A pod may name a PodGroup the store cannot see."""
        return kind in self.watched and kind not in self.refused

    def get(self, kind: str, name: str, namespace: str = "") -> dict | None:
        return self._objs.get(kind, {}).get((namespace, name))

    def pods_of(self, lws: str, namespace: str) -> list[dict]:
        return list(self._pods_by_lws.get((namespace, lws)).values())

    def pods_named(self, namespace: str) -> dict[str, dict]:
        """The namespace's pods by name: the store's own index, to read and never to change."""
        return self._pods_in.get(namespace)

    def lws_with_pods(self, namespace: str) -> set[str]:
        """The LWS names the namespace's pods are labelled with."""
        return {key[1] for key in self._pods_by_lws.keys() if key[0] == namespace}

    def group_indexes(self, lws: str, namespace: str):
        """The group indexes one LWS's pods are in (a view: read it, never keep it)."""
        return self._groups.get((namespace, lws), {}).keys()

    def pods_in_group(self, lws: str, group: int | None, namespace: str) -> list[dict]:
        return list(self._pods_by_group.get((namespace, lws, group)).values())

    def events_for(self, namespace: str) -> list[dict]:
        """Events in the namespace, including those the cluster has since dropped."""
        return list(self._events_in.get(namespace).values())

    def events_named(self, namespace: str) -> dict[str, dict]:
        """events_for by key (Changes.events), in the order they last changed: the store's own
        index, to read and never to change."""
        return self._events_in.get(namespace)

    def events_about(self, name: str, namespace: str) -> list[dict]:
        """Events (seen, as events_for) about the object called `name`, of any kind."""
        return list(self._events_about.get((namespace, name)).values())

    def clock(self) -> tuple | None:
        """What relates the tutor's clock `t` to the cluster's wall clock (the timeline's anchor,
        the story's): the source's start time and the bounds the pods and Events seen put on it;
        None when nothing does (the anchor is then the wall clock, which moves by itself)."""
        if self.started_at is None and self.obs.created_bound is None:
            return None
        return (self.started_at, self.obs.created_bound, self.obs.start_bound)

    # --- what changed ------------------------------------------------------------------------
    def take_changes(self, reader: object) -> Changes:
        """What changed since `reader` (any object that can be weakly referenced: a pane, say) last
        took its changes; its first take says `everything` (tutor/cluster/journal.py)."""
        return self.journal.take(reader)

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
            if kind != "Event":  # an Event's last version stays among those seen (_event_seen)
                o.memo.forget(gone)
            self._touch_object(kind, gone)
            if kind == "Pod":
                self._index_pod(gone, None)
                self.obs.pod_deleted(obj, ev.t, self._group_pods)
        elif ev.type in ("ADDED", "MODIFIED"):
            old = bucket.get(k)
            if old is not None and o.resource_version(old) == o.resource_version(obj) != "":
                return False
            bucket[k] = obj
            if old is not None:
                if kind != "Event" and old is not obj:  # an Event's old version: in _event_seen
                    o.memo.forget(old)
                self._touch_object(kind, old)
            if kind == "Pod":
                self._index_pod(old, obj)
                if self.obs.pod_changed(old, obj, ev.t, self._group_pods):
                    self._touch(deps.UIDS)
        else:
            return False
        self._touch_object(kind, obj)
        if kind == "Event":
            self._event_seen(obj, changed=ev.type != "DELETED")
        if kind == "StatefulSet":
            forgotten = self.obs.statefulset_changed(obj, ev.type == "DELETED", ev.t)
            if forgotten is not None:
                self._touch_named_after(forgotten)  # what the story read of it is gone
        if kind == "Event" and ev.type != "DELETED":
            self.obs.event_seen(obj, ev.t)
        self.version += 1
        self.kind_version[kind] += 1
        self.journal.note(kind, k)
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

    # --- indexes, journal and counts -----------------------------------------------------------
    def _group_pods(self, lws: str, group: int, namespace: str) -> list[dict]:
        return self.pods_in_group(lws, group, namespace)

    def _index_pod(self, old: dict | None, new: dict | None) -> None:
        # Each pod's fields read once for its three indexes: this runs on every pod event.
        old_name, new_name = (o.name(old) if old is not None else ""), (o.name(new) if new is not None else "")
        old_key = _group_key(old) if old is not None else None
        new_key = _group_key(new) if new is not None else None
        old_ns = o.namespace(old) if old is not None else None
        new_ns = o.namespace(new) if new is not None else None
        self._pods_in.move(old_name, old_ns, new_ns, new, new_name)
        self._pods_by_lws.move(old_name, old_key[:2] if old_key else None, new_key[:2] if new_key else None,
                               new, new_name)
        self._pods_by_group.move(old_name, old_key, new_key, new, new_name)
        for key in (old_key, new_key):
            if key is None:
                continue
            groups = self._groups.setdefault(key[:2], {})
            if key in self._pods_by_group:
                groups.setdefault(key[2], None)
            else:
                groups.pop(key[2], None)
            if not groups:
                del self._groups[key[:2]]
        if self.journal.noting:
            if old_key is not None:
                self.journal.note("group", old_key)
            if new_key is not None and new_key != old_key:
                self.journal.note("group", new_key)

    def _touch(self, key: deps.Dep) -> None:
        self._touches += 1
        self.name_version[key] = self._touches

    def _touch_object(self, kind: str, obj: dict) -> None:
        """Notes a change of `obj` (its old or its new version) under every key it is read by."""
        if kind == "Event":  # an Event is read by what it is about; its own name is no key
            subject = _subject(obj)[1]
            self._touch(deps.EventsAbout(subject))
            self._touch_named_after(subject)
            return
        self._touch(deps.Named(kind, o.name(obj)))
        if kind == "Pod" and o.lws_name(obj):
            self._touch(deps.PodsOf(o.lws_name(obj)))
        if kind in ("Pod", "StatefulSet"):
            self._touch_named_after(o.name(obj))

    def _touch_named_after(self, name: str) -> None:
        for lws in named_after(name):
            self._touch(deps.NamedAfter(lws))

    # --- the Events seen, kept past their expiry ----------------------------------------------
    def _event_seen(self, ev: dict, changed: bool = True) -> None:
        """Notes an Event seen. `changed` False: its deletion (it expired, or a relist left it out
        for being older than the newest MAX_EVENTS), which changes nothing it says: it keeps its
        place among the least recently changed, the first to be forgotten."""
        key = event_key(ev)
        old = self.obs.events_seen.get(key)
        if old is not None:
            if old is not ev:
                o.memo.forget(old)
            self._touch_object("Event", old)
        self.obs.events_seen[key] = ev
        about = o.event_regarding(ev)
        ns, subject = _subject(ev)
        if about.get("kind") == "Pod" and about.get("uid") and self.obs.own_uid(str(about["uid"]), subject):
            self._touch(deps.UIDS)
        self._events_about.update(old, ev)  # a known event keeps its place
        self._events_in.update(old, ev, last=changed)  # a change re-adds it last: the newest
        self.journal.note("event", (ns, key))
        in_ns = self._events_in.get(ns)
        if len(in_ns) > MAX_EVENTS:
            self._forget_event(next(iter(in_ns)))

    def _forget_event(self, key: str) -> None:
        """Drops the event least recently changed in its namespace (see MAX_EVENTS)."""
        ev = self.obs.events_seen.pop(key)
        o.memo.forget(ev)
        self._touch_object("Event", ev)
        ns = o.namespace(ev)
        self._events_in.discard(ns, key)
        self._events_about.discard(_subject(ev), key)
        self.journal.note("event", (ns, key))
        live = self._objs["Event"]
        if live.get((ns, o.name(ev))) is ev:
            del live[(ns, o.name(ev))]
            self.journal.note("Event", (ns, o.name(ev)))
