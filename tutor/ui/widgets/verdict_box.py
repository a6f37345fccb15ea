"""The live verdict of the current step: status, message and details, in a pane of its own.

A failing verdict can run to twenty lines (the message, the details, the timeline, the causes
per node) and the pane has a few rows at 80x24: it scrolls, takes part in the tab cycle, zooms
with z like the other panes, and says in its border when more lines follow below.

Within a step and a status the box keeps the tallest height it has had (up to its max-height): a
verdict that grows and shrinks with its details as pods come and go would move the lesson pane
above it each time, a layout of the whole screen with every block of the lesson's text. It grows
when it must, and gives the rows back when the status changes or another step is shown. So a
pass, and what the learner sees at the end, has its own height, not one left by the verdicts
before it (how many of those were drawn depends on how busy the machine was). The status's class
alone lays nothing out: its border is of the same kind, which Textual repaints in place."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.checks.verdict import Status, Verdict
from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.textual_compat import SizedInOneLayout
from tutor.ui.widgets.virtual_size import content_rows, update_static

MAX_DETAILS = 30  # the box shows this many detail lines, then how many more there are
MAX_CHARS = 2000

# The status as its label, in both languages, and its style.
STATUS_WORDS = {Status.PASS: ("PASS", "통과"), Status.FAIL: ("FAIL", "실패"), Status.WAITING: ("WAIT", "대기"),
                Status.ERROR: ("ERROR", "오류"),
                # neither a pass nor a fail: the answer may be right, and what proved it is gone
                Status.UNCONFIRMED: ("UNCONFIRMED", "확인 불가")}
STYLE = {Status.PASS: "bold green", Status.FAIL: "bold red", Status.WAITING: "bold yellow", Status.ERROR: "bold magenta",
         Status.UNCONFIRMED: "bold cyan"}


class VerdictBody(SizedInOneLayout, Static):
    """The verdict's text: at least as many rows as the step's tallest verdict so far."""


class VerdictBox(RedrawsOnChange, SizedInOneLayout, VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._more = "↓"  # the border's mark while lines follow below (its words come with show)
        self._tallest: tuple[tuple, int] = ((), 0)  # (step, status) shown, and its tallest verdict (rows)
        self.step: int | None = None  # the step whose verdict is shown (the screen audit reads it)

    def compose(self):
        yield VerdictBody(id="verdict-body")

    def text(self) -> str:
        """The plain text shown (tests read the pane through it)."""
        content = self.query_one("#verdict-body", Static).content
        return content.plain if isinstance(content, Text) else str(content)

    @property
    def more_below(self) -> bool:
        return self.max_scroll_y > 0 and self.scroll_y < self.max_scroll_y

    def to_top(self) -> None:
        """Another step: its verdict is read from its first line."""
        self.scroll_home(animate=False)

    def show(self, verdict: Verdict | None, latched: bool, labels: dict[str, str], step: int | None = None) -> None:
        self._more = labels["more"]
        # Verdicts are frozen dataclasses: an equal one draws the same box, so skip the relayout.
        if not self._is_new((verdict, latched, labels, step)):
            return
        self.step = step
        self.border_title = labels["title"]
        # A class changed restyles the box and what is in it: only when the status did.
        status = f"-{verdict.status.value}" if verdict is not None else ""
        stale = [cls for cls in tuple(f"-{s.value}" for s in Status) if cls != status and self.has_class(cls)]
        if stale:
            self.remove_class(*stale)
        if status and not self.has_class(status):
            self.add_class(status)
        body = self.query_one("#verdict-body", Static)
        text = Text(labels["checking"], style="dim") if verdict is None else _verdict_text(verdict, latched, labels)
        rows = content_rows(body, text)
        update_static(body, text, rows, self._keep_rows((step, status), rows))
        if verdict is not None:
            self.call_after_refresh(self._mark_more)

    def _keep_rows(self, key: tuple, rows: int | None) -> int:
        """The body's least height for this verdict: the tallest so far with the same step and
        status (`key`), no taller than the box shows (rows kept beyond it would scroll over blank
        lines)."""
        shown, tallest = self._tallest
        tallest = 0 if key != shown else tallest
        if rows is not None:
            tallest = min(max(tallest, rows), self._rows_at_most())
        self._tallest = (key, tallest)
        self._set_least_rows(tallest)
        return tallest

    def _rows_at_most(self) -> int:
        """The most rows of text the box shows: its max-height less its border (no bound when
        zoomed, where the box takes the screen)."""
        most = self.styles.max_height
        if most is None or not most.is_cells:
            return MAX_DETAILS + 2
        return max(0, int(most.value) - self.styles.gutter.height)

    def _set_least_rows(self, rows: int) -> None:
        body = self.query_one("#verdict-body", Static)
        least = body.styles.min_height
        if (least.value if least is not None else 0) != rows:
            body.styles.min_height = rows or None

    def on_resize(self) -> None:
        # A shorter terminal gives the box fewer rows (tutor.tcss): the kept height follows it.
        key, tallest = self._tallest
        if tallest > self._rows_at_most():
            self._tallest = (key, self._rows_at_most())
            self._set_least_rows(self._rows_at_most())

    # The mark follows the scroll position and the pane's size (a longer verdict, a zoom, a resize).
    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._mark_more()

    def size_updated(self) -> None:
        self._mark_more()

    def _mark_more(self) -> None:
        mark = self._more if self.more_below else ""
        if self.border_subtitle != mark:  # setting it redraws the pane, even to the same
            self.border_subtitle = mark


def _verdict_text(verdict: Verdict, latched: bool, labels: dict[str, str]) -> Text:
    t = Text()
    word, style = labels[verdict.status.name], STYLE[verdict.status]  # the status in the learner's language
    if latched and not verdict.passed:
        t.append(f" {labels['passed']} ", style="bold reverse green")
        t.append(f"  {labels['now']}: ", style="dim")
    t.append(f" {word} ", style=f"{style} reverse")
    t.append(" ")
    t.append(_clip(verdict.message))
    for d in verdict.details[:MAX_DETAILS]:
        t.append(f"\n  {_clip(d)}", style="dim")
    if len(verdict.details) > MAX_DETAILS:
        t.append(f"\n  … +{len(verdict.details) - MAX_DETAILS}", style="dim")
    return t


def _clip(text: str) -> str:
    """A message quotes the learner's file; a file of one enormous line must not become a
    box that takes seconds to wrap."""
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + "…"
