"""The Textual tutor: the step beside live LWS panes, driven by the keyboard.

Data path: source workers (threads) → Inbox → SourceReady message → the refresh pump
(tutor/ui/pump.py), which applies the items to the Session on this thread and paces one refresh
that re-runs the checkers and redraws the panes. Nothing re-runs on a timer: only a change from
a source or a key press triggers work.
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from time import monotonic
from typing import Callable

from rich.cells import cell_len
from textual import events, on
from textual.actions import parse as parse_action
from textual.app import App, ComposeResult
from textual.notifications import Notification, Notifications, Notify, SeverityLevel
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList

from tutor.checks.timeline_recap import recap_markdown
from tutor.checks.verdict import Status
from tutor.cluster import kinds
from tutor.cluster.events import Conn, ShowStep
from tutor.session import Session
from tutor.ui.screens.palette import TutorCommands, open_palette, system_commands
from tutor.ui.i18n import keyed, localise_bindings, localised
from tutor.ui.inbox import Inbox
from tutor.ui.messages import DoctorDone, SourceReady
from tutor.ui.notices import step_ranges
from tutor.ui.oracle import Oracle
from tutor.ui.panes.common import LiveData
from tutor.ui.panes.events import EventList
from tutor.ui.panes.groups import GroupsPane
from tutor.ui.panes.ledger import NodeLedger
from tutor.ui.panes.pods import PodList
from tutor.ui.pump import RefreshPump
from tutor.ui.screens.predict import can_predict, invite, open_predict, recap
from tutor.ui.quiet_gc import QuietCollector
from tutor.ui.confirmed import ConfirmedActions
from tutor.ui.screens.finish import FinishScreen, finished
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screenshot import brief_error, screenshot_dir, shown_path
from tutor.ui.screens.timeline import TimelineScreen
from tutor.ui.widgets.doctor_panel import DoctorPanel
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.ui.widgets.notice_bar import NoticeBar, notice_text
from tutor.ui.widgets.status_bar import StatusBar
from tutor.ui.widgets.step_list import StepList, step_strip
from tutor.ui.widgets.verdict_box import STATUS_WORDS, VerdictBox
from tutor.words import say

TALL_ROWS = 32  # from this many rows the step list shows; below, a strip in the lesson's border
NOTICE_SECONDS = 6  # a notice takes a row from the panes while it shows: it goes soon, or at esc
PASS_NOTICE_SECONDS = 5
PUMP_CHECK_S = 1.0  # how often the watchdog looks at the refresh pump (a few reads: nothing at idle)
WARM_AFTER = 1.0  # seconds after the first frame: the step's text and the first lists come first
PUMP_STUCK_S = 3.0  # work waiting and nothing applied or drawn for this long: a lost wake-up


class LoopClock:
    """The pump's clock on the app's loop. A delayed call is asyncio's, run through the app's
    call_next: a pane that fails in a later turn of a refresh ends the app with its traceback,
    as one drawn in one go does.

    Not Textual's set_timer: its one-shot timer reads the clock when it starts and again just
    after, and when more than its delay passed between the two reads it counts its one tick as
    missed and never calls back. The pump's waits are a millisecond long, and a loop that waits
    that long for the GIL (watch threads decoding a burst) lost a refresh for good: the churn
    stall (tests/ui/test_starved_loop.py)."""

    def __init__(self, app: App):
        self.app = app

    def now(self) -> float:
        return monotonic()

    def call_later(self, delay: float, fn) -> "LoopCall":
        return LoopCall(self.app, delay, fn)

    def call_soon(self, fn) -> None:
        asyncio.get_running_loop().call_soon(fn)


class LoopCall:
    """One delayed call on the app's loop; stop() keeps it from running, even once it is due and
    queued behind the app's messages."""

    def __init__(self, app: App, delay: float, fn):
        self._fn = fn
        self._handle = asyncio.get_running_loop().call_later(delay, app.call_next, self._run)

    def _run(self) -> None:
        fn, self._fn = self._fn, None
        if fn is not None:
            fn()

    def stop(self) -> None:
        self._fn = None
        self._handle.cancel()


# The palette's key as the help lists it (Textual binds it itself, with no words of ours).
PALETTE_KEY = keyed("ctrl+p", "command_palette", ("Command palette", "명령 팔레트"))

