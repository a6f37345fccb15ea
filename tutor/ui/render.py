"""Turns the store into what the live panes show. Pure functions: easy to test, no widgets.

Nothing here prints a wall-clock time or an age, so a replayed recording renders the same
way every run (snapshot tests rely on it).
"""

from __future__ import annotations

import heapq
from typing import Callable

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tutor.cluster import objects as o
from tutor.cluster.store import Store

Translate = Callable[..., str]


def _en(text: str, **kw) -> str:
    return text.format(**kw) if kw else text

PHASE_STYLE = {"Running": "green", "Pending": "yellow", "Failed": "red", "Succeeded": "blue"}
MAX_EVENTS = 60
MAX_GROUPS = 6  # per LWS in the groups pane; the pods table lists every pod

# What a pane derives from one object, kept while the store holds that very object (the store
# replaces an object's dict on every change, so identity means "unchanged"). A re-check in a
# namespace of thousands of pods then redoes only the pods that changed.
_derived: dict[tuple[int, str], tuple[dict, object]] = {}


def _memo(obj: dict, what: str, compute: Callable[[dict], object]) -> object:
    key = (id(obj), what)
    hit = _derived.get(key)
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(_derived) > 100_000:
        _derived.clear()
    value = compute(obj)
    _derived[key] = (obj, value)
    return value


def short(uid: str) -> str:
    return uid[:8]


def phase_text(pod: dict) -> Text:
    ph = "Terminating" if o.is_terminating(pod) else o.phase(pod)
    return Text(ph, style=PHASE_STYLE.get(ph, "dim"))


def _sort_key_of(pod: dict):
    g, w = o.group_index(pod), o.worker_index(pod)
    return (o.lws_name(pod), g is None, g or 0, w is None, w or 0, o.name(pod))


def _sort_key(pod: dict):
    return _memo(pod, "sort", _sort_key_of)


# --- groups -----------------------------------------------------------------------------------

def _lws_header(lws: dict, t: Translate) -> Text:
    spec, status = o.as_dict(lws.get("spec")), o.as_dict(lws.get("status"))
    size = o.dig(spec, "leaderWorkerTemplate", "size", default="?")
    out = Text()
    out.append(o.name(lws), style="bold cyan")
    out.append(f" {spec.get('replicas', '?')}×{size}", style="bold")
    out.append("  " + t("ready {r} · updated {u}", r=status.get("readyReplicas", 0), u=status.get("updatedReplicas", 0)))
    for c in (c for c in o.as_list(status.get("conditions")) if isinstance(c, dict)):
        ok = c.get("status") == "True"
        if ok:  # the controller only ever sets a condition True; False ones are stale leftovers
            out.append(f"  {c.get('type')}", style="green")
    return out


def _group_header(store: Store, lws: str, g, members: list[dict], t: Translate) -> Text:
    out = Text(t("group {g}", g=g if g is not None else "?"), style="bold")
    running_revs = {o.revision(p) for p in members if o.phase(p) == "Running"
                    and not o.is_terminating(p) and o.revision(p)}
    recreated = sum(store.obs.recreations(o.name(p)) for p in members if o.worker_index(p) == 0)
    if recreated:
        out.append(f" ↻{recreated}", style="magenta")
    if len(running_revs) > 1:
        out.append(" ⚠ " + t("two revisions running"), style="bold red")
    elif (lws, g) in store.obs.mixed_groups:
        out.append(" ⚠ " + t("once held two revisions"), style="red")
    return out


def _group_row(p: dict) -> tuple:
    role = "L" if o.worker_index(p) == 0 else f"W{o.worker_index(p)}"
    return ("", Text(f"{o.name(p)} {role}", style="bold" if role == "L" else ""), phase_text(p),
            Text(o.node_name(p) or "-", style="dim"), Text(o.revision(p)[:8] or "-", style="dim"))


def _group_order(g):
    return (g is None, g or 0)


def _shown_groups(store: Store, namespace: str, lws: str) -> tuple[list, int]:
    """The first MAX_GROUPS groups of an LWS as (group, members), and how many groups it has."""
    groups = store.groups_of(lws, namespace)
    first = sorted(groups, key=_group_order)[:MAX_GROUPS]
    return [(g, sorted(groups[g], key=_sort_key)) for g in first], len(groups)


def groups_key(store: Store, namespace: str, t: Translate = _en) -> tuple:
    """What groups_view shows, as identities: equal keys mean an identical view."""
    key: list = [t("group {g}", g=0)]
    mixed = store.obs.mixed_groups
    for lws in sorted(store.all("LeaderWorkerSet", namespace), key=o.name):
        name = o.name(lws)
        shown, total = _shown_groups(store, namespace, name)
        key.append((id(lws), total))
        for g, members in shown:
            key.append((g, (name, g) in mixed, tuple((id(p), store.obs.recreations(o.name(p))) for p in members)))
    return tuple(key)


