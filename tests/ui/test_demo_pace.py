"""The demo shows how far it is: the step it plays and the time left in the status bar, and in a
long wait what it waits for, counting down, on the notices' line. Whole at 60x20 and 80x24, in
both languages, and read as a reader of that language reads.

The demo runs at its default pace (real time); its clock is moved on to the moment looked at, so
the test does not sit through the grace period."""

from __future__ import annotations

import math

import pytest
from rich.cells import cell_len

from tests.lang_scan import scan
from tests.ui.screen_text import notices_read, screen_lines
from tests.ui.settle import first_frame, until
from tutor.cli import build_parser
from tutor.commands.demo import demo_app


def _at(app, seconds: float) -> None:
    """The demo's clock, `seconds` after it began."""
    demo = app.demo
    demo.now = lambda: demo.started + seconds


def _row(app, selector: str) -> str:
    return screen_lines(app)[app.query_one(selector).region.y].strip()


@pytest.mark.parametrize("size", [(60, 20), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_demo_says_how_far_it_is_and_what_it_waits_for(size, lang):
    app = demo_app(build_parser().parse_args(["demo", "--lang", lang]))
    async with app.run_test(size=size) as pilot:
        await first_frame(pilot)
        await until(pilot, lambda: app.demo.plan is not None, "the demo's plan")
        plan = app.demo.plan
        wait = next(w for w in plan.waits if plan.step_at(w.start) == 5)  # the grace period
        moment = wait.start + 3.5
        _at(app, moment)
        left, total = math.ceil(wait.end - moment), math.ceil(plan.end - moment)
        progress = {"en": f"step 5/8 · {total // 60}:{total % 60:02d} left",
                    "ko": f"5/8단계 · 남은 시간 {total // 60}:{total % 60:02d}"}[lang]
        waiting = {"en": f"Waiting for the pods' termination grace period ({left} s left)",
                   "ko": f"기다리는 중: 파드 종료 유예 기간 (남은 시간 {left}초)"}[lang]
        await until(pilot, lambda: progress in _row(app, "#status") and notices_read(app) == waiting,
                    "the progress and the wait on screen", seen=lambda: (_row(app, "#status"), notices_read(app)))
        # the progress whole (what follows it may be cut), the wait's line whole
        assert not notices_read(app).endswith("…") and cell_len(notices_read(app)) <= size[0]
        for line in (_row(app, "#status"), notices_read(app)):
            assert [str(f) for f in scan(line, lang, verbatim=("demo/infer", "LeaderWorkerSet"))] == [], line
        # a second on, both have counted down
        _at(app, moment + 1)
        later = waiting.replace(str(left), str(left - 1))
        sooner = f"{(total - 1) // 60}:{(total - 1) % 60:02d}"
        await until(pilot, lambda: notices_read(app) == later and sooner in _row(app, "#status"),
                    "the countdowns moved on", seen=lambda: (_row(app, "#status"), notices_read(app)))
        # the wait over, its line goes; the progress stays
        _at(app, wait.end + 0.5)
        await until(pilot, lambda: not app.query_one("#notices").display, "the wait's line gone",
                    seen=lambda: notices_read(app))
        assert "5/8" in _row(app, "#status") or "6/8" in _row(app, "#status")
