"""Code in the lesson (hints and solutions) is shown whole at half a laptop: a command wraps at
its spaces instead of running past the pane's edge, where nothing says it goes on."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widgets import Label
from textual.widgets.markdown import MarkdownFence

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import settled, step_drawn
from tutor.ui.widgets.lesson_pane import LessonPane


def _squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("width", [60, 80])
async def test_every_hint_and_solution_code_block_is_shown_whole(tmp_path, width, lang):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(width, 40)) as pilot:
        await settled(pilot)
        s = app.session
        checked = 0
        for step in s.lesson.steps:
            n = step.number
            s.progress.hints[n] = len(step.text(lang).hints)  # every hint revealed,
            s.progress.solutions[n] = "2026-01-01T00:00:00+00:00"  # and the solution shown
            app.lesson.action_goto(n)
            pane = app.query_one(LessonPane)
            await step_drawn(pilot, n)
            await pilot.pause()  # its blocks laid out
            fences = list(pane.query(MarkdownFence))
            assert fences, n
            for fence in fences:
                label = fence.query_one(Label)
                room = fence.content_region.width
                # nothing to scroll sideways to: the code is as wide as the pane at most
                assert label.outer_size.width <= fence.size.width and fence.max_scroll_x == 0, (n, fence.code)
                drawn = label.render_lines(Region(0, 0, *label.outer_size))
                text = "\n".join(strip.crop(0, room).text for strip in drawn)
                assert _squeezed(fence.code) in _squeezed(text), (n, fence.code, text)
                checked += 1
        assert checked > len(s.lesson.steps)
