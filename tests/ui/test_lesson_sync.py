"""The lesson pane and the verdict show the same step on every frame, and a burst of navigation
keys draws only the step it ends on."""

from __future__ import annotations

import asyncio
import re

from textual import events
from textual.widgets import Markdown

from tests.conftest import WALKTHROUGH
from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import heading_in_view, hint_in_view, quiet, settled, until
from tutor.ui.widgets import lesson_pane
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


def _count_parses(monkeypatch) -> list[str]:
    """The markdown documents the lesson pane parses."""
    parsed: list[str] = []
    parse = lesson_pane._parse

    async def counted(md, markdown: str):
        parsed.append(markdown)
        return await parse(md, markdown)

    monkeypatch.setattr(lesson_pane, "_parse", counted)
    return parsed


def _slow_markdown(monkeypatch, seconds: float = 0.15) -> None:
    """The lesson's markdown takes as long to parse as on a busy machine (the demo's 0.2 to 0.5
    s): what the loop does meanwhile, frames included, goes on."""
    parse = lesson_pane._parse

    async def slow(md, markdown: str):
        await asyncio.sleep(seconds)
        return await parse(md, markdown)

    monkeypatch.setattr(lesson_pane, "_parse", slow)


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


async def test_lesson_and_verdict_change_step_in_one_frame(tmp_path, monkeypatch):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        steps = range(1, len(app.session.lesson.steps) + 1)
        verdicts = await _verdict_texts(pilot, steps)
        assert len(set(verdicts.values())) == len(verdicts)  # each step's verdict tells it apart
        _slow_markdown(monkeypatch)
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


async def test_a_burst_of_keys_draws_the_step_it_ends_on(tmp_path, monkeypatch):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        steps = range(1, len(app.session.lesson.steps) + 1)
        verdicts = await _verdict_texts(pilot, steps)
        await _verdict_texts(pilot, [1])
        parsed = _count_parses(monkeypatch)
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


def _held_markdown(monkeypatch) -> asyncio.Event:
    """The lesson's markdown parses only once the returned event is set: a parse as long as the
    test wants, on a machine as busy as it likes."""
    parse, go = lesson_pane._parse, asyncio.Event()

    async def held(md, markdown: str):
        await go.wait()
        return await parse(md, markdown)

    monkeypatch.setattr(lesson_pane, "_parse", held)
    return go


async def test_the_app_goes_on_while_a_revealed_hint_is_parsed(tmp_path, monkeypatch):
    """h reveals a hint and brings it into view once its markdown is drawn; meanwhile the app's
    queue goes on (a key, and a call the refresh pump makes through it), and so do its frames. h
    awaited the parse, and on a loaded machine the pump and its watchdog stood still for as long;
    and the frames were held for the whole parse, the live panes' with them."""
    from tutor.ui.screens.timeline_view import TimelineScreen

    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        pane = app.query_one(LessonPane)
        go = _held_markdown(monkeypatch)
        app._driver.send_message(events.Key("h", "h"))
        await until(pilot, lambda: not pane.drawn, "the hint's markdown being parsed")
        # Frames are painted while it parses: no batch is held but for a moment (the footer
        # recomposing its keys after h holds one across a few turns).
        await until(pilot, lambda: not app._batch_count, "no batch held while the hint's markdown parses")
        assert not pane.drawn
        ran = []
        app.call_next(lambda: ran.append(pane.drawn))  # as the pump's turns come (tutor/ui/app.py LoopCall)
        app._driver.send_message(events.Key("t", "t"))
        await until(pilot, lambda: ran and isinstance(app.screen, TimelineScreen),
                    "the call and the key handled while the parse waits", seen=lambda: (ran, app.screen))
        assert ran == [False]  # handled before the hint was drawn
        await pilot.press("escape")
        go.set()
        heading = app.page.hint_heading(app.session.progress.current, 1)
        await until(pilot, lambda: pane.drawn and pane.heading(heading) is not None, "the hint drawn")
        await heading_in_view(pilot, heading)  # brought into view once drawn


async def test_a_hint_drawn_while_a_batch_holds_the_layout_back_still_comes_into_view(tmp_path):
    """A batch that spans awaits (the footer recomposing its keys after h) holds the screen's
    layout back, and Textual runs the screen's after-refresh calls meanwhile. The scroll to a
    hint just mounted ran then, found the heading not placed yet and did nothing; the pane gets
    no resize when only its scroll range grows, so the hint stayed below the fold."""
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:  # step 1's text fills the pane: a hint is below it
        await quiet(pilot)
        pane = app.query_one(LessonPane)
        heading = app.page.hint_heading(1, 1)
        with app.batch_update():
            await pilot.press("h")
            await until(pilot, lambda: pane.drawn and pane.heading(heading) is not None, "the hint mounted")
            await pilot.pause()  # the screen's after-refresh calls run, its layout still held
            assert not pane.heading(heading).virtual_region.size  # not placed while the batch holds
        await hint_in_view(pilot, 1, 1)
        assert pane.scroll_y > 0
