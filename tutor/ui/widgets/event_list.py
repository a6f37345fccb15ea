"""The events pane: whole messages, wrapped (step 8 needs the full FailedScheduling text), on
Textual's Line API.

A Static re-wrapped and re-rendered all 60 events, twice (to measure its height, then to draw),
whenever any event changed. Here each event's wrapped lines are kept while the store holds the
same event object, a change only re-joins lists of lines, and a frame renders the visible ones.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual, visualize

from tutor.cluster.store import Store
from tutor.ui import render
from tutor.ui.incremental import LessonEvents, WaitingPods


class EventList(ScrollView, can_focus=True):
    ALLOW_MAXIMIZE = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._blocks: tuple[Text, ...] = ()  # what is shown: one Text per event, newest first
        self._wrapped: dict[tuple[int, int], tuple[Text, list[Strip]]] = {}  # (id(text), width) -> lines
        self._lines: list[Strip] = []
        self._events = LessonEvents()  # the events shown, followed through the store's changes
        self._waiting = WaitingPods()

    def text(self) -> str:
        """The plain text shown, unwrapped (tests read the pane through it)."""
        return "\n".join(block.plain for block in self._blocks)

    def lines(self) -> list[str]:
        """The lines as wrapped for the pane's width, every one of them, not only those in view."""
        return [strip.text.rstrip() for strip in self._lines]

    def explanations_key(self, store: Store, namespace: str) -> tuple:
        """render.explanations_key, without a walk over the namespace's pods."""
        return self._waiting.key(store, namespace)

    def show(self, store: Store, namespace: str, denied: str = "", t: render.Translate = render._en,
             lang: str = "en") -> None:
        for _ in self.show_in_steps(store, namespace, denied, t, lang):
            pass

    def show_in_steps(self, store: Store, namespace: str, denied: str = "", t: render.Translate = render._en,
                      lang: str = "en"):
        """show, yielding after each event it had to wrap anew: after a burst all 60 are new, and
        the app gives the loop a turn between them (TutorApp.recheck). Stopped half-way, it
        leaves the pane as it was and the wrapped events kept for the next show."""
        events = self._events.update(store, namespace)  # followed even while denied: no change is missed
        if denied:
            blocks: tuple[Text, ...] = (Text(denied),)
        else:
            blocks = render.event_blocks(store, namespace, t, lang, events)
        if len(blocks) == len(self._blocks) and all(a is b or a == b for a, b in zip(blocks, self._blocks)):
            return
        full, height = self.size
        if full > 0:  # the width _layout will most likely wrap to (see there)
            width = full - self.styles.scrollbar_size_vertical if 2 * len(blocks) > height else full
            for block in blocks:
                if self._wrapped_at(block, width) is None:
                    self._wrap_block(block, width)
                    yield
        self._blocks = blocks
        self._layout()

    def on_resize(self) -> None:
        self._layout()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._wrapped.clear()  # colours may have changed
        if self.is_mounted:
            self._layout()

    def _layout(self) -> None:
        """Wraps to the width, narrower by the scrollbar when the lines overflow (as a Static in a
        VerticalScroll does), and refreshes only when the lines changed."""
        full, height = self.size
        if full <= 0:
            return  # not laid out yet: on_resize comes
        narrow = full - self.styles.scrollbar_size_vertical if self.styles.overflow_y != "hidden" else full
        # every event takes two lines at least: past that the scrollbar is certain
        lines = self._wrap(narrow) if 2 * len(self._blocks) > height else self._wrap(full)
        if len(lines) > height and narrow != full and 2 * len(self._blocks) <= height:
            lines = self._wrap(narrow)
        keep = {id(b) for b in self._blocks}
        self._wrapped = {k: v for k, v in self._wrapped.items() if k[0] in keep}
        if len(lines) == len(self._lines) and all(a is b for a, b in zip(lines, self._lines)):
            return
        self._lines = lines
        self.virtual_size = Size(0, len(lines))
        self.refresh()

    def _wrap(self, width: int) -> list[Strip]:
        lines: list[Strip] = []
        for block in self._blocks:
            lines.extend(self._wrapped_at(block, width) or self._wrap_block(block, width))
        return lines

    def _wrapped_at(self, block: Text, width: int) -> list[Strip] | None:
        hit = self._wrapped.get((id(block), width))
        return hit[1] if hit is not None and hit[0] is block else None

    def _wrap_block(self, block: Text, width: int) -> list[Strip]:
        strips = Visual.to_strips(self, visualize(self, block), width, None, self.visual_style)
        self._wrapped[(id(block), width)] = (block, strips)
        return strips

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        y += self.scroll_offset.y
        if y >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        line = self._lines[y]
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(y)) is not None:
            line = self._selected(line, *span)
        # offsets: where the mouse is in the text, for selecting it (line y of get_selection's text)
        return line.crop_extend(0, width, self.rich_style).apply_offsets(0, y)

    # --- mouse selection: the wrapped lines, as shown ----------------------------------------------
    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract("\n".join(strip.text for strip in self._lines)), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()

    def _selected(self, line: Strip, start: int, end: int) -> Strip:
        cut_a = line.index_to_cell_position(start)
        cut_b = line.cell_length if end == -1 else line.index_to_cell_position(end)
        head, middle, tail = line.divide([cut_a, cut_b, line.cell_length])
        style = self.screen.get_component_rich_style("screen--selection")
        middle = Strip(list(Segment.apply_style(iter(middle), post_style=style)), middle.cell_length)
        return Strip.join([head, middle, tail])
