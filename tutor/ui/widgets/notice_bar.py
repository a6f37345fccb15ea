"""The notices' own line, under the header: part of the layout, so a notice covers no pane.

Notices were Textual toasts over the screen: one of several lines covered the live panes (and
at 60x20 the lesson's title and the verdict's border), and a wide character of a toast that
met a pane's edge was cut to a blank when the pane redrew beneath ("실" then "VM" for "실습
VM"). Here the notices up, newest first, are one line of their own that the panes make room
for while it shows; what does not fit ends in "…", cut between characters, never inside a
Korean one. A long warning is also kept whole in the lab check panel (app.notice)."""

from __future__ import annotations

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


def notices_line(notices: list[Notification], width: int) -> Text:
    """The notices, newest first, in `width` cells at most."""
    line = Text(no_wrap=True, overflow="ellipsis", end="")
    for i, notice in enumerate(reversed(notices)):
        if i:
            line.append(" · ", style="dim")
        line.append(notice_text(notice), style=STYLE.get(notice.severity, ""))
    line.truncate(max(1, width), overflow="ellipsis")
    return line


class NoticeBar(RedrawsOnChange, SizedInOneLayout, Static):
    def __init__(self, notices: Notifications, **kw):
        """`notices`: the app's list of the notices up, which this line shows."""
        super().__init__(**kw)
        self._notices = notices
        self._expiry: Timer | None = None  # redraws the line when the next notice expires

    def redraw(self) -> None:
        notices = list(self._notices)  # without the expired ones
        self.display = bool(notices)  # the panes move for it: a layout, only when it comes or goes
        width = self.app.size.width - self.styles.padding.width
        line = notices_line(notices, width)
        # The same line (a modal closed, the notices unchanged) is not drawn again.
        if self._is_new((line.plain, tuple(line.spans))):
            self.update(line, layout=False)  # one row whatever it says (tutor.tcss)
        if self._expiry is not None:
            self._expiry.stop()
            self._expiry = None
        if notices:
            due = min(n.time_left for n in notices)
            self._expiry = self.set_timer(max(0.05, due + 0.05), self.redraw, name="notices")
