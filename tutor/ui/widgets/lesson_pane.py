"""The current step: its markdown, the hints revealed so far, and the recap once passed."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Markdown


class LessonPane(VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def compose(self):
        yield Markdown(id="lesson-md")

    def show(self, markdown: str) -> None:
        md = self.query_one("#lesson-md", Markdown)
        if getattr(self, "_shown", None) != markdown:
            self._shown = markdown
            md.update(markdown)
