"""A key press draws each pane at most once.

Before the lesson had a screen of its own, h re-entered the app three times and drew the verdict
two or three times; each draw of a Static that may change height lays out the whole screen. Here
each part of the screen counts the calls that give it new content (a Static's update, the lesson's
markdown mounted, the step list's labels, the footer's keys composed, a live pane's redraw that
drew), and every key the learner presses must leave each count at 1 or less once the screen has
settled.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests import waits
from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.moments import moments
from tests.ui.settle import handled, off_screen, on_screen, quiet, settled, step_drawn, until
from tutor.ui.panes.events import EventList
from tutor.ui.panes.groups import GroupsPane
from tutor.ui.panes.ledger import NodeLedger
from tutor.ui.panes.pods import PodList
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.timeline_view import TimelineScreen
from tutor.ui.widgets.doctor_panel import DoctorPanel
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.ui.widgets.notice_bar import NoticeBar
from tutor.ui.widgets.status_bar import StatusBar
from tutor.ui.widgets.step_list import StepList


def _counting(draws: Counter, part: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kw: Any) -> Any:
        draws[part] += 1
        return method(*args, **kw)
    return counted


def _counting_redraw(draws: Counter, part: str, redraw: Callable[..., Iterator[None]]) -> Callable[..., Iterator[None]]:
    """A live pane's redraw yields once it drew (the events pane after each block it wrapped too):
    one draw per redraw that yielded."""
    def counted(*args: Any, **kw: Any) -> Iterator[None]:
        drew = False
        for step in redraw(*args, **kw):
            if not drew:
                draws[part] += 1
                drew = True
            yield step
    return counted


def count_draws(app) -> Counter:
    """Counts, from now on, the draws of each part of the lesson screen, by name."""
    draws: Counter = Counter()
    screen = app.lesson
    for part, widget, name in (("verdict", screen.query_one("#verdict-body"), "update"),
                               ("status", screen.query_one(StatusBar), "update"),
                               ("notices", screen.query_one(NoticeBar), "update"),
                               ("steps", screen.query_one(StepList), "_label"),
                               ("lesson", screen.query_one(LessonPane), "_drawn"),
                               ("footer", screen.query_one(KeyFooter), "compose")):
        setattr(widget, name, _counting(draws, part, getattr(widget, name)))
    for part, kind in (("groups", GroupsPane), ("ledger", NodeLedger), ("pods", PodList), ("events", EventList)):
        pane = screen.query_one(kind)
        pane.redraw = _counting_redraw(draws, part, pane.redraw)
    return draws


async def drawn(pilot, draws: Counter) -> dict[str, int]:
    """Waits until what the key set off is drawn (the pump idle, the lesson's markdown mounted,
    no message waiting) and then nothing more is drawn for a spell (the footer composes its keys
    after a refresh); returns the draws, and clears them for the next key."""
    await quiet(pilot)
    await handled(pilot)
    start = time.monotonic()
    seen, since = dict(draws), time.monotonic()
    while time.monotonic() - since < waits.SPELL:
        assert time.monotonic() - start < waits.MOMENT, f"the screen still drawing: {dict(draws)}"
        await pilot.pause(waits.STEP)
        if dict(draws) != seen:
            seen, since = dict(draws), time.monotonic()
    draws.clear()
    return seen


async def press(pilot, draws: Counter, measured: dict[str, dict[str, int]], name: str, key: str,
                after=None) -> None:
    """Presses `key`, waits for `after` (what it opens or closes) and for the screen to settle, and
    notes its draws under `name`."""
    await pilot.press(key)
    if after is not None:
        await after(pilot)
    measured[name] = await drawn(pilot, draws)


def _over_one(measured: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {key: over for key, counts in measured.items() if (over := {p: n for p, n in counts.items() if n > 1})}


async def counting_on_step(pilot, app, step: int) -> tuple[Counter, dict[str, dict[str, int]]]:
    """The app settled on `step`, its draws counted from then on, and an empty record of each
    key's draws."""
    await settled(pilot)
    await pilot.press(str(step))
    await step_drawn(pilot, step)
    await drawn(pilot, Counter())
    return count_draws(app), {}


