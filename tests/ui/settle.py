"""Waits until a replayed app has applied everything and finished its debounced re-check, and the
other waits of the Pilot tests; every bound comes from tests/waits.py."""

from __future__ import annotations

from tests import waits
from tutor.cluster.source_events import Conn


async def until(pilot, cond, what: str, timeout: float = waits.MOMENT, seen=None):
    """Waits until cond() holds and returns its value; when the bound runs out, fails saying `what`
    it waited for, how long, and the last value seen (seen() when given). What a frame shows comes
    a few turns of the loop after what made it, and more on a loaded machine."""
    return await waits.until(pilot.pause, cond, what, timeout, seen)


async def still(pilot, cond, what: str, spell: float = waits.SPELL) -> None:
    """A negative wait: cond() holds for a short spell while the app runs (waits.still)."""
    await waits.still(pilot.pause, cond, what, spell)


async def on_screen(pilot, kind, timeout: float = waits.MOMENT):
    """Waits until the top screen is a `kind` (pushed a few frames after its key, some by a worker)
    and returns it."""
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), f"a {kind.__name__} on top", timeout,
                seen=lambda: pilot.app.screen)
    return pilot.app.screen


async def off_screen(pilot, kind, timeout: float = waits.MOMENT) -> None:
    """Waits until the top screen is no longer a `kind` (closed a few frames after its key)."""
    await until(pilot, lambda: not isinstance(pilot.app.screen, kind), f"the {kind.__name__} to close", timeout,
                seen=lambda: pilot.app.screen)


async def first_frame(pilot, timeout: float = waits.MOMENT) -> None:
    """Waits until the first frame is up and a step's text is drawn in the lesson pane: the app
    parses the text (in a thread) and starts its sources only after its first frame (on_ready)."""
    from tutor.ui.widgets.lesson_pane import LessonPane

    pane = pilot.app.query_one(LessonPane)
    await until(pilot, lambda: pane.step is not None and pane.drawn, "the first frame and a step's text drawn",
                timeout, seen=lambda: f"pane at step {pane.step}, drawn {pane.drawn}")


async def step_drawn(pilot, n: int, timeout: float = waits.MOMENT) -> None:
    """Waits until step n is the current one and its text is drawn in the lesson pane, its verdict
    with it: the markdown parses in a thread and the verdict box follows the text, a few frames
    after the key."""
    from tutor.ui.widgets.lesson_pane import LessonPane

    app = pilot.app
    pane = app.query_one(LessonPane)
    await until(pilot, lambda: app.session.progress.current == n and pane.step == n and pane.drawn,
                f"step {n}'s text and verdict drawn", timeout,
                seen=lambda: f"step {app.session.progress.current}, pane at {pane.step}, drawn {pane.drawn}")


async def quiet(pilot, timeout: float = waits.MOMENT) -> None:
    """Waits until what a key or an item set off is drawn: the pump has nothing to apply, none
    waiting and no pane left to redraw (it redraws a slice of time per turn of the loop), and the
    lesson's markdown, parsed in a thread, is mounted."""
    from tutor.ui.widgets.lesson_pane import LessonPane

    app = pilot.app
    pane = app.screen_stack[0].query_one(LessonPane)  # the lesson's screen, under any pushed over it
    await until(pilot, lambda: app.driver.pump.idle and pane.drawn, "the pump idle and the lesson drawn", timeout,
                seen=lambda: f"pump idle {app.driver.pump.idle}, lesson drawn {pane.drawn}")


async def screen_reads(pilot, has: tuple[str, ...], lacks: tuple[str, ...] = (), rows: slice = slice(None)) -> None:
    """Waits until the screen's `rows` show every text of `has` and none of `lacks`: a screen pushed,
    the palette's entries, the footer's keys are drawn a few frames after the key that changed them.
    Runs of spaces read as one (the notices' line moves a word a cell off an edge beneath it)."""
    from tests.ui.screen_text import screen_lines

    def text() -> str:
        return "\n".join(" ".join(line.split()) for line in screen_lines(pilot.app)[rows])
    has, lacks = tuple(" ".join(t.split()) for t in has), tuple(" ".join(t.split()) for t in lacks)
    await until(pilot, lambda: all(t in text() for t in has) and not any(t in text() for t in lacks),
                f"{list(has)} on screen and not {list(lacks)}", seen=text)


async def footer_reads(pilot, has: tuple[str, ...], lacks: tuple[str, ...] = ()) -> None:
    """screen_reads() of the footer, the last row."""
    await screen_reads(pilot, has, lacks, rows=slice(-1, None))