def groups_view(store: Store, namespace: str, t: Translate = _en) -> RenderableType:
    lwss = sorted(store.all("LeaderWorkerSet", namespace), key=o.name)
    if not lwss:
        return Text(t("No LeaderWorkerSet in {ns} yet.", ns=namespace), style="dim")
    parts: list[RenderableType] = []
    for lws in lwss:
        name = o.name(lws)
        parts.append(_lws_header(lws, t))
        shown, total = _shown_groups(store, namespace, name)
        for g, members in shown:
            table = Table.grid(padding=(0, 1))
            table.add_column(no_wrap=True, width=1)
            for _ in range(4):
                table.add_column(no_wrap=True, overflow="ellipsis")
            for p in members:
                table.add_row(*_memo(p, "group-row", _group_row))
            parts.append(Padding(_group_header(store, name, g, members, t), (0, 0, 0, 1)))
            parts.append(table)
        if total > len(shown):
            parts.append(Padding(Text(t("… {n} more groups (every pod is in the Pods pane)",
                                        n=total - len(shown)), style="dim"), (0, 0, 0, 1)))
        parts.append(Text(""))
    return Group(*parts[:-1])


# --- pods -------------------------------------------------------------------------------------

POD_COLUMNS = ("pod", "group", "worker", "uid", "node", "phase", "restarts", "revision")


def _pod_cells(p: dict, again: int) -> tuple:
    label = Text(o.name(p))
    if again:
        label.append(f" ↻{again}", style="bold magenta")
    g, w = o.group_index(p), o.worker_index(p)
    return (
        label,
        "-" if g is None else str(g),
        "-" if w is None else str(w),
        Text(short(o.uid(p)), style="magenta" if again else ""),
        o.node_name(p) or "-",
        phase_text(p),
        Text(str(o.restart_count(p)), style="red" if o.restart_count(p) else "dim"),
        o.revision(p)[:10] or "-",
    )


class PodRows:
    """Every pod's row in display order, kept up to date: only pods whose object changed are redone, and the rows are
    sorted again only when pods came or went. A re-check in a namespace of thousands of pods
    then costs a dictionary walk, not thousands of rows."""

    def __init__(self) -> None:
        self._objs: dict[str, dict] = {}
        self.cells: dict[str, tuple] = {}  # name -> cells, in display order

    def update(self, store: Store, namespace: str) -> bool:
        """True when any row changed."""
        pods = store.pods_named(namespace)
        changed = {name: p for name, p in pods.items() if self._objs.get(name) is not p}
        gone = len(self._objs) + len(changed) - len(pods) > 0 and [n for n in self._objs if n not in pods]
        if not changed and not gone:
            return False
        for name, p in changed.items():
            self.cells[name] = _pod_cells(p, store.obs.recreations(name))
        for name in gone or ():
            del self.cells[name]
        if gone or any(name not in self._objs for name in changed):
            order = sorted(pods.values(), key=_sort_key)
            self.cells = {o.name(p): self.cells[o.name(p)] for p in order}
        self._objs = dict(pods)
        return True


# --- events -----------------------------------------------------------------------------------

LESSON_KINDS = ("Pod", "LeaderWorkerSet", "StatefulSet")


def _about_lesson_kind(e: dict) -> bool:
    return o.event_regarding(e).get("kind") in LESSON_KINDS


def _event_order(e: dict) -> tuple:
    return (o.event_time(e), o.resource_version(e))


def lesson_events(store: Store, namespace: str) -> list[dict]:
    evs = [e for e in store.events_for(namespace) if _memo(e, "lesson", _about_lesson_kind)]
    # The newest first; stable for equal keys, like sorted(..., reverse=True)[:MAX_EVENTS].
    return heapq.nlargest(MAX_EVENTS, evs, key=lambda e: _memo(e, "order", _event_order))


def _event_text(e: dict) -> Text:
    warn = o.event_type(e) != "Normal"
    reg = o.event_regarding(e)
    out = Text()
    out.append("⚠ " if warn else "  ", style="bold yellow")
    out.append(o.event_reason(e), style="bold yellow" if warn else "bold")
    out.append(f" {str(reg.get('kind', '')).lower()}/{reg.get('name', '')}", style="cyan")
    count = o.event_count(e)
    if count > 1:
        out.append(f" ×{count}", style="dim")
    out.append("\n")
    out.append(f"  {o.event_message(e)}", style="" if warn else "dim")
    return out


def event_text(e: dict) -> Text:
    """One event as the events pane shows it: its headline, then the whole message. Kept while
    the store holds the same event object, so the pane can keep its wrapped lines too."""
    return _memo(e, "text", _event_text)


def event_blocks(store: Store, namespace: str, t: Translate = _en) -> tuple[Text, ...]:
    """What the events pane shows: one Text per lesson event, newest first, or a word that
    there are none yet."""
    return tuple(event_text(e) for e in lesson_events(store, namespace)) or (Text(t("No events yet."), style="dim"),)
