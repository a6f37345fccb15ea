"""One memo rule for what is derived from a stored object: the store never mutates a dict it
holds, it replaces it, so "the same dict" means "unchanged" and a result can be kept under the
object's identity. Kept least-recently-used first out, so a bound never drops what a re-check is
about to ask again (clearing everything at a size did)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


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

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()


class ByIdentity:
    """compute(obj) for a stored object, kept while that very object is held. The object is kept
    beside its result, so its id cannot be reused by another while the entry lives."""

    def __init__(self, maxsize: int):
        self._lru = LRU(maxsize)

    def __call__(self, obj: Any, what: Hashable, compute: Callable[[Any], Any]) -> Any:
        key = (id(obj), what)
        hit = self._lru.get(key)
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = compute(obj)
        self._lru[key] = (obj, value)
        return value

    def __len__(self) -> int:
        return len(self._lru)

    def clear(self) -> None:
        self._lru.clear()
