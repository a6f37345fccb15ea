"""The node ledger: per node, Ready, the GPUs held of its capacity and by which LWS groups, its
taints and type label; then the pods not placed. Shown in the groups pane's place on the steps
about where pods land (lesson.yaml's `ledger`) and by g.

From scratch: ledger_view, and ledger_key, what it shows as values. Kept up to date: Ledger,
which redoes a pod's row when the pod changed and counts it in or out of its node's holders or
the pods not placed (tests/ui/test_incremental.py holds it equal to ledger_view). Drawn by
NodeLedger, whose lines are Text blocks (text_blocks.TextBlocks): a pod moving redraws the lines
of its node only, and a frame renders only the lines in view.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import NamedTuple

from rich.console import Group, RenderableType
from rich.text import Text

from tutor.cluster import kinds as kind_table, objects as o
from tutor.cluster import resources as res
from tutor.cluster.store import Store
from tutor.ui.panes.common import LiveData, memo, waits_for_a_node
from tutor.ui.widgets.redraw import LastKey, RedrawsOnChange
from tutor.ui.widgets.text_blocks import TextBlocks
from tutor.i18n.bilingual import say

MAX_GROUPS = 6  # GPU-holding LWS groups listed per node; past that, counted
MAX_NAMES = 6  # GPU holders named per group on one node; a busy node lists its groups, not thousands of pods
# The kinds the pane reads, named by their rows in the kinds table.
POD, NODE = kind_table.POD.kind, kind_table.NODE.kind


# --- rows from scratch --------------------------------------------------------------------------

class LedgerRow(NamedTuple):
    """What the ledger shows of one pod: where it counts and what it holds. Rows sort by name."""

    name: str
    node: str  # "" while not placed
    counts_on_node: bool  # its requests count on its node (placement.counts_on_node)
    terminating: bool
    lws: str
    group: int | None
    worker: int | None
    requests: tuple[tuple[str, int], ...]  # (resource, amount), sorted

    def holds(self, resource: str) -> int:
        """How much of the resource it requests."""
        return dict(self.requests).get(resource, 0)


class _LedgerNode(NamedTuple):
    """What the ledger shows of one node: a heartbeat that changes none of it redraws nothing."""

    name: str
    ready: bool
    taints: tuple[str, ...]
    type: str | None
    cordoned: bool
    capacity: str


class HolderOrder(NamedTuple):
    """The order GPU holders are listed in on a node; no group or worker index sorts as 0."""

    lws: str
    group: int
    worker: int
    name: str


class GroupHolders(NamedTuple):
    """One LWS group's GPU holders on one node, as its line names them."""

    lws: str
    group: int | None
    names: list[str]  # the first MAX_NAMES holders' labels (holder_label)
    total: int  # how many hold the GPU there (not `count`, which is tuple's method)


def _ledger_pod(p: dict) -> LedgerRow:
    return LedgerRow(o.name(p), o.node_name(p), res.counts_on_node(p), o.is_terminating(p), o.lws_name(p),
                     o.group_index(p), o.worker_index(p), tuple(sorted(res.pod_requests(p).items())))


def _ledger_node(n: dict) -> _LedgerNode:
    return _LedgerNode(o.name(n), o.node_ready(n), tuple(map(o.taint_text, o.taints(n))), o.labels(n).get("type"),
                       o.dig(n, "spec", "unschedulable") is True, str(o.dig(n, "status", "capacity")))


def ledger_row(p: dict) -> LedgerRow:
    return memo(p, "ledger", _ledger_pod)


def ledger_nodes_key(store: Store) -> tuple:
    return tuple(sorted(memo(n, "ledger", _ledger_node) for n in store.all(NODE)))


def ledger_key(store: Store, namespace: str) -> tuple:
    """What ledger_view shows, as values: a pod's phase or status changing nothing here does
    not redraw it; a node changing (taints, Ready, labels) or a pod placed, gone or finished does."""
    return (ledger_nodes_key(store), tuple(ledger_row(p) for p in store.pods_named(namespace).values()))


def _gpu_word(gpu: str) -> str:
    return gpu.rsplit("/", 1)[-1].upper()  # nvidia.com/gpu: GPU


def _gpu_text(used: int, cap: int, gpu: str) -> Text:
    style = "bold red" if cap and used >= cap else "green" if used < cap else "dim"
    return Text(f"{_gpu_word(gpu)} {used}/{cap}", style=style)


def holder_order(row: LedgerRow) -> HolderOrder:
    return HolderOrder(row.lws, row.group or 0, row.worker or 0, row.name)


