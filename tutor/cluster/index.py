"""A generic index over stored objects, as client-go's Indexer keeps one: each object is filed
under the key an index function computes from it (none: not filed), and found by that key
without a scan. Members of one key are kept in the order they joined; an object whose key stays
the same keeps its place (unless asked to move last)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, KeysView
from typing import Any

# How an object is known under its key: its name (an Index), the value counted (a Tally).
Member = Callable[[Any], Hashable]
KeyOf = Callable[[Any], Hashable | None]

_EMPTY: dict[Any, Any] = {}  # what a key nothing is filed under has, for both: never written


class Index:
    def __init__(self, key: KeyOf, member: Member):
        self._key = key
        self._member = member
        self._by: dict[Hashable, dict[Hashable, Any]] = {}

    def update(self, old: Any | None, new: Any | None, last: bool = False) -> tuple[Hashable | None, Hashable | None]:
        """Files `new` in place of `old` (either may be None: an add, a delete); with `last`, a
        member that stays under its key moves to the end. Returns (old key, new key)."""
        old_key = self._key(old) if old is not None else None
        new_key = self._key(new) if new is not None else None
        self.move(self._member(old) if old is not None else "", old_key, new_key,
                  new, self._member(new) if new is not None else "", last)
        return old_key, new_key

    def move(self, old_member: Hashable, old_key: Hashable | None, new_key: Hashable | None, new: Any | None,
             new_member: Hashable, last: bool = False) -> None:
        """update() with the keys and member names already known (a caller that files one object
        in several indexes reads its fields once)."""
        if old_key is not None and (old_key != new_key or last or old_member != new_member):
            self.discard(old_key, old_member)
        if new_key is not None and new is not None:
            self._by.setdefault(new_key, {})[new_member] = new

    def discard(self, key: Hashable, member: Hashable) -> None:
        """Removes one member, and its key once nothing is left under it."""
        members = self._by.get(key)
        if members is not None:
            members.pop(member, None)
            if not members:
                del self._by[key]

    def get(self, key: Hashable) -> dict[Hashable, Any]:
        """The members under a key by member name: the index's own dict, to read and never change."""
        return self._by.get(key, _EMPTY)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._by

    def keys(self) -> KeysView[Hashable]:
        return self._by.keys()


class Tally:
    """An index of values rather than objects: under each key, the distinct members its objects
    have, in the order they first came (one LWS's group indexes, say), each kept while any object
    filed under that key still has it."""

    def __init__(self, key: KeyOf, member: Member):
        self._key = key
        self._member = member
        self._by: dict[Hashable, dict[Hashable, int]] = {}

    def update(self, old: Any | None, new: Any | None) -> None:
        """Counts `new` in place of `old` (either may be None). The new one is counted first, so a
        member that stays keeps its place."""
        if new is not None and (key := self._key(new)) is not None:
            members = self._by.setdefault(key, {})
            member = self._member(new)
            members[member] = members.get(member, 0) + 1
        if old is not None and (key := self._key(old)) is not None:
            members = self._by[key]
            member = self._member(old)
            if members[member] > 1:
                members[member] -= 1
            else:
                del members[member]
                if not members:
                    del self._by[key]

    def get(self, key: Hashable) -> dict[Hashable, int]:
        """The members under a key, each with how many objects have it: the tally's own dict, to
        read and never change."""
        return self._by.get(key, _EMPTY)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._by

    def keys(self) -> KeysView[Hashable]:
        return self._by.keys()
