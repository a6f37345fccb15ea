"""The current step: its markdown, the hints revealed so far, its solution once shown, and the
recap once passed.

Textual's Markdown parses in a thread and mounts its blocks in later turns of the loop, so a new
step's text comes a few frames after the key. Two things follow. Only the newest markdown asked
for is drawn: a burst of keys (n held down) parses the step it ends on, not each one passed over,
and a document is never laid over the blocks of one still being mounted. And what goes with the
text (the verdict of its step) is drawn in the same frame as the text, by `then`, inside one
batch with the mount: the lesson pane and the verdict never show two different steps. The parse
comes before that batch, with frames going on: the rest of the screen is never held for it.

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
from textual.widget import Widget
from textual.worker import Worker

from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.textual_compat import SizedInOneLayout, can_parse_blocks, markdown_parser, note_source, parse_blocks

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
        self._anchor_due = False  # bring it into view once the markdown asked for is drawn
        self._zoomed = False  # the pane was zoomed to show a revealed text whole (to_top undoes it)
        self._held = False  # drawing waits for release() (the app's first frame)

    async def _markdown_widget(self) -> "Markdown | None":
        """The pane's Markdown widget, imported and mounted the first time a text is drawn; None
        when the pane is going away (the app ending as its first frame came: nothing to draw)."""
        from textual.widgets import Markdown

        found = self.query("#lesson-md")
        if found:
            return found.first(Markdown)
        if not self.is_attached:  # removed (the app ending as its first frame came): mount would raise
            return None
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
            md = await self._markdown_widget()
            while md is not None and self._wanted is not None:
                markdown, step, then = self._wanted
                self._wanted = None
                same_step = step is not None and step == self.step
                lock = getattr(md, "lock", None)
                if lock is None or not can_parse_blocks(md):  # a Textual whose Markdown works otherwise
                    with self.app.batch_update():
                        await md.update(markdown)
                        self._drawn(step, then)
                    continue
                async with lock:
                    # Parsed with frames going on: a busy machine takes seconds, and a batch held
                    # that long froze the whole screen, the live panes with it.
                    blocks = await _parse(md, markdown)
                    kept = _kept(md, markdown, blocks) if same_step else 0
                    # No frame is painted between the old text and the new one beside its verdict.
                    with self.app.batch_update():
                        await _mount(md, markdown, blocks, kept)
                        self._drawn(step, then)
        finally:
            self._drawing = None
            self._idle.set()
            if self._anchor_due and self.is_attached:
                self._land_anchor()  # else the layout that places the new blocks does (_laid_out)

    def _drawn(self, step: int | None, then: Callable[[], None] | None) -> None:
        self.step = step
        # The app may have begun to close while the markdown was parsed: its other widgets are
        # gone then, and there is nothing left to draw beside it.
        if then is not None and self.is_attached and self.app.is_running:
            then()

    def to_top(self) -> None:
        """Another step: its start is in view, and no hint is kept there (nor one still due)."""
        self._anchor, self._anchor_due = "", False
        if self._zoomed and self.screen.maximized is self:
            self.screen.minimize()
        self._zoomed = False
        self.scroll_home(animate=False)

    @property
    def drawn(self) -> bool:
        """True once the last markdown shown has been parsed and mounted."""
        return self._idle.is_set()

    def bring_into_view(self, heading: str) -> None:
        """Brings a heading (a hint just revealed, the solution) to the top of the pane: now, or
        once the markdown asked for is parsed, mounted and placed by a layout. Nothing waits for
        that: h awaited the parse, and meanwhile the app's queue stood still (keys, the refresh
        pump, its watchdog) for as long as a busy machine took to parse."""
        self._anchor, self._anchor_due = heading, True
        if self.drawn:
            self._land_anchor()

    def on_mount(self) -> None:
        # Blocks just mounted are placed by the screen's next layout, which comes when their
        # Markdown's own turn asks for it; call_after_refresh can run before that (the screen
        # had no layout pending yet), and the pane gets no resize when only its scroll range
        # grows. The screen's layout signal is the one call that comes after the placing.
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def _laid_out(self, _screen: object) -> None:
        if self._anchor_due and self.drawn:
            self._land_anchor()

    def on_resize(self) -> None:
        # The verdict box below grew when a re-check added details, or the terminal changed
        # size: the hint just revealed stays where it was put (at the top, or the pane's end).
        if self._anchor and self.drawn:
            self._scroll_to_anchor()

    def _land_anchor(self) -> None:
        if self._scroll_to_anchor(revealed=True):
            self._anchor_due = False

    def _scroll_to_anchor(self, revealed: bool = False) -> bool:
        """Scrolls the anchor's heading to the top (the pane's end when it has none), zooming the
        pane when it was just `revealed` and the pane cannot hold it; False when no layout has
        placed it yet."""
        block = self.heading(self._anchor)
        if block is None:
            self.scroll_end(animate=False)
            return True
        if not self._placed(block):
            return False
        if revealed and self.screen.maximized is None and \
                self._section_height(block) > self.scrollable_content_region.height:
            # The pane cannot hold what the key revealed (two rows at 60x20): it is shown zoomed,
            # whole, and esc (the footer says so) puts the pane back. The resize scrolls again.
            self._zoomed = self.screen.maximize(self, container=False)
        # Its turn comes after a scroll asked for before it (to_top's scroll_home), and it
        # measures from where that one left the pane.
        self.call_after_refresh(self._scroll_to_heading, block)
        return True

    def _scroll_to_heading(self, block: "MarkdownBlock") -> None:
        """The heading's own line at the pane's top row: its margin above would take one of
        the rows a short pane has."""
        md = block.parent
        if block.is_attached and isinstance(md, Widget):  # where the layout placed it, however scrolled
            self.scroll_to(y=md.virtual_region.y + block.virtual_region.y, animate=False)

    def _section_height(self, heading: "MarkdownBlock") -> int:
        """Rows from the heading's line to the end of its section."""
        return section_end(heading).virtual_region.bottom - heading.virtual_region.y

    def _placed(self, block: "MarkdownBlock") -> bool:
        """True once a whole layout has placed the markdown's blocks, `block` with them: a block
        mounted has no region until then, and a scroll's quick layout can place the blocks it
        exposes before the pane's scroll range has grown to hold them all."""
        if not block.virtual_region.size or block.parent is None:
            return False
        last = block.parent.children[-1]  # the document's last block (headings are top-level)
        return last.virtual_region.bottom <= self.virtual_size.height

    def heading(self, text: str) -> "MarkdownBlock | None":
        from textual.widgets.markdown import MarkdownBlock

        for block in self.query(MarkdownBlock):
            if _is_heading(block) and (block.source or "").strip().lstrip("#").strip() == text:
                return block
        return None


