"""The tutor's side of the lab churn (run by tests.bench.churn): the real headless TutorApp with
its live source (the same start_live as `lwstutor`), reporting when it reflects a target state.

Prints JSON lines (wall-clock times, to compare with the kubectl reader in another process):
  {"event": "ready", "t"}                       every watch is OK and the marker pod was seen
  {"event": "up", "store_t", "screen_t"}        N pods of the LWS, all Running, none terminating
  {"event": "down", "store_t", "screen_t"}      no pod of the LWS left (after "up")
  {"event": "stats", ...}                       on stdin EOF, then it exits; with the pane-vs-store
                                                oracle's checks and mismatches (oracle_*)
  {"event": "dump", ...}                        on SIGUSR1 (a bench or the soak that waited too
                                                long): tests/bench/tutor_dump.py

The pane-vs-store oracle (tutor/ui/refresh/oracle.py) is on: every refresh that leaves the app idle has
its panes compared with a rebuild from the store, and once more at the end; a mismatch is
dumped to the log and, with --oracle-dump FILE, to FILE as a JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench import tutor_dump
from tests.bench.app_run import SIZE, make_naive, rss_mb
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.source_events import Conn, ObjectEvent, Relisted
from tutor.cluster.live import RESOURCES
from tutor.commands.tui import start_live
from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.app import TutorApp
from tutor.ui.refresh.oracle import Oracle, settled

# At the end, for the last changes to be applied and drawn before the last check; well within
# the 30 s the parent gives the child to end (tests.bench.churn.ChildReports.stop).
SETTLE_S = 15.0


def say(**kw) -> None:
    sys.stdout.write(json.dumps(kw) + "\n")
    sys.stdout.flush()


class Watcher:
    """Keeps, per applied item, whether the LWS's pods are in the target state (O(1) each)."""

    def __init__(self, lws: str, want: int, marker: str):
        self.lws, self.want, self.marker = lws, want, marker
        self.pods: dict[str, bool] = {}  # name -> Running and not terminating
        self.marker_seen = False
        self.items = 0
        self.phase = "wait-up"
        self.store_t: float | None = None

    def see(self, obj: dict, gone: bool) -> None:
        if o.name(obj) == self.marker:
            self.marker_seen = True
        if o.lws_name(obj) != self.lws:
            return
        if gone:
            self.pods.pop(o.name(obj), None)
        else:
            self.pods[o.name(obj)] = o.phase(obj) == "Running" and not o.is_terminating(obj)

    def reached(self) -> bool:
        if self.phase == "wait-up":
            return len(self.pods) == self.want and all(self.pods.values())
        if self.phase == "wait-down":
            return not self.pods
        return False


def lose_the_screen(app) -> None:
    """An injected stall, to show a bench's dump on timeout: every delayed call of the refresh
    pump is lost from here on (as Textual's timers lost them on a starved loop), and the app's
    own watchdog is off, so the store follows the cluster and the screen never does."""
    from tutor.ui import app as app_module

    class Lost:
        def stop(self) -> None:
            pass

    app_module.PUMP_STUCK_S = float("inf")
    app.driver.pump.clock.call_later = lambda delay, fn: Lost()


async def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-churn-"))
    session = Session(load(), str(tmp / "workdir"), "en", Progress.load(tmp / "progress.json", 8))
    conn = connect(args.kubeconfig)
    live: list = [None]

    def start_sources(the_app) -> None:
        live[0] = start_live(conn.api_client, the_app, poll=False)

    app = TutorApp(session, context=conn.context, start_sources=start_sources)
    app.driver.oracle = Oracle(args.oracle_dump or "1")
    w = Watcher(args.lws, args.pods, args.marker)
    apply = session.apply

    def watched_apply(item) -> bool:
        w.items += 1
        changed = apply(item)
        if isinstance(item, ObjectEvent) and o.kind(item.obj) == "Pod":
            w.see(item.obj, item.type == "DELETED")
        elif isinstance(item, Relisted) and item.kind == "Pod":
            w.pods.clear()
            for obj in item.objs:
                w.see(obj, False)
        if w.store_t is None and w.reached():
            w.store_t = time.time()
        return changed

    session.apply = watched_apply
    pending_screen: list[str] = []
    recheck, refreshed, display = app.driver.run_checks, app.driver.refresh_drawn, app._display
    reached_at_recheck = [False]

    def noted_recheck() -> None:
        reached_at_recheck[0] = w.store_t is not None and w.reached()
        return recheck()

    def noted_refreshed() -> None:  # the refresh's last pane is drawn (they may take turns)
        refreshed()
        if reached_at_recheck[0]:
            pending_screen.append(w.phase)
            # The last change may touch nothing visible (a row scrolled out of view, a group past
            # the pane's cap), and then Textual paints no frame: ask for one, so the moment the
            # screen reflects the final state is a frame that can be timed.
            app.screen.refresh()

    def timed_display(screen, renderable) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(app.console)
        display(screen, renderable)
        if pending_screen and pending_screen[-1] == w.phase:
            pending_screen.clear()
            say(event=w.phase.removeprefix("wait-"), store_t=w.store_t, screen_t=time.time(), items=w.items)
            w.phase = {"wait-up": "wait-down", "wait-down": "done"}[w.phase]
            w.store_t = None

    app.driver.run_checks, app.driver.refresh_drawn = noted_recheck, noted_refreshed
    app._display = timed_display

    tutor_dump.install(app, session, conn.api_client, "infer", lambda: live[0], say,
                       extra=lambda: {"watcher_phase": w.phase, "watcher_pods": len(w.pods),
                                      "watcher_running": sum(w.pods.values())})
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    async with app.run_test(headless=True, size=SIZE, notifications=True):
        if args.naive:
            make_naive(app)
        if args.stall:
            lose_the_screen(app)
        watches = [res.name for res in RESOURCES]
        while not (all(session.states.get(r) is not None and session.states[r].state is Conn.OK for r in watches)
                   and w.marker_seen):
            await asyncio.sleep(0.05)
        say(event="ready", t=time.time())
        while not done.is_set():
            await asyncio.sleep(0.05)
        say(event="stats", items=w.items, rechecks=app.driver.checks_run, rss_peak_mb=rss_mb()[1], phase=w.phase,
            **await last_check(app, 0 if args.stall else SETTLE_S))


async def last_check(app, settle_s: float) -> dict:
    """The oracle's figures, after one more check once the app has settled (bounded: a stalled
    pump is reported as such, not compared)."""
    deadline = time.monotonic() + settle_s
    while not settled(app) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    out: dict = {}
    if settled(app):
        app.driver.oracle.check(app)
    else:
        out["oracle_last_check"] = (f"skipped: not settled after {settle_s:.0f} s (pending {len(app.driver.pump.pending)}, "
                                    f"drawing {app.driver.pump.refreshing}, inbox {app.driver.inbox.waiting})")
    oracle = app.driver.oracle
    out.update(oracle_checks=oracle.checks, oracle_mismatches=oracle.mismatches)
    if oracle.mismatches and oracle.path:
        out["oracle_dump"] = oracle.path
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kubeconfig", required=True)
    ap.add_argument("--lws", default="churn")
    ap.add_argument("--pods", type=int, required=True)
    ap.add_argument("--marker", default="bench-marker")
    ap.add_argument("--naive", action="store_true")
    ap.add_argument("--stall", action="store_true", help="an injected stall: see lose_the_screen")
    ap.add_argument("--oracle-dump", help="where the oracle appends its mismatches (JSON lines)")
    asyncio.run(run(ap.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
