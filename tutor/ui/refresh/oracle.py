"""The pane-vs-store oracle: every live pane rebuilt from the store, from scratch, and compared
with what the pane shows.

The panes are kept up to date incrementally (each redoes only what changed) and a refresh draws
them in turns of the loop; a pane drawn from a state that was then replaced without a redraw
would show the learner a cluster that is gone. After a settle (nothing to apply, nothing being
drawn) every pane must equal its rebuild: `compare` says where one does not.

Tests call `compare(app)`. Anyone can run the tutor with LWSTUTOR_ORACLE set: after every
refresh that leaves the pump idle the app compares, counts the mismatches (`Oracle.mismatches`)
and dumps each one (the pane, the row, what it shows and what the store says, the store's
object and the last items applied) to the app's log, and, when the variable names a file rather
than "1", appended to that file as a JSON line.
"""

from __future__ import annotations

import io
import json
import os
import time
from collections import deque
from typing import Any, NamedTuple

from rich.console import Console, Group, RenderableType
from rich.text import Text

from tutor.cluster import kinds, objects as o
from tutor.ui.panes.common import LiveData, about_first
from tutor.ui.panes.events import event_blocks, lesson_events
from tutor.ui.panes.groups import GroupsPane, groups_view
from tutor.ui.panes.ledger import NodeLedger, ledger_view
from tutor.ui.panes.pods import PodList, pod_cells

ENV = "LWSTUTOR_ORACLE"
LAST_ITEMS = 20  # the items applied last, kept for a dump
WIDTH = 200  # the width the rendered panes are compared at (wide: nothing is cut)


class Mismatch(NamedTuple):
    pane: str  # the pane's id
    row: str  # the row: a pod's name, "event 3", "line 7"
    shown: str  # what the pane shows there
    rebuilt: str  # what the store says it should show
    obj: dict | None = None  # the store's object the row is about, where there is one


def _row_text(cells) -> str:
    return " ".join(str(c) for c in cells) if cells is not None else "(no row)"


def _pods(pane: PodList, live: LiveData) -> list[Mismatch]:
    store, ns = live.store, live.namespace
    pods = sorted(store.pods_named(ns).values(), key=lambda p: about_first(p, live.about))
    want = [o.name(p) for p in pods]
    shown = pane.keys()
    out = []
    if shown != want:
        i = next((i for i, (a, b) in enumerate(zip(shown, want)) if a != b), min(len(shown), len(want)))
        name = (want[i:i + 1] or shown[i:i + 1] or [""])[0]
        out.append(Mismatch("pods", f"order at row {i}", " ".join(shown[i:i + 3]), " ".join(want[i:i + 3]),
                            store.get("Pod", name, ns)))
    for p in pods:
        name = o.name(p)
        rebuilt, cells = pod_cells(p, store.obs.recreations(name)), pane.cells(name)
        if cells != rebuilt:
            out.append(Mismatch("pods", name, _row_text(cells), _row_text(rebuilt), p))
    return out


def _lines(renderable: RenderableType, width: int = WIDTH) -> list[str]:
    """The lines a pane's renderable shows, each of a Group's parts on lines of its own (as the
    panes wrap them, one block each)."""
    out = io.StringIO()
    console = Console(width=width, file=out, color_system=None, legacy_windows=False, force_terminal=False)
    for part in renderable.renderables if isinstance(renderable, Group) else (renderable,):
        console.print(part)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def _first_pod(line: str, live: LiveData) -> dict | None:
    for word in line.split():
        pod = live.store.get("Pod", word, live.namespace)
        if pod is not None:
            return pod
    return None


def _rendered(pane_id: str, shown: RenderableType, rebuilt: RenderableType, live: LiveData) -> list[Mismatch]:
    a, b = _lines(shown), _lines(rebuilt)
    if a == b:
        return []
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    shown_line, rebuilt_line = (a[i:i + 1] or [""])[0], (b[i:i + 1] or [""])[0]
    return [Mismatch(pane_id, f"line {i}", shown_line, rebuilt_line, _first_pod(rebuilt_line or shown_line, live))]