def holder_label(row: LedgerRow, n: int) -> str:
    """One holder of n GPUs: its name, ×n past one, † while it terminates."""
    return row.name + (f"×{n}" if n > 1 else "") + ("†" if row.terminating else "")


def holder_lines(first: list[GroupHolders], groups: int) -> list[Text]:
    """GPU holders on one node by LWS group: "llm #0  llm-0, llm-0-1". `first`: the first
    MAX_GROUPS groups; `groups`: how many groups hold GPUs there."""
    out = []
    for holders in first:
        line = Text("  ")
        line.append(f"{holders.lws} #{holders.group}" if holders.lws else "-", style="cyan")
        shown = holders.names + ([f"+{holders.total - MAX_NAMES}"] if holders.total > MAX_NAMES else [])
        line.append("  " + ", ".join(shown))
        out.append(line)
    if groups > MAX_GROUPS:
        out.append(Text(f"  … +{groups - MAX_GROUPS}", style="dim"))
    return out


def _holders(rows: list[LedgerRow], gpu: str) -> list[Text]:
    groups: dict[tuple, list[str]] = {}  # (lws, group) -> its holders' labels
    for row in sorted(rows, key=holder_order):
        n = row.holds(gpu)
        if n:
            groups.setdefault((row.lws, row.group), []).append(holder_label(row, n))
    first = [GroupHolders(lws, g, names[:MAX_NAMES], len(names)) for (lws, g), names in list(groups.items())[:MAX_GROUPS]]
    return holder_lines(first, len(groups))


def group_names(groups: list[tuple[str, int | None]], count: int) -> str:
    """The GPU-holding groups on one node in a word each, for a compact line: "llm #0, llm #1"."""
    names = [f"{lws} #{g}" if lws else "-" for lws, g in groups[:MAX_GROUPS]]
    return ", ".join(names + ([f"+{count - MAX_GROUPS}"] if count > MAX_GROUPS else []))


def node_lines(n: dict, used: int, holders: list[Text], others: int, gpu: str, lang: str,
               compact: str | None = None) -> list[Text]:
    """One node in the ledger: its head line (Ready, GPUs used of capacity, type, taints), then
    its holders and the pods there without the GPU. The head is one line whatever the width: its
    name and GPUs first, whole, the rest cut at the pane's edge. `compact`: the holding groups
    named on the head line instead of lines of their own (a short pane, group_names)."""
    head = Text(no_wrap=True, overflow="ellipsis", end="")
    ready = o.node_ready(n)
    head.append("● " if ready else "✗ ", style="green" if ready else "bold red")
    head.append(o.name(n), style="bold")
    head.append(" ")
    head.append_text(_gpu_text(used, res.capacity(n, gpu), gpu))
    if not ready:
        head.append("  " + say(lang, "NotReady", "NotReady"), style="bold red")
    if o.dig(n, "spec", "unschedulable") is True:
        head.append("  " + say(lang, "cordoned", "cordon 됨"), style="bold yellow")
    if compact:
        head.append("  " + compact, style="cyan")
    head.append(f"  type={o.labels(n).get('type', '-')}", style="dim")
    for taint in o.taints(n):
        head.append("  ⊘ " + o.taint_text(taint), style="yellow")
    if compact is not None:
        return [head]
    out = [head, *holders]
    if others:
        out.append(Text("  " + say(lang, "+{n} pod(s) without {gpu}", "+{gpu} 없는 파드 {n}개", n=others, gpu=gpu), style="dim"))
    return out


def about_first(nodes: list[dict], where: set[str], about: tuple[str, ...] = ()) -> list[dict]:
    """The nodes by name, those the step is about first (where its pods are, and the nodes it
    names: its pods may not be placed yet): in a short pane they are the ones in view."""
    first = where | set(about)
    return sorted(nodes, key=lambda n: (o.name(n) not in first, o.name(n)))


def ledger_tail(waiting: list[LedgerRow], count: int, namespace: str, gpu: str, lang: str,
                compact: bool = False) -> list[Text]:
    """The pods not placed (`waiting`: the first MAX_NAMES rows by name, of `count`), then the
    ledger's footnote (not in a compact ledger, nor the blank lines)."""
    parts = []
    if count:
        line = Text(say(lang, "Not placed:", "배치 안 됨:") + " ", style="bold yellow")
        line.append(", ".join(r.name + (f" ({r.holds(gpu)} {_gpu_word(gpu)})" if r.holds(gpu) else "")
                              for r in waiting))
        if count > MAX_NAMES:
            line.append(f" +{count - MAX_NAMES}")
        parts += [line] if compact else [Text(""), line]
    if compact:
        return parts
    return parts + [Text(""), Text(say(lang, "Requests counted from the pods of {ns} only. lwstutor why POD explains one pod.",
                                             "{ns}의 파드 요청만 셉니다. 파드 하나의 사정은 lwstutor why POD로.",
                                             ns=namespace), style="dim")]


