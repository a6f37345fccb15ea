"""The churn stall: on a loop starved of the GIL the screen must still follow the store.

While the watch threads decode a burst, the UI thread can wait a few milliseconds for the GIL
between any two of its lines. Textual's one-shot timer (`set_timer`, which skips late ticks)
reads the clock when it starts and again just after: when more than its delay passed between
those two reads, it counts the one tick as missed and ends without calling back. The pump's
timers are a millisecond long, so one lost wait for the GIL there lost a refresh for good (the
pump kept waiting for a timer that never came: the store current, the screen stale, the loop
idle).

A starved loop is made here by a clock that moves a few milliseconds at every read, as that
loop sees it; nothing else is faked: the real app replays the real walkthrough.
"""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest
import textual._time as textual_time
from textual.app import App

from tests.ui.harness import make_app
from tests.ui.settle import settled, still, until
from tutor.demo import walkthrough
from tutor.ui.session_driver import LoopClock

pytestmark = pytest.mark.ui

STARVED_S = 0.004  # a wait for the GIL: the interpreter's switch interval is 5 ms


def starved_clock(monkeypatch) -> None:
    """Textual's clock moves STARVED_S at every read, on top of real time."""
    reads = itertools.count(1)
    monkeypatch.setattr(textual_time, "get_time", lambda: time.monotonic() + next(reads) * STARVED_S)


async def test_a_delayed_call_runs_on_a_starved_loop(monkeypatch):
    app = App()
    async with app.run_test() as pilot:
        starved_clock(monkeypatch)
        clock, called = LoopClock(app), []
        clock.call_later(0.001, lambda: called.append("late"))
        timer = clock.call_later(0.001, lambda: called.append("stopped"))
        timer.stop()
        await until(pilot, lambda: called, "the delayed call")
        await still(pilot, lambda: "stopped" not in called, "the stopped call never run")
        assert called == ["late"]


async def test_the_screen_follows_the_replay_on_a_starved_loop(monkeypatch):
    app = make_app(walkthrough(), lang="en", speed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        starved_clock(monkeypatch)
        await settled(pilot)
        # the last refresh checked what the store holds at the end: all eight steps passed
        assert [n for n, v in sorted(app.session.verdicts.items()) if v.passed] == list(range(1, 9))
        assert app.driver.pump.idle and not app.driver.inbox._q.qsize()


async def test_a_lost_refresh_is_found_and_redone(monkeypatch):
    """Whatever loses a refresh (a timer that never fires, a pane that never yields back), the
    app's watchdog finds the pump waiting with work to do and no progress, and redoes it."""
    from tutor.ui import app as app_module

    monkeypatch.setattr(app_module, "PUMP_STUCK_S", 0.3)
    app = make_app(walkthrough(), lang="en", speed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        lost = []
        real_call_later = app.driver.pump.clock.call_later

        def loses_the_first(delay, fn):
            if not lost:
                lost.append(fn)

                class Never:
                    def stop(self) -> None:
                        pass
                return Never()
            return real_call_later(delay, fn)

        app.driver.pump.clock.call_later = loses_the_first
        await settled(pilot)
        assert lost, "the test lost no call: it proves nothing"
        assert app.driver.pump.unstuck >= 1
        assert [n for n, v in sorted(app.session.verdicts.items()) if v.passed] == list(range(1, 9))
        await asyncio.sleep(0)
