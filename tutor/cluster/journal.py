"""The store's change journal: what changed, kept until every reader has taken it.

A reader is any object that can be weakly referenced (a pane, say); each has its own position,
so one taking does not hide a change from another, and one that is gone stops holding entries
back. Nothing is noted while no reader has asked (the CLI never does)."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tutor.cluster import kinds

# Changes not yet taken by every reader: past this many, the oldest half is dropped and a reader
# that had not taken them is told to rebuild (a hidden pane can go unread for a long time);
# readers that keep up are not affected.
MAX_JOURNAL = 50_000

# An entry's key: an object's (namespace, name), a group's (namespace, LWS, index) or an Event's
# (namespace, key), as the entry's `what` (a kind, "group" or "event") says.
Key = tuple[Any, ...]


@dataclass
class Changes:
    """What changed in the store since a reader last took its changes (Journal.take).

    `everything`: the reader must rebuild from the store (its first take, or it fell more than
    MAX_JOURNAL changes behind); the sets are then empty. Otherwise, by key:
    - objects: kind -> (namespace, name) of the objects added, modified or deleted;
    - groups: (namespace, LWS, group index) of every group a changed pod left or joined (its
      pods, mixed revisions or recreations may have changed);
    - events: (namespace, key) of the Events seen (Store.events_for) that were added, changed or
      forgotten, in the order they last changed; key is the event's uid, or "namespace/name".
    """

    everything: bool = False  # one Changes can be handed to several readers: read it, never change it
    objects: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: {k.kind: set() for k in kinds.TABLE})
    groups: set[tuple[str, str, int | None]] = field(default_factory=set)
    events: dict[tuple[str, str], None] = field(default_factory=dict)

    @property
    def pods(self) -> set[tuple[str, str]]:
        return self.objects[kinds.POD.kind]

    def __bool__(self) -> bool:
        return self.everything or bool(self.groups or self.events or any(self.objects.values()))

    @classmethod
    def of(cls, entries: Iterable[tuple[str, Key]]) -> Changes:
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


class Journal:
    def __init__(self) -> None:
        self._entries: list[tuple[str, Key]] = []  # (what, key): a kind, "group" or "event"
        self._start = 0  # the position of _entries[0] among all entries ever noted
        self._readers: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
        self.noting = False  # once a reader has asked (a plain flag: the store checks it on every change)
        self._last_taken: tuple[int, int, Changes] | None = None  # readers in step share one Changes

    def note(self, what: str, key: Key) -> None:
        if not self.noting:
            return
        self._entries.append((what, key))
        if len(self._entries) > MAX_JOURNAL:  # a reader fell far behind: the oldest half goes, it rebuilds
            cut = len(self._entries) // 2
            del self._entries[:cut]
            self._start += cut

    def take(self, reader: object) -> Changes:
        """What changed since `reader` last took its changes; its first take says `everything`."""
        at = self._readers.get(reader)
        end = self._start + len(self._entries)
        self._readers[reader] = end
        self.noting = True
        if at is None or at < self._start:
            changes = Changes(everything=True)
        elif self._last_taken is not None and self._last_taken[:2] == (at, end):
            changes = self._last_taken[2]  # the panes of one refresh take the same changes
        else:
            changes = Changes.of(self._entries[at - self._start:])
            self._last_taken = (at, end, changes)
        taken = min(self._readers.values()) - self._start  # what every reader has
        if taken > 0:
            del self._entries[:taken]
            self._start += taken
        return changes
