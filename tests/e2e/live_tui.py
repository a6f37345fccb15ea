"""The tutor's TUI on a live lab, built the way `lwstutor --kubeconfig FILE` builds it, for Pilot.

Blocking work (the scripted learner, kubectl, killing a component) runs in a thread with
`blocking()`, so the app keeps applying watch events meanwhile.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

from tests import waits
from tutor.cli import build_parser
from tutor.cluster import objects as o
from tutor.cluster.source_events import Conn, SourceState
from tutor.commands.tui import tui_app
from tutor.ui.app import TutorApp
from tutor.ui.refresh.oracle import Oracle, settled

NS = "infer"
RESOURCES = ("pods", "leaderworkersets", "events", "statefulsets", "nodes")


def live_app(kubeconfig: Path, workdir: Path, state_file: Path, states: list | None = None,
             oracle: Path | None = None) -> TutorApp:
    """The app as `lwstutor` runs it live. `states`, when given, collects every SourceState the
    watches report, in order (what the header and panes were told, not just the latest).
    `oracle`, when given, turns the pane-vs-store oracle on (as LWSTUTOR_ORACLE=FILE does): each
    refresh that leaves the app idle is compared with the store, a mismatch appended there."""
    app = tui_app(build_parser().parse_args(["--kubeconfig", str(kubeconfig), "--workdir", str(workdir),
                                             "--state-file", str(state_file), "--lang", "en"]))
    if oracle is not None:
        app.driver.oracle = Oracle(str(oracle))
    if states is not None:
        put = app.driver.inbox.put

        def spy(item) -> None:
            if isinstance(item, SourceState):
                states.append(item)
            put(item)
        app.driver.inbox.put = spy
    return app


async def until(pilot, cond, what: str, timeout: float = waits.LAB) -> float:
    """Waits (letting the app run) until cond() holds, and then until the tutor has drawn all it
    was sent; returns the seconds it took. When the bound runs out, fails naming `what`, with the
    header and the watches' states."""
    start = time.monotonic()
    await waits.until(pilot.pause, cond, what, timeout, seen=lambda: _where(pilot.app))
    # What showed it may be half a refresh (its panes are redrawn in turns of the loop, the header
    # last), or a refresh may be due for items already applied (the events pane drawn from one
    # watch's state, the header to follow from another's): what the test reads next is read
    # once the tutor is quiet.
    await waits.until(pilot.pause, lambda: settled(pilot.app), f"the tutor quiet after {what}", timeout,
                      seen=lambda: _where(pilot.app))
    return time.monotonic() - start


def _where(app) -> str:
    """Where the tutor is: its header and each watch's state."""
    return (f"header: {header(app)!r}; states: "
            f"{[(s.resource, s.state.value, s.detail) for s in app.session.states.values()]}")


async def blocking(fn, *args, **kw):
    return await asyncio.to_thread(fn, *args, **kw)


def header(app) -> str:
    return str(app.query_one("#status").render())


def text_of(app, selector: str) -> str:
    """The plain text a Static shows (a Rich Text or a group of tables, as the panes hold), or
    the events pane's."""
    from rich.console import Console

    from tutor.ui.panes.events import EventList

    widget = app.query_one(selector)
    if isinstance(widget, EventList):
        return widget.text()
    content = widget.content
    if isinstance(content, str):
        return content
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


def states_ok(app, resources=RESOURCES) -> bool:
    st = app.session.states
    return all(r in st and st[r].state is Conn.OK for r in resources)


def store_pods(app) -> set[tuple[str, str]]:
    return {(o.name(p), o.uid(p)) for p in app.session.store.all("Pod", NS)}


def fresh_pods(lab) -> set[tuple[str, str]]:
    items = json.loads(lab.kubectl("get", "pods", "-n", NS, "-o", "json").stdout)["items"]
    return {(i["metadata"]["name"], i["metadata"]["uid"]) for i in items}


def table_keys(app) -> set[str]:
    return set(app.query_one("#pods").keys())


async def store_equals_fresh_list(pilot, lab, what: str, timeout: float = waits.LAB) -> set[tuple[str, str]]:
    """Waits until the app's pods (name, UID) equal a fresh `kubectl get pods` and the pod table
    shows exactly those pods; returns them."""
    start = time.monotonic()
    fresh: set = set()
    while time.monotonic() - start < timeout:
        fresh = await blocking(fresh_pods, lab)
        await pilot.pause(0.3)
        if store_pods(pilot.app) == fresh and table_keys(pilot.app) == {n for n, _ in fresh}:
            return fresh
    raise AssertionError(f"{what}: the store never equalled a fresh list; store-only "
                         f"{sorted(store_pods(pilot.app) - fresh)}, missing {sorted(fresh - store_pods(pilot.app))}")


def pod_cells(app, pod: str) -> dict[str, str]:
    """One row of the pods table, by column name."""
    from tutor.ui.panes.pods import POD_COLUMNS

    cells = app.query_one("#pods").cells(pod)
    assert cells is not None, f"{pod} is not in the pods pane"
    return dict(zip(POD_COLUMNS, (str(c) for c in cells)))
