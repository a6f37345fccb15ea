"""The lesson pane and the verdict show the same step on every frame, and a burst of navigation
keys draws only the step it ends on."""

from __future__ import annotations

import asyncio
import re

from textual import events
from textual.await_complete import AwaitComplete
from textual.widgets import Markdown

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import settled, until
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.ui.widgets.verdict_box import VerdictBox


def _title_step(app) -> int | None:
    """The step number in the lesson pane's title, as mounted now."""
    heads = app.query_one(LessonPane).query("MarkdownH1")
    if not heads:
        return None
    m = re.match(r"#\s*(\d+)\.", heads.first().source or "")
    return int(m.group(1)) if m else None


def _watch_frames(app) -> list[tuple[int | None, str]]:
    """Every frame the app paints, as (the lesson's step, the verdict's text)."""
    frames: list[tuple[int | None, str]] = []
    display = app._display

    def noted(screen, renderable) -> None:
        if renderable is not None and not app._batch_count:
            frames.append((_title_step(app), app.query_one(VerdictBox).text()))
        display(screen, renderable)

    app._display = noted
    return frames


def _count_parses(app) -> list[str]:
    """The markdown documents the lesson pane hands to Textual's Markdown to parse."""
    md = app.query_one("#lesson-md", Markdown)
    parsed: list[str] = []
    update = md.update

    def counted(markdown: str):
        parsed.append(markdown)
        return update(markdown)

    md.update = counted
    return parsed


def _slow_markdown(app, seconds: float = 0.15) -> None:
    """The lesson's markdown takes as long to parse and mount as on a busy machine (the demo's 0.2
    to 0.5 s): what the loop does meanwhile, frames included, goes on."""
    md = app.query_one("#lesson-md", Markdown)
    update = md.update

    def slow(markdown: str) -> AwaitComplete:
        async def later() -> None:
            await asyncio.sleep(seconds)
            await update(markdown)
        return AwaitComplete(later())

    md.update = slow


async def _verdict_texts(pilot, steps) -> dict[int, str]:
    """Each step's verdict as the box shows it once the step is drawn and nothing moves."""
    app = pilot.app
    out = {}
    for n in steps:
        await pilot.press(str(n))
        await until(pilot, lambda n=n: _title_step(app) == n and app.query_one(LessonPane).drawn,
                    f"step {n} drawn", seen=lambda: (_title_step(app), app.query_one(LessonPane).drawn))
        out[n] = app.query_one(VerdictBox).text()
    return out


async def test_lesson_and_verdict_change_step_in_one_frame(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        steps = range(1, len(app.session.lesson.steps) + 1)
        verdicts = await _verdict_texts(pilot, steps)
        assert len(set(verdicts.values())) == len(verdicts)  # each step's verdict tells it apart
        _slow_markdown(app)
        frames = _watch_frames(app)
        for key in ["1", "n", "n", "3", "p", "8", "p", "p", "5", "n", "1"]:
            app._driver.send_message(events.Key(key, key))  # pilot.press would wait for the parse
            for _ in range(30):  # what a frame painted now would show (pilot.pause would wait for the parse)
                await asyncio.sleep(0.01)
                if not app._batch_count:
                    frames.append((_title_step(app), app.query_one(VerdictBox).text()))
        await _verdict_texts(pilot, [1])
        assert frames
        wrong = [(step, text[:40]) for step, text in frames if step is not None and verdicts[step] != text]
        assert not wrong, wrong


async def test_a_burst_of_keys_draws_the_step_it_ends_on(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        steps = range(1, len(app.session.lesson.steps) + 1)
        verdicts = await _verdict_texts(pilot, steps)
        await _verdict_texts(pilot, [1])
        parsed = _count_parses(app)
        frames = _watch_frames(app)
        burst = ["n", "n", "n", "4", "n", "p", "8", "p", "p", "2", "n", "n", "6", "p", "7", "n", "1", "n", "n", "n"]
        assert len(burst) == 20
        for key in burst:  # no wait between them, as a key held down
            app._driver.send_message(events.Key(key, key))
        await until(pilot, lambda: app.query_one(LessonPane).drawn and _title_step(app) == 4,
                    "the burst's last step, 4, drawn", seen=lambda: (_title_step(app), app.query_one(LessonPane).drawn))
        assert app.session.progress.current == 4 and _title_step(app) == 4
        assert app.query_one(VerdictBox).text() == verdicts[4]
        # the steps passed over are not parsed: the one drawn when the burst began, and the last
        assert len(parsed) <= 2, [p.splitlines()[0] for p in parsed]
        assert parsed[-1].startswith("# 4.")
        # one step's title is never drawn over another's text, nor beside another's verdict
        md = app.query_one("#lesson-md", Markdown)
        assert len(md.query("MarkdownH1")) == 1
        wrong = [(step, text[:40]) for step, text in frames if step is not None and verdicts[step] != text]
        assert not wrong, wrong
