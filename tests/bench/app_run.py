"""One headless tutor under load: reaction, burst, idle CPU and memory (run by tests.bench).

    python -m tests.bench.app_run --pods 1000 --rate 200 --stream-seconds 10 --burst 10000 --idle 10

Prints one JSON object on its last line. The app is the real TutorApp (headless, 160x48); items
go into its inbox from a thread exactly as the live source's watch threads put them, after the
same json.loads of the watch line. A frame is the screen's compositor update; in headless mode
Textual skips turning it into terminal bytes, so this harness does that too (render_segments),
as a terminal would need it.

A refresh that changes nothing in view (pods far below it) makes no frame of its own in the app:
its items would count as shown only by the next frame, drawn for a later change. So each refresh
ends by asking for one cell to be drawn again, as the lab reaction does (screen_timing.py): the
frame that follows is when the screen shows what the refresh included.

After each phase has settled (population, stream, burst), and once its figures are taken, every
pane is compared once with its rebuild from the store (tutor/ui/refresh/oracle.py): `oracle` has each
phase's mismatches, `oracle_mismatches` their total. Not after every refresh: the reaction
figures would pay for it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench.screen_timing import ask_for_a_frame
from tests.bench.synth import FLEET, Cloner, parse
from tutor.cluster import objects as o
from tutor.cluster.source_events import Conn, SourceState
from tutor.cluster.live import RESOURCES
from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.app import TutorApp
from tutor.ui.refresh.oracle import compare, reported, settled
from tutor.ui.refresh.quiet_gc import hold_until_first_frame
from tutor.ui.panes.events import EventList, LessonEvents, WaitingPods
from tutor.ui.panes.groups import GroupsKey, GroupsPane
from tutor.ui.panes.ledger import NodeLedger
from tutor.ui.panes.pods import PodList, PodRows

SIZE = (160, 48)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    vs = sorted(values)
    return vs[min(len(vs) - 1, max(0, round(q / 100 * len(vs)) - 1))]


def rss_mb() -> tuple[float, float]:
    """(current RSS, peak RSS) of this process in MB."""
    cur = peak = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            cur = int(line.split()[1]) / 1024
        elif line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return cur, peak


def cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def latencies(puts: list[float], base: int, shown: list[tuple[float, int]]) -> list[float]:
    """Per item put (the base+1-th first), ms until the first of `shown` (time, items shown) that
    shows it."""
    out, j = [], 0
    for i, t_put in enumerate(puts):
        n = base + i + 1
        while j < len(shown) and shown[j][1] < n:
            j += 1
        if j == len(shown):
            break
        out.append((shown[j][0] - t_put) * 1000)
    return out


class Probe:
    """Counts items as the app applies them and notes which of them each frame shows."""

    def __init__(self, app: TutorApp):
        self.app = app
        self.put = 0  # items handed to the inbox
        self.applied = 0  # items the app has applied
        self.shown_upto = 0  # items applied before the last refresh began
        self.frames: list[tuple[float, int]] = []  # (time, items shown)
        self.stall = 0.0
        self.recheck_ms: list[float] = []
        self._beat = True
        session = app.session
        apply, recheck, refreshed, display = session.apply, app.driver.run_checks, app.driver.refresh_drawn, app._display
        begun: list[tuple[int, float]] = []  # (items applied, time) when the refresh under way began

        def counted_apply(item):
            self.applied += 1
            return apply(item)

        def noted_recheck():
            begun[:] = [(self.applied, time.perf_counter())]
            return recheck()

        def noted_refreshed():
            # A refresh is done once its last pane is redrawn (the panes may take turns of the
            # loop): only frames from then on show what it included.
            refreshed()
            if begun:
                upto, t0 = begun.pop()
                self.recheck_ms.append((time.perf_counter() - t0) * 1000)
                self.shown_upto = upto
                ask_for_a_frame(app)

        def timed_display(screen, renderable):
            if renderable is not None and hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            self.frames.append((time.perf_counter(), self.shown_upto))
            display(screen, renderable)

        session.apply = counted_apply
        app.driver.run_checks = noted_recheck
        app.driver.refresh_drawn = noted_refreshed
        app._display = timed_display

    def put_item(self, item) -> None:
        self.put += 1
        self.app.driver.inbox.put(item)

    def frame_showing(self, n: int, after: float = 0.0) -> float | None:
        """Time of the first frame that shows the first n items."""
        for t, upto in self.frames:
            if upto >= n and t >= after:
                return t
        return None

    async def heartbeat(self) -> None:
        """The event loop's longest stall: a 5 ms sleep that wakes up late."""
        while self._beat:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            self.stall = max(self.stall, time.perf_counter() - t0 - 0.005)

    async def until_shown(self, n: int, timeout: float) -> float | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            t = self.frame_showing(n)
            if t is not None:
                return t
            await asyncio.sleep(0.01)
        return None


