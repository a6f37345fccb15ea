"""Waits until a replayed app has applied everything and finished its debounced re-check."""

from __future__ import annotations

import asyncio

from tutor.cluster.events import Conn


async def until(pilot, cond, timeout: float = 5) -> bool:
    """Waits until cond() holds (True), or the time is up (False): what a frame shows comes a few
    turns of the loop after what made it, and more on a loaded machine."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if cond():
            return True
        await pilot.pause(0.05)
    return False


async def settled(pilot, timeout: float = 20, close_the_end: bool = True) -> None:
    """...and, when the replay passed every step and the finish screen opened over the lesson,
    closes it as a learner does (esc), unless `close_the_end` is False: the tests of the lesson
    at the end of the lab read the lesson, and the finish screen has its own (test_finish.py)."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        await pilot.pause(0.05)
        replay = app.session.states.get("replay")
        if replay is not None and replay.state is Conn.ENDED and app.pump.idle and app.checks_run:
            await pilot.pause(0.05)
            if close_the_end:
                await past_the_end(pilot)
            return
    raise AssertionError("the replay did not settle")



async def hint_in_view(pilot, step: int, i: int, timeout: float = 10) -> None:
    """Waits until hint i of the step is mounted and scrolled to the top of the lesson pane (or
    the pane is at its end), as revealing it leaves it. The markdown parses in a thread, so
    this takes a few frames."""
    await heading_in_view(pilot, pilot.app.hint_heading(step, i), timeout)


async def heading_in_view(pilot, text: str, timeout: float = 10) -> None:
    """Waits until the lesson pane's heading `text` is mounted and scrolled to the top of the
    pane (or the pane is at its end)."""
    from tutor.ui.widgets.lesson_pane import LessonPane

    app = pilot.app
    pane = app.query_one(LessonPane)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        await pilot.pause(0.05)
        block = pane.heading(text)
        if pane.drawn and block is not None and block.region.height and (
                block.region.y - block.styles.margin.top == pane.content_region.y
                or pane.scroll_y == pane.max_scroll_y):
            return
    raise AssertionError(f"{text!r} did not come into view: scroll {pane.scroll_y} of {pane.max_scroll_y}")


async def past_the_end(pilot, timeout: float = 5) -> None:
    """Closes the finish screen when the replay reached the end of the lab and it opened (the
    pictures of the lab's last moments show the lesson, as a learner sees it after esc)."""
    from tutor.ui.finish_screen import FinishScreen

    if not isinstance(pilot.app.screen, FinishScreen):
        return
    await pilot.press("escape")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while isinstance(pilot.app.screen, FinishScreen):
        if loop.time() > deadline:
            raise AssertionError("the finish screen did not close")
        await pilot.pause(0.05)
