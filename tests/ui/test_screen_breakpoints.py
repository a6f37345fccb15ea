"""A screen pushed over the lesson is laid out for the terminal's size from its first frame: it
starts with the breakpoint classes Textual gives it only at its first resize, a frame later."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import on_screen, settled, until
from tutor.ui.screens import finish as finish_screen
from tutor.ui.screens.finish import FinishScreen
from tutor.ui.screens.confirm import ConfirmScreen

# Either side of each threshold (the app's: -wide from 70 columns, -tall from TALL_ROWS rows).
SIZES = [(60, 20), (69, 31), (70, 32), (80, 24), (100, 30), (160, 48)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_pushed_screen_starts_with_the_classes_textual_gives_it_on_resize(tmp_path, size):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        screen = ConfirmScreen("?")
        ours = set(screen.classes)
        app.push_screen(screen)
        await on_screen(pilot, ConfirmScreen)
        # Textual's own, set when the screen's first resize event is handled
        await until(pilot, lambda: screen.size == app.size and set(screen.classes) == ours,
                    "Textual's classes to be the ones the screen started with",
                    seen=lambda: (ours, set(screen.classes), screen.size))
        assert ours <= set(app.screen_stack[0].classes)  # the lesson's screen has the same
        assert len(ours) == 2  # one of each axis


async def test_the_finish_screen_draws_its_rows_for_a_short_terminal_from_the_start(tmp_path, monkeypatch):
    classes_when_drawn = []
    draw = FinishScreen.draw

    async def recorded(self):
        classes_when_drawn.append(set(self.classes))
        await draw(self)

    monkeypatch.setattr(finish_screen.FinishScreen, "draw", recorded)
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, close_the_end=False)
        await on_screen(pilot, FinishScreen)
    assert classes_when_drawn and all("-short" in c for c in classes_when_drawn), classes_when_drawn
