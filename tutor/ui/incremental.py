"""What the live panes show, kept up to date from the store's changes (Store.take_changes).

A re-check in a namespace of thousands of pods must not walk them all for each pane: each model
here redoes only the pods, groups and events that changed since it last looked, and rebuilds
from the whole store only on its first look (or when it fell far behind). Each one's result
equals render.py's from-scratch function on the same store (tests/ui/test_incremental.py checks
that at every moment of the walkthrough).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left

from rich.console import Group
from rich.text import Text

from tutor.cluster import objects as o
from tutor.cluster.store import Store
from tutor.ui import render


# --- events -----------------------------------------------------------------------------------

class LessonEvents:
    """render.lesson_events, kept up to date: the newest MAX_EVENTS lesson events, merged with
    the events that changed. Equal times keep the store's order (the order of their last change),
    as the from-scratch sort does; when a shown event was changed or forgotten and nothing new
    takes its place for sure, the list is rebuilt from the store."""

    def __init__(self) -> None:
        self._shown: list[tuple[tuple, str, dict]] = []  # (order key, seen key, event), newest first
        self._seq = 0  # the position of the next changed event in the store's order
        self._namespace: str | None = None

    def update(self, store: Store, namespace: str) -> list[dict]:
        changes = store.take_changes(self)
        if changes.everything or namespace != self._namespace:
            return self._rebuild(store, namespace)
        changed = [key for ns, key in changes.events if ns == namespace]
        if not changed:
            return [e for _, _, e in self._shown]
        gone = set(changed)
        kept = [s for s in self._shown if s[1] not in gone]
        lost = len(kept) < len(self._shown)
        floor = self._shown[-1][0] if len(self._shown) == render.MAX_EVENTS else None
        seen = store.events_named(namespace)
        for key in changed:
            ev = seen.get(key)
            if ev is not None and _is_lesson(ev):
                kept.append((self._order(ev), key, ev))
        kept.sort(key=lambda s: s[0], reverse=True)
        if lost and floor is not None and (len(kept) < render.MAX_EVENTS or kept[render.MAX_EVENTS - 1][0] < floor):
            # a shown event left; one not shown may now be among the newest
            return self._rebuild(store, namespace)
        self._shown = kept[:render.MAX_EVENTS]
        return [e for _, _, e in self._shown]

    def _order(self, ev: dict) -> tuple:
        """render's order, then the store's: a later change sorts as older among equal times."""
        self._seq += 1
        return (*render.event_order(ev), -self._seq)

    def _rebuild(self, store: Store, namespace: str) -> list[dict]:
        self._namespace = namespace
        shown = []
        for key, ev in store.events_named(namespace).items():
            if _is_lesson(ev):
                shown.append((self._order(ev), key, ev))
        self._shown = heapq.nlargest(render.MAX_EVENTS, shown, key=lambda s: s[0])
        return [e for _, _, e in self._shown]


def _is_lesson(ev: dict) -> bool:
    return render._memo(ev, "lesson", render._about_lesson_kind)


class WaitingPods:
    """render.explanations_key, kept up to date: the pods of the namespace that wait for a node,
    followed through the pods' changes instead of a walk over all of them."""

    def __init__(self) -> None:
        self._waiting: set[str] = set()
        self._namespace: str | None = None

    def key(self, store: Store, namespace: str) -> tuple:
        changes = store.take_changes(self)
        pods = store.pods_named(namespace)
        if changes.everything or namespace != self._namespace:
            self._namespace = namespace
            self._waiting = {name for name, p in pods.items() if render._pending(p)}
        else:
            for ns, name in changes.pods:
                if ns == namespace:
                    if render._pending(pods.get(name)):
                        self._waiting.add(name)
                    else:
                        self._waiting.discard(name)
        if not self._waiting:
            return ()
        return (store.kind_version["Pod"], store.kind_version["Node"])


# --- nodes: the GPU ledger --------------------------------------------------------------------