def ledger_view(store: Store, namespace: str, gpu: str, lang: str = "en", about: tuple[str, ...] = (),
                compact: bool = False) -> RenderableType:
    """The ledger from scratch. `about`: the pods the step is about (their nodes come first);
    `compact`: one line per node (node_lines)."""
    nodes = store.all(NODE)
    if not nodes:
        return Text(say(lang, "No nodes seen yet.", "아직 노드가 보이지 않습니다."), style="dim")
    rows: dict[str, list[LedgerRow]] = {o.name(n): [] for n in nodes}
    pending = []
    pods = store.pods_named(namespace)
    for p in pods.values():
        row = ledger_row(p)
        if row.counts_on_node and row.node in rows:
            rows[row.node].append(row)
        elif waits_for_a_node(p):
            pending.append(row)
    where = {ledger_row(pods[name]).node for name in about if name in pods}
    parts: list[RenderableType] = []
    for n in about_first(nodes, where, about):
        here = rows[o.name(n)]
        used = sum(r.holds(gpu) for r in here)
        others = sum(1 for r in here if not r.holds(gpu))
        groups = list(dict.fromkeys((r.lws, r.group) for r in sorted(here, key=holder_order) if r.holds(gpu)))
        parts += node_lines(n, used, _holders(here, gpu), others, gpu, lang,
                            group_names(groups, len(groups)) if compact else None)
    parts += ledger_tail(sorted(pending)[:MAX_NAMES], len(pending), namespace, gpu, lang, compact)
    return Group(*parts)


# --- kept up to date ----------------------------------------------------------------------------

class _Holder(NamedTuple):
    order: HolderOrder
    row: LedgerRow
    gpus: int


class _NodeHolders:
    """The pods counted on one node: the GPUs they hold, how many hold none, and the holders in
    the ledger's order (bisection on holder_order), counted per LWS group."""

    def __init__(self) -> None:
        self.used = 0
        self.others = 0
        self.holders: list[_Holder] = []  # sorted
        self.per_group: dict[tuple, int] = {}  # (lws, group) -> holders

    def change(self, row: LedgerRow, n: int, sign: int) -> None:
        """Counts the row in (sign 1) or out (sign -1); n: the GPUs it holds."""
        self.used += sign * n
        if not n:
            self.others += sign
            return
        entry = _Holder(holder_order(row), row, n)
        at = bisect_left(self.holders, (entry.order,))  # by order alone: it names the pod
        group = (row.lws, row.group)
        if sign > 0:
            self.holders.insert(at, entry)
            self.per_group[group] = self.per_group.get(group, 0) + 1
        else:
            del self.holders[at]
            self.per_group[group] -= 1
            if not self.per_group[group]:
                del self.per_group[group]

    def lines(self) -> list[Text]:
        """holder_lines for the first MAX_GROUPS groups, reading only their holders."""
        first: dict[tuple, list[str]] = {}  # (lws, group) -> its first holders' labels
        last = None  # (lws, group or 0) of the last group taken: later holders sort after it
        for holder in self.holders:
            group, sorts_as = (holder.row.lws, holder.row.group), (holder.order.lws, holder.order.group)
            if group not in first:
                if len(first) == MAX_GROUPS:
                    assert last is not None  # set with the first group taken
                    if sorts_as > last:
                        break
                    continue
                first[group] = []
                last = sorts_as
            if len(first[group]) < MAX_NAMES:
                first[group].append(holder_label(holder.row, holder.gpus))
        return holder_lines([GroupHolders(lws, g, names, self.per_group[(lws, g)]) for (lws, g), names in first.items()],
                            len(self.per_group))

    def group_names(self) -> str:
        """group_names of the groups holding GPUs here, in the ledger's order."""
        groups = []
        for holder in self.holders:
            group = (holder.row.lws, holder.row.group)
            if group not in groups:
                groups.append(group)
                if len(groups) == MAX_GROUPS:
                    break
        return group_names(groups, len(self.per_group))


class _Placed(NamedTuple):
    """Where one pod's row is counted."""

    row: LedgerRow
    gpus: int  # the GPUs it holds
    counted: bool  # among its node's holders
    waiting: bool  # among the pods not placed


