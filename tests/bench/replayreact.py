"""Store -> screen on one machine without a lab: the walkthrough replayed at its own pace (or
faster) into the real headless TutorApp, timed by the same hooks as the lab reaction
(screen_timing.py). Not the lab's figure, which has the control plane on the same cores: a way
to see where the tutor's own time goes, in a minute.

    .venv/bin/python -m tests.bench.replayreact [--speed 4] [--size 160x48]

Prints JSON: store_to_screen (per pod change: applied -> the frame that shows it), the phases of
each refresh, how many screen updates laid out the whole screen, with what each cost (wall and
the UI thread's CPU), and which widgets asked for those layouts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from textual.screen import Screen

from tests.bench.screen_timing import ScreenTiming
from tutor.cluster.recording import read
from tutor.commands.tui import start_replay
from tutor.demo import walkthrough
from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.app import TutorApp
from tutor.ui.refresh.quiet_gc import hold_until_first_frame


def _widget_name(widget) -> str:
    """A widget as its kind and the id of it or of its nearest ancestor with one."""
    named = next((w for w in [widget, *widget.ancestors] if getattr(w, "id", None)), None)
    kind = type(widget).__name__
    if named is widget:
        return f"{kind}#{widget.id}"
    return f"{kind} in #{named.id}" if named is not None else kind


def _timed_updates(into: list) -> None:
    """Each screen update: whether it laid out the screen, what it cost (wall and the UI thread's
    CPU, s), and, for a layout, the widgets that asked for it (Textual's Layout messages)."""
    update, on_layout = Screen._on_timer_update, Screen._on_layout
    asked: dict[int, set[str]] = {}  # screen id -> widgets that asked since its last layout

    def timed(screen) -> None:
        layout, start, cpu = screen._layout_required, time.perf_counter(), time.thread_time()
        update(screen)
        who = tuple(sorted(asked.pop(id(screen), ()))) if layout else ()
        into.append((layout, time.perf_counter() - start, time.thread_time() - cpu, who))

    async def noted_layout(screen, message) -> None:
        asked.setdefault(id(screen), set()).add(_widget_name(message.widget))
        await on_layout(screen, message)
    Screen._on_timer_update, Screen._on_layout = timed, noted_layout


def _layout_causes(updates: list) -> dict:
    """How many layouts each set of widgets asked for, most first, with their CPU time."""
    causes: dict[str, list] = {}
    for layout, _wall, cpu, who in updates:
        if layout:
            entry = causes.setdefault(" + ".join(who) or "(none noted)", [0, 0.0])
            entry[0] += 1
            entry[1] += cpu
    return {k: {"n": n, "cpu_ms": round(c * 1000, 1)} for k, (n, c) in sorted(causes.items(), key=lambda kv: -kv[1][0])}


def _summary(seconds: list[float]) -> dict:
    ms = sorted(s * 1000 for s in seconds)
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "p50_ms": round(ms[len(ms) // 2], 1), "p99_ms": round(ms[int(0.99 * len(ms))], 1),
            "max_ms": round(ms[-1], 1)}


async def run(speed: float, size: tuple[int, int]) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-replayreact-"))
    (tmp / "work").mkdir()
    lesson = load()
    session = Session(lesson, str(tmp / "work"), "en", Progress.load(tmp / "progress.json", len(lesson.steps)))
    updates: list = []
    _timed_updates(updates)
    hold_until_first_frame()  # as the CLI starts the app
    app = TutorApp(session, context="replay", replay=True,
                   start_sources=partial(start_replay, read(walkthrough()), speed, use_files=True, poll=True))
    timing = ScreenTiming(app)
    cpu_start = time.process_time()
    async with app.run_test(headless=True, size=size, notifications=True):
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline and app.is_running:
            await asyncio.sleep(0.2)
            if len(session.progress.passed) == len(lesson.steps) and app.driver.pump.idle:
                break
        await asyncio.sleep(1.0)
    return {"speed": speed, "size": f"{size[0]}x{size[1]}", "passed": sorted(session.progress.passed),
            "store_to_screen": _summary(timing.latencies), "phases": timing.phase_summary(),
            "updates_with_layout": _summary([s for layout, s, _cpu, _who in updates if layout]),
            "updates_without_layout": _summary([s for layout, s, _cpu, _who in updates if not layout]),
            "ui_cpu_ms": {"layouts": round(sum(c for layout, _s, c, _w in updates if layout) * 1000, 1),
                          "other_updates": round(sum(c for layout, _s, c, _w in updates if not layout) * 1000, 1),
                          "process": round((time.process_time() - cpu_start) * 1000, 1)},
            "layout_causes": _layout_causes(updates)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--speed", type=float, default=4.0)
    ap.add_argument("--size", default="160x48")
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    print(json.dumps(asyncio.run(run(args.speed, (w, h))), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
