"""Turns the store into what the live panes show. Pure functions: easy to test, no widgets.

Nothing here prints a wall-clock time or an age, so a replayed recording renders the same
way every run (snapshot tests rely on it).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from tutor.cluster import objects as o
from tutor.cluster.store import Store

PHASE_STYLE = {"Running": "green", "Pending": "yellow", "Failed": "red", "Succeeded": "blue"}
MAX_EVENTS = 200


def short(uid: str) -> str:
    return uid[:8]


def phase_text(pod: dict) -> Text:
    ph = "Terminating" if o.is_terminating(pod) else o.phase(pod)
    return Text(ph, style=PHASE_STYLE.get(ph, "dim"))


def _sort_key(pod: dict):
    g, w = o.group_index(pod), o.worker_index(pod)
    return (o.lws_name(pod), g is None, g or 0, w is None, w or 0, o.name(pod))


# --- groups -----------------------------------------------------------------------------------

def groups_text(store: Store, namespace: str) -> Text:
    out = Text()
    lwss = sorted(store.all("LeaderWorkerSet", namespace), key=o.name)
    if not lwss:
        out.append("No LeaderWorkerSet in ", style="dim").append(namespace, style="bold").append(" yet.", style="dim")
        return out
    for lws in lwss:
        name = o.name(lws)
        spec, status = o.as_dict(lws.get("spec")), o.as_dict(lws.get("status"))
        size = o.dig(spec, "leaderWorkerTemplate", "size", default="?")
        out.append(name, style="bold cyan")
        out.append(f"  replicas {spec.get('replicas', '?')} × size {size}"
                   f"  ready {status.get('readyReplicas', 0)}  updated {status.get('updatedReplicas', 0)}\n")
        conds = [c for c in o.as_list(status.get("conditions")) if isinstance(c, dict)]
        if conds:
            out.append("  ")
            for c in conds:
                ok = c.get("status") == "True"
                out.append(f"{c.get('type')}={'T' if ok else 'F'} ", style="green" if ok else "dim")
            out.append("\n")
        pods = sorted(store.pods_of(name, namespace), key=_sort_key)
        groups: dict[int | None, list[dict]] = {}
        for p in pods:
            groups.setdefault(o.group_index(p), []).append(p)
        for g, members in groups.items():
            running_revs = {o.revision(p) for p in members if o.phase(p) == "Running"
                            and not o.is_terminating(p) and o.revision(p)}
            out.append(f"  group {g if g is not None else '?'}", style="bold")
            recreated = sum(store.obs.recreations(o.name(p)) for p in members if o.worker_index(p) == 0)
            if recreated:
                out.append(f"  ↻ recreated ×{recreated}", style="magenta")
            if len(running_revs) > 1:
                out.append("  ⚠ two revisions running", style="bold red")
            elif any(m.lws == name and m.group == g for m in store.obs.mixed):
                out.append("  ⚠ held two revisions", style="red")
            out.append("\n")
            for p in members:
                role = "leader" if o.worker_index(p) == 0 else f"worker {o.worker_index(p)}"
                out.append(f"    {o.name(p):<12}", style="bold" if o.worker_index(p) == 0 else "")
                out.append(f" {role:<8} ")
                out.append_text(phase_text(p))
                out.append(f"  {o.node_name(p) or '-'}  {o.revision(p)[:8] or '-'}\n", style="dim")
    out.rstrip()
    return out


# --- pods -------------------------------------------------------------------------------------

POD_COLUMNS = ("pod", "group", "worker", "uid", "node", "phase", "restarts", "revision")


@dataclass(frozen=True)
class PodRow:
    key: str
    cells: tuple


def pod_rows(store: Store, namespace: str) -> list[PodRow]:
    rows = []
    for p in sorted(store.all("Pod", namespace), key=_sort_key):
        name = o.name(p)
        again = store.obs.recreations(name)
        label = Text(name)
        if again:
            label.append(f" ↻{again}", style="bold magenta")
        g, w = o.group_index(p), o.worker_index(p)
        rows.append(PodRow(name, (
            label,
            "-" if g is None else str(g),
            "-" if w is None else str(w),
            Text(short(o.uid(p)), style="magenta" if again else ""),
            o.node_name(p) or "-",
            phase_text(p),
            Text(str(o.restart_count(p)), style="red" if o.restart_count(p) else "dim"),
            o.revision(p)[:10] or "-",
        )))
    return rows


# --- events -----------------------------------------------------------------------------------

LESSON_KINDS = ("Pod", "LeaderWorkerSet", "StatefulSet")


def lesson_events(store: Store, namespace: str) -> list[dict]:
    evs = [e for e in store.events_for(namespace) if o.event_regarding(e).get("kind") in LESSON_KINDS]
    evs.sort(key=lambda e: (o.event_time(e), o.resource_version(e)), reverse=True)
    return evs[:MAX_EVENTS]


def events_text(store: Store, namespace: str) -> Text:
    out = Text()
    evs = lesson_events(store, namespace)
    if not evs:
        return Text("No events yet.", style="dim")
    for e in evs:
        warn = o.event_type(e) != "Normal"
        reg = o.event_regarding(e)
        out.append("⚠ " if warn else "  ", style="bold yellow")
        out.append(o.event_reason(e), style="bold yellow" if warn else "bold")
        out.append(f" {str(reg.get('kind', '')).lower()}/{reg.get('name', '')}", style="cyan")
        count = o.event_count(e)
        if count > 1:
            out.append(f" ×{count}", style="dim")
        out.append("\n")
        out.append(f"  {o.event_message(e)}\n", style="" if warn else "dim")
    out.rstrip()
    return out
