"""The pods pane: every pod of the namespace, one row each.

From scratch: pod_cells, one pod's row (PodCells), in common.about_first order. Kept up to date:
PodRows, which redoes only the pods that changed (tests/ui/test_incremental.py holds it equal to
the rows from scratch). Drawn by PodList, a virtual list on Textual's Line API.

A DataTable re-rendered every visible cell and walked all rows after any change; with 1,000
pods that was most of a frame. Here a frame asks only for the visible lines, each row's Strip is
kept while the row's cells are the very same tuple (PodRows keeps unchanged pods' cells), and an
update touches only the rows that changed: their column widths, and the visible lines among them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tutor.cluster import kinds, objects as o
from tutor.cluster.store import Store
from tutor.ui.panes.common import LiveData, about_first, phase_text
from tutor.ui.widgets.redraw import LastKey
from tutor.ui.widgets.virtual_size import set_virtual_size
from tutor.ui.bindings.key_words import keyed
from tutor.i18n.bilingual import say


# --- rows from scratch --------------------------------------------------------------------------

class PodCells(NamedTuple):
    """One pod's row; the field names are the column headers."""

    pod: Text  # its name, and ↻N when the tutor saw it made again N times
    group: str
    worker: str
    uid: Text  # the first 8 characters
    node: str
    phase: Text
    restarts: Text
    revision: str  # the first 10 characters


POD_COLUMNS = PodCells._fields
# The columns' headers, in both languages.
HEADERS = {"pod": ("pod", "파드"), "group": ("group", "그룹"), "worker": ("worker", "워커"), "uid": ("uid", "UID"),
           "node": ("node", "노드"), "phase": ("phase", "상태"), "restarts": ("restarts", "재시작"),
           "revision": ("revision", "리비전")}
# The columns that give way when the pane is narrow, first to go first: the pod's name and phase
# always stay whole (a learner reads them at every step); the UID and the revision, long and
# read on two steps, go before the node and the group and worker indices.
GIVES_WAY = ("revision", "uid", "node", "restarts", "worker", "group")


def pod_cells(p: dict, again: int) -> PodCells:
    """One pod's row in the pods pane; `again`: how often it was recreated."""
    label = Text(o.name(p))
    if again:
        label.append(f" ↻{again}", style="bold magenta")
    g, w = o.group_index(p), o.worker_index(p)
    return PodCells(
        pod=label,
        group="-" if g is None else str(g),
        worker="-" if w is None else str(w),
        uid=Text(o.uid(p)[:8], style="magenta" if again else ""),
        node=o.node_name(p) or "-",
        phase=phase_text(p),
        restarts=Text(str(o.restart_count(p)), style="red" if o.restart_count(p) else "dim"),
        revision=o.revision(p)[:10] or "-",
    )


# --- kept up to date ----------------------------------------------------------------------------

class RowChange(NamedTuple):
    name: str
    cells: PodCells | None  # None: the pod went


@dataclass
class RowChanges:
    """What one PodRows.update changed: the rows redone, whether rows came, went or moved, and
    whether it looked at every pod again."""

    rows: list[RowChange] = field(default_factory=list)
    moved: bool = False
    everything: bool = False
    first_moved: int | None = None  # the first position where a row came, went or moved: rows above it stay put

    def note_move(self, position: int) -> None:
        """A row came to or went from `position`: every row from there may have moved (one
        insertion or removal shifts only the rows after it, so those above the first stay put)."""
        self.moved = True
        self.first_moved = position if self.first_moved is None else min(self.first_moved, position)


