"""The tutor's side of the lab-scale reaction (run by tests.bench.labreact): the real headless
TutorApp with its live source and the learner's answer files, as `lwstutor` runs in the VM.

Prints JSON lines, wall-clock times (the parent compares them with its kubectl reader):
  {"event": "ready", "t"}                          every watch is OK
  {"event": "item", "i", "kind", "name", "rv", "t"} each pod change or answer file applied
  {"event": "frame", "t", "upto", "phases_ms"}     a frame drawn after a refresh (re-check and
                                                   panes) that had applied every item up to
                                                   number `upto`, and that refresh's phases
  {"event": "stats", ...}                          on stdin EOF, then it exits; `phases` splits
                                                   each refresh's store -> screen time (ms, p50 and
                                                   p90): waiting for the refresh, its checks, its
                                                   panes, and from then to the frame; and
                                                   `oracle`: every pane compared once with its
                                                   rebuild from the store, the walkthrough done
                                                   (not after every refresh: the figures would
                                                   pay for it)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench.app_run import SIZE, oracle_compare
from tests.bench.churn_tutor import say
from tests.bench.screen_timing import ScreenTiming
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.source_events import Conn, ObjectEvent
from tutor.cluster.live import RESOURCES
from tutor.commands.tui import start_live
from tests.bench import tutor_dump
from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.app import TutorApp
from tutor.ui.refresh.quiet_gc import hold_until_first_frame


async def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-labreact-"))
    session = Session(load(), args.workdir, "en", Progress.load(tmp / "progress.json", 8))
    conn = connect(args.kubeconfig)
    hold_until_first_frame()  # as the CLI starts the app (tutor.commands.tui.run_tui): its collector freezes
    live: list = [None]

    def start_sources(the_app) -> None:
        live[0] = start_live(conn.api_client, the_app, poll=False)

    app = TutorApp(session, context=conn.context, start_sources=start_sources)
    tutor_dump.install(app, session, conn.api_client, "infer", lambda: live[0], say)
    def item(i: int, it) -> None:
        if isinstance(it, ObjectEvent):
            say(event="item", i=i, kind="Pod", name=o.name(it.obj), rv=o.resource_version(it.obj), type=it.type,
                t=time.time())
        else:
            say(event="item", i=i, kind="file", name=it.name, rv="", type="", t=time.time())

    def frame(upto: int) -> None:
        phases = timing.last_phases
        say(event="frame", t=time.time(), upto=upto,
            phases_ms=None if phases is None else [round(p * 1000, 1) for p in phases])

    timing = ScreenTiming(app, item, frame)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    async with app.run_test(headless=True, size=SIZE, notifications=True):
        watches = [res.name for res in RESOURCES]
        while not all(session.states.get(r) is not None and session.states[r].state is Conn.OK for r in watches):
            await asyncio.sleep(0.05)
        say(event="ready", t=time.time())
        while not done.is_set():
            await asyncio.sleep(0.05)
        say(event="stats", items=timing.seq["applied"], rechecks=app.driver.checks_run,
            passed=sorted(session.progress.passed), phases=timing.phase_summary(),
            oracle=await oracle_compare(app, 15))  # well within the 30 s the parent gives it to end


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kubeconfig", required=True)
    ap.add_argument("--workdir", required=True)
    asyncio.run(run(ap.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