class TutorApp(ConfirmedActions, App):
    CSS_PATH = "tutor.tcss"
    TITLE = "lwstutor"
    COMMANDS = App.COMMANDS | {TutorCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (70, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL_ROWS, "-tall")]
    ENABLE_COMMAND_PALETTE = True
    ALLOW_IN_MAXIMIZED_VIEW = "Footer, NoticeBar"  # a zoomed pane still shows the notices, above it
    ESCAPE_TO_MINIMIZE = False  # esc also closes the notices: our binding does both (action_minimize)
    action_predict = open_predict  # w: the step's questions in a modal (tutor/ui/screens/predict.py)

    BINDINGS = [
        keyed("n,right", "next", ("Next", "다음"), ("Next step", "다음 단계"), key_display="n/→"),
        keyed("p,left", "prev", ("Prev", "이전"), ("Previous step", "이전 단계"), key_display="p/←"),
        keyed("h", "hint", ("Hint", "힌트"), ("Reveal the next hint", "다음 힌트 보기")),
        keyed("s", "solution", ("Solution", "풀이"),
              ("Show the step's solution, the whole answer (asks first until the step passes)",
               "이 단계의 풀이, 즉 답 전체 보기(통과하기 전에는 먼저 묻습니다)")),
        keyed("r", "recheck", ("Re-check", "재검사"), ("Run the checkers now", "지금 다시 검사")),
        keyed("l", "toggle_lang", ("ko/en", "ko/en"), ("Switch the language live", "언어를 바로 바꾸기")),
        keyed("t", "timeline", ("Timeline", "타임라인"), ("What happened, in order, per LWS group",
                                                      "LWS 그룹마다 일어난 일을 순서대로"),
              show=False),
        keyed("w", "predict", ("Predict", "예측"),
              ("Predict what your cluster will do, before it does", "클러스터가 할 일을 먼저 예측하기"), show=False),
        keyed("f", "finish", ("The end", "마무리"),
              ("What you did and what comes next (once every step passed)", "해낸 일과 다음 모듈(모든 단계를 통과한 뒤)"),
              show=False),
        keyed("z", "maximize_pane", ("Zoom", "확대"),
              ("Maximise the focused pane (again or esc to restore)", "선택한 창을 크게 보기(다시 누르거나 esc로 되돌림)")),
        keyed("question_mark", "help", ("Help", "도움말"), ("All keys", "모든 키"), key_display="?"),
        keyed("x", "dismiss_doctor", ("Dismiss", "닫기"), ("Hide the lab check panel", "실습 점검 창 숨기기")),
        keyed("g", "toggle_ledger", ("Nodes/Groups", "노드/그룹"),
              ("Switch the groups pane and the node ledger (GPUs, taints; shown on the steps about placement)",
               "그룹 창과 노드 장부를 바꿔 보기(GPU, 테인트. 배치를 다루는 단계에서 먼저 보임)"), show=False),
        keyed("q", "quit", ("Quit", "종료"), ("Quit (progress is saved)", "종료(진행 상황은 저장됨)")),
        # A terminal user's reflex; Textual 8 binds it to copy and a "press ctrl+q" notice instead.
        # Priority: before the screen's and an input's copy (copy_or_quit copies a selection first).
        keyed("ctrl+c", "copy_or_quit", ("Quit", "종료"),
              ("Quit, as q does (text selected with the mouse is copied first)",
               "q처럼 종료(마우스로 고른 글자가 있으면 먼저 복사)"),
              show=False, priority=True),
        keyed("tab", "focus_next", ("Next pane", "다음 창"), ("Cycle the panes", "창 사이를 돌기"), show=False),
        keyed("shift+tab", "focus_previous", ("Previous pane", "이전 창"), show=False),
        keyed("escape", "minimize", ("Restore", "되돌리기"),
              ("Restore a zoomed pane and close the notices", "확대한 창을 되돌리고 알림 닫기"), show=False),
        # the digit keys go to a step; check_action turns off those past the lesson's last step
        *(keyed(str(i), f"goto({i})", (f"Step {i}", f"{i}단계"), show=False) for i in range(1, 10)),
    ]

    def __init__(self, session: Session, *, context: str = "", replay: bool = False,
                 start_sources: Callable[["TutorApp"], None] | None = None):
        super().__init__()
        self.session = session
        self.context_name = context
        self.replay = replay
        self._start_sources = start_sources
        self.inbox = Inbox(lambda: self.post_message(SourceReady()))
        self._save_error_shown = ""
        self.checks_run = 0  # how many re-checks ran (tests and benchmarks read it)
        self.pump = RefreshPump(self, LoopClock(self))
        self._drawn: dict[str, tuple] = {}  # what a part of the screen was last drawn from (skip when the same)
        self._stoppers: list[Callable[[], None]] = []
        self.connect_error = ""  # set when a live connection fails after the first frame
        self._gc = QuietCollector()  # full collections wait for a quiet moment
        self._ledger_chosen: bool | None = None  # g on this step; None: the step decides
        self._english_keys: dict = {}  # the bindings as declared, for switching their words back
        self._doctor_client = None  # the API client the lab preflight ran with (run_doctor)
        # A replay's instants not judged yet, the time of the last item applied, and the steps
        # those judgements passed, for the next refresh's notice (_judge_instant).
        self._unjudged = False
        self._instant: float | None = None
        self._passed_between: list[int] = []
        self.notices = Notifications()  # the notices up: the app's own list, drawn on the notices' line
        self._pass_notice: Notification | None = None  # the notice naming the steps just passed
        self._pass_steps: list[int] = []
        self._notice_timer = None  # redraws the notices' line when the next notice expires
        self._steered = False  # the learner chose a step: the demo's own steps no longer move the view
        self._paced = False  # the source moves the view itself (the demo): its end opens the finish screen
        self._finish_opened = False  # the finish screen opens by itself once a run
        self._finish_due = False  # ...after the screen that was up when the lesson was finished
        # The pane-vs-store oracle, behind LWSTUTOR_ORACLE (tutor/ui/oracle.py): each settled
        # refresh's panes compared with a rebuild from the store, and a mismatch dumped.
        self.oracle = Oracle.from_env()

    # --- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield NoticeBar(id="notices")
        with Horizontal(id="main"):
            with Vertical(id="lesson-side"):
                yield DoctorPanel(id="doctor")
                yield StepList(id="steps")
                yield LessonPane(id="lesson")
                yield VerdictBox(id="verdict")
            with Vertical(id="live"):
                yield GroupsPane(id="groups")
                yield NodeLedger(id="ledger")
                yield PodList(id="pods")
                yield EventList(id="events")
        yield KeyFooter(compact=True)  # compact: every key the README lists fits 80 columns

    def on_mount(self) -> None:
        # Thread workers run on the loop's default executor, which has only cpu+4 threads on a
        # small VM: five watches plus the file watcher would starve anything else.
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=16, thread_name_prefix="lwstutor"))
        self._gc.start()
        self.session.progress.set_lang(self.session.lang)
        self._set_titles()
        self._localise_keys()
        self.query_one(LessonPane).hold()  # its text, and the sources, after the first frame (on_ready)
        self.redraw_lesson()
        self.redraw_live()
        self.query_one(LessonPane).focus()
        if self.session.progress.notice:
            self.notice(self.session.progress.notice, severity="warning", timeout=10)
        self._report_save()
        self._watch_pump()

    def on_ready(self) -> None:
        """The first frame is on screen. The step's text (parsed in a thread, mounted block by
        block) and the sources (a replay's reading thread, the watches) start only now: before,
        they competed with that frame, which shows neither the text nor the data."""
        self._gc.first_frame()  # start-up held collections back until the first frame (run_tui)
        self.query_one(LessonPane).release()
        if self._start_sources:
            self._start_sources(self)
        self.set_timer(WARM_AFTER, self._warm_checkers)

    def _warm_checkers(self) -> None:
        """Imports the lesson's checkers, one per turn of the loop, once the start is over. On
        the lab the namespace is empty at first: imported on demand, all of them came with the
        learner's first pod (about 60 ms of imports in the frame that showed it)."""
        cold = [st for st in self.session.lesson.steps if st.checker not in sys.modules]
        if cold and not self.closing:
            cold[0].checks()
            self.set_timer(0.01, self._warm_checkers)

    def _set_titles(self) -> None:
        for wid, title in (("steps", ("Steps", "단계")), ("groups", ("Groups", "그룹")),
                           ("ledger", ("Nodes · GPU", "노드 · GPU")), ("pods", ("Pods", "파드")),
                           ("events", ("Events", "이벤트"))):
            self.query_one(f"#{wid}").border_title = say(self.lang, *title)

    # --- sources -----------------------------------------------------------------------------
    @property
    def closing(self) -> bool:
        """True once shutdown starts. Textual removes the screens (and our widgets) before the app
        itself unmounts, so late worker messages must check this, not wait for on_unmount."""
        return not self.is_running

    def run_source(self, fn: Callable[[], None], name: str, stop: Callable[[], None]) -> None:
        """Runs a blocking source loop in a thread worker; it reports through self.inbox.
        Thread workers cannot be cancelled, so `stop` is called on unmount to end the loop."""
        self._stoppers.append(stop)
        self.run_worker(fn, name=name, group="sources", thread=True, exit_on_error=False)

    def on_unmount(self) -> None:
        self._gc.stop()
        if self.pump.timer is not None:
            self.pump.timer.stop()
        for stop in self._stoppers:
            stop()

    def _watch_pump(self) -> None:
        """The screen must never show a stale cluster as current: when the pump has work and has
        not moved for PUMP_STUCK_S (a call it waits for never came), it starts again, and the
        learner is told the screen caught up."""
        if self.closing:
            return
        if self.pump.stuck(self.inbox.waiting, PUMP_STUCK_S):
            self.pump.unstick()
            self.log.warning(f"refresh pump unstuck ({self.pump.unstuck})")
            self.notice(say(self.lang, "The screen had stopped following the cluster; it is current again.",
                                    "화면이 클러스터를 따라가지 못하고 멈춰 있었습니다. 지금은 최신 상태입니다."),
                     severity="warning")
        LoopCall(self, PUMP_CHECK_S, self._watch_pump)

    async def on_event(self, event) -> None:
        # Keys still queued when quitting begins (typed after q, or a burst) would be handed to
        # a screen stack that is already empty, which ends the app with a traceback.
        if isinstance(event, events.Key) and (self.closing or not self.screen_stack):
            return
        await super().on_event(event)

    @on(SourceReady)
    def _drain(self) -> None:
        if not self.closing:
            self.pump.drain()

    # the pump's host (tutor/ui/pump.py) -------------------------------------------------------
    def take_items(self) -> list:
        return self.inbox.drain()

    def items_settled(self) -> None:
        self.inbox.settled()

    def is_barrier(self, item) -> bool:
        return isinstance(item, ShowStep)  # the step shown must follow what the data before it passed

    def apply_item(self, item) -> bool:
        self.inbox.applied()
        if isinstance(item, ShowStep):
            self._show_step(item)
            return False
        if self.replay:  # a live source's file reads carry no time of their own
            t = getattr(item, "t", self._instant)
            if self._unjudged and t != self._instant:
                self._judge_instant()
            self._instant = t
        if self.oracle is not None:
            self.oracle.applied(item)
        if self.session.apply(item):
            self._unjudged = self.replay
            return True
        return False

    def wake(self) -> None:
        self.post_message(SourceReady())

    def _judge_instant(self) -> None:
        """A replay is judged at every instant it holds, as `check --replay` judges it: a step that
        passed for a moment between two refreshes (a fast replay applies many instants in one)
        is latched all the same, and its notice waits for the refresh."""
        self._unjudged = False
        self._passed_between += self.session.evaluate(None, {self.session.progress.current})

    def _show_step(self, item: ShowStep) -> None:
        """The demo moves the view on to the step it plays next, until the learner picks a step
        (a digit, n, p, the step list, the palette): from then on the view is theirs, and the
        recording plays on beneath it."""
        self._paced = True
        if not self._steered:
            self._go(item.step)
        elif item.step != self.session.progress.current and not item.title[0]:
            self.notice(say(self.lang, "The demo plays step {n} now; you stay on the step you chose.",
                                    "데모는 지금 {n}단계를 재생합니다. 화면은 고른 단계에 그대로 있습니다.", n=item.step),
                     timeout=4)
        if item.title[0]:
            self.notice(say(self.lang, *item.body), title=say(self.lang, *item.title), timeout=8)
            self._open_finish()

    # --- checking and drawing ----------------------------------------------------------------
    def recheck(self) -> None:
        """Re-runs the checkers whose inputs changed and redraws what changed (the pump paces it)."""
        self.pump.refresh_now()

    def run_checks(self):
        """A refresh: the checkers now, then the panes, yielding after each one redrawn. The pump
        redraws them a slice of time per turn of the loop: after a burst each may have
        thousands of rows to follow, and keys and frames must not wait for all."""
        self.checks_run += 1
        # only the step on screen shows its details: only it gets the scheduler explanations
        newly = self._passed_between + self.session.evaluate(None, {self.session.progress.current})
        self._passed_between, self._unjudged = [], False
        self.redraw_lesson()
        if newly:
            self._toast_passed(newly)
        return self._redraw_panes()

    @property
    def refreshing(self) -> bool:
        """Whether a refresh's panes are still being redrawn (in turns of the loop)."""
        return self.pump.refreshing

    def refresh_drawn(self) -> None:
        """A refresh is on screen (from the next frame): quiet from here, a full collection may run.
        With the oracle on, a refresh that leaves nothing to apply is compared with the store."""
        self._gc.busy()
        if self.oracle is not None and self.pump.idle and not self.inbox.waiting:
            self.oracle.check(self)

    def _toast_passed(self, newly: list[int]) -> None:
        """One short line for the steps that passed. A fast replay or a catch-up passes several at
        once, and a pass can come while the last notice is still up: the new notice names the
        steps of both, so none is lost, and each once. The recap is in the lesson pane."""
        shown = self._pass_notice
        steps = list(self._pass_steps) if shown is not None and shown in self.notices else []
        self._drop_pass_notice()
        steps += [n for n in newly if n not in steps]
        self._pass_steps = steps
        if steps == [self.session.progress.current] and self.solution_key():  # s shows its solution now
            line = say(self.lang, "✓ Step {n} passed: recap in the step · s compares with the solution",
                                  "✓ {n}단계 통과: 정리는 설명 끝에 · s로 풀이와 비교", n=steps[0])
        elif len(steps) == 1:
            line = say(self.lang, "✓ Step {n} passed: recap in the step", "✓ {n}단계 통과: 정리는 설명 끝에", n=steps[0])
        else:
            line = say(self.lang, "✓ Steps {ns} passed", "✓ {ns}단계 통과", ns=step_ranges(steps))
        self._pass_notice = self.notice(line, timeout=PASS_NOTICE_SECONDS)
        if not self._paced:  # the demo opens it at its end, after the last recap's pause
            self._open_finish()

    def _open_finish(self) -> None:
        """The finish screen, by itself, once: when the pass that completes the lesson comes, or,
        when another screen is up then (a question, the help), once that one closes."""
        if not finished(self.session) or self._finish_opened or self.closing:
            return
        if len(self.screen_stack) > 1:  # not over a screen the learner is using: after it
            self._finish_due = True
            return
        self._finish_due, self._finish_opened = False, True
        self.action_finish()

    def pop_screen(self):
        done = super().pop_screen()
        if self._finish_due:
            self.call_after_refresh(self._open_finish)
        return done

    def action_finish(self) -> None:
        if not finished(self.session):
            s = self.session
            self.notice(say(self.lang, "The end shows once every step passed: {k} of {n} so far.",
                                    "마무리는 모든 단계를 통과하면 볼 수 있습니다. 지금까지 {n}단계 중 {k}단계를 통과했습니다.",
                                    k=len(s.progress.passed), n=len(s.lesson.steps)), timeout=4)
        elif not isinstance(self.screen, FinishScreen):
            self.push_screen(FinishScreen())

    def _drop_pass_notice(self) -> None:
        """Takes the pass notice away (another step is shown: it spoke of the one before)."""
        shown, self._pass_notice = self._pass_notice, None
        if shown is not None and shown in self.notices:
            del self.notices[shown]
            self._show_notices()

    def notice(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float = NOTICE_SECONDS, detail: str = "") -> Notification:
        """A notice on the notices' line under the header (widgets/notice_bar.py); esc closes it.
        A notice is one line: `detail`, and the whole of a warning (or a titled notice, the
        demo's end) too long for the line, go to the lab check panel, where they stay until x
        hides it. It is up at once: a pass in the same turn finds it (_toast_passed) and joins it
        instead of losing it."""
        notice = Notification(message, title, severity, timeout, markup=False)
        whole = notice_text(notice)
        if detail or ((severity != "information" or title) and cell_len(whole) > self.size.width - 2):
            self.query_one(DoctorPanel).note(" ".join(p for p in (whole, detail) if p), *self._notes_words())
            self._fit_footer()
        self.notices.add(notice)
        self._show_notices()
        return notice

    @on(Notify)
    def _notified(self, event: Notify) -> None:
        """Textual's own notices (App.notify posts them) go on the notices' line too, not in toasts."""
        event.prevent_default()
        n = event.notification
        self.notice(n.message, title=n.title, severity=n.severity, timeout=n.timeout)

    def clear_notifications(self) -> None:
        self.notices.clear()
        self._show_notices()

    def _show_notices(self) -> None:
        """Draws the notices up on their line, and again when the next one expires."""
        if self.closing:
            return
        notices = list(self.notices)  # without the expired ones
        for bar in self.query(NoticeBar):
            bar.show(notices)
        if self._notice_timer is not None:
            self._notice_timer.stop()
            self._notice_timer = None
        if notices:
            due = min(n.time_left for n in notices)
            self._notice_timer = self.set_timer(max(0.05, due + 0.05), self._show_notices, name="notices")

    @property
    def lang(self) -> str:
        """The learner's language now ("ko" or "en"): every word on the screen is said in it."""
        return self.session.lang

    def step_mark(self, n: int) -> str:
        if n in self.session.progress.passed:
            return "passed"
        v = self.session.verdicts.get(n)
        if v is None or (n > self.session.progress.current and v.status is Status.FAIL):
            return "not-started"
        return {"fail": "fail", "waiting": "waiting", "error": "error", "pass": "passed",
                "unconfirmed": "unconfirmed"}[v.status.value]

    def step_markdown(self, n: int) -> str:
        s = self.session
        text = s.lesson.step(n).text(s.lang)
        parts = [f"# {n}. {text.title}", *invite(self, n), text.body]
        shown = s.progress.hints.get(n, 0)
        for i, hint in enumerate(text.hints[:shown], start=1):
            parts.append(f"### {self.hint_heading(n, i)}\n\n{hint}")
        parts.append(self.solution_markdown(n))
        if n in s.progress.passed and text.recap:
            parts.append(f"### {say(self.lang, 'What you just saw', '방금 본 것')}\n\n{text.recap}"
                         + recap_markdown(s.store, s.lesson.namespace, s.lesson.step(n), s.lang) + recap(self, n))
        return s.lesson.in_workdir("\n\n".join(p for p in parts if p), s.workspace.workdir)

    def hint_heading(self, step: int, i: int) -> str:
        hints = self.session.lesson.step(step).text(self.lang).hints
        return say(self.lang, "Hint {i} of {n}", "힌트 {i}/{n}", i=i, n=len(hints))

    def redraw_lesson(self) -> None:
        s = self.session
        cur = s.progress.current
        self.query_one(StepList).show(
            [(st.number, st.title(s.lang), self.step_mark(st.number)) for st in s.lesson.steps], cur)
        # The verdict shown is the one of the step whose text is on screen: a new step's text takes
        # a few frames to parse and mount, and its verdict comes with it, in the same frame.
        self.query_one(LessonPane).show(self.step_markdown(cur), cur, self._draw_verdict)
        self._draw_verdict()
        self._draw_status()
        self._report_save()
        self._fit_footer()

    def footer_width(self) -> int:
        """The columns the footer has: the screen's, less the keys panel's beside it."""
        footers = self.screen_stack[0].query(KeyFooter) if self.screen_stack else ()
        width = footers.first().size.width if footers else 0
        return width or self.size.width

    @on(KeyFooter.Resized)
    def _footer_resized(self) -> None:
        self._fit_footer()

    def _fit_footer(self) -> None:
        """The footer's keys for the step, the width and the panel up (tutor/ui/footer_fit.py).
        The footer re-reads every binding on refresh_bindings: only when one of those moved."""
        s = self.session
        cur = s.progress.current
        if self._changed("bindings", cur, s.progress.hints.get(cur, 0), cur in s.progress.solutions,
                         cur in s.progress.passed, s.lang, self.footer_width(), self.query_one(DoctorPanel).display):
            self.footer_keys()
            for screen in self.screen_stack:  # a footer under a modal shows too (refresh_bindings tells the top's)
                screen.refresh_bindings()

    def _draw_verdict(self) -> None:
        s = self.session
        n = self.query_one(LessonPane).step or s.progress.current
        self._draw_step_strip(n)
        # Before the cluster first answers there is nothing to check: say so, not "checking…" for ever.
        checking = say(self.lang, "not checked yet: the cluster does not answer (the header says why)",
                       "아직 확인하지 못했습니다. 클러스터가 응답하지 않습니다(이유는 맨 윗줄에)") \
            if self._unreachable() else say(self.lang, "checking…", "확인 중…")
        self.query_one(VerdictBox).show(s.verdicts.get(n), n in s.progress.passed,
                                        {"checking": checking,
                                         "passed": say(self.lang, "passed", "통과함"), "now": say(self.lang, "now", "지금"),
                                         "title": say(self.lang, "Verdict", "판정"),
                                         "more": say(self.lang, "↓ more", "↓ 더 있음"),
                                         **{status.name: say(self.lang, *words) for status, words in STATUS_WORDS.items()}},
                                        step=n)

    def _draw_step_strip(self, current: int | None = None) -> None:
        """On a short terminal the step list has no room: the steps and their marks go on one line
        in the lesson pane's top border, which takes no row from the lesson."""
        s = self.session
        lesson = self.query_one(LessonPane)
        current = current or lesson.step or s.progress.current
        strip = ""
        if self.size.height < TALL_ROWS:
            strip = step_strip([(st.number, "", self.step_mark(st.number)) for st in s.lesson.steps], current)
        if lesson.border_title != strip:
            lesson.border_title = strip

    def on_resize(self) -> None:
        """Textual calls this before App's own handler of the same Resize, the one that takes
        the new size: until it has run, self.size is the old one. What fits the size is drawn
        once it has (the footer fitted to the old width kept the old keys, q and ? cut off, until
        a key made it fit again)."""
        self.call_next(self._resized)

    def _resized(self) -> None:
        self._draw_step_strip()
        self._fit_footer()
        self._show_notices()  # cut again for the new width

    def _report_save(self) -> None:
        """Says once when saving progress starts failing (disk full, directory gone) and once
        when it works again; the session goes on with its progress in memory meanwhile."""
        err = self.session.progress.save_error
        if err == self._save_error_shown:
            return
        self._save_error_shown = err
        if err:
            self.notice(say(self.lang, "Progress not saved to {path}: {err}. It is kept while lwstutor runs.",
                                    "진행 상황을 {path}에 저장하지 못했습니다: {err}. lwstutor가 실행되는 동안에는 유지됩니다.",
                                    err=err, path=self.session.progress.path), severity="warning", timeout=15)
        else:
            self.notice(say(self.lang, "Progress saved again.", "진행 상황을 다시 저장했습니다."), timeout=4)

    def redraw_live(self) -> None:
        """Redraws the panes now, from the state now (a refresh being drawn in turns ends with it)."""
        self.pump.redraw_now(self._redraw_panes())

    def _redraw_panes(self):
        """Redraws the panes whose data changed, yielding after each one that was redrawn."""
        s = self.session
        conn = s.connection()
        live = self.query_one("#live")
        live.set_class(conn in (Conn.RECONNECTING, Conn.CONNECTING) and bool(s.store.version), "-stale")
        ledger_on = self.ledger_shown()
        groups, ledger = self.query_one(GroupsPane), self.query_one(NodeLedger)
        if groups.display == ledger_on:
            groups.display, ledger.display = not ledger_on, ledger_on
        # Each pane redraws only when what it shows may have changed (tutor/ui/panes/), and notes
        # what it drew from once drawn: a redraw dropped between two panes (or half-way through
        # the events) leaves no pane marked as drawn that was not.
        data = self.live_data()
        for pane in (groups, ledger, self.query_one(PodList), self.query_one(EventList)):
            yield from pane.redraw(data)
        self._draw_status()
        self.redraw_timeline()

    def live_data(self) -> LiveData:
        """What the live panes are drawn from, now."""
        s = self.session
        return LiveData(s.store, s.lesson.namespace, s.lesson.gpu_resource, s.lang, self._unavailable,
                        self.step_pods())

    def redraw_timeline(self) -> None:
        # Built only while open, on top or under a modal (the help, the palette: it shows through
        # them, and a language switched there must reach it).
        for screen in self.screen_stack:
            if isinstance(screen, TimelineScreen):
                screen.show(self.session.store, self.session.lesson.namespace, self.lang)

    def step_pods(self) -> tuple[str, ...]:
        """The pods and nodes the current step is about: the pods its checker reads by name, and
        the nodes its lesson names (lesson.yaml `nodes`)."""
        s = self.session
        step = s.lesson.step(s.progress.current)
        if not s.store.version:  # no pod to name yet: the checker is imported after the first frame
            return step.nodes
        return (*step.checks().READS.pods, *step.nodes)

    def ledger_shown(self) -> bool:
        """The node ledger takes the groups pane's place on the steps about where pods land (the
        lesson's `ledger`), or when g chose it."""
        if self._ledger_chosen is not None:
            return self._ledger_chosen
        s = self.session
        return s.lesson.step(s.progress.current).ledger

    def _changed(self, pane: str, *key) -> bool:
        if self._drawn.get(pane) == key:
            return False
        self._drawn[pane] = key
        return True

    def _unavailable(self, resource: str) -> str:
        """Why a pane cannot show its resource (forbidden, its kind not served), or "" when it can."""
        st = self.session.states.get(resource)
        if st is None:
            return ""
        if st.state is Conn.FORBIDDEN:
            return say(self.lang, "no access to {res} (forbidden by RBAC); the other panes stay live. "
                                  "lwstutor doctor lists what is missing.",
                                  "{res:을} 읽을 권한이 없습니다(RBAC 거부). 다른 창은 계속 갱신됩니다. 빠진 권한은 lwstutor "
                                  "doctor가 알려 줍니다.", res=resource)
        row = kinds.named(resource)
        if st.state is Conn.CRD_MISSING and row is not None and row.may_be_absent:  # no CRD, or its group not served
            return row.absent(self.session.lang)
        return ""

    def _unreachable(self):
        """Why the cluster cannot be reached, before it was ever listed (a failure), or None."""
        s = self.session
        if s.connection() is not Conn.RECONNECTING or s.listed_once:
            return None  # after the first list, a failure is "reconnecting": the last data stays shown
        return next((st.failure for st in s.states.values() if st.state is Conn.RECONNECTING and st.failure), None)

    def _draw_status(self) -> None:
        s = self.session
        conn = s.connection()
        failure = self._unreachable()
        if self._changed("unreachable", failure is None):
            self._draw_verdict()  # its "checking…" says the cluster does not answer
        self.query_one(StatusBar).show(
            title=s.lesson.title(s.lang), context=self.context_name, namespace=s.lesson.namespace,
            conn=conn, passed=len(s.progress.passed), total=len(s.lesson.steps),
            lang=s.lang, replay=self.replay, unreachable=failure.brief(s.lang) if failure else "",
            absent=", ".join(row.absent_short(s.lang) for st in s.states.values()
                             if st.state is Conn.CRD_MISSING and (row := kinds.named(st.resource)) is not None))

    # --- actions -----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """None dims a key in the footer: nothing to go back to, no hint left, no solution to show."""
        s = self.session
        cur = s.progress.current
        if isinstance(self.screen, TimelineScreen) and action in TimelineScreen.HIDES:
            return False  # the lesson's keys, hidden while the timeline covers the lesson
        if action == "next" and cur >= len(s.lesson.steps):
            return None
        if action == "prev" and cur <= 1:
            return None
        if action == "goto" and not 1 <= parameters[0] <= len(s.lesson.steps):
            return False
        if action == "dismiss_doctor":  # only offered while the panel is up
            return self.query_one(DoctorPanel).display
        if action == "hint" and s.progress.hints.get(cur, 0) >= len(s.lesson.step(cur).text(s.lang).hints):
            return None
        if action == "solution":
            return self.solution_key()
        if action == "finish":
            return True if finished(s) else None
        if action == "predict":  # only before the step's episode, and once per question
            return True if can_predict(self) else None
        return True

    def action_goto(self, n: int) -> None:
        """A step the learner chose (a key, the step list, the palette)."""
        self._steered = True
        self._go(n)

    def _go(self, n: int) -> None:
        if 1 <= n <= len(self.session.lesson.steps):
            if n != self.session.progress.current:
                self._drop_pass_notice()
            self.session.progress.go(n)
            self.query_one(LessonPane).to_top()
            self.query_one(VerdictBox).to_top()
            newly = self.session.evaluate([n], {n})  # its verdict with the details shown on screen
            self.redraw_lesson()
            if newly:
                self._toast_passed(newly)
            self._ledger_chosen = None  # a new step shows what it is about (and the ledger its nodes first)
            self.redraw_live()

    def action_toggle_ledger(self) -> None:
        self._ledger_chosen = not self.ledger_shown()
        self.redraw_live()

    def action_next(self) -> None:
        self.action_goto(self.session.progress.current + 1)

    def action_prev(self) -> None:
        self.action_goto(self.session.progress.current - 1)

    def action_hint(self) -> None:
        s = self.session
        cur = s.progress.current
        if s.progress.reveal_hint(cur, len(s.lesson.step(cur).text(s.lang).hints)):
            self.redraw_lesson()
            shown = s.progress.hints[cur]
            self.query_one(LessonPane).bring_into_view(self.hint_heading(cur, shown))
        elif self.solution_key():
            self.notice(say(self.lang, "No more hints for this step: s shows its solution (it asks first).",
                                    "이 단계의 힌트를 모두 보았습니다. 풀이는 s 키로 봅니다(먼저 묻습니다)."), timeout=4)
        else:
            self.notice(say(self.lang, "No more hints for this step.", "이 단계의 힌트를 모두 보았습니다."), timeout=3)

    def action_recheck(self) -> None:
        self.recheck()

    def action_toggle_lang(self) -> None:
        s = self.session
        s.lang = "en" if s.lang == "ko" else "ko"
        s.progress.set_lang(s.lang)
        self._set_titles()
        self._localise_keys()
        self._relabel_doctor()
        for screen in self.screen_stack:  # on top or under a modal, it shows: in the new language
            if isinstance(screen, FinishScreen):
                self.call_next(screen.draw)
        self.recheck()

    def _localise_keys(self) -> None:
        """The footer's and the help's words in the learner's language (the bindings keep their
        keys and actions; Textual's footer reads the words from the app's binding map)."""
        localise_bindings(self, self.session.lang, self._english_keys)
        for screen in self.screen_stack:  # a screen with keys of its own (the timeline) follows
            if isinstance(screen, TimelineScreen) and screen.is_mounted:
                screen.localise(self.session.lang)
        self._drawn.pop("bindings", None)  # the words changed: fit them again
        self._fit_footer()
        for screen in self.screen_stack[:-1]:  # a footer under a modal is read too: the app redraws only the top's
            screen.refresh_bindings()

    def action_timeline(self) -> None:
        if isinstance(self.screen, TimelineScreen):
            self.screen.dismiss()
        else:
            self.push_screen(TimelineScreen())

    def action_maximize_pane(self) -> None:
        if self.screen.maximized is not None:
            self.screen.minimize()
            return
        focused = self.focused
        while focused is not None and not focused.allow_maximize:
            focused = focused.parent
        if focused is not None:
            self.screen.maximize(focused)

    def run_doctor(self, api_client, again: bool = False) -> None:
        """The lab preflight, in a worker: it makes a few dozen API calls. Its findings are said
        in the language of the moment, so a switch of language while they are shown asks again."""
        from tutor.doctor import run

        self._doctor_client = api_client

        def work() -> None:
            s = self.session
            try:
                findings = run(api_client, s.lesson.namespace, s.workspace.workdir, s.lesson.gpu_resource, lang=s.lang,
                               reads=s.lesson.kinds, lab=s.lesson.lab)
            except Exception:  # noqa: BLE001 - the preflight is advice; the watches report real trouble
                return
            self.post_message(DoctorDone(findings, again))

        self.run_worker(work, name="doctor", group="doctor", thread=True, exit_on_error=False)

    @on(DoctorDone)
    def _doctor_done(self, message: DoctorDone) -> None:
        panel = self.query_one(DoctorPanel)
        if self.closing or (message.again and not panel.display):  # hidden (x) while it was asked again
            return
        if panel.show(message.findings, *self._doctor_words()):
            self._fit_footer()

    def _doctor_words(self) -> tuple[str, str, str]:
        """The lab check panel's title, how to hide it and see it again, and how to hide it."""
        return (say(self.lang, "Lab check", "실습 환경 점검"),
                say(self.lang, "x hides this · lwstutor doctor prints it again", "x로 숨기기 · lwstutor doctor로 다시 보기"),
                say(self.lang, "x hides this", "x로 숨기기"))

    def _notes_words(self) -> tuple[str, str]:
        return say(self.lang, "Notices", "알림"), say(self.lang, "x hides this", "x로 숨기기")

    def _relabel_doctor(self) -> None:
        """The lab check panel in the new language: its border now, its findings once asked again
        (a notice kept in it stays as it was said)."""
        panel = self.query_one(DoctorPanel)
        if not panel.display:
            return
        panel.label(*(self._doctor_words() if panel.has_findings else self._notes_words()))
        if panel.has_findings and self._doctor_client is not None:
            self.run_doctor(self._doctor_client, again=True)

    def action_dismiss_doctor(self) -> None:
        self.query_one(DoctorPanel).shown(False)
        self._fit_footer()

    def action_minimize(self) -> None:
        """esc: a zoomed pane back in its place, and the notices gone, in one key."""
        self.clear_notifications()
        if self.screen.maximized is not None:
            self.screen.minimize()

    async def action_copy_or_quit(self) -> None:
        """ctrl+c quits as q does. Text selected with the mouse (a pod's UID for restart.txt) is
        copied instead, and the selection cleared: the next ctrl+c quits."""
        selected = self.screen.get_selected_text()
        if selected:
            self.copy_to_clipboard(selected)
            self.screen.clear_selection()
            self.notice(say(self.lang, "Copied. ctrl+c again quits.",
                                    "복사했습니다. ctrl+c를 한 번 더 누르면 끝납니다."), timeout=3)
            return
        await self.run_action("quit")

    def action_help(self) -> None:
        # Only the keys that do something here: no digit past the lesson's last step (a key
        # that is dimmed, as h with no hint left, is listed: it works again later).
        keys = [b for b in self.BINDINGS if self.check_action(*parse_action(b.action)[1:]) is not False]
        keys.append(PALETTE_KEY)
        self.push_screen(HelpScreen([localised(b, self.session.lang) for b in keys],
                                    say(self.lang, "Keys", "키"),
                                    say(self.lang, "The tutor only reads: your cluster and your files are never changed.",
                                                   "튜터는 읽기만 합니다. 클러스터와 파일은 절대 바꾸지 않습니다.")))

    @on(OptionList.OptionSelected, "#steps")
    def _step_chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_goto(event.option_index + 1)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's Screenshot: saved where it can be (tutor/ui/screenshot.py). It comes on a
        timer, after the palette closed: when q came first there is no screen left to save."""
        if self.closing or not self.screen_stack:
            return None
        return super().deliver_screenshot(filename, path or str(screenshot_dir()), time_format)

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        if event.name == "screenshot":
            event.prevent_default()  # Textual's own notice is in English
            self.notice(say(self.lang, "Screenshot saved: {path}", "스크린샷 저장: {path}",
                         path=shown_path(event.path) if event.path else ""))

    @on(events.DeliveryFailed)
    def _screenshot_failed(self, event: events.DeliveryFailed) -> None:
        if event.name == "screenshot":
            event.prevent_default()
            self.notice(say(self.lang, "Screenshot not saved: {err}", "스크린샷을 저장하지 못했습니다: {err}",
                         err=brief_error(event.exception)), severity="error")

    def action_command_palette(self) -> None:
        open_palette(self)

    def get_system_commands(self, screen):
        yield from system_commands(self, screen)