class PodRows:
    """Every pod's row in display order: the pods the step is about first (as the node ledger puts
    the step's nodes first: at step 7 the wide pods, not llm's, are the rows in view), then
    common.pod_order. Only the pods that changed are redone, and a pod that came, went or moved is
    put in its place by bisection, not by a sort."""

    def __init__(self) -> None:
        self._objs: dict[str, dict] = {}  # name -> the pod object its row was made from
        self.cells: dict[str, PodCells] = {}
        self.order: list[str] = []  # names in display order
        self._sorted: list[tuple] = []  # their sort keys, in the same order
        self._key_of: dict[str, tuple] = {}
        self._namespace: str | None = None
        self._about: frozenset[str] = frozenset()

    def update(self, store: Store, namespace: str, about: tuple[str, ...] = ()) -> RowChanges:
        """`about`: the pods the step is about, listed first."""
        changes = store.take_changes(self)
        pods = store.pods_named(namespace)
        reordered = frozenset(about) != self._about  # every row's key is made again
        out = RowChanges(everything=changes.everything or namespace != self._namespace or reordered)
        if out.everything:
            self._namespace, self._about = namespace, frozenset(about)
            names = [*self._objs, *(n for n in pods if n not in self._objs)]
        else:
            names = [name for ns, name in changes.pods if ns == namespace]
        for name in names:
            pod, old = pods.get(name), self._objs.get(name)
            if pod is old and not reordered:
                continue
            if pod is None:
                del self._objs[name], self.cells[name]
                out.note_move(self._remove(name))
                out.rows.append(RowChange(name, None))
                continue
            self._objs[name] = pod
            cells = self.cells[name] = pod_cells(pod, store.obs.recreations(name))
            out.rows.append(RowChange(name, cells))
            key = about_first(pod, self._about)
            if self._key_of.get(name) != key:
                if old is not None:
                    out.note_move(self._remove(name))
                out.note_move(self._insert(name, key))
        return out

    def _insert(self, name: str, key: tuple) -> int:
        i = bisect_left(self._sorted, key)
        self._sorted.insert(i, key)
        self.order.insert(i, name)
        self._key_of[name] = key
        return i

    def _remove(self, name: str) -> int:
        i = bisect_left(self._sorted, self._key_of.pop(name))
        del self._sorted[i], self.order[i]
        return i


# --- the widget ---------------------------------------------------------------------------------

GAP = 1  # blank cells before each column


def _text(cell) -> Text:
    return cell if isinstance(cell, Text) else Text(str(cell))


class _DrawnRow(NamedTuple):
    """A row's line as drawn, kept while its cells are the very same and its stripe and cursor too."""

    cells: PodCells
    even: bool
    cursor: bool
    strip: Strip