async def oracle_compare(app: TutorApp, timeout: float = 60) -> dict:
    """Every pane against its rebuild from the store, once the app has settled (bounded: an app
    that does not settle is reported as such, not compared)."""
    deadline = time.perf_counter() + timeout
    while not settled(app):
        if time.perf_counter() > deadline:
            return {"mismatches": None, "skipped": f"not settled after {timeout:.0f} s: pending "
                    f"{len(app.driver.pump.pending)}, drawing {app.driver.pump.refreshing}, inbox {app.driver.inbox.waiting}"}
        await asyncio.sleep(0.05)
    found = compare(app)
    return {"mismatches": len(found), **({"first": reported(found)} if found else {})}


def oracle_total(out: dict) -> None:
    """The phases' compares summed: how many ran, and their mismatches."""
    ran = [r["mismatches"] for r in out["oracle"].values() if r["mismatches"] is not None]
    out["oracle_checks"], out["oracle_mismatches"] = len(ran), sum(ran)


def make_naive(app: TutorApp) -> None:
    """The baseline: every item re-runs every checker and redraws every pane at once, the pod
    table rebuilt from scratch, no reuse of per-pod rows, no slicing, no coalescing."""
    import tutor.ui.refresh.pump as pump_module

    pump_module.APPLY_SLICE = 1e9
    pump_module.REDRAW_SLICE = 1e9
    app.session.incremental = False
    apply = app.session.apply

    def naive_apply(item) -> bool:
        changed = apply(item)
        if changed:
            app.lesson._drawn.clear()
            for pane in (PodList, GroupsPane, NodeLedger, EventList):
                app.query_one(pane)._inputs.last = None  # each pane asked again
            table = app.query_one(PodList)
            table._source = PodRows()
            table._clear_cache()
            app.query_one(GroupsPane)._key = GroupsKey()
            events = app.query_one(EventList)
            events._events, events._waiting = LessonEvents(), WaitingPods()
            o.memo.clear()
            app.driver.recheck()
        return changed

    app.session.apply = naive_apply


def profiler(args, phase: str):
    """pyinstrument around one phase (--profile PHASE); a developer's tool, not a dependency."""
    if args.profile != phase:
        return None
    from pyinstrument import Profiler

    prof = Profiler(async_mode="disabled")
    prof.start()
    return prof


def stop_profiler(prof, args) -> None:
    if prof is not None:
        prof.stop()
        Path(args.profile_out).write_text(prof.output_text(unicode=True, show_all=True))


