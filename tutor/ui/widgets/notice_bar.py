"""The notices' own line, under the header, over the panes' top borders: a notice covers no text.

Notices were Textual toasts over the screen: one of several lines covered the live panes (and
at 60x20 the lesson's title and the verdict's border), and a wide character of a toast that
met a pane's edge was cut to a blank when the pane redrew beneath ("실" then "VM" for "실습
VM"). Here the notices up, newest first, are one line as wide as the screen, on a layer of its
own over the row of the panes' top borders (tutor.tcss): no pane's text is under it. It was a
row of the layout first: every pane moved down a row and was drawn again when a notice came,
and back when it went, so the frame that shows a pass (its notice with it) drew the whole
screen. Textual cuts a line at the edge of every widget under it, so a word whose Korean
character would stand across the edge between the two columns is moved one cell on. What does
not fit ends in "…", cut between characters, never inside a Korean one. A long warning is also
kept whole in the lab check panel (app.notice)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from rich.cells import cell_len
from rich.text import Text
from textual.notifications import Notification, Notifications
from textual.timer import Timer
from textual.widgets import Static

from tutor.ui.textual_compat import SizedInOneLayout
from tutor.ui.widgets.redraw import RedrawsOnChange

STYLE = {"information": "", "warning": "bold yellow", "error": "bold red"}


def notice_text(notice: Notification) -> str:
    """A notice as one line: its title, then its message, each on one line."""
    message = " ".join(notice.message.split())
    return f"{notice.title}: {message}" if notice.title else message


def notices_line(notices: list[Notification], width: int, start: int = 0, edges: Collection[int] = ()) -> Text:
    """The notices, newest first, in `width` cells at most, drawn from screen column `start`
    over the widget edges at the columns `edges`."""
    line = Text(no_wrap=True, overflow="ellipsis", end="")
    for i, notice in enumerate(reversed(notices)):
        if i:
            line.append(" · ", style="dim")
        line.append(notice_text(notice), style=STYLE.get(notice.severity, ""))
    line = clear_of_edges(line, start, edges)
    line.truncate(max(1, width), overflow="ellipsis")
    return line


def clear_of_edges(line: Text, start: int, edges: Collection[int]) -> Text:
    """`line`, drawn from screen column `start`, with one more space before each word that has a
    wide character standing across an edge (an edge at x lies between columns x-1 and x): the
    compositor cuts the line there and draws the two halves as blanks ("1단  통과")."""
    col, i, word = start, 0, 0
    while edges and i < len(line.plain):
        char = line.plain[i]
        if char == " ":
            word = i + 1
        elif cell_len(char) == 2 and col + 1 in edges:
            moved = Text(no_wrap=True, overflow="ellipsis", end="")
            moved.append_text(line[:word])
            moved.append(" ")
            moved.append_text(line[word:])
            line, word, i, col = moved, word + 1, i + 1, col + 1  # the same character, a cell on
            continue
        col += cell_len(char)
        i += 1
    return line


class NoticeBar(RedrawsOnChange, SizedInOneLayout, Static):
    def __init__(self, notices: Notifications, edges: Callable[[], Collection[int]] = tuple, **kw):
        """`notices`: the app's list of the notices up, which this line shows; `edges`: the
        columns where a widget under the line begins or ends."""
        super().__init__(**kw)
        self._notices = notices
        self._edges = edges
        self._expiry: Timer | None = None  # redraws the line when the next notice expires

    def redraw(self) -> None:
        notices = list(self._notices)  # without the expired ones
        self.display = bool(notices)  # over the panes: its coming and going moves none of them
        width = self.app.size.width - self.styles.padding.width
        line = notices_line(notices, width, self.styles.padding.left, self._edges())
        # The same line (a modal closed, the notices unchanged) is not drawn again.
        if self._is_new((line.plain, tuple(line.spans))):
            self.update(line, layout=False)  # one row whatever it says (tutor.tcss)
        if self._expiry is not None:
            self._expiry.stop()
            self._expiry = None
        if notices:
            due = min(n.time_left for n in notices)
            self._expiry = self.set_timer(max(0.05, due + 0.05), self.redraw, name="notices")

    def on_resize(self) -> None:
        # A new width may move the edge under the line (it is laid out with the panes by now).
        self.redraw()