def section_end(heading: Widget) -> Widget:
    """The last block of the heading's section: the one before the next heading, or the last."""
    assert heading.parent is not None
    blocks = list(heading.parent.children)
    end = heading
    for block in blocks[blocks.index(heading) + 1:]:
        if _is_heading(block):
            break
        end = block
    return end


def _is_heading(block: object) -> bool:
    """A heading's block: its source is an ATX heading line (Textual does not export its class)."""
    return (getattr(block, "source", None) or "").lstrip().startswith("#")


async def _parse(md: "Markdown", markdown: str) -> list["MarkdownBlock"]:
    """`markdown`'s blocks, as Markdown.update makes them: parsed in a thread (markdown-it)."""
    from markdown_it import MarkdownIt

    parser = markdown_parser(md) or MarkdownIt("gfm-like")
    tokens = await asyncio.get_running_loop().run_in_executor(None, parser.parse, markdown)
    return parse_blocks(md, tokens)


def _kept(md: "Markdown", markdown: str, blocks: list["MarkdownBlock"]) -> int:
    """How many of `blocks` are on screen already, when `markdown` is the text `md` shows with
    more blocks after it (a hint revealed, a recap added): every block on screen must come out
    of the new text the same (kind and lines), so a tail that would join the last block (or
    change an earlier one) redraws the whole. 0 when it is not such a text."""
    from textual.widgets.markdown import MarkdownBlock

    old = md.source
    # The old text's last line must be whole in the new one: a block is known by its kind and
    # its lines, and a line that goes on would keep both.
    longer = bool(old) and markdown.startswith(old) and (old.endswith("\n") or markdown[len(old):].startswith("\n"))
    shown = [child for child in md.children if isinstance(child, MarkdownBlock)]
    if not longer or len(blocks) <= len(shown) or any(
            type(new) is not type(was) or new.source_range != was.source_range for was, new in zip(shown, blocks)):
        return 0
    return len(shown)


async def _mount(md: "Markdown", markdown: str, blocks: list["MarkdownBlock"], kept: int) -> None:
    """Shows `blocks`: the first `kept` are on screen already; the others replace the rest."""
    from textual.widgets.markdown import MarkdownBlock

    if not kept:
        await md.query(MarkdownBlock).remove()
    await md.mount_all(blocks[kept:])
    note_source(md, markdown)