async def run(args) -> dict:
    out: dict = {"pods": args.pods, "rate": args.rate, "burst_events": args.burst, "naive": args.naive}
    cloner = Cloner()
    base_pods = sum(1 for it in cloner.walkthrough if getattr(it, "type", "") == "ADDED"
                    and o.kind(it.obj) == "Pod") - 6  # the walkthrough ends with 10 pods
    groups = max(1, (args.pods - base_pods) // 2)
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-bench-"))
    session = Session(load(), str(tmp / "workdir"), "en", Progress.load(tmp / "progress.json", 8))
    hold_until_first_frame()  # as the CLI starts the app (tutor.commands.tui.run_tui)
    app = TutorApp(session, context="bench")
    async with app.run_test(headless=True, size=SIZE, notifications=True) as pilot:
        probe = Probe(app)
        beat = asyncio.create_task(probe.heartbeat())
        await pilot.pause(0.1)
        # --- the namespace: the walkthrough's end state plus a fleet LWS of `groups` groups --------
        t0 = time.perf_counter()

        def populate():
            for res in RESOURCES:
                probe.put_item(SourceState(res.name, Conn.OK, "", 0.0))
            for it in cloner.walkthrough:
                probe.put_item(it)
            for line in cloner.population(groups):
                probe.put_item(parse(line, time.perf_counter()))

        th = threading.Thread(target=populate)
        th.start()
        while th.is_alive():
            await asyncio.sleep(0.05)
        if await probe.until_shown(probe.put, 300) is None:
            raise SystemExit("population never shown")
        out["population_events"] = probe.put
        out["population_s"] = time.perf_counter() - t0
        out["pods_in_namespace"] = len(session.store.all("Pod", session.lesson.namespace))
        out["rss_population_mb"], _ = rss_mb()
        out["oracle"] = {"population": await oracle_compare(app)}
        await asyncio.sleep(0.5)
        if args.naive:
            make_naive(app)
        storm = cloner.storm(groups, args.rate * args.stream_seconds + args.burst)

        # --- reaction: a stream at `rate` events/s ----------------------------------------------
        n_stream = int(args.rate * args.stream_seconds)
        base = probe.put
        puts: list[float] = []

        def stream():
            start = time.perf_counter()
            for i in range(n_stream):
                line = next(storm)
                delay = start + i / args.rate - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                t = time.perf_counter()
                puts.append(t)
                probe.put_item(parse(line, t))

        probe.stall = 0.0
        probe.recheck_ms = []
        runs0 = sum(session.checker_runs.values())
        prof = profiler(args, "stream")
        # The UI thread's own CPU time (the loop: applying, refreshes, frames): unlike the
        # latencies it hardly moves when other processes take the cores.
        frames0, ui_cpu0 = len(probe.frames), time.thread_time()
        th = threading.Thread(target=stream)
        th.start()
        while th.is_alive():
            await asyncio.sleep(0.05)
        await probe.until_shown(probe.put, args.catch_up)
        out["stream_ui_cpu_ms_per_event"] = (time.thread_time() - ui_cpu0) * 1000 / max(1, n_stream)
        out["stream_frames"] = len(probe.frames) - frames0
        stop_profiler(prof, args)
        lat = latencies(puts, base, list(probe.frames))
        out["reaction_events"] = n_stream
        out["reaction_shown"] = len(lat)
        out["reaction_p50_ms"] = pct(lat, 50)
        out["reaction_p99_ms"] = pct(lat, 99)
        out["reaction_max_ms"] = max(lat) if lat else float("nan")
        out["stream_stall_ms"] = probe.stall * 1000
        out["stream_rechecks"] = len(probe.recheck_ms)
        out["stream_recheck_p50_ms"] = pct(probe.recheck_ms, 50)
        out["stream_recheck_max_ms"] = max(probe.recheck_ms, default=0)
        out["stream_checker_runs"] = sum(session.checker_runs.values()) - runs0  # of 8 per re-check
        out["oracle"]["stream"] = await oracle_compare(app, args.catch_up)
        await asyncio.sleep(0.5)  # not pilot.pause: a naive app may still be busy

        # --- burst: `burst` events at once ----------------------------------------------------------
        expect: dict[str, tuple[str, str] | None] = {}

        def burst():
            for line in (next(storm) for _ in range(args.burst)):
                ev = parse(line, time.perf_counter())
                if o.kind(ev.obj) == "Pod":
                    expect[o.name(ev.obj)] = None if ev.type == "DELETED" else (o.uid(ev.obj), o.revision(ev.obj))
                probe.put_item(ev)
            t_done[0] = time.perf_counter()

        t_done = [0.0]
        checks0 = app.driver.checks_run
        probe.stall = 0.0
        probe.recheck_ms = []
        t0 = time.perf_counter()
        prof = profiler(args, "burst")
        th = threading.Thread(target=burst)
        th.start()
        while th.is_alive():
            await asyncio.sleep(0.01)
        t_shown = await probe.until_shown(probe.put, args.catch_up)
        stop_profiler(prof, args)
        out["burst_put_s"] = t_done[0] - t0
        out["burst_settled_s"] = (t_shown - t0) if t_shown else None
        out["burst_stall_ms"] = probe.stall * 1000
        out["burst_rechecks"] = app.driver.checks_run - checks0
        out["burst_recheck_max_ms"] = max(probe.recheck_ms, default=0)
        if t_shown and args.burst:
            await asyncio.sleep(0.2)
            table = app.query_one(PodList)
            ns = session.lesson.namespace
            wrong = 0
            for name, want in expect.items():
                live = session.store.get("Pod", name, ns)
                if want is None:
                    wrong += live is not None or table.cells(name) is not None
                    continue
                cells = table.cells(name)
                if live is None or (o.uid(live), o.revision(live)) != want or cells is None \
                        or str(cells[3]) != want[0][:8] or str(cells[7]) != want[1][:10]:
                    wrong += 1
            out["burst_final_state_ok"] = wrong == 0 and table.row_count == len(session.store.all("Pod", ns))
            out["burst_pods_checked"] = len(expect)
        out["rss_after_burst_mb"], out["rss_peak_mb"] = rss_mb()
        if args.burst:
            out["oracle"]["burst"] = await oracle_compare(app, args.catch_up)
        oracle_total(out)

        # --- idle ---------------------------------------------------------------------------------
        if args.idle:
            await asyncio.sleep(1.0)
            probe._beat = False
            await beat
            c0, w0 = cpu_seconds(), time.perf_counter()
            frames0, checks0 = len(probe.frames), app.driver.checks_run
            await asyncio.sleep(args.idle)
            out["idle_cpu_pct"] = 100 * (cpu_seconds() - c0) / (time.perf_counter() - w0)
            out["idle_rechecks"] = app.driver.checks_run - checks0
            out["idle_frames"] = len(probe.frames) - frames0
        probe._beat = False
        out["threads"] = threading.active_count()
    _, out["rss_peak_mb"] = rss_mb()
    out["fleet"] = FLEET
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pods", type=int, default=1000)
    ap.add_argument("--rate", type=int, default=200)
    ap.add_argument("--stream-seconds", type=float, default=10)
    ap.add_argument("--burst", type=int, default=10_000)
    ap.add_argument("--idle", type=float, default=10)
    ap.add_argument("--catch-up", type=float, default=60, help="seconds to wait for the screen to catch up")
    ap.add_argument("--naive", action="store_true")
    ap.add_argument("--profile", choices=("stream", "burst"), help="profile one phase with pyinstrument")
    ap.add_argument("--profile-out", default="bench-profile.txt")
    args = ap.parse_args(argv)
    os.environ.setdefault("XDG_STATE_HOME", tempfile.mkdtemp(prefix="lwstutor-bench-state-"))
    out = asyncio.run(run(args))
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
