"""What is derived from a whole store (the timeline, the story) is built once per store version,
or once per version of what it reads (one LWS's evidence)."""

from __future__ import annotations

import functools
import weakref
from typing import Callable, Hashable, TypeVar

from tutor.cluster.store import Store

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def cached_by(version: Callable[[Store, K], Hashable | None], build: Callable[[Store, K], T]) -> Callable[[Store, K], T]:
    """build(store, key), kept while version(store, key) and the key stay the same (a None
    version falls back to the store's own). Weak keys: a store that is gone (a finished check, a
    closed replay) takes its result along; one result per store, the last key asked."""
    cache: weakref.WeakKeyDictionary[Store, tuple[tuple[Hashable, K], T]] = weakref.WeakKeyDictionary()

    @functools.wraps(build)
    def cached(store: Store, key: K) -> T:
        v = version(store, key)
        stamp = (("store", store.version) if v is None else v, key)
        hit = cache.get(store)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = build(store, key)
        cache[store] = (stamp, value)
        return value

    return cached


def per_store_version(build: Callable[[Store, str], T]) -> Callable[[Store, str], T]:
    """build(store, namespace), kept until the store changes or another namespace is asked for."""
    return cached_by(lambda store, _: ("store", store.version), build)
