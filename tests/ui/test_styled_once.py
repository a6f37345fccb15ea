"""Every screen of ours is styled once, as it comes (tutor/ui/screens/base.py, StyledOnce): born
with its breakpoint classes, so its first resize changes none of them, and not styled again at
its first showing, which Textual otherwise does for every widget on it. Counted by the screens
the app is asked to restyle (App.update_styles, which both paths call)."""

from __future__ import annotations

import pytest

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import on_screen, settled
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.screens.lesson import LessonScreen

from textual.screen import Screen


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_lesson_and_a_screen_over_it_are_styled_once_as_they_come(tmp_path, size):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    restyled: list[str] = []
    update_styles = app.update_styles

    def noted(node, animate=True):
        if isinstance(node, Screen):
            restyled.append(type(node).__name__)
        update_styles(node, animate)

    app.update_styles = noted  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        assert isinstance(app.screen, LessonScreen)
        assert "LessonScreen" not in restyled, restyled
        app.push_screen(ConfirmScreen("?"))
        await on_screen(pilot, ConfirmScreen)
        await settled(pilot, close_the_end=False)
        assert "ConfirmScreen" not in restyled, restyled
