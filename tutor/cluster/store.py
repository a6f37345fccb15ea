"""One in-memory store of the lesson's cluster objects, as client-go's tools/cache cuts one.

- the objects by kind, and the indexes over them each kind's row of the kinds table registers
  (tutor/cluster/kinds.py, tutor/cluster/handlers.py): pods by LWS, by group and by namespace,
  the Events seen by what they are about and by namespace. Each change is handed to its kind's
  handlers, so the store runs every kind the same way and names none;
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

from collections.abc import Hashable, KeysView
from typing import Any

from tutor.cluster import deps, kinds
from tutor.cluster import objects as o
from tutor.cluster.handlers import (EVENTS_ABOUT, EVENTS_IN, GROUPS_BY_LWS, PODS_BY_GROUP, PODS_BY_LWS, PODS_IN, Change,
                                    Indexer, event_key, subject_of)
from tutor.cluster.index import Index
from tutor.cluster.journal import Changes, Journal
from tutor.cluster.kinds import KINDS
from tutor.cluster.objects import Obj
from tutor.cluster.observations import Observations
from tutor.cluster.source_events import ObjectEvent, Relisted

__all__ = ["KINDS", "MAX_EVENTS", "Changes", "Store"]

# Events (live or expired) kept: the newest MAX_EVENTS per namespace by last change, so a busy
# namespace cannot grow the tutor without end. The events pane shows the newest 60; checkers
# read the events about one object (the scheduler keeps updating a FailedScheduling; LWS's
# RecreateGroup names a group), far fewer than this in a lab namespace. A list of Events brings
# only the newest MAX_EVENTS, kept as its pages come (tutor/cluster/live.py, list_once).
MAX_EVENTS = 1000


class Store:
    def __init__(self, watched: tuple[str, ...] = KINDS) -> None:
        # Each kind's row of the kinds table: what the store does with its objects beyond keeping them.
        self._rows = {k.kind: k for k in kinds.TABLE}
        self._objs: dict[str, dict[tuple[str, str], Obj]] = {k: {} for k in self._rows}
        # The kinds the source brings (the lesson's), less those the cluster refused (forbidden,
        # not served): for the others the store's emptiness says nothing (sees()).
        self.watched = frozenset(watched)
        self.refused: set[str] = set()
        self.obs = Observations()
        self.journal = Journal()
        self.version = 0
        self.kind_version = {k: 0 for k in self._rows}  # grows on every change of that kind
        self.name_version: dict[deps.Dep, int] = {}  # a typed key -> a count that grows when it moves
        self._touches = 0
        self.now = 0.0  # time of the newest event applied (seconds since the source started)
        # Wall-clock time (epoch seconds) of the source's t=0, when the source knows it: a
        # recording's started_at, or the moment a live source started. Events and object
        # timestamps are wall-clock times; the timeline relates them to `t` through this.
        self.started_at: float | None = None
        # The indexes the rows register, by name. A reader asks for what it needs, never the whole
        # namespace (a busy one has thousands of pods and every pod event would scan them all).
        self._indexes = {ix.name: ix.new() for row in kinds.TABLE for ix in row.indexers}
        # Those that file objects (not a Tally's counts): the Events seen are moved in these by hand.
        self._listing = {name: ix for name, ix in self._indexes.items() if isinstance(ix, Index)}
        # Those the store files each kind's objects in itself (the others: the kind's handlers).
        self._filed = {row.kind: tuple(self._indexes[ix.name] for ix in row.indexers if not ix.seen) for row in kinds.TABLE}

    # --- reading ---------------------------------------------------------------------------
    def all(self, kind: str, namespace: str | None = None) -> list[Obj]:
        objs = self._objs.get(kind, {})
        if namespace is None:
            return list(objs.values())
        return [obj for (ns, _), obj in objs.items() if ns == namespace]

    def sees(self, kind: str) -> bool:
        """Whether the store holds every object of that kind the cluster has: the kind is watched
        and its watch was not refused. A pod may name a PodGroup the store cannot see."""
        return kind in self.watched and kind not in self.refused

    def get(self, kind: str, name: str, namespace: str = "") -> Obj | None:
        return self._objs.get(kind, {}).get((namespace, name))

    def indexed(self, indexer: Indexer, key: Hashable) -> dict[Any, Any]:
        """What one of the indexes the kinds table's rows register files under `key`: its objects by
        name (a tally: its members, each with a count). The index's own dict, to read and never to
        change. (Any: the indexes are told apart by name only, each with its own keys and members.)"""
        return self._indexes[indexer.name].get(key)

    def pods_of(self, lws: str, namespace: str) -> list[Obj]:
        return list(self.indexed(PODS_BY_LWS, (namespace, lws)).values())

    def pods_named(self, namespace: str) -> dict[str, Obj]:
        """The namespace's pods by name: the store's own index, to read and never to change."""
        return self.indexed(PODS_IN, namespace)

    def lws_with_pods(self, namespace: str) -> set[str]:
        """The LWS names the namespace's pods are labelled with."""
        return {key[1] for key in self._indexes[PODS_BY_LWS.name].keys() if isinstance(key, tuple) and key[0] == namespace}

    def group_indexes(self, lws: str, namespace: str) -> KeysView[int | None]:
        """The group indexes one LWS's pods are in (a view: read it, never keep it)."""
        return self.indexed(GROUPS_BY_LWS, (namespace, lws)).keys()

    def pods_in_group(self, lws: str, group: int | None, namespace: str) -> list[Obj]:
        return list(self.indexed(PODS_BY_GROUP, (namespace, lws, group)).values())

    def events_for(self, namespace: str) -> list[Obj]:
        """Events in the namespace, including those the cluster has since dropped."""
        return list(self.indexed(EVENTS_IN, namespace).values())

    def events_named(self, namespace: str) -> dict[str, Obj]:
        """events_for by key (Changes.events), in the order they last changed: the store's own
        index, to read and never to change."""
        return self.indexed(EVENTS_IN, namespace)

    def events_about(self, name: str, namespace: str) -> list[Obj]:
        """Events (seen, as events_for) about the object called `name`, of any kind."""
        return list(self.indexed(EVENTS_ABOUT, (namespace, name)).values())

    def clock(self) -> tuple[float | None, float | None, float | None] | None:
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
        """Applies one watch event: the object is kept (or dropped), filed in its kind's indexes,
        and handed with its old version to its kind's handlers (the kinds table's row)."""
        obj = ev.obj
        row = self._rows.get(o.kind(obj))
        if row is None or not o.name(obj):
            return False
        kind = row.kind
        o.drop_managed_fields(obj)  # the live source drops them already; a recording may not
        self.now = max(self.now, ev.t)
        k = (o.namespace(obj), o.name(obj))
        bucket = self._objs[kind]
        if ev.type == "DELETED":
            old = bucket.pop(k, None)
            if old is None:
                return False
            new = None
        elif ev.type in ("ADDED", "MODIFIED"):
            old = bucket.get(k)
            if old is not None and o.resource_version(old) == o.resource_version(obj) != "":
                return False
            bucket[k] = new = obj
        else:
            return False
        if old is not None:
            self._touch_object(kind, old)
        for index in self._filed[kind]:
            index.update(old, new)
        change = Change(old, obj, ev.t, new is None)
        for handler in row.handlers:
            handler(self, change)
        if old is not None and not row.kept_after_delete and old is not new:  # a kept one: let go by its handler
            o.memo.forget(old)  # once the indexes and handlers, which may memo it, are done with it
        self._touch_object(kind, obj)
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

    # --- counts, for the handlers too ----------------------------------------------------------
    def touch(self, key: deps.Dep) -> None:
        """Moves a dependency key: what reads it is read again."""
        self._touches += 1
        self.name_version[key] = self._touches

    def _touch_object(self, kind: str, obj: Obj) -> None:
        """Notes a change of `obj` (its old or its new version) under every key it is read by."""
        for key in self._rows[kind].read_by(kind, obj):
            self.touch(key)

    # --- the Events seen, kept past their expiry ----------------------------------------------
    def see(self, ev: Obj, changed: bool = True) -> None:
        """Keeps an Event among those seen (the Event row's handler calls it on each change).
        `changed` False: its deletion (it expired, or a relist left it out for being older than the
        newest MAX_EVENTS), which changes nothing it says: it keeps its place among the least
        recently changed, the first to be forgotten."""
        key = event_key(ev)
        old = self.obs.events_seen.get(key)
        if old is not None:
            if old is not ev:
                o.memo.forget(old)
            self._touch_object(o.kind(old), old)
        self.obs.events_seen[key] = ev
        self._indexes[EVENTS_ABOUT.name].update(old, ev)  # a known event keeps its place
        self._listing[EVENTS_IN.name].update(old, ev, last=changed)  # a change re-adds it last: the newest
        ns = o.namespace(ev)
        self.journal.note("event", (ns, key))
        in_ns = self.events_named(ns)
        if len(in_ns) > MAX_EVENTS:
            self._forget_event(next(iter(in_ns)))

    def _forget_event(self, key: str) -> None:
        """Drops the event least recently changed in its namespace (see MAX_EVENTS)."""
        ev = self.obs.events_seen.pop(key)
        o.memo.forget(ev)
        kind = o.kind(ev)
        self._touch_object(kind, ev)
        ns = o.namespace(ev)
        self._listing[EVENTS_IN.name].discard(ns, key)
        self._listing[EVENTS_ABOUT.name].discard(subject_of(ev), key)
        self.journal.note("event", (ns, key))
        live = self._objs[kind]
        if live.get((ns, o.name(ev))) is ev:
            del live[(ns, o.name(ev))]
            self.journal.note(kind, (ns, o.name(ev)))
