"""What the store does with a kind's objects beyond keeping them by namespace and name: the
indexes it files them in, the dependency keys a change of one moves, and the handlers each change
runs. A kind's row in the kinds table (tutor/cluster/kinds.py) names its own, as client-go's
informers take AddIndexers and AddEventHandler, so the store (tutor/cluster/store.py) runs every
kind the same way and names none.

- pods: by namespace, by LWS and by group, and each LWS's group indexes; a change notes the
  groups it touched in the journal, and feeds the pods' history (tutor/cluster/observations.py);
- StatefulSets: their owners, for the history;
- Events: kept past their expiry among the Events seen (Store.see), read by what they are about.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from tutor.cluster import deps
from tutor.cluster import objects as o
from tutor.cluster.index import Index, KeyOf, Member, Tally
from tutor.cluster.objects import Obj

if TYPE_CHECKING:
    from tutor.cluster.observations import Observations


class Notes(Protocol):
    """What a handler notes in the store's journal (tutor/cluster/journal.py: Journal). A Protocol:
    the journal reads the kinds table, which registers these handlers."""

    @property
    def noting(self) -> bool: ...

    def note(self, what: str, key: tuple[Any, ...]) -> None: ...


class Store(Protocol):
    """What a handler may do to the store that runs it (tutor/cluster/store.py): a Protocol, so
    the store imports the handlers and not the other way round."""

    @property
    def journal(self) -> Notes: ...

    obs: Observations

    def pods_in_group(self, lws: str, group: int | None, namespace: str) -> list[Obj]: ...

    def touch(self, key: deps.Dep) -> None: ...

    def see(self, ev: Obj, changed: bool = True) -> None: ...


class Indexer(NamedTuple):
    """An index of one kind's objects, by the key `key` computes (None: not filed)."""

    name: str
    key: KeyOf
    member: Member = o.name  # how an object is known under its key
    tally: bool = False  # keep each key's distinct members (a Tally) rather than its objects (an Index)
    # Filed by the kind's handler from the versions it has seen, not by the store from the objects
    # it holds: the Events seen outlive the cluster's.
    seen: bool = False

    def new(self) -> Index | Tally:
        return Tally(self.key, self.member) if self.tally else Index(self.key, self.member)


class Change(NamedTuple):
    """One change the store applied, as its kind's handlers are given it."""

    old: Obj | None  # the version the store held before (None: the object is new)
    obj: Obj  # the version the change brings (a deletion's: the object's last)
    t: float
    deleted: bool


Handler = Callable[["Store", Change], None]
Keys = Callable[[str, Obj], tuple[deps.Dep, ...]]  # (kind, an object) -> the keys a change of it moves


# --- names ---------------------------------------------------------------------------------------

_SUFFIX_RE = re.compile(r"-\d+$")


@lru_cache(maxsize=8192)  # a pure function of a name, asked on every change of a pod, a StatefulSet or an Event
def named_after(name: str) -> tuple[str, ...]:
    """The LWS names an object's name says it may belong to, by the names LWS gives: a leader pod
    or worker StatefulSet `<lws>-<group>`, a worker pod `<lws>-<group>-<index>`. The timeline reads
    pods by name (a pod may have lost its labels, or be known from Events only), so the store notes
    changes under these names too."""
    out: list[str] = []
    for _ in range(2):
        name, n = _SUFFIX_RE.subn("", name)
        if not n or not name:
            break
        out.append(name)
    return tuple(out)


@lru_cache(maxsize=8192)
def _named_after(name: str) -> tuple[deps.Dep, ...]:
    return tuple(map(deps.NamedAfter, named_after(name)))


# --- the keys a change moves (tuples: the store reads them on every change) -----------------------

def by_name(kind: str, obj: Obj) -> tuple[deps.Dep, ...]:
    """An object is read by its kind and name (a checker's Reads names it)."""
    return (deps.Named(kind, o.name(obj)),)


def by_name_after_lws(kind: str, obj: Obj) -> tuple[deps.Dep, ...]:
    """A StatefulSet: by name, and by the LWS names its name may belong to."""
    name = o.name(obj)
    return (deps.Named(kind, name), *_named_after(name))


