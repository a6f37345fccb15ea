"""A pane of rich Text blocks, wrapped to its width, on Textual's Line API: the events pane, the
node ledger and the groups pane (one block: its tables, named by the key of what they show).

A Static re-wraps and re-renders all it holds in every frame after any change; at 1,000 pods the
ledger alone took about 2.6 ms of each frame. Here each block keeps its wrapped lines while its
content is the same (an equal Text, even a new object), a change re-joins lists of lines, and a
frame renders only the lines in view. Wrapped like a Static in a VerticalScroll: narrower by the
scrollbar when the lines overflow.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.console import RenderableType
from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual, visualize

from tutor.ui.widgets.virtual_size import set_virtual_size


def refresh_changed_lines(view: ScrollView, old: Sequence, new: Sequence, top: int, height: int) -> None:
    """Refreshes the lines in view (from `top`, `height` of them) where `new` holds another
    object than `old`: a frame then renders only those. Textual renders every line of a widget
    that was refreshed whole, and a ledger where one node's count moved, or a pods pane whose
    rows moved below the view, would draw 15 lines for one or none."""
    start = None
    for y in range(top, top + height + 1):
        a = old[y] if y < len(old) else None
        b = new[y] if y < len(new) else None
        changed = y < top + height and a is not b
        if changed and start is None:
            start = y
        elif not changed and start is not None:
            view.refresh_lines(start, y - start)
            start = None


def _text(block: RenderableType) -> Text:
    """A block given with no key: a Text (set_blocks names any other renderable by a key)."""
    assert isinstance(block, Text), type(block)
    return block


def _content(block: RenderableType, width: int, key=None) -> tuple:
    """What a block's wrapped lines depend on (Text is not hashable; another renderable is named
    by its caller's key, equal only when it shows the same)."""
    if key is not None:
        return ("key", key, width)
    text = _text(block)
    return (text.plain, tuple(text.spans), text.style, text.justify, text.overflow, text.no_wrap,
            text.end, width)


class TextBlocks(ScrollView, can_focus=True):
    ALLOW_MAXIMIZE = True
    # The fewest lines a block takes: past that many blocks per line of height, the scrollbar is
    # certain and the blocks are wrapped once, to the width beside it.
    MIN_LINES_PER_BLOCK = 1

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._blocks: tuple[RenderableType, ...] = ()  # what is shown, in order
        self._keys: tuple | None = None  # set_blocks' keys, for blocks that are not Text
        self._wrapped: dict[tuple, list[Strip]] = {}  # _content(block, width) -> its lines
        self._lines: list[Strip] = []

    def text(self) -> str:
        """The plain text shown, unwrapped (tests read the pane through it)."""
        return "\n".join(_text(block).plain for block in self._blocks)

    def lines(self) -> list[str]:
        """The lines as wrapped for the pane's width, every one of them, not only those in view."""
        return [strip.text.rstrip() for strip in self._lines]

    def set_blocks(self, blocks: Sequence[RenderableType], keys: Sequence | None = None) -> None:
        for _ in self.set_blocks_in_steps(blocks, keys):
            pass

    def set_blocks_in_steps(self, blocks: Sequence[RenderableType], keys: Sequence | None = None) -> Iterator[None]:
        """set_blocks, yielding after each block it had to wrap anew (a caller can give the loop
        a turn there). Stopped half-way, the pane stays as it was; what was wrapped is kept.
        `keys` name blocks that are not Text, one hashable key each: equal keys, equal lines."""
        blocks, keys = tuple(blocks), (tuple(keys) if keys is not None else None)
        if keys is not None:
            if keys == self._keys:
                return
        elif self._keys is None and len(blocks) == len(self._blocks) and all(
                a is b or a == b for a, b in zip(blocks, self._blocks)):
            return
        full, height = self.size
        if full > 0:  # the width _layout will most likely wrap to (see there)
            width = full - self.styles.scrollbar_size_vertical if self._overflows(len(blocks), height) else full
            for i, block in enumerate(blocks):
                key = _content(block, width, keys[i] if keys else None)
                if key not in self._wrapped:
                    self._wrapped[key] = self._wrap_block(block, width)
                    yield
        self._blocks, self._keys = blocks, keys
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
        certain = self._overflows(len(self._blocks), height)
        used: set[tuple] = set()
        lines = self._wrap(narrow if certain else full, used)
        if len(lines) > height and narrow != full and not certain:
            used.clear()
            lines = self._wrap(narrow, used)
        self._wrapped = {k: v for k, v in self._wrapped.items() if k in used}
        old, top = self._lines, self.scroll_offset.y
        if len(lines) == len(old) and all(a is b for a, b in zip(lines, old)):
            return
        self._lines = lines
        set_virtual_size(self, Size(0, len(lines)))
        if self.scroll_offset.y != top:  # the range shrank under the view: every line moved
            self.refresh()
            return
        refresh_changed_lines(self, old, lines, top, self.scrollable_content_region.height)

    def _overflows(self, blocks: int, height: int) -> bool:
        return self.MIN_LINES_PER_BLOCK * blocks > height

    def _wrap(self, width: int, used: set[tuple]) -> list[Strip]:
        lines: list[Strip] = []
        for i, block in enumerate(self._blocks):
            key = _content(block, width, self._keys[i] if self._keys else None)
            strips = self._wrapped.get(key)
            if strips is None:
                strips = self._wrapped[key] = self._wrap_block(block, width)
            used.add(key)
            lines.extend(strips)
        return lines

    def _wrap_block(self, block: RenderableType, width: int) -> list[Strip]:
        if isinstance(block, Text) and block.no_wrap:  # one line, cut at the edge (Textual would wrap it)
            block = block.copy()
            block.truncate(width, overflow=block.overflow or "ellipsis")
        return Visual.to_strips(self, visualize(self, block), width, None, self.visual_style)

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
