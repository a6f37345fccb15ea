"""What the live source has passed on of one resource, as its watchdog needs it (tutor/cluster/live.py).

The watchdog asks the API server for the first object of a list (limit=1) and how many there are,
and compares the answer with this: the count, and the first object's resourceVersion. The API
server lists objects in the order of their keys (namespace, then name), so the first object is
the one with the smallest key, whatever the rest.

So of a resource whose store keeps only a few objects (Events: the newest MAX_EVENTS), this keeps
the count of every object and the resourceVersions of the `keep` smallest keys only: every key up
to `bound`, none beyond. An object created or changed beyond the bound changes the count or
nothing here, as it changed nothing the watchdog compares before. Without `keep`, every key is kept.
"""

from __future__ import annotations

import heapq

Key = tuple[str, str]  # (namespace, name): the order the API server lists objects in


class Held:
    def __init__(self, keep: int | None = None):
        self.keep = None if keep is None else max(1, keep)
        self.count = 0  # every object passed on, kept here or not
        self.versions: dict[Key, str] = {}  # every key up to `bound`: its resourceVersion
        self.bound: Key | None = None  # None: no key was ever let go

    def __len__(self) -> int:
        return self.count

    def get(self, key: Key) -> str | None:
        return self.versions.get(key)

    def _tracked(self, key: Key) -> bool:
        return self.bound is None or key <= self.bound

    def listed(self, key: Key, rv: str) -> None:
        """An object of a list (a list has each key once)."""
        self.count += 1
        self._set(key, rv)

    def added(self, key: Key, rv: str) -> None:
        if key not in self.versions:  # a key beyond the bound is not kept, and never seen twice
            self.count += 1
        self._set(key, rv)

    def modified(self, key: Key, rv: str) -> None:
        if self._tracked(key) and key not in self.versions:  # never listed: one more, as added
            self.count += 1
        self._set(key, rv)

    def deleted(self, key: Key) -> None:
        if self.versions.pop(key, None) is not None or not self._tracked(key):
            self.count -= 1

    def _set(self, key: Key, rv: str) -> None:
        if not self._tracked(key):
            return
        self.versions[key] = rv
        if self.keep is not None and len(self.versions) > self.keep + max(1, self.keep // 4):
            self._let_go(self.keep)

    def _let_go(self, keep: int) -> None:
        """Keeps the `keep` smallest keys; the bound moves down to the largest of them. (Some
        slack above `keep` before this runs: each run sorts what is kept.)"""
        kept = heapq.nsmallest(keep, self.versions)
        self.versions = {key: self.versions[key] for key in kept}
        if kept:
            self.bound = kept[-1]

    def agrees(self, count: int | None, first: Key | None, first_rv: str) -> bool:
        """Whether the API server's answer (its count, None when it did not say, and its first
        object) is what was passed on. A first object beyond the bound agrees only when nothing
        up to the bound is held any more: every smaller key is then gone on both sides, and the
        count says the rest."""
        if count is not None and count != self.count:
            return False
        if first is None:
            return True
        if first in self.versions:
            return self.versions[first] == first_rv
        return not self._tracked(first) and not self.versions