def by_name_and_lws(kind: str, obj: Obj) -> tuple[deps.Dep, ...]:
    """A pod: by name, by the LWS its label names, and by the LWS names its name may belong to."""
    name, lws = o.name(obj), o.lws_name(obj)
    return (deps.Named(kind, name), *((deps.PodsOf(lws),) if lws else ()), *_named_after(name))


def by_subject(kind: str, obj: Obj) -> tuple[deps.Dep, ...]:
    """An Event is read by what it is about; its own name is no key."""
    subject = subject_of(obj)[1]
    return (deps.EventsAbout(subject), *_named_after(subject))


# --- pods ---------------------------------------------------------------------------------------

GroupKey = tuple[str, str, int | None]  # (namespace, LWS, group index)


def _read_group_key(pod: Obj) -> GroupKey | None:
    lws = o.lws_name(pod)
    return (o.namespace(pod), lws, o.group_index(pod)) if lws else None


def _group_key(pod: Obj) -> GroupKey | None:
    """(namespace, LWS, group index) of a pod labelled as an LWS's, else None: read once per pod
    version (memo), as every pod change files it in three indexes and the journal."""
    return o.memo(pod, "group key", _read_group_key)


def _lws_key(pod: Obj) -> tuple[str, str] | None:
    key = _group_key(pod)
    return key[:2] if key is not None else None


def _group_index(pod: Obj) -> int | None:
    key = _group_key(pod)
    assert key is not None  # a Tally asks the member of an object it files under a key only
    return key[2]


PODS_IN = Indexer("pods in a namespace", o.namespace)
PODS_BY_LWS = Indexer("pods by LWS", _lws_key)
PODS_BY_GROUP = Indexer("pods by group", _group_key)
GROUPS_BY_LWS = Indexer("group indexes by LWS", _lws_key, _group_index, tally=True)


def note_groups(store: Store, ch: Change) -> None:
    """Notes in the journal the group a changed pod left and the one it joined: its pods, mixed
    revisions or recreations may have changed."""
    if not store.journal.noting:
        return
    old_key = _group_key(ch.old) if ch.old is not None else None
    new_key = _group_key(ch.obj) if not ch.deleted else None
    if old_key is not None:
        store.journal.note("group", old_key)
    if new_key is not None and new_key != old_key:
        store.journal.note("group", new_key)


def pod_history(store: Store, ch: Change) -> None:
    """Feeds the pods' history: their UIDs, restarts and revisions."""
    if ch.deleted:
        store.obs.pod_deleted(ch.obj, ch.t, store.pods_in_group)
    elif store.obs.pod_changed(ch.old, ch.obj, ch.t, store.pods_in_group):
        store.touch(deps.UIDS)


# --- StatefulSets --------------------------------------------------------------------------------

def statefulset_history(store: Store, ch: Change) -> None:
    """Feeds the StatefulSets seen, with their owners; one the history drops moves what the story
    read of it."""
    forgotten = store.obs.statefulset_changed(ch.obj, ch.deleted, ch.t)
    for key in _named_after(forgotten) if forgotten is not None else ():
        store.touch(key)


# --- Events --------------------------------------------------------------------------------------

def event_key(ev: Obj) -> str:
    """How the store knows an Event across its versions: its uid, else namespace/name."""
    return o.uid(ev) or f"{o.namespace(ev)}/{o.name(ev)}"


def subject_of(ev: Obj) -> tuple[str, str]:
    """(namespace, name of the object an Event is about): how events_about finds them."""
    return (o.namespace(ev), str(o.event_regarding(ev).get("name", "")))


EVENTS_ABOUT = Indexer("Events seen by what they are about", subject_of, event_key, seen=True)
EVENTS_IN = Indexer("Events seen in a namespace", o.namespace, event_key, seen=True)  # in the order they last changed


def events_seen(pod_kind: str) -> Handler:
    """The Events handler: keeps each among the Events seen (a deletion too: it expired, which
    changes nothing it says), and feeds the history; one about a pod (of kind `pod_kind`) whose
    UID the tutor saw moves who held that UID."""
    def seen(store: Store, ch: Change) -> None:
        store.see(ch.obj, changed=not ch.deleted)
        about = o.event_regarding(ch.obj)
        if about.get("kind") == pod_kind and about.get("uid") \
                and store.obs.own_uid(str(about["uid"]), subject_of(ch.obj)[1]):
            store.touch(deps.UIDS)
        if not ch.deleted:
            store.obs.event_seen(ch.obj, ch.t)
    return seen
