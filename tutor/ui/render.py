"""Turns the store into what the live panes show. Pure functions: easy to test, no widgets.

Nothing here prints a wall-clock time or an age, so a replayed recording renders the same
way every run (snapshot tests rely on it).
"""

from __future__ import annotations

from typing import Callable

from rich.console import Group, RenderableType
from rich.text import Text

from tutor.cluster import objects as o
from tutor.cluster import placement as pl
from tutor.cluster import resources as res
from tutor.cluster.store import Store

Translate = Callable[..., str]


def _en(text: str, **kw) -> str:
    return text.format(**kw) if kw else text

MAX_GROUPS = 6  # GPU-holding groups listed per node in the ledger

# What a pane derives from one object, kept while the store holds that very object (objects.memo).
# A re-check in a namespace of thousands of pods then redoes only the pods that changed.
_memo = o.memo


# --- nodes: the GPU ledger --------------------------------------------------------------------

MAX_NAMES = 6  # GPU holders named per group on one node; a busy node lists its groups, not thousands of pods


def _ledger_pod(p: dict) -> tuple:
    """What the ledger shows of one pod: where it counts and what it holds."""
    return (o.name(p), o.node_name(p), pl.counts_on_node(p), o.is_terminating(p), o.lws_name(p),
            o.group_index(p), o.worker_index(p), tuple(sorted(res.pod_requests(p).items())))


def _ledger_node(n: dict) -> tuple:
    """What the ledger shows of one node: a heartbeat that changes none of it redraws nothing."""
    return (o.name(n), pl.node_ready(n), tuple(map(pl.taint_text, pl.taints(n))), o.labels(n).get("type"),
            o.dig(n, "spec", "unschedulable") is True, str(o.dig(n, "status", "capacity")))


def ledger_row(p: dict) -> tuple:
    return _memo(p, "ledger", _ledger_pod)


def ledger_nodes_key(store: Store) -> tuple:
    return tuple(sorted(_memo(n, "ledger", _ledger_node) for n in store.all("Node")))


def ledger_key(store: Store, namespace: str) -> tuple:
    """What ledger_view shows, as values: a pod's phase or status changing nothing here does
    not redraw it; a node changing (taints, Ready, labels) or a pod placed, gone or finished does."""
    return (ledger_nodes_key(store), tuple(ledger_row(p) for p in store.pods_named(namespace).values()))


def _gpu_text(used: int, cap: int, gpu: str) -> Text:
    style = "bold red" if cap and used >= cap else "green" if used < cap else "dim"
    return Text(f"{gpu.rsplit('/', 1)[-1].upper()} {used}/{cap}", style=style)


def holder_sort_key(row: tuple) -> tuple:
    """The order GPU holders are listed in on a node: LWS, group, worker, name."""
    return (row[4], row[5] or 0, row[6] or 0, row[0])


def holder_label(row: tuple, n: int) -> str:
    """One holder of n GPUs: its name, ×n past one, † while it terminates."""
    return row[0] + (f"×{n}" if n > 1 else "") + ("†" if row[3] else "")


def holder_lines(first: list[tuple[tuple, list[str], int]], groups: int) -> list[Text]:
    """GPU holders on one node by LWS group: "llm #0  llm-0, llm-0-1". `first`: the first
    MAX_GROUPS groups as ((lws, group), their first MAX_NAMES labels, how many they hold);
    `groups`: how many groups hold GPUs there."""
    out = []
    for (lws, g), names, count in first:
        line = Text("  ")
        line.append(f"{lws} #{g}" if lws else "-", style="cyan")
        shown = names + ([f"+{count - MAX_NAMES}"] if count > MAX_NAMES else [])
        line.append("  " + ", ".join(shown))
        out.append(line)
    if groups > MAX_GROUPS:
        out.append(Text(f"  … +{groups - MAX_GROUPS}", style="dim"))
    return out


def _holders(rows: list[tuple], gpu: str) -> list[Text]:
    groups: dict[tuple, list[str]] = {}
    for row in sorted(rows, key=holder_sort_key):
        n = dict(row[7]).get(gpu, 0)
        if n:
            groups.setdefault((row[4], row[5]), []).append(holder_label(row, n))
    first = [(key, names[:MAX_NAMES], len(names)) for key, names in list(groups.items())[:MAX_GROUPS]]
    return holder_lines(first, len(groups))


def node_lines(n: dict, used: int, holders: list[Text], others: int, gpu: str, t: Translate) -> list[Text]:
    """One node in the ledger: its head line (Ready, GPUs used of capacity, type), its holders,
    the pods there without the GPU, its taints."""
    head = Text(no_wrap=True, overflow="ellipsis")
    ready = pl.node_ready(n)
    head.append("● " if ready else "✗ ", style="green" if ready else "bold red")
    head.append(o.name(n), style="bold")
    head.append(" ")
    head.append_text(_gpu_text(used, res.capacity(n, gpu), gpu))
    head.append(f"  type={o.labels(n).get('type', '-')}", style="dim")
    if not ready:
        head.append("  " + t("NotReady"), style="bold red")
    if o.dig(n, "spec", "unschedulable") is True:
        head.append("  " + t("cordoned"), style="bold yellow")
    out = [head, *holders]
    if others:
        out.append(Text("  " + t("+{n} pod(s) without {gpu}", n=others, gpu=gpu), style="dim"))
    for taint in pl.taints(n):
        out.append(Text("  ⊘ " + pl.taint_text(taint), style="yellow"))
    return out


def ledger_tail(waiting: list[tuple], count: int, namespace: str, gpu: str, t: Translate) -> list[Text]:
    """The pods not placed (`waiting`: the first MAX_NAMES rows by name, of `count`), then the
    ledger's footnote."""
    parts = []
    if count:
        line = Text(t("Not placed:") + " ", style="bold yellow")
        line.append(", ".join(r[0] + (f" ({dict(r[7]).get(gpu)} {gpu.rsplit('/', 1)[-1].upper()})"
                                      if dict(r[7]).get(gpu) else "") for r in waiting))
        if count > MAX_NAMES:
            line.append(f" +{count - MAX_NAMES}")
        parts += [Text(""), line]
    return parts + [Text(""), Text(t("Requests counted from the pods of {ns} only. lwstutor why POD explains one pod.",
                                     ns=namespace), style="dim")]


def waits_for_a_node(row: tuple, pod: dict) -> bool:
    """A pod the ledger lists as not placed (`row`: its _ledger_pod)."""
    return not row[1] and not row[3] and o.phase(pod) not in ("Succeeded", "Failed")


def ledger_view(store: Store, namespace: str, gpu: str, t: Translate = _en) -> RenderableType:
    nodes = sorted(store.all("Node"), key=o.name)
    if not nodes:
        return Text(t("No nodes seen yet."), style="dim")
    rows: dict[str, list[tuple]] = {o.name(n): [] for n in nodes}
    pending = []
    for p in store.pods_named(namespace).values():
        row = ledger_row(p)
        if row[2] and row[1] in rows:
            rows[row[1]].append(row)
        elif waits_for_a_node(row, p):
            pending.append(row)
    parts: list[RenderableType] = []
    for n in nodes:
        here = rows[o.name(n)]
        used = sum(dict(r[7]).get(gpu, 0) for r in here)
        others = sum(1 for r in here if not dict(r[7]).get(gpu))
        parts += node_lines(n, used, _holders(here, gpu), others, gpu, t)
    parts += ledger_tail(sorted(pending)[:MAX_NAMES], len(pending), namespace, gpu, t)
    return Group(*parts)
