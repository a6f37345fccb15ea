"""On a short terminal (24 to 31 rows) the step list has no room: the steps and their marks go on
one line in the lesson pane's top border, which takes no row from the lesson."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.screen_text import cells, screen_lines
from tests.ui.settle import settled, step_drawn, until
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.ui.widgets.step_list import MARKS, StepList


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_short_screens_show_where_the_learner_is(tmp_path, size):
    app = make_app(WALKTHROUGH, lang="ko", upto=None, state_file=tmp_path / "p.json")
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        await pilot.press("3")
        await step_drawn(pilot, 3)
        assert not app.query_one(StepList).display or not app.query_one(StepList).region.height
        lesson = app.query_one(LessonPane)
        region = lesson.region
        current = " 3" + MARKS[app.page.step_mark(3)][0] + " "

        def border() -> str:
            return cells(screen_lines(app)[region.y], region.x, region.right)
        await until(pilot, lambda: current in border(), "the strip in the lesson's border at step 3", seen=border)
        border = border()
        for st in app.session.lesson.steps:
            n = st.number
            sign = MARKS[app.page.step_mark(n)][0]
            assert f"{n}{sign}" in border, (n, border)
        assert current in border  # the current step stands out
        # the lesson keeps its rows: the border line was there anyway
        assert lesson.content_region.y == region.y + 1


async def test_tall_screens_keep_the_step_list_and_no_strip(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert app.query_one(StepList).region.height
        assert not app.query_one(LessonPane).border_title
