"""The current step: its markdown, the hints revealed so far, its solution once shown, and the
recap once passed."""

from __future__ import annotations

from textual.await_complete import AwaitComplete
from textual.containers import VerticalScroll
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock

from tutor.ui.widgets.redraw import RedrawsOnChange


class LessonPane(RedrawsOnChange, VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._update: AwaitComplete | None = None
        self._anchor = ""  # the heading last brought into view (a revealed hint)

    def compose(self):
        yield Markdown(id="lesson-md")

    def show(self, markdown: str) -> None:
        if self._is_new(markdown):
            self._update = self.query_one("#lesson-md", Markdown).update(markdown)

    def to_top(self) -> None:
        """Another step: its start is in view, and no hint is kept there."""
        self._anchor = ""
        self.scroll_home(animate=False)

    @property
    def drawn(self) -> bool:
        """True once the last markdown shown has been parsed and mounted."""
        return self._update is None or self._update.is_done

    async def scroll_to_heading_when_drawn(self, heading: str) -> None:
        """Brings a heading (a hint just revealed) to the top of the pane. Markdown parses in a
        thread and mounts its blocks later, so this waits for that, then for the layout."""
        self._anchor = heading
        if self._update is not None:
            await self._update
        self._scroll_to_anchor()

    def on_resize(self) -> None:
        # The verdict box below grows when a re-check adds details, and the terminal can change
        # size: the hint just revealed stays where it was put (at the top, or the pane's end).
        if self._anchor and self.drawn:
            self._scroll_to_anchor()

    def _scroll_to_anchor(self) -> None:
        block = self.heading(self._anchor)
        if block is None:
            self.scroll_end(animate=False)
        else:
            self.call_after_refresh(self.scroll_to_widget, block, top=True, animate=False)

    def heading(self, text: str) -> MarkdownBlock | None:
        for block in self.query(MarkdownBlock):
            if (block.source or "").strip().lstrip("#").strip() == text:
                return block
        return None
