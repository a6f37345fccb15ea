"""The lesson's pane has the first focus, and is the first to have it: Textual's AUTO_FOCUS "*"
gave it to the first focusable widget, the lab check panel, hidden until x, and the lesson then
took it back (two focus changes, each restyling, before the first frame)."""

from __future__ import annotations

from textual.screen import Screen

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import settled
from tutor.ui.widgets.lesson_pane import LessonPane


async def test_the_lesson_pane_is_the_first_widget_focused(tmp_path, monkeypatch):
    given: list[str] = []
    set_focus = Screen.set_focus

    def noted(self, widget, *args, **kwargs):
        if widget is not None:
            given.append(type(widget).__name__)
        return set_focus(self, widget, *args, **kwargs)

    monkeypatch.setattr(Screen, "set_focus", noted)
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert isinstance(app.focused, LessonPane)
        assert given and set(given) == {"LessonPane"}, given
