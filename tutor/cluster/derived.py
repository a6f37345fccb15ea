"""What is derived from a whole store (the timeline, the story) is built once per store version."""

from __future__ import annotations

import functools
import weakref
from typing import Callable, TypeVar

from tutor.cluster.store import Store

T = TypeVar("T")


def per_store_version(build: Callable[[Store, str], T]) -> Callable[[Store, str], T]:
    """build(store, namespace), kept until the store changes or another namespace is asked for.
    Weak keys: a store that is gone (a finished check, a closed replay) takes its result along."""
    cache: "weakref.WeakKeyDictionary[Store, tuple]" = weakref.WeakKeyDictionary()

    @functools.wraps(build)
    def cached(store: Store, namespace: str) -> T:
        key = (store.version, namespace)
        hit = cache.get(store)
        if hit is not None and hit[0] == key:
            return hit[1]
        value = build(store, namespace)
        cache[store] = (key, value)
        return value

    return cached
