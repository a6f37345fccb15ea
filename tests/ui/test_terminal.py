"""Terminal sizes down to 20x5 and bursts of resizes, on the main screen and the modal ones.

An exception anywhere in the app (layout, render, a widget's resize handler) makes Textual exit
and re-raise it from run_test, so "no exception" is checked by each test getting to its end;
each test also renders the screen (export_screenshot) at the sizes it visits.
"""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.events import Resize
from textual.geometry import Size

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import off_screen, on_screen, settled, step_drawn, until
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.screens.help import HelpScreen

SIZES = [(20, 5), (30, 8), (69, 31), (70, 32), (80, 24), (200, 60)]


@pytest.fixture
def app(tmp_path):
    return make_app(WALKTHROUGH, state_file=tmp_path / "p.json")


def _burst(app, sizes) -> None:
    """Resize events back to back, without letting the app draw in between (a window being
    dragged): what the driver would post."""
    for w, h in sizes:
        size = Size(w, h)
        app._driver._size = size
        app.post_message(Resize(size, size))


def _breakpoints_ok(app, w: int, h: int) -> None:
    assert app.size == Size(w, h)
    screen = app.screen_stack[0]
    assert screen.has_class("-narrow") == (w < 70) and screen.has_class("-wide") == (w >= 70)
    assert screen.has_class("-short") == (h < 32) and screen.has_class("-tall") == (h >= 32)


async def _at(pilot, w: int, h: int) -> None:
    """Waits until the app has taken the size w x h and the lesson screen its breakpoint classes
    (the resize events are handled a few turns of the loop after they are posted)."""
    app = pilot.app

    def taken() -> bool:
        screen = app.screen_stack[0]
        return (app.size == Size(w, h) and screen.has_class("-narrow") == (w < 70)
                and screen.has_class("-short") == (h < 32))
    await until(pilot, taken, f"the size {w}x{h} and its breakpoints",
                seen=lambda: (app.size, app.screen_stack[0].classes))
    _breakpoints_ok(app, w, h)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_every_size_from_the_start(app, size):
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        _breakpoints_ok(app, *size)
        for keys in (["n"], ["right", "left"], ["h"], ["tab", "z"], ["escape"], ["l"], ["5"]):
            await pilot.press(*keys)
        app.export_screenshot()
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        app.export_screenshot()
        await pilot.press("escape")
        await off_screen(pilot, HelpScreen)
        assert app.is_running and app.return_code is None


async def test_down_to_twenty_by_five_step_by_step(app):
    async with app.run_test(size=(120, 45)) as pilot:
        await settled(pilot)
        for w, h in [(100, 40), (70, 32), (69, 31), (50, 20), (30, 10), (20, 5), (200, 60), (20, 5)]:
            await pilot.resize_terminal(w, h)
            await _at(pilot, w, h)
            app.export_screenshot()
        assert app.is_running


async def test_a_burst_of_resizes_on_each_screen(app):
    sweep = [(20 + (i * 37) % 180, 5 + (i * 13) % 55) for i in range(60)]
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        # main screen, with a pane maximised and without
        _burst(app, sweep + [(20, 5)])
        await _at(pilot, 20, 5)
        await pilot.press("tab", "z")
        first = sweep[0]
        _burst(app, reversed(sweep))
        await _at(pilot, *first)
        await pilot.press("escape")
        # help
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        _burst(app, sweep + [(20, 5)])
        await _at(pilot, 20, 5)
        app.export_screenshot()
        await pilot.press("escape")
        await off_screen(pilot, HelpScreen)
        # the confirm screen of "reset step"
        app.lesson.action_reset_step()
        await on_screen(pilot, ConfirmScreen)
        _burst(app, sweep + [(20, 5)])
        await _at(pilot, 20, 5)
        app.export_screenshot()
        await pilot.press("escape")
        await off_screen(pilot, ConfirmScreen)
        # the command palette
        await pilot.press("ctrl+p")
        await on_screen(pilot, CommandPalette)
        _burst(app, sweep + [(20, 5)])
        await _at(pilot, 20, 5)
        app.export_screenshot()
        await pilot.press("escape")
        await off_screen(pilot, CommandPalette)
        # and back to a normal size: everything is still there and still works
        await pilot.resize_terminal(100, 40)
        await _at(pilot, 100, 40)
        await pilot.press("2")
        await step_drawn(pilot, 2)
        assert "PASS" in app.query_one("#verdict").text()
        assert app.query_one("#pods").row_count == 10
        assert app.is_running and app.return_code is None


async def test_resizes_while_the_replay_is_still_playing(tmp_path):
    """Data arriving and re-checks running while the terminal shrinks and grows."""
    app = make_app(WALKTHROUGH, speed=20, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        for i in range(40):
            w, h = (20 + (i * 41) % 180, 5 + (i * 7) % 55)
            await pilot.resize_terminal(w, h)
        await pilot.resize_terminal(100, 40)
        await settled(pilot)
        assert app.query_one("#pods").row_count == 10
        assert app.is_running
