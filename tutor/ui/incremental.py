"""What the live panes show, kept up to date from the store's changes (Store.take_changes).

A re-check in a namespace of thousands of pods must not walk them all for each pane: each model
here redoes only the pods, groups and events that changed since it last looked, and rebuilds
from the whole store only on its first look (or when it fell far behind). Each one's result
equals render.py's from-scratch function on the same store (tests/ui/test_incremental.py checks
that at every moment of the walkthrough).
"""

from __future__ import annotations

from bisect import bisect_left

from rich.console import Group
from rich.text import Text

from tutor.cluster import objects as o
from tutor.cluster.store import Store
from tutor.ui import render


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
