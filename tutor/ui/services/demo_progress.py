"""How far the demo is, in the learner's words: the step it plays and the time left (in the status
bar), and what a long wait waits for with its countdown (on the notices' line).

The plan (tutor/demo/pace.py) is made on the replay's thread, which starts the demo's clock as it
hands the plan over; until then, and once the demo is over, there is nothing to say."""

from __future__ import annotations

import math
from time import monotonic
from typing import Callable

from tutor.demo.pace import Plan
from tutor.ui.session_driver import LoopCall
from tutor.i18n.bilingual import say


def clock(seconds: float) -> str:
    """m:ss, as a countdown reads."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class DemoProgress:
    def __init__(self, now: Callable[[], float] = monotonic):
        self.now = now  # the clock (a test moves it on)
        self.started = 0.0
        self.plan: Plan | None = None  # set last by begin(): the replay's thread hands it over whole

    def begin(self, plan: Plan) -> None:
        self.started = self.now()
        self.plan = plan

    def elapsed(self) -> float:
        return self.now() - self.started

    def playing(self) -> bool:
        return self.plan is not None and self.elapsed() < self.plan.end

    def status(self, lang: str, steps: int) -> str:
        """The step the demo plays and the time it has left, or "" (not begun, or over)."""
        if self.plan is None or not self.playing():
            return ""
        elapsed = self.elapsed()
        left = clock(self.plan.end - elapsed)
        return say(lang, "step {k}/{n} · {left} left", "{k}/{n}단계 · 남은 시간 {left}",
                   k=self.plan.step_at(elapsed), n=steps, left=left)

    def waiting(self, lang: str) -> str:
        """What the demo waits for now and for how long, or "" when it is not in a long wait."""
        if self.plan is None:
            return ""
        elapsed = self.elapsed()
        wait = self.plan.wait_at(elapsed)
        if wait is None:
            return ""
        left = max(1, math.ceil(wait.end - elapsed))
        if not wait.what[0]:
            return say(lang, "Next change in {s} s", "다음 변화까지 {s}초", s=left)
        return say(lang, "Waiting for {what} ({s} s left)", "기다리는 중: {what} (남은 시간 {s}초)",
                   what=say(lang, *wait.what), s=left)

    def next_tick(self) -> float:
        """Seconds until a figure shown changes: the next whole second of the time left."""
        if self.plan is None:
            return 0.2
        elapsed = self.elapsed()
        wait = self.plan.wait_at(elapsed)
        ends = [self.plan.end] + ([wait.end] if wait else [])
        return min((end - elapsed) % 1.0 or 1.0 for end in ends) + 0.01  # just past it, not just before


def keep_said(app) -> None:
    """The demo's progress (the header) and its wait (the notices' line), said again as their
    figures change, until the demo ends."""
    demo = app.demo
    if app.closing or demo is None:
        return
    app.lesson.draw_status()
    app.notices.waiting(demo.waiting(app.lang))
    if demo.plan is None or demo.playing():
        LoopCall(app, demo.next_tick(), lambda: keep_said(app))
