"""The lesson screen: the step beside the live panes, and the lesson's own keys.

It is given the session, the step's page (tutor/ui/step_page.py) and the driver that paces the
refreshes, and draws what they hold; what is global (notices, the language, other screens,
quitting) it asks of the app through LessonHost."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterator, Protocol

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.notifications import Notification
from textual.binding import BindingType
from textual.dom import DOMNode
from textual.events import ScreenResume
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList

from tutor.cluster.source_events import Conn
from tutor.session import Session
from tutor.ui.bindings.why_not import lesson_reason
from tutor.ui.bindings.keys import LESSON_KEYS, ORDER
from tutor.ui.messages import ProgressReset
from tutor.ui.step_page import PRIORITY, Page
from tutor.ui.panes.common import LiveData
from tutor.ui.panes.events import EventList
from tutor.ui.panes.groups import GroupsPane
from tutor.ui.panes.ledger import NodeLedger
from tutor.ui.panes.live_column import LiveColumn
from tutor.ui.panes.pods import PodList
from tutor.ui.screens.base import StyledOnce
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.widgets.doctor_panel import DoctorPanel
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.ui.widgets.notice_bar import NoticeBar
from tutor.ui.widgets.status_bar import StatusBar
from tutor.ui.widgets.step_list import StepList, step_strip
from tutor.ui.widgets.verdict_box import VerdictBox
from tutor.i18n.bilingual import Said, say, saying

if TYPE_CHECKING:
    from tutor.ui.services.notices import Notices
    from tutor.ui.session_driver import SessionDriver

TALL_ROWS = 32  # from this many rows the step list shows; below, a strip in the lesson's border


class LessonHost(Protocol):
    """What the lesson screen asks of the app."""

    notices: Notices  # the notices up, which the notices' line shows

    def notice(self, message: Said, *, title: Said | None = None, severity: str = "information",
               timeout: float = ..., detail: str = "") -> Notification: ...

    def passed(self, steps: list[int]) -> None: ...  # steps just passed: their notice, the end

    def panes_drawn(self) -> None: ...  # the panes show the store now (a screen over them follows)

    def demo_status(self) -> str: ...  # the demo's step and time left ("" outside the demo)


class LessonScreen(StyledOnce, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [*LESSON_KEYS]
    ALLOW_IN_MAXIMIZED_VIEW = "Footer, NoticeBar"  # a zoomed pane still shows the notices, above it
    AUTO_FOCUS = "#lesson"  # Textual's "*" gave the first focus to the lab check panel, hidden

    def __init__(self, session: Session, page: Page, driver: SessionDriver, *, context: str, replay: bool):
        super().__init__()
        self.session, self.page, self.driver = session, page, driver
        self.context_name, self.replay = context, replay
        self._drawn: dict[str, tuple] = {}  # what a part of the screen was last drawn from (skip when the same)
        self._ledger_chosen: bool | None = None  # g on this step; None: the step decides
        self._save_error_shown = ""

    @property
    def host(self) -> LessonHost:
        return self.app  # type: ignore[return-value]  # Textual types it as any App; it is the TutorApp

    @property
    def lang(self) -> str:
        return self.session.lang

    def compose(self) -> ComposeResult:
        # First: Textual numbers children from the last, so its coming renumbers (redraws) no other.
        yield NoticeBar(self.host.notices, self.notice_edges, id="notices")
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with Vertical(id="lesson-side"):
                yield DoctorPanel(id="doctor")
                yield StepList(id="steps")
                yield LessonPane(id="lesson")
                yield VerdictBox(id="verdict")
            with LiveColumn(id="live"):
                yield GroupsPane(id="groups")
                yield NodeLedger(id="ledger")
                yield PodList(id="pods")
                yield EventList(id="events")
        yield KeyFooter(lambda: self.page.footer_wanted(self.doctor_shown(), self.maximized is not None), PRIORITY, ORDER,
                        lang=lambda: self.lang)

    def doctor_shown(self) -> bool:
        return any(panel.display for panel in self.query(DoctorPanel))

    def on_mount(self) -> None:
        self.set_titles()
        self.query_one(LessonPane).hold()  # its text, and the sources, after the first frame (the app's on_ready)
        self.redraw_lesson()
        self.redraw_live()
        if self.session.progress.problem:  # the progress file could not be read as it was
            self.host.notice(saying(*self.session.progress.problem), severity="warning", timeout=10)

    def on_screen_resume(self, event: ScreenResume) -> None:
        """Back on top (a modal closed): the notices' line is drawn from the notices up now, as
        Textual redraws its own toasts on a resume (what changed under a modal shows now)."""
        self.host.notices.redraw()

    def set_titles(self) -> None:
        for wid, title in (("steps", ("Steps", "단계")), ("groups", ("Groups", "그룹")),
                           ("ledger", ("Nodes · GPU", "노드 · GPU")), ("pods", ("Pods", "파드")),
                           ("events", ("Events", "이벤트"))):
            self.query_one(f"#{wid}").border_title = say(self.lang, *title)

    # --- the step ----------------------------------------------------------------------------
    def redraw_lesson(self) -> None:
        cur = self.session.progress.current
        self.query_one(StepList).show(self.page.marks(), cur)
        # The verdict shown is the one of the step whose text is on screen: a new step's text takes
        # a few frames to parse and mount, and its verdict comes with it, in the same frame.
        self.query_one(LessonPane).show(self.page.markdown(cur), cur, self.draw_verdict)
        self.draw_verdict()
        self.draw_status()
        self.report_save()
        self.fit_footer()

    def watch_maximized(self) -> None:
        self.fit_footer()  # esc is offered while a pane is zoomed
        self.call_after_refresh(self.host.notices.redraw)  # the edge under the notices' line came or went

    def notice_edges(self) -> list[int]:
        """The columns where a pane under the notices' line (over the panes' top borders) begins or
        ends: the two columns' edges, when they stand side by side and no pane is zoomed."""
        if self.maximized is not None:
            return []
        sides = [w for w in self.query("#lesson-side, #live") if w.display and w.region.y <= 1 < w.region.bottom]
        return sorted({x for w in sides for x in (w.region.x, w.region.right)} - {0, self.size.width})

    def fit_footer(self) -> None:
        """The footer reads the keys again (what the step offers, what is dimmed) when one of
        those may have moved; its width it follows itself."""
        s = self.session
        cur = s.progress.current
        if self._changed("bindings", cur, s.progress.hints.get(cur, 0), cur in s.progress.solutions,
                         cur in s.progress.passed, s.lang, self.doctor_shown(), self.maximized is not None):
            self.refresh_bindings()

    def draw_verdict(self) -> None:
        s = self.session
        n = self.query_one(LessonPane).step or s.progress.current
        self.draw_step_strip(n)
        self.query_one(VerdictBox).show(s.verdicts.get(n), n in s.progress.passed,
                                        self.page.verdict_words(self.page.unreachable() is not None), step=n)

    def draw_step_strip(self, current: int | None = None) -> None:
        """On a short terminal the step list has no room: the steps and their marks go on one line
        in the lesson pane's top border, which takes no row from the lesson."""
        lesson = self.query_one(LessonPane)
        current = current or lesson.step or self.session.progress.current
        strip = ""
        if self.app.size.height < TALL_ROWS:
            strip = step_strip([(n, "", mark) for n, _, mark in self.page.marks()], current)
        if lesson.border_title != strip:
            lesson.border_title = strip

    def on_resize(self) -> None:
        self.call_next(self.draw_step_strip)  # once the new size is the screen's

    def report_save(self) -> None:
        """Says once when saving progress starts failing (disk full, directory gone) and once
        when it works again; the session goes on with its progress in memory meanwhile."""
        err = self.session.progress.save_error
        if err == self._save_error_shown:
            return
        self._save_error_shown = err
        if err:
            self.host.notice(saying("Progress not saved to {path}: {err}. It is kept while lwstutor runs.",
                                    "진행 상황을 {path}에 저장하지 못했습니다: {err}. lwstutor가 실행되는 동안에는 유지됩니다.",
                                    err=err, path=self.session.progress.path), severity="warning", timeout=15)
        else:
            self.host.notice(saying("Progress saved again.", "진행 상황을 다시 저장했습니다."), timeout=4)

    # --- the live panes ----------------------------------------------------------------------
    def redraw_live(self) -> None:
        """Redraws the panes now, from the state now (a refresh being drawn in turns ends with it)."""
        self.driver.pump.redraw_now(self.redraw_panes())

    def redraw_panes(self) -> Iterator[None]:
        """Redraws the panes whose data changed, yielding after each one that was redrawn."""
        s = self.session
        conn = s.connection()
        self.query_one("#live").set_class(conn in (Conn.RECONNECTING, Conn.CONNECTING) and bool(s.store.version),
                                          "-stale")
        ledger_on = self.ledger_shown()
        groups, ledger = self.query_one(GroupsPane), self.query_one(NodeLedger)
        if groups.display == ledger_on:
            groups.display, ledger.display = not ledger_on, ledger_on
            self.query_one(LiveColumn).fit()  # the ledger takes a row more than the groups at 60x20
        # Each pane redraws only when what it shows may have changed (tutor/ui/panes/), and notes
        # what it drew from once drawn: a redraw dropped between two panes (or half-way through
        # the events) leaves no pane marked as drawn that was not.
        data = self.live_data()
        for pane in (groups, ledger, self.query_one(PodList), self.query_one(EventList)):
            yield from pane.redraw(data)
        self.draw_status()
        self.host.panes_drawn()

    def live_data(self) -> LiveData:
        """What the live panes are drawn from, now."""
        s = self.session
        return LiveData(s.store, s.lesson.namespace, s.lesson.gpu_resource, s.lang, self.page.unavailable,
                        self.page.step_pods())

    def ledger_shown(self) -> bool:
        """The node ledger takes the groups pane's place on the steps about where pods land (the
        lesson's `ledger`), or when g chose it."""
        if self._ledger_chosen is not None:
            return self._ledger_chosen
        return self.session.lesson.step(self.session.progress.current).ledger

    def _changed(self, part: str, *key) -> bool:
        if self._drawn.get(part) == key:
            return False
        self._drawn[part] = key
        return True

    def draw_status(self) -> None:
        s = self.session
        failure = self.page.unreachable()
        if self._changed("unreachable", failure is None):
            self.draw_verdict()  # its "checking…" says the cluster does not answer
        self.query_one(StatusBar).show(
            title=s.lesson.title(s.lang), context=self.context_name, namespace=s.lesson.namespace,
            conn=s.connection(), passed=len(s.progress.passed), total=len(s.lesson.steps),
            lang=s.lang, replay=self.replay, unreachable=self.page.unreachable_brief(failure),
            absent=self.page.absent(), demo=self.host.demo_status(),
            reporting=self.driver.reports.header(s.lang) if self.driver.reports else "")

    # --- the lesson's keys -------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """None dims a key in the footer: nothing to go back to, no hint left, no solution to show.
        False leaves it out (a step past the last, the lab check panel's key while it is hidden).
        Either way the key, pressed, says why (why_not; the app's run_action)."""
        if self.why_not(action, parameters) is None:
            return True
        if action == "goto" or action == "dismiss_doctor":
            return False
        return None

    def why_not(self, action: str, parameters: tuple) -> Said | None:
        """Why a lesson key cannot act now (tutor/ui/bindings/why_not.py); None when it can."""
        return lesson_reason(self, action, parameters)

    def action_goto(self, n: int) -> None:
        """A step the learner chose (a key, the step list, the palette)."""
        self.driver.steered = True
        self.go(n)

    def go(self, n: int) -> None:
        if 1 <= n <= len(self.session.lesson.steps):
            if n != self.session.progress.current:
                self.host.notices.left_step()  # the pass notice spoke of the step before
            self.session.progress.go(n)
            self.query_one(LessonPane).to_top()
            self.query_one(VerdictBox).to_top()
            newly = self.session.evaluate([n], {n})  # its verdict with the details shown on screen
            self.redraw_lesson()
            if newly:
                self.host.passed(newly)
            self._ledger_chosen = None  # a new step shows what it is about (and the ledger its nodes first)
            self.redraw_live()

    @on(OptionList.OptionSelected, "#steps")
    def _step_chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_goto(event.option_index + 1)

    def action_next(self) -> None:
        self.action_goto(self.session.progress.current + 1)

    def action_prev(self) -> None:
        self.action_goto(self.session.progress.current - 1)

    def action_hint(self) -> None:
        s = self.session
        cur = s.progress.current
        if s.progress.reveal_hint(cur, len(s.lesson.step(cur).text(s.lang).hints)):
            self.redraw_lesson()
            self.query_one(LessonPane).bring_into_view(self.page.hint_heading(cur, s.progress.hints[cur]))
        else:  # the palette's entry, with no hint left (the key is dimmed then, and says so itself)
            self.host.notice(self.why_not("hint", ()) or saying("No more hints for this step.",
                                                               "이 단계의 힌트를 모두 보았습니다."), timeout=4)

    def toggle_ledger(self) -> None:
        self._ledger_chosen = not self.ledger_shown()
        self.redraw_live()

    def action_maximize_pane(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        node: DOMNode | None = self.focused
        while node is not None and not (isinstance(node, Widget) and node.allow_maximize):
            node = node.parent
        if isinstance(node, Widget):
            self.maximize(node)
        else:
            self.host.notice(saying("No pane is chosen to zoom: tab chooses one.",
                                    "크게 볼 창이 선택되지 않았습니다. tab 키로 고릅니다."), timeout=3)

    def action_dismiss_doctor(self) -> None:
        self.query_one(DoctorPanel).shown(False)
        self.fit_footer()

    def action_minimize(self) -> None:
        """esc: a zoomed pane back in its place, and the notices gone, in one key."""
        self.app.clear_notifications()
        if self.maximized is not None:
            self.minimize()

    # --- what asks first: the solution and the resets ----------------------------------------
    @work(exclusive=True, group="solution")
    async def action_solution(self) -> None:
        """The solution is the last rung of a step, apart from its hints: the whole answer. It asks
        first, in the learner's language, then shows under its own heading, scrolled into view;
        the progress notes that it was shown. Once the step has passed there is nothing left to
        give away: it shows at once, to compare with one's own answer."""
        s = self.session
        n = s.progress.current
        if not self.page.solution_text(n):
            self.host.notice(saying("Step {n} has no solution to show.", "{n}단계에는 보여 줄 풀이가 없습니다.", n=n),
                             timeout=3)
            return
        if n not in s.progress.solutions and n not in s.progress.passed:  # passed: nothing to give away
            if not await self.app.push_screen_wait(ConfirmScreen(self.page.solution_question(n), *self.page.yes_no())):
                return
        if n not in s.progress.solutions:
            s.progress.show_solution(n)
            self.redraw_lesson()
        if s.progress.current == n:  # shown now, or already (the palette): bring it into view
            self.query_one(LessonPane).bring_into_view(say(self.lang, "Solution", "풀이"))

    @work
    async def action_reset_step(self) -> None:
        if await self.app.push_screen_wait(ConfirmScreen(self.page.reset_step_question(), *self.page.yes_no())):
            self.session.progress.reset(self.session.progress.current)
            self.post_message(ProgressReset())

    @work
    async def action_reset_all(self) -> None:
        if await self.app.push_screen_wait(ConfirmScreen(self.page.reset_all_question(), *self.page.yes_no())):
            self.session.progress.reset()
            self.post_message(ProgressReset())
