"""One memo rule for what is derived from a stored object: the store never mutates a dict it
holds, it replaces it, so "the same dict" means "unchanged" and a result can be kept under the
object's identity. Kept least-recently-used first out, so a bound never drops what a re-check is
about to ask again (clearing everything at a size did)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

R = TypeVar("R")


class LRU:
    """A bounded mapping that forgets the least recently used entry first."""

    def __init__(self, maxsize: int):
        self.maxsize = maxsize
        self._data: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, default: Any = None) -> Any:
        try:
            value = self._data[key]
        except KeyError:
            return default
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: Hashable, value: Any) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        if len(self._data) > self.maxsize:
            self._data.popitem(last=False)

    def pop(self, key: Hashable, default: Any = None) -> Any:
        return self._data.pop(key, default)

    def peek(self, key: Hashable, default: Any = None) -> Any:
        """The entry, without making it the most recently used."""
        return self._data.get(key, default)

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()


class ByIdentity:
    """compute(obj) for a stored object, kept while that very object is held: one entry per
    object, its results by what was computed. The object is kept beside its results, so its id
    cannot be reused by another while the entry lives; so whoever lets go of an object (the
    store, when it replaces or drops one) says so with `forget`, or each replaced version would
    stay alive here until the bound pushed it out (at 1,000 pods and 10,000 events, some 20 MB
    of pods no store held any more)."""

    def __init__(self, maxsize: int):
        self._lru = LRU(maxsize)  # id(obj) -> (obj, {what: result})

    def __call__(self, obj: Any, what: Hashable, compute: Callable[[Any], R]) -> R:
        entry = self._lru.get(id(obj))
        if entry is None or entry[0] is not obj:
            entry = (obj, {})
            self._lru[id(obj)] = entry
        results = entry[1]
        try:
            kept: R = results[what]  # what compute gave for this `what`
            return kept
        except KeyError:
            value = results[what] = compute(obj)
            return value

    def forget(self, obj: Any) -> None:
        """Drops what was computed from `obj`: its holder let go of it."""
        entry = self._lru.peek(id(obj))
        if entry is not None and entry[0] is obj:
            self._lru.pop(id(obj))

    def objects(self) -> list[Any]:
        """The objects it keeps results of."""
        return [entry[0] for entry in self._lru._data.values()]

    def __len__(self) -> int:
        """How many objects it keeps results of."""
        return len(self._lru)

    def clear(self) -> None:
        self._lru.clear()
