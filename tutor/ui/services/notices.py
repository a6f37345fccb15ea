"""The notices up, owned by the app: a public Notifications list that the notices' line under
the header draws (widgets/notice_bar.py), and the one notice that names the steps just passed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from textual.app import App
from textual.notifications import Notification, Notifications, SeverityLevel

from tutor.i18n.bilingual import Said
from tutor.ui.step_page import Page
from tutor.ui.widgets.doctor_panel import DoctorPanel
from tutor.ui.widgets.notice_bar import NoticeBar, notice_text

NOTICE_SECONDS = 6  # a notice takes a row from the panes while it shows: it goes soon, or at esc
PASS_NOTICE_SECONDS = 5
WAIT_NOTICE_SECONDS = 3


@dataclass
class Notice(Notification):
    """A notice that keeps what it says (its message and title as Said), so that a switch of
    language says it again, in the new one, for the time it has left."""

    said: Said | None = None
    title_said: Said | None = None

    def say_in(self, lang: str) -> None:
        if self.said is not None:
            self.message = self.said.in_lang(lang)
        if self.title_said is not None:
            self.title = self.title_said.in_lang(lang)


class Notices(Notifications):
    def __init__(self, app: App, page: Page):
        super().__init__()
        self.app, self.page = app, page
        self._pass_notice: Notification | None = None  # the notice naming the steps just passed
        self._pass_steps: list[int] = []
        self._wait: Notification | None = None  # the demo's wait, said again as it counts down
        self._wait_closed = False  # esc closed it: it stays closed until the next wait

    def say(self, message: Said, *, title: Said | None = None, severity: SeverityLevel = "information",
            timeout: float = NOTICE_SECONDS, detail: str = "") -> Notification:
        """A notice on the notices' line; esc closes it. A notice is one line: `detail`, and the
        whole of a warning (or a titled notice, the demo's end) too long for the line, go to the
        lab check panel, where they stay until x hides it. It is up at once: a pass in the same
        turn finds it (passed) and joins it instead of losing it. Said as Said (message, title),
        never as text, it follows a switch of language (Textual's own words: textual())."""
        return self._show(Notice("", "", severity, timeout, markup=False, said=message, title_said=title), detail)

    def textual(self, notification: Notification) -> Notification:
        """One of Textual's own notices (App.notify): its text only, in English; the tutor says its
        own instead wherever Textual would speak (the screenshot: app.py), so none is reached in
        the tutor. A switch of language takes it away (said_again)."""
        notice = Notice(notification.message, notification.title, notification.severity, notification.timeout,
                        markup=False)
        return self._show(notice, "")

    def _show(self, notice: Notice, detail: str) -> Notification:
        notice.say_in(self.page.lang)
        severity, title = notice.severity, notice.title
        whole = notice_text(notice)
        if detail or ((severity != "information" or title) and cell_len(whole) > self.app.size.width - 2):
            lesson: Any = self.app.screen_stack[0]  # the lesson screen (tutor/ui/screens/lesson.py)
            lesson.query_one(DoctorPanel).note(" ".join(p for p in (whole, detail) if p), *self.page.notes_words())
            lesson.fit_footer()
        self.add(notice)
        self.redraw()
        return notice

    def passed(self, newly: list[int]) -> None:
        """One short line for the steps that passed. A fast replay or a catch-up passes several at
        once, and a pass can come while the last notice is still up: the new notice names the
        steps of both, so none is lost, and each once. The recap is in the lesson pane."""
        shown = self._pass_notice
        steps = list(self._pass_steps) if shown is not None and shown in self else []
        self.left_step()
        steps += [n for n in newly if n not in steps]
        self._pass_steps = steps
        self._pass_notice = self.say(self.page.passed_said(steps), timeout=PASS_NOTICE_SECONDS)

    def left_step(self) -> None:
        """Takes the pass notice away (another step is shown: it spoke of the one before)."""
        shown, self._pass_notice = self._pass_notice, None
        if shown is not None and shown in self:
            del self[shown]
            self.redraw()

    def said_again(self) -> None:
        """The language switched: every notice kept as what it says is said again in the new
        one, for the time it has left, and the pass notice too. A passing notice kept only as
        text, in the old language, goes (a warning stays: it may still be needed)."""
        steps = self._pass_steps if self._pass_notice is not None and self._pass_notice in self else []
        if self._pass_notice is not None and self._pass_notice in self:
            del self[self._pass_notice]
        for notice in list(self):
            if isinstance(notice, Notice) and (notice.said is not None or notice.title_said is not None):
                notice.say_in(self.page.lang)
            elif notice.severity == "information":
                del self[notice]
        self._pass_notice = None
        if steps:
            self._pass_notice = self.say(self.page.passed_said(steps), timeout=PASS_NOTICE_SECONDS)
        self.redraw()

    def waiting(self, text: str) -> None:
        """The demo's long wait and its countdown, one notice said again each second; "" ends it.
        Closed with esc, it stays closed until the wait is over."""
        shown, self._wait = self._wait, None
        if shown is not None and shown in self:
            del self[shown]
        self._wait_closed = self._wait_closed and bool(text)
        if text and not self._wait_closed:
            # up a little longer than a second: a late tick does not make it blink
            self._wait = Notification(text, "", "information", WAIT_NOTICE_SECONDS, markup=False)
            self.add(self._wait)
        if shown is not None or self._wait is not None:
            self.redraw()

    def clear(self) -> Notices:
        self._wait_closed = self._wait is not None
        super().clear()
        self.redraw()
        return self

    def redraw(self) -> None:
        if self.app.is_running and self.app.screen_stack:
            for bar in self.app.screen_stack[0].query(NoticeBar):
                bar.redraw()