class _NodeHolders:
    """The pods counted on one node: the GPUs they hold, how many hold none, and the holders in
    the ledger's order (bisection on render.holder_sort_key), counted per LWS group."""

    def __init__(self) -> None:
        self.used = 0
        self.others = 0
        self.holders: list[tuple] = []  # (sort key, row, GPUs), sorted
        self.per_group: dict[tuple, int] = {}  # (lws, group) -> holders

    def change(self, row: tuple, n: int, sign: int) -> None:
        """Counts the row in (sign 1) or out (sign -1); n: the GPUs it holds."""
        self.used += sign * n
        if not n:
            self.others += sign
            return
        entry = (render.holder_sort_key(row), row, n)
        group = (row[4], row[5])
        if sign > 0:
            self.holders.insert(bisect_left(self.holders, entry[:1]), entry)
            self.per_group[group] = self.per_group.get(group, 0) + 1
        else:
            del self.holders[bisect_left(self.holders, entry[:1])]
            self.per_group[group] -= 1
            if not self.per_group[group]:
                del self.per_group[group]

    def lines(self) -> list:
        """render.holder_lines for the first MAX_GROUPS groups, reading only their holders."""
        first: dict[tuple, list[str]] = {}
        last = None  # (lws, group or 0) of the last group taken: later holders sort after it
        for key, row, n in self.holders:
            group = (row[4], row[5])
            if group not in first:
                if len(first) == render.MAX_GROUPS:
                    if key[:2] > last:
                        break
                    continue
                first[group] = []
                last = key[:2]
            if len(first[group]) < render.MAX_NAMES:
                first[group].append(render.holder_label(row, n))
        return render.holder_lines([(g, names, self.per_group[g]) for g, names in first.items()],
                                   len(self.per_group))


class Ledger:
    """render.ledger_view and its key, kept up to date: each pod's ledger row is redone when the
    pod changed, and counted in or out of its node's holders or the pods not placed."""

    def __init__(self) -> None:
        self._rows: dict[str, tuple] = {}  # name -> (row, GPUs it holds, counted on its node, waiting)
        self._nodes: dict[str, _NodeHolders] = {}  # node name -> its holders (nodes not seen too)
        self._waiting: list[tuple] = []  # rows of the pods not placed, sorted
        self._version = 0  # grows when a row changed, or all were redone: what the key compares
        self._basis: tuple | None = None  # (namespace, gpu)

    def update(self, store: Store, namespace: str, gpu: str) -> tuple:
        """The ledger's key: equal keys mean an identical view (as render.ledger_key)."""
        changes = store.take_changes(self)
        pods = store.pods_named(namespace)
        if changes.everything or (namespace, gpu) != self._basis:
            self._rows, self._nodes, self._waiting = {}, {}, []
            self._basis = (namespace, gpu)
            self._version += 1
            names = list(pods)
        else:
            names = [name for ns, name in changes.pods if ns == namespace]
        for name in names:
            self._follow(name, pods.get(name), gpu)
        return (render.ledger_nodes_key(store), self._version)

    def _follow(self, name: str, pod: dict | None, gpu: str) -> None:
        old = self._rows.pop(name, None)
        new = None
        if pod is not None:
            row = render.ledger_row(pod)
            new = (row, dict(row[7]).get(gpu, 0), bool(row[2] and row[1]), render.waits_for_a_node(row, pod))
            self._rows[name] = new
        if old == new:
            return
        if old is None or new is None or old[0] != new[0]:
            self._version += 1
        for entry, sign in ((old, -1), (new, 1)):
            if entry is None:
                continue
            row, n, counted, waiting = entry
            if counted:
                self._nodes.setdefault(row[1], _NodeHolders()).change(row, n, sign)
            if waiting and sign > 0:
                self._waiting.insert(bisect_left(self._waiting, row), row)
            elif waiting:
                del self._waiting[bisect_left(self._waiting, row)]

    def view(self, store: Store, namespace: str, gpu: str, t: render.Translate = render._en):
        """render.ledger_view from the rows kept (update first)."""
        nodes = sorted(store.all("Node"), key=o.name)
        if not nodes:
            return Text(t("No nodes seen yet."), style="dim")
        parts = []
        empty = _NodeHolders()
        for n in nodes:
            here = self._nodes.get(o.name(n), empty)
            parts += render.node_lines(n, here.used, here.lines(), here.others, gpu, t)
        parts += render.ledger_tail(self._waiting[:render.MAX_NAMES], len(self._waiting), namespace, gpu, t)
        return Group(*parts)