async def handled(pilot, what: str = "every key sent handled") -> None:
    """Waits until every key sent straight to the driver has been handled (or the app ended): no
    message waits in the app or in a screen of its stack."""
    app = pilot.app
    await until(pilot, lambda: not app.is_running or all(n._message_queue.empty() for n in (app, *app.screen_stack)),
                what)


def notices_said(app) -> list:
    """Every notice the app says from now on, kept in a list: a notice goes after its few seconds
    (3 for "nothing to predict"), which a loaded machine can outlast between the saying and the
    test's read. For what was said; what is up now is app.notices."""
    said: list = []
    notices = app.notices
    add = notices.add

    def kept(notice):
        said.append(notice)
        return add(notice)
    notices.add = kept
    return said


def palette_choice(app) -> str:
    """The command the open palette highlights, as its list shows it ("" when none): the palette
    searches as each key is typed and lists what it found a few frames later."""
    from textual.command import CommandList, CommandPalette

    if not CommandPalette.is_open(app):
        return ""
    found = app.screen.query_one(CommandList)
    return "" if found.highlighted is None else str(found.get_option_at_index(found.highlighted).prompt)


def _replay_state(app) -> str:
    """Where a replay that has not settled is: its source's state, how far the store got into the
    recording, what waits to be applied, and when the pump last moved."""
    replay, pump = app.session.states.get("replay"), app.driver.pump
    return (f"replay {replay.state.value if replay else None}, the store at {app.session.store.now:.1f} s, "
            f"{app.driver.inbox._unapplied} items not applied, pump idle {pump.idle} (refreshing {pump.refreshing}, "
            f"moved {pump.clock.now() - pump.moved_at:.1f} s ago, unstuck {pump.unstuck}), "
            f"{app.driver.checks_run} re-checks run")


async def settled(pilot, timeout: float = waits.REPLAY, close_the_end: bool = True) -> None:
    """...and, when the replay passed every step and the finish screen opened over the lesson,
    closes it as a learner does (esc), unless `close_the_end` is False: the tests of the lesson
    at the end of the lab read the lesson, and the finish screen has its own (test_finish.py)."""
    app = pilot.app

    def done() -> bool:
        replay = app.session.states.get("replay")
        return replay is not None and replay.state is Conn.ENDED and app.driver.pump.idle and bool(app.driver.checks_run)

    await pilot.pause()  # what the test did just before (a key, an item put) handled: done() reads its outcome
    await until(pilot, done, "the replay to end, its items applied and checked", timeout,
                seen=lambda: _replay_state(app))
    await pilot.pause()  # the last check's frame drawn, and the finish screen it opened mounted
    if close_the_end:
        await past_the_end(pilot)


async def hint_in_view(pilot, step: int, i: int, timeout: float = waits.MOMENT) -> None:
    """Waits until hint i of the step is mounted and scrolled to the top of the lesson pane (or
    the pane is at its end), as revealing it leaves it. The markdown parses in a thread, so
    this takes a few frames."""
    await heading_in_view(pilot, pilot.app.page.hint_heading(step, i), timeout)


async def heading_in_view(pilot, text: str, timeout: float = waits.MOMENT) -> None:
    """Waits until the lesson pane's heading `text` is mounted and its line scrolled to the top
    of the pane (or the pane is at its end)."""
    from tutor.ui.widgets.lesson_pane import LessonPane

    pane = pilot.app.query_one(LessonPane)

    def in_view() -> bool:
        block = pane.heading(text)
        return bool(pane.drawn and block is not None and block.region.height and (
            block.region.y == pane.scrollable_content_region.y
            # at its home the pane shows the first heading with its margin above it
            or pane.scroll_y == 0 and block.region.y - block.styles.margin.top == pane.content_region.y
            or pane.scroll_y == pane.max_scroll_y))

    await pilot.pause()  # the key that revealed it handled: in_view() reads the text it asked for
    await until(pilot, in_view, f"{text!r} at the top of the lesson pane", timeout,
                seen=lambda: f"drawn {pane.drawn}, scroll {pane.scroll_y} of {pane.max_scroll_y}")


async def past_the_end(pilot, timeout: float = waits.MOMENT) -> None:
    """Closes the finish screen when the replay reached the end of the lab and it opened (the
    pictures of the lab's last moments show the lesson, as a learner sees it after esc)."""
    from tutor.ui.screens.finish import FinishScreen

    if not isinstance(pilot.app.screen, FinishScreen):
        return
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(pilot.app.screen, FinishScreen), "the finish screen to close",
                timeout, seen=lambda: pilot.app.screen)
