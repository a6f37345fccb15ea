"""The tutor's side of the lab-scale reaction (run by tests.bench.labreact): the real headless
TutorApp with its live source and the learner's answer files, as `lwstutor` runs in the VM.

Prints JSON lines, wall-clock times (the parent compares them with its kubectl reader):
  {"event": "ready", "t"}                          every watch is OK
  {"event": "item", "i", "kind", "name", "rv", "t"} each pod change or answer file applied
  {"event": "frame", "t", "upto"}                  a frame drawn after a refresh (re-check and
                                                   panes) that had applied every item up to
                                                   number `upto`
  {"event": "stats", ...}                          on stdin EOF, then it exits
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

from tests.bench.app_run import SIZE
from tests.bench.churn_tutor import say
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.events import Conn, FileChanged, ObjectEvent
from tutor.cluster.live import RESOURCES
from tutor.commands.tui import start_live
from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.app import TutorApp
from tutor.ui.quiet_gc import hold_until_first_frame
from tutor.workspace.files import FileRead


async def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-labreact-"))
    session = Session(load(), args.workdir, "en", Progress.load(tmp / "progress.json", 8))
    conn = connect(args.kubeconfig)
    hold_until_first_frame()  # as the CLI starts the app (tutor.commands.tui.run_tui): its collector freezes
    app = TutorApp(session, context=conn.context, start_sources=partial(start_live, conn.api_client, poll=False))
    seq = {"applied": 0, "rechecking": 0, "rechecked": 0, "drawn": 0}
    apply, recheck, refreshed, display = session.apply, app.run_checks, app.refresh_drawn, app._display

    def noted_apply(item) -> bool:
        changed = apply(item)
        if changed and isinstance(item, ObjectEvent) and o.kind(item.obj) == "Pod":
            seq["applied"] += 1
            say(event="item", i=seq["applied"], kind="Pod", name=o.name(item.obj),
                rv=o.resource_version(item.obj), type=item.type, t=time.time())
        elif changed and isinstance(item, (FileChanged, FileRead)):  # live files come as FileRead
            seq["applied"] += 1
            say(event="item", i=seq["applied"], kind="file", name=item.name, rv="", type="", t=time.time())
        return changed

    def noted_recheck() -> None:
        seq["rechecking"] = seq["applied"]
        return recheck()

    def noted_refreshed() -> None:  # the refresh's last pane is drawn (they may take turns)
        refreshed()
        seq["rechecked"] = seq["rechecking"]
        app.screen.refresh()  # a change off screen paints no frame otherwise; the moment is timed by one

    def timed_display(screen, renderable) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(app.console)  # headless Textual skips making terminal bytes
        display(screen, renderable)
        if seq["rechecked"] > seq["drawn"]:
            seq["drawn"] = seq["rechecked"]
            say(event="frame", t=time.time(), upto=seq["drawn"])

    session.apply, app.run_checks, app.refresh_drawn, app._display = noted_apply, noted_recheck, noted_refreshed, timed_display
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    async with app.run_test(headless=True, size=SIZE, notifications=True):
        watches = [res.name for res in RESOURCES]
        while not all(session.states.get(r) is not None and session.states[r].state is Conn.OK for r in watches):
            await asyncio.sleep(0.05)
        say(event="ready", t=time.time())
        while not done.is_set():
            await asyncio.sleep(0.05)
        say(event="stats", items=seq["applied"], rechecks=app.checks_run,
            passed=sorted(session.progress.passed))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kubeconfig", required=True)
    ap.add_argument("--workdir", required=True)
    asyncio.run(run(ap.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