@pytest.fixture
def app(tmp_path):
    # the rollout half-way: every pane has something to show and the steps differ in their marks
    return make_app(WALKTHROUGH, upto=moments()["rollout-underway"], state_file=tmp_path / "p.json")


async def test_a_lesson_key_draws_each_pane_once(app):
    async with app.run_test(size=(100, 40)) as pilot:
        draws, measured = await counting_on_step(pilot, app, 2)
        await press(pilot, draws, measured, "5", "5", lambda p: step_drawn(p, 5))
        await press(pilot, draws, measured, "h", "h")
        assert app.session.progress.hints.get(5) == 1
        await press(pilot, draws, measured, "n", "n", lambda p: step_drawn(p, 6))
        await press(pilot, draws, measured, "p", "p", lambda p: step_drawn(p, 5))
        await pilot.press("n")  # the step the replay is at: not passed, so s asks first
        await step_drawn(pilot, 6)
        await drawn(pilot, draws)
        assert 6 not in app.session.progress.passed
        await press(pilot, draws, measured, "s", "s", lambda p: on_screen(p, ConfirmScreen))
        await press(pilot, draws, measured, "s, n", "n", lambda p: off_screen(p, ConfirmScreen))
        assert 6 not in app.session.progress.solutions
        await pilot.press("s")
        await on_screen(pilot, ConfirmScreen)
        await drawn(pilot, draws)
        await press(pilot, draws, measured, "s, y", "y", lambda p: off_screen(p, ConfirmScreen))
        assert 6 in app.session.progress.solutions
        # the solution is longer than the pane holds: it is shown zoomed, and esc puts it back
        await until(pilot, lambda: app.lesson.maximized, "the solution zoomed")
        await drawn(pilot, draws)
        await press(pilot, draws, measured, "esc after s", "escape",
                    lambda p: until(p, lambda: app.lesson.maximized is None, "the zoom undone"))
        await press(pilot, draws, measured, "z", "z", lambda p: until(p, lambda: app.lesson.maximized, "a zoom"))
        await press(pilot, draws, measured, "z again", "z",
                    lambda p: until(p, lambda: app.lesson.maximized is None, "the zoom undone"))
        await pilot.press("z")
        await until(pilot, lambda: app.lesson.maximized, "a zoom")
        await drawn(pilot, draws)
        await press(pilot, draws, measured, "esc", "escape",
                    lambda p: until(p, lambda: app.lesson.maximized is None, "the zoom undone"))
        await press(pilot, draws, measured, "tab", "tab",
                    lambda p: until(p, lambda: not isinstance(app.focused, LessonPane), "the focus moved"))
        doctor = app.lesson.query_one(DoctorPanel)
        doctor.note("The lab check found nothing to fix.", "Lab check", "x hides this")
        app.lesson.fit_footer()
        await drawn(pilot, draws)
        await press(pilot, draws, measured, "x", "x", lambda p: until(p, lambda: not doctor.display, "the panel gone"))
        # The solution's zoom comes once its text is parsed and placed, a change of its own: the
        # footer drops s with the solution shown, then offers esc with the pane zoomed.
        assert _over_one(measured) == {"s, y": {"footer": 2}}, f"drawn more than once by one key: {measured}"


async def test_an_app_key_draws_each_pane_once(app):
    async with app.run_test(size=(100, 40)) as pilot:
        draws, measured = await counting_on_step(pilot, app, 5)
        await press(pilot, draws, measured, "l", "l", lambda p: until(p, lambda: app.lang == "ko", "Korean"))
        await press(pilot, draws, measured, "l again", "l", lambda p: until(p, lambda: app.lang == "en", "English"))
        await press(pilot, draws, measured, "r", "r")
        await press(pilot, draws, measured, "g", "g",
                    lambda p: until(p, lambda: app.lesson.query_one(NodeLedger).display, "the ledger"))
        await press(pilot, draws, measured, "t", "t", lambda p: on_screen(p, TimelineScreen))
        await press(pilot, draws, measured, "t again", "t", lambda p: off_screen(p, TimelineScreen))
        await press(pilot, draws, measured, "?", "question_mark", lambda p: on_screen(p, HelpScreen))
        await press(pilot, draws, measured, "?, esc", "escape", lambda p: off_screen(p, HelpScreen))
        assert _over_one(measured) == {}, f"drawn more than once by one key: {measured}"
