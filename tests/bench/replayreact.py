"""Store -> screen on one machine without a lab: the walkthrough replayed at its own pace (or
faster) into the real headless TutorApp, timed by the same hooks as the lab reaction
(screen_timing.py). Not the lab's figure, which has the control plane on the same cores: a way
to see where the tutor's own time goes, in a minute.

    .venv/bin/python -m tests.bench.replayreact [--speed 4] [--size 160x48]

Prints JSON: store_to_screen (per pod change: applied -> the frame that shows it), the phases of
each refresh, and how many screen updates laid out the whole screen, with what each cost.
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
from tutor.ui.quiet_gc import hold_until_first_frame


def _timed_updates(into: list) -> None:
    """Each screen update: whether it laid out the screen, and what it cost (s)."""
    update = Screen._on_timer_update

    def timed(screen) -> None:
        layout, start = screen._layout_required, time.perf_counter()
        update(screen)
        into.append((layout, time.perf_counter() - start))
    Screen._on_timer_update = timed


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
    async with app.run_test(headless=True, size=size, notifications=True):
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline and app.is_running:
            await asyncio.sleep(0.2)
            if len(session.progress.passed) == len(lesson.steps) and app.pump.idle:
                break
        await asyncio.sleep(1.0)
    return {"speed": speed, "size": f"{size[0]}x{size[1]}", "passed": sorted(session.progress.passed),
            "store_to_screen": _summary(timing.latencies), "phases": timing.phase_summary(),
            "updates_with_layout": _summary([s for layout, s in updates if layout]),
            "updates_without_layout": _summary([s for layout, s in updates if not layout])}


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