class PodList(ScrollView, can_focus=True):
    """One header line, then one line per pod in PodRows order; a row cursor."""

    ALLOW_MAXIMIZE = True
    COMPONENT_CLASSES = {"pod-list--header", "pod-list--even-row", "pod-list--cursor"}
    BINDINGS = [
        keyed("up", "cursor(-1)", ("Cursor up", "위로"), show=False),
        keyed("down", "cursor(1)", ("Cursor down", "아래로"), show=False),
        keyed("pageup", "page(-1)", ("Page up", "한 쪽 위로"), show=False),
        keyed("pagedown", "page(1)", ("Page down", "한 쪽 아래로"), show=False),
        keyed("ctrl+home", "cursor_to(0)", ("Top", "맨 위"), show=False),
        keyed("ctrl+end", "cursor_to(-1)", ("Bottom", "맨 아래"), show=False),
    ]  # the keys DataTable had; home/end and left/right scroll sideways (ScrollView's own)

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._source = PodRows()
        self._keys: list[str] = self._source.order  # display order
        self._headers: tuple[str, ...] = POD_COLUMNS  # in the learner's language (redraw)
        self._widths = [len(c) for c in POD_COLUMNS]
        self._headers_changed = False
        self._shown: tuple[int, ...] = tuple(range(len(POD_COLUMNS)))  # the columns that fit
        self._row_widths: dict[str, tuple] = {}  # key -> its cells' widths
        # per column, how many rows have each width: the widest is found without a walk of the rows
        self._width_counts: list[Counter[int]] = [Counter() for _ in POD_COLUMNS]
        self._strips: dict[str, _DrawnRow] = {}  # key -> its row as last drawn
        self._header: Strip | None = None
        self.cursor_row = 0
        self._inputs = LastKey()  # the cheap counters it was last drawn from

    # --- public API (tests and the benchmark read the pane through it) ---------------------------
    @property
    def row_count(self) -> int:
        return len(self._keys)

    def keys(self) -> list[str]:
        """The pods shown, top to bottom."""
        return list(self._keys)

    def cells(self, key: str) -> PodCells | None:
        """The cells of one pod's row, or None when it is not shown."""
        return self._source.cells.get(key)

    # --- data ---------------------------------------------------------------------------------
    def redraw(self, live: LiveData) -> Iterator[None]:
        """Redraws when a pod may have changed, and yields once it did."""
        unavailable = live.unavailable(kinds.POD.name)
        if self._inputs.changed((live.store.kind_version[kinds.POD.kind], unavailable, live.lang, live.about)):
            self.set_headers(tuple(say(live.lang, *HEADERS[h]) for h in POD_COLUMNS))
            self.show(live.store, live.namespace, live.about)
            if self.border_subtitle != unavailable:  # setting it redraws the whole pane, even to the same
                self.border_subtitle = unavailable
            yield

    def set_headers(self, headers: tuple[str, ...]) -> None:
        """The column headers, in the learner's language: every width is measured again."""
        if headers != self._headers:
            self._headers = headers
            self._headers_changed = True

    def show(self, store: Store, namespace: str, about: tuple[str, ...] = ()) -> None:
        changes = self._source.update(store, namespace, about)
        if self._headers_changed:  # every width is measured again
            self._headers_changed = False
            changes.everything = True
        if not changes.rows and not changes.everything and self.virtual_size.height:
            return  # nothing changed, and the header has been sized
        rows = self._source.cells
        keys = self._keys = self._source.order
        for change in changes.rows:
            if change.cells is None:
                self._strips.pop(change.name, None)
        widened = self._fit_widths(changes)
        if self._fit_columns() or widened or not self.virtual_size.height:
            set_virtual_size(self, Size(self._table_width(), len(keys) + 1))
            self.cursor_row = min(self.cursor_row, max(0, len(keys) - 1))
            self.refresh()
            return
        # Same columns: redraw only the visible lines whose row moved (from the first row that
        # came, went or moved) or whose cells changed. A rolling update far below the view
        # redraws none of them (the scrollbar follows the new row count).
        top = self.scroll_offset.y
        first = len(keys) if changes.first_moved is None else changes.first_moved
        if changes.moved:
            cursor = self.cursor_row
            set_virtual_size(self, Size(self._table_width(), len(keys) + 1))
            self.cursor_row = min(cursor, max(0, len(keys) - 1))
            if self.scroll_offset.y != top:  # the range shrank under the view: every line moved
                self.refresh()
                return
            if self.cursor_row != cursor:
                first = min(first, self.cursor_row)
        for i in range(top, top + self.size.height):
            if i >= first:
                self.refresh_line(i + 1)
                continue
            if i >= len(keys):
                break
            cached = self._strips.get(keys[i])
            if cached is None or cached.cells is not rows[keys[i]]:
                self.refresh_line(i + 1)

    def _fit_widths(self, changes: RowChanges) -> bool:
        """Each column as wide as its widest cell or its header; True when a width moved."""
        memo, counts = self._row_widths, self._width_counts
        redone: Iterable[tuple[str, PodCells | None]] = changes.rows
        if changes.everything:  # a new source, or one that rebuilt: every row counts anew
            memo.clear()
            for count in counts:
                count.clear()
            redone = list(self._source.cells.items())
        for name, cells in redone:
            before = memo.pop(name, None)
            if before is not None:
                for count, w in zip(counts, before):
                    count[w] -= 1
                    if not count[w]:
                        del count[w]
            if cells is not None:
                memo[name] = cell_widths = tuple(_text(c).cell_len for c in cells)
                for count, w in zip(counts, cell_widths):
                    count[w] += 1
        widths = [max(Text(header).cell_len, max(count, default=0)) for header, count in zip(self._headers, counts)]
        if widths == self._widths:
            return False
        self._widths = widths
        self._clear_cache()
        return True

    def _table_width(self, shown: tuple[int, ...] | None = None) -> int:
        return sum(self._widths[i] + GAP for i in (self._shown if shown is None else shown))

    def _room(self) -> int:
        """The cells a row has: the pane's width, less the scrollbar once the rows overflow."""
        width, height = self.size
        return width - (self.styles.scrollbar_size_vertical if len(self._keys) + 1 > height else 0)

    def _fit_columns(self) -> bool:
        """The columns that fit the pane, the others given way in GIVES_WAY's order (the pod and
        its phase stay, and scroll sideways in a pane narrower than the two); True when they
        changed."""
        shown = list(range(len(POD_COLUMNS)))
        room = self._room()
        if room > 0:
            for name in GIVES_WAY:
                if self._table_width(tuple(shown)) <= room:
                    break
                shown.remove(POD_COLUMNS.index(name))
        if tuple(shown) == self._shown:
            return False
        self._shown = tuple(shown)
        self._clear_cache()
        return True

    def on_resize(self) -> None:
        if self._fit_columns():
            set_virtual_size(self, Size(self._table_width(), len(self._keys) + 1))
            self.refresh()

    def shown_columns(self) -> list[str]:
        """The columns shown, by their field names (tests read the pane through it)."""
        return [POD_COLUMNS[i] for i in self._shown]

    def _clear_cache(self) -> None:
        self._strips.clear()
        self._header = None

    # --- drawing ------------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()  # focus and theme changes restyle every row
        self._clear_cache()

    def _line(self, cells, style: Style, post: Style | None = None) -> Strip:
        text = Text(no_wrap=True, end="")
        for i in self._shown:
            cell = _text(cells[i])
            text.append(" " * GAP)
            text.append_text(cell)
            text.append(" " * (self._widths[i] - cell.cell_len))
        segments = Segment.apply_style(text.render(self.app.console), style, post)
        return Strip(segments, self._table_width())

    def _row_style(self, i: int) -> tuple[Style, Style | None]:
        style = self.get_component_rich_style("pod-list--even-row") if i % 2 == 0 else self.rich_style
        if i != self.cursor_row:
            return style, None
        cursor = self.get_component_rich_style("pod-list--cursor")
        # the cursor's colours win over the cells' own, as in DataTable
        return style + cursor, Style.from_color(cursor.color, cursor.bgcolor)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        if y == 0:  # the header stays put while the rows scroll
            style = self.get_component_rich_style("pod-list--header")
            if self._header is None:
                self._header = self._line(self._headers, style)
            return self._header.crop_extend(scroll_x, scroll_x + width, style)
        i = scroll_y + y - 1
        if i >= len(self._keys):
            return Strip.blank(width, self.rich_style)
        key = self._keys[i]
        cells = self._source.cells[key]
        even, cursor = i % 2 == 0, i == self.cursor_row
        style, post = self._row_style(i)
        hit = self._strips.get(key)
        if hit is not None and hit.cells is cells and hit.even == even and hit.cursor == cursor:
            strip = hit.strip
        else:
            strip = self._line(cells, style, post)
            self._strips[key] = _DrawnRow(cells, even, cursor, strip)
        return strip.crop_extend(scroll_x, scroll_x + width, style + post if post else style)

    # --- cursor -------------------------------------------------------------------------------
    def _rows_in_view(self) -> int:
        # size counts a horizontal scrollbar's line; the header takes one more
        return max(1, self.scrollable_content_region.height - 1)

    def move_cursor(self, row: int) -> None:
        row = max(0, min(row, len(self._keys) - 1))
        old, self.cursor_row = self.cursor_row, row
        if old != row:
            self.refresh_line(old + 1)
            self.refresh_line(row + 1)
        top, rows = self.scroll_offset.y, self._rows_in_view()
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + rows:
            self.scroll_to(y=row - rows + 1, animate=False, immediate=True)

    def action_cursor(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step)

    def action_page(self, pages: int) -> None:
        step = pages * self._rows_in_view()
        self.scroll_to(y=self.scroll_offset.y + step, animate=False, immediate=True)
        self.move_cursor(self.cursor_row + step)

    def action_scroll_home(self) -> None:
        self.scroll_to(x=0, animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_to(x=self.max_scroll_x, animate=False)

    def action_cursor_to(self, row: int) -> None:
        self.move_cursor(row if row >= 0 else len(self._keys) - 1)

    def refresh_line(self, y: int) -> None:
        """Refreshes row y-1 if it is on screen (y counts the header as line 0)."""
        top = self.scroll_offset.y
        if top < y < top + self.size.height:
            super().refresh_line(y)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.y > 0:
            self.move_cursor(self.scroll_offset.y + offset.y - 1)