class Ledger:
    """ledger_view and its key, kept up to date: each pod's ledger row is redone when the pod
    changed, and counted in or out of its node's holders or the pods not placed."""

    def __init__(self) -> None:
        self._rows: dict[str, _Placed] = {}  # by pod name
        self._nodes: dict[str, _NodeHolders] = {}  # node name -> its holders (nodes not seen too)
        self._waiting: list[LedgerRow] = []  # the pods not placed, sorted
        self._version = 0  # grows when a row changed, or all were redone: what the key compares
        self._basis: tuple | None = None  # (namespace, gpu)

    def update(self, store: Store, namespace: str, gpu: str) -> tuple:
        """The ledger's key: equal keys mean an identical view (as ledger_key)."""
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
        return (ledger_nodes_key(store), self._version)

    def _follow(self, name: str, pod: dict | None, gpu: str) -> None:
        old = self._rows.pop(name, None)
        new = None
        if pod is not None:
            row = ledger_row(pod)
            new = self._rows[name] = _Placed(row, row.holds(gpu), bool(row.counts_on_node and row.node),
                                             waits_for_a_node(pod))
        if old == new:
            return
        if old is None or new is None or old.row != new.row:
            self._version += 1
        for placed, sign in ((old, -1), (new, 1)):
            if placed is None:
                continue
            if placed.counted:
                self._nodes.setdefault(placed.row.node, _NodeHolders()).change(placed.row, placed.gpus, sign)
            if placed.waiting and sign > 0:
                self._waiting.insert(bisect_left(self._waiting, placed.row), placed.row)
            elif placed.waiting:
                del self._waiting[bisect_left(self._waiting, placed.row)]

    def view(self, store: Store, namespace: str, gpu: str, lang: str = "en", about: tuple[str, ...] = (),
             compact: bool = False) -> RenderableType:
        """ledger_view from the rows kept (update first)."""
        nodes = store.all(NODE)
        if not nodes:
            return Text(say(lang, "No nodes seen yet.", "아직 노드가 보이지 않습니다."), style="dim")
        parts = []
        empty = _NodeHolders()
        where = {self._rows[name].row.node for name in about if name in self._rows}
        for n in about_first(nodes, where, about):
            here = self._nodes.get(o.name(n), empty)
            parts += node_lines(n, here.used, here.lines(), here.others, gpu, lang,
                                here.group_names() if compact else None)
        parts += ledger_tail(self._waiting[:MAX_NAMES], len(self._waiting), namespace, gpu, lang, compact)
        return Group(*parts)


# --- the widget ---------------------------------------------------------------------------------

class NodeLedger(RedrawsOnChange, TextBlocks):
    """The ledger's lines, one Text block each (see the module's docstring)."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._ledger = Ledger()  # ledger_view and its key, followed through the store's changes
        self._shown_from: tuple | None = None  # show's arguments, to show again at another size
        self.compact = False  # a line per node, the groups on it: the full ledger is taller than the pane
        self._inputs = LastKey()  # the cheap counters it was last drawn from

    def redraw(self, live: LiveData) -> Iterator[None]:
        """Redraws when a pod or a node may have moved, and yields once it did. Hidden, it follows
        nothing: shown again, it takes all the store's changes since."""
        if not self.display:
            return
        unavailable = live.unavailable(kind_table.POD.name) or live.unavailable(kind_table.NODE.name)
        kinds = live.store.kind_version
        if self._inputs.changed((kinds[POD], kinds[NODE], live.lang, unavailable, live.about)):
            self.show(live.store, live.namespace, live.gpu, live.lang, unavailable, live.about)
            yield

    def show(self, store: Store, namespace: str, gpu: str, lang: str = "en", unavailable: str = "",
             about: tuple[str, ...] = ()) -> None:
        # redrawn only when a node or a pod's placement changes (ledger_key), or the pane's size
        self._shown_from = (store, namespace, gpu, lang, unavailable, about)
        if not self._is_new((unavailable, self._ledger.update(store, namespace, gpu), lang, about)):
            return
        if unavailable:
            self.set_blocks((Text(unavailable),))
            return
        view = self._ledger.view(store, namespace, gpu, lang, about)
        blocks = view.renderables if isinstance(view, Group) else (view,)
        self.compact = len(blocks) > self.size.height > 0
        if self.compact:  # one line per node: every node in view, the step's first
            view = self._ledger.view(store, namespace, gpu, lang, about, compact=True)
            blocks = view.renderables if isinstance(view, Group) else (view,)
        self.set_blocks(blocks)

    def on_resize(self) -> None:
        super().on_resize()
        if self._shown_from is not None:  # the full ledger or the compact one, for the new height
            self._drawn_key = None
            self.show(*self._shown_from)
