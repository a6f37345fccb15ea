"""The first frame comes before the step's text and the sources' data: both start once it is on
screen (TutorApp.on_ready), so neither competes with it, and it is the same frame every run."""

from __future__ import annotations

from pathlib import Path

from textual.widgets.markdown import MarkdownBlock

import tutor.ui.app as app_module

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import settled
from tutor.ui.widgets.lesson_pane import LessonPane


async def test_the_text_and_the_data_start_after_the_first_frame(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    at_ready: dict = {}

    class Noted(type(app)):
        CSS_PATH = str(Path(app_module.__file__).with_name("tutor.tcss"))  # relative to tutor/ui

        def on_ready(self) -> None:  # Textual calls the class's handler: noted before it runs
            pane = self.query_one(LessonPane)
            at_ready.update(blocks=len(pane.query(MarkdownBlock)), drawn=pane.drawn,
                            items=self.session.store.version, sources=len(self.workers))
            super().on_ready()

    app.__class__ = Noted
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        assert at_ready == {"blocks": 0, "drawn": False, "items": 0, "sources": 0}
        assert app.query_one(LessonPane).query(MarkdownBlock) and app.session.store.version
