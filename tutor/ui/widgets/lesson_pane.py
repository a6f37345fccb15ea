"""The current step: its markdown, the hints revealed so far, its solution once shown, and the
recap once passed.

Textual's Markdown parses in a thread and mounts its blocks in later turns of the loop, so a new
step's text comes a few frames after the key. Two things follow. Only the newest markdown asked
for is drawn: a burst of keys (n held down) parses the step it ends on, not each one passed over,
and a document is never laid over the blocks of one still being mounted. And what goes with the
text (the verdict of its step) is drawn in the same frame as the text, by `then`, inside one
batch with the mount: the lesson pane and the verdict never show two different steps.

A text that only grows (a passed step's recap after its text) gets only its new blocks: the
blocks already there stay mounted, and the screen's layout has the new ones to place, not
every block of the step again (Textual's Markdown.update removes and mounts them all).

The app holds the pane until its first frame is on screen (`hold`, `release`): the parse's
thread and the blocks' mounting would otherwise compete with that frame, which shows no
lesson text either way (the text comes a few frames later). Textual's Markdown itself is
imported and mounted only when the first text is drawn: its module (with the code highlighter
and its lexers) and its styles cost the first frame some 15 ms for a widget that is empty then.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Callable

from textual.containers import VerticalScroll
from textual.worker import Worker

from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.widgets.virtual_size import SizedInOneLayout

if TYPE_CHECKING:
    from textual.widgets import Markdown
    from textual.widgets.markdown import MarkdownBlock


class LessonPane(RedrawsOnChange, SizedInOneLayout, VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._wanted: tuple[str, int | None, Callable[[], None] | None] | None = None  # the newest asked for
        self._drawing: Worker | None = None  # draws _wanted until nothing newer is asked for
        self._idle = asyncio.Event()  # set while the markdown on screen is the newest asked for
        self._idle.set()
        self.step: int | None = None  # the step whose markdown is on screen
        self._anchor = ""  # the heading last brought into view (a revealed hint)
        self._held = False  # drawing waits for release() (the app's first frame)

    async def _markdown(self) -> "Markdown":
        """The pane's Markdown widget, imported and mounted the first time a text is drawn."""
        from textual.widgets import Markdown

        found = self.query("#lesson-md")
        if found:
            return found.first(Markdown)
        md = Markdown(id="lesson-md")
        await self.mount(md)  # its own first (empty) document is parsed and mounted by then
        return md

    def show(self, markdown: str, step: int | None = None, then: Callable[[], None] | None = None) -> None:
        """Draws the markdown (of `step`), then calls `then` in the same frame; a markdown asked
        for before this one was drawn is dropped (its `then` with it)."""
        if not self._is_new(markdown):
            return
        self._wanted = (markdown, step, then)
        self._idle.clear()
        self._start()

    def hold(self) -> None:
        """What is shown from now on is drawn once release() is called."""
        self._held = True

    def release(self) -> None:
        self._held = False
        self._start()

    def _start(self) -> None:
        if self._drawing is None and self._wanted is not None and not self._held:
            self._drawing = self.run_worker(self._draw(), name="lesson-markdown")

    async def _draw(self) -> None:
        try:
            md = await self._markdown()
            while self._wanted is not None:
                markdown, step, then = self._wanted
                self._wanted = None
                # No frame is painted between the old text and the new one beside its verdict.
                with self.app.batch_update():
                    if step is None or step != self.step or not await _extend(md, markdown):
                        await md.update(markdown)
                    self.step = step
                    # The app may have begun to close while the markdown was parsed: its other
                    # widgets are gone then, and there is nothing left to draw beside it.
                    if then is not None and self.is_attached and self.app.is_running:
                        then()
        finally:
            self._drawing = None
            self._idle.set()

    def to_top(self) -> None:
        """Another step: its start is in view, and no hint is kept there."""
        self._anchor = ""
        self.scroll_home(animate=False)

    @property
    def drawn(self) -> bool:
        """True once the last markdown shown has been parsed and mounted."""
        return self._idle.is_set()

    async def scroll_to_heading_when_drawn(self, heading: str) -> None:
        """Brings a heading (a hint just revealed) to the top of the pane. Markdown parses in a
        thread and mounts its blocks later, so this waits for that, then for the layout."""
        self._anchor = heading
        await self._idle.wait()
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

    def heading(self, text: str) -> "MarkdownBlock | None":
        from textual.widgets.markdown import MarkdownBlock

        for block in self.query(MarkdownBlock):
            if (block.source or "").strip().lstrip("#").strip() == text:
                return block
        return None


async def _extend(md: "Markdown", markdown: str) -> bool:
    """Mounts the blocks that `markdown` adds after the text `md` shows, when `markdown` is that
    text with more blocks after it: the whole is parsed, and every block on screen must come
    out of it the same (kind and lines), so a tail that would join the last block (or change
    an earlier one) is drawn by Markdown.update instead. False when it was not done."""
    from markdown_it import MarkdownIt
    from textual.widgets.markdown import MarkdownBlock

    old = md.source
    lock, parse_blocks = getattr(md, "lock", None), getattr(md, "_parse_markdown", None)
    # The old text's last line must be whole in the new one: a block is known by its kind and
    # its lines, and a line that goes on would keep both.
    longer = bool(old) and markdown.startswith(old) and (old.endswith("\n") or markdown[len(old):].startswith("\n"))
    if not longer or lock is None or parse_blocks is None:
        return False  # not a longer text, or a Textual whose Markdown works otherwise
    async with lock:
        factory = getattr(md, "_parser_factory", None)
        parser = MarkdownIt("gfm-like") if factory is None else factory()
        tokens = await asyncio.get_running_loop().run_in_executor(None, parser.parse, markdown)
        shown = [child for child in md.children if isinstance(child, MarkdownBlock)]
        blocks = list(parse_blocks(tokens))
        if len(blocks) <= len(shown) or any(
                type(new) is not type(was) or new.source_range != was.source_range for was, new in zip(shown, blocks)):
            return False
        # What Markdown.update leaves behind, for the blocks' sources and a later append.
        md._markdown = markdown
        md._table_of_contents = None
        lines = markdown.splitlines()
        md._last_parsed_line = len(lines) - (1 if lines and lines[-1] else 0)
        await md.mount_all(blocks[len(shown):])
    return True