def _events(pane, live: LiveData) -> list[Mismatch]:
    unavailable = live.unavailable(kinds.EVENT.name)
    rebuilt = (Text(unavailable),) if unavailable else event_blocks(live.store, live.namespace, live.lang)
    shown = pane._blocks
    out = []
    events = lesson_events(live.store, live.namespace) if not unavailable else []
    for i in range(max(len(shown), len(rebuilt))):
        a = shown[i] if i < len(shown) else None
        b = rebuilt[i] if i < len(rebuilt) else None
        if a is None or b is None or a.plain != b.plain or a.spans != b.spans:
            out.append(Mismatch("events", f"event {i}", a.plain if a is not None else "(none)",
                                b.plain if b is not None else "(none)", events[i] if i < len(events) else None))
            break  # one is enough to show the pane is off; the rest follow from it
    return out


def _groups(pane: GroupsPane, live: LiveData) -> list[Mismatch]:
    unavailable = live.unavailable(kinds.LEADER_WORKER_SET.name)
    rebuilt = Text(unavailable) if unavailable else groups_view(live.store, live.namespace, live.lang)
    return _rendered("groups", pane.content, rebuilt, live)


def _ledger(pane: NodeLedger, live: LiveData) -> list[Mismatch]:
    if not pane.display:
        return []  # hidden, it follows nothing: shown again, it is redrawn from the store
    unavailable = live.unavailable(kinds.POD.name) or live.unavailable(kinds.NODE.name)
    rebuilt = Text(unavailable) if unavailable else ledger_view(live.store, live.namespace, live.gpu, live.lang,
                                                               live.about, compact=pane.compact)
    return _rendered("ledger", Group(*pane._blocks), rebuilt, live)


def compare(app) -> list[Mismatch]:
    """Every live pane against its rebuild from the store; [] when all agree. Meaningful once the
    app has settled: nothing left to apply and no refresh being drawn."""
    lesson = app.lesson
    live = lesson.live_data()
    return [*_groups(lesson.query_one(GroupsPane), live), *_ledger(lesson.query_one(NodeLedger), live),
            *_pods(lesson.query_one(PodList), live), *_events(lesson.query_one("#events"), live)]


def settled(app) -> bool:
    """Whether a compare means something now: nothing left to apply, nothing waiting in the
    inbox, no refresh being drawn (the app's own check after a refresh asks the same)."""
    return app.driver.pump.idle and not app.driver.inbox.waiting


def reported(found: list[Mismatch], limit: int = 3) -> list[dict]:
    """The first mismatches for a bench's JSON: the pane, the row and both versions (the dump
    has the store's object and the last items)."""
    return [{"pane": m.pane, "row": m.row, "shown": m.shown, "store": m.rebuilt} for m in found[:limit]]


def _brief(item: Any) -> str:
    obj = getattr(item, "obj", None)
    if isinstance(obj, dict):
        return (f"{getattr(item, 'type', '')} {o.kind(obj)} {o.name(obj)} uid={o.uid(obj)[:8]} "
                f"rv={o.resource_version(obj)} t={getattr(item, 't', '')}")
    if hasattr(item, "objs"):  # a relist
        return f"Relisted {getattr(item, 'kind', '')} ({len(item.objs)}) t={getattr(item, 't', '')}"
    return type(item).__name__ + " " + str(getattr(item, "name", getattr(item, "resource", "")))


class Oracle:
    """The app's oracle behind the flag: the last items applied, the mismatches counted, each
    one dumped."""

    def __init__(self, where: str):
        self.path = "" if where in ("", "1") else where
        self.last: deque[str] = deque(maxlen=LAST_ITEMS)
        self.checks = 0
        self.mismatches = 0

    @classmethod
    def from_env(cls) -> "Oracle | None":
        where = os.environ.get(ENV, "")
        return cls(where) if where else None

    def applied(self, item: Any) -> None:
        self.last.append(_brief(item))

    def check(self, app) -> list[Mismatch]:
        self.checks += 1
        found = compare(app)
        for m in found:
            self.mismatches += 1
            dump = {"at": time.time(), "pane": m.pane, "row": m.row, "shown": m.shown, "store": m.rebuilt,
                    "object": m.obj, "last_items": list(self.last)}
            app.log.warning(f"pane-vs-store mismatch: {json.dumps(dump, default=str)}")
            if self.path:
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(dump, default=str) + "\n")
        return found
