"""The Textual tutor: the lesson screen beside the learner's cluster, driven by the keyboard.

The app keeps what is global: the sources and the session's driver (tutor/ui/session_driver.py), the
language, the notices, the screens pushed over the lesson, and quitting. The lesson's layout,
drawing and keys are its screen's (tutor/ui/screens/lesson.py); what a step shows is its page
(tutor/ui/step_page.py).
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ClassVar, Iterator, Mapping

from textual import events, on
from textual.actions import ActionParseResult
from textual.app import App
from textual.binding import BindingType
from textual.dom import DOMNode
from textual.notifications import Notification, Notify
from textual.screen import Screen

from tutor.session import Session
from tutor.ui.session_driver import LoopCall, SessionDriver
from tutor.ui.bindings.key_words import localise_stack, localised
from tutor.ui.services.lab_check import LabCheck
from tutor.ui.bindings.why_not import app_reason, pressed_reason
from tutor.ui.bindings.keys import APP_KEYS, KEYS, ON_LESSON, PALETTE_KEY, action_of
from tutor.ui.services.notices import Notices
from tutor.ui.messages import DoctorDone, ProgressReset, SourceReady
from tutor.ui.step_page import Page
from tutor.ui.screens.finish import FinishScreen, finished
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.base import FollowsTheStore
from tutor.ui.screens.lesson import TALL_ROWS, LessonScreen
from tutor.ui.screens.palette import BothLanguagesSystemCommands, TutorCommands, open_palette, show_keys, system_commands
from tutor.ui.screens.predict import asking
from tutor.ui.services.screenshot import SHOT_TIME, delivery_words, free_name, screenshot_dir
from tutor.ui.widgets.doctor_panel import DoctorPanel
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.i18n.bilingual import Said, saying

if TYPE_CHECKING:  # imported by who uses them, off the first frame's path: a class (aiohttp), the demo
    from tutor.ui.services.class_report import ClassReport
    from tutor.ui.services.demo_progress import DemoProgress

PUMP_CHECK_S = 1.0  # how often the watchdog looks at the refresh pump (a few reads: nothing at idle)
WARM_AFTER = 1.0  # seconds after the first frame: the step's text and the first lists come first
PUMP_STUCK_S = 3.0  # work waiting and nothing applied or drawn for this long: a lost wake-up
WHY_SECONDS = 4  # a key that cannot act says why for this long (or until esc)


class TutorApp(App):
    CSS_PATH = "tutor.tcss"
    TITLE = "lwstutor"
    COMMANDS = {BothLanguagesSystemCommands, TutorCommands}  # Textual's own entries, found in either language
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (70, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL_ROWS, "-tall")]
    ENABLE_COMMAND_PALETTE = True
    ESCAPE_TO_MINIMIZE = False  # esc also closes the notices: the lesson's binding does both
    BINDINGS: ClassVar[list[BindingType]] = [*APP_KEYS]

    def __init__(self, session: Session, *, context: str = "", replay: bool = False,
                 start_sources: Callable[["TutorApp"], None] | None = None, demo: DemoProgress | None = None,
                 class_report: ClassReport | None = None):
        super().__init__()
        self.session = session
        self.demo = demo  # the demo's progress: how far it is, what it waits for
        self.context_name, self.replay = context, replay
        self._start_sources = start_sources
        self.driver = SessionDriver(self, session, replay=replay, reports=class_report)
        self.page = Page(session, replay=replay)
        self.notices = Notices(self, self.page)  # the notices up: the app's own list (tutor/ui/services/notices.py)
        self._stoppers: list[Callable[[], None]] = []
        self.connect_error = ""  # set when a live connection fails after the first frame
        self._english_keys: dict = {}  # the bindings as declared, for switching their words back
        self.lab_check = LabCheck(self, session, self.page)
        self._finish_opened = False  # the finish screen opens by itself once a run
        self._finish_due = False  # ...after the screen that was up when the lesson was finished

    def get_default_screen(self) -> Screen:
        self.lesson = LessonScreen(self.session, self.page, self.driver, context=self.context_name,
                                   replay=self.replay)
        return self.lesson

    @property
    def lang(self) -> str:
        """The learner's language now ("ko" or "en"): every word on the screen is said in it."""
        return self.session.lang

    # --- start and end -----------------------------------------------------------------------
    def on_mount(self) -> None:
        # Thread workers run on the loop's default executor, which has only cpu+4 threads on a
        # small VM: five watches plus the file watcher would starve anything else.
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=16, thread_name_prefix="lwstutor"))
        self.driver.gc.start()
        self.session.progress.set_lang(self.session.lang)
        self._localise_keys()
        self._watch_pump()

    def on_ready(self) -> None:
        """The first frame is on screen. The step's text (parsed in a thread, mounted block by
        block) and the sources (a replay's reading thread, the watches) start only now: before,
        they competed with that frame, which shows neither the text nor the data."""
        self.driver.gc.first_frame()  # start-up held collections back until the first frame (run_tui)
        self.lesson.query_one("#lesson", LessonPane).release()
        if self._start_sources:
            self._start_sources(self)
        if self.driver.reports is not None:  # `--join URL`: the step states go to the class
            self.driver.reports.start(self)
        self.set_timer(WARM_AFTER, self._warm_checkers)

    def _warm_checkers(self) -> None:
        """Imports the lesson's checkers, one per turn of the loop, once the start is over. On
        the lab the namespace is empty at first: imported on demand, all of them came with the
        learner's first pod (about 60 ms of imports in the frame that showed it)."""
        cold = [st for st in self.session.lesson.steps if st.checker not in sys.modules]
        if cold and not self.closing:
            cold[0].checks()
            self.set_timer(0.01, self._warm_checkers)

    @property
    def closing(self) -> bool:
        """True once shutdown starts. Textual removes the screens (and our widgets) before the app
        itself unmounts, so late worker messages must check this, not wait for on_unmount."""
        return not self.is_running

    def run_source(self, fn: Callable[[], None], name: str, stop: Callable[[], None]) -> None:
        """Runs a blocking source loop in a thread worker; it reports through the driver's inbox.
        Thread workers cannot be cancelled, so `stop` is called on unmount to end the loop."""
        self._stoppers.append(stop)
        self.run_worker(fn, name=name, group="sources", thread=True, exit_on_error=False)

    def on_unmount(self) -> None:
        self.driver.gc.stop()
        if self.driver.pump.timer is not None:
            self.driver.pump.timer.stop()
        for stop in self._stoppers:
            stop()

    def _watch_pump(self) -> None:
        """The screen must never show a stale cluster as current: when the pump has work and has
        not moved for PUMP_STUCK_S (a call it waits for never came), it starts again, and the
        learner is told the screen caught up."""
        if self.closing:
            return
        pump = self.driver.pump
        if pump.stuck(self.driver.inbox.waiting, PUMP_STUCK_S):
            pump.unstick()
            self.log.warning(f"refresh pump unstuck ({pump.unstuck})")
            self.notice(saying("The screen fell behind the cluster; it is current again.",
                               "화면이 클러스터를 놓쳤다가 다시 최신 상태가 되었습니다."), severity="warning")
        LoopCall(self, PUMP_CHECK_S, self._watch_pump)

    def demo_status(self) -> str:
        """The demo's step and time left, for the status bar ("" outside the demo)."""
        return self.demo.status(self.lang, len(self.session.lesson.steps)) if self.demo else ""

    async def on_event(self, event) -> None:
        # Keys still queued when quitting begins (typed after q, or a burst) would be handed to
        # a screen stack that is already empty, which ends the app with a traceback.
        if isinstance(event, events.Key) and (self.closing or not self.screen_stack):
            return
        await super().on_event(event)

    @on(SourceReady)
    def _drain(self) -> None:
        self.driver.drain()

    # --- what the driver and the lesson screen ask -------------------------------------------
    def redraw(self) -> Iterator[None]:
        """After the checkers ran: the lesson now, and its panes in turns (the driver's refresh)."""
        self.lesson.redraw_lesson()
        return self.lesson.redraw_panes()

    def panes_drawn(self) -> None:
        # The timeline is built only while open, on top or under a modal (the help, the palette:
        # it shows through them, and a language switched there must reach it).
        for screen in self.screen_stack:
            if isinstance(screen, FollowsTheStore):
                screen.show(self.session.store, self.session.lesson.namespace, self.lang)

    def passed(self, newly: list[int]) -> None:
        self.notices.passed(newly)
        if not self.driver.paced:  # the demo opens it at its end, after the last recap's pause
            self.open_finish()

    # --- notices -----------------------------------------------------------------------------
    def notice(self, message: Said, **kw) -> Notification:
        """A notice on the notices' line under the header (tutor/ui/services/notices.py)."""
        return self.notices.say(message, **kw)

    @on(Notify)
    def _notified(self, event: Notify) -> None:
        """Textual's own notices (App.notify posts them) go on the notices' line too, not in toasts."""
        event.prevent_default()
        n = event.notification
        self.notices.textual(n)

    def clear_notifications(self) -> None:
        self.notices.clear()

    def on_resize(self) -> None:
        self.call_next(self.notices.redraw)  # cut again for the new width, once it is the app's

    # --- the screens over the lesson ---------------------------------------------------------
    def open_finish(self) -> None:
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
            self.call_after_refresh(self.open_finish)
        return done

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """None dims a key in the footer: no end before every step passed, nothing to predict.
        The key, pressed, says why (why_not; run_action)."""
        return True if self.why_not(action, parameters) is None else None

    def why_not(self, action: str, parameters: tuple) -> Said | None:
        """Why an app key cannot act now (tutor/ui/bindings/why_not.py); None when it can."""
        return app_reason(self, action)

    async def run_action(self, action: str | ActionParseResult, default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """Runs an action as Textual does; a key whose action cannot act now (dimmed, or left out of
        the footer) says why in a notice instead of doing nothing without a word."""
        if await super().run_action(action, default_namespace, namespaces):
            return True
        reason = pressed_reason(action, self if default_namespace is None else default_namespace)
        if reason is not None:
            self.notice(reason, timeout=WHY_SECONDS)
        return reason is not None

    def key_state(self, binding) -> bool | None:
        """check_action of the screen or the app that owns the key."""
        name, parameters = action_of(binding.action)
        return (self.lesson if name in ON_LESSON else self).check_action(name, parameters)

    def action_finish(self) -> None:
        reason = self.why_not("finish", ())
        if reason is not None:  # the palette's entry (the key is dimmed then, and says so itself)
            self.notice(reason, timeout=4)
        elif not isinstance(self.screen, FinishScreen):
            self.push_screen(FinishScreen())

    def action_help(self) -> None:
        # Only the keys that do something here: no digit past the lesson's last step (a key
        # that is dimmed, as h with no hint left, is listed: it works again later).
        keys = [b for b in KEYS if self.key_state(b) is not False]
        self.push_screen(HelpScreen.of_keys([localised(b, self.lang) for b in [*keys, PALETTE_KEY]], self.lang))

    def action_timeline(self) -> None:
        from tutor.ui.screens.timeline_view import TimelineScreen  # here: its story is not the first frame's
        if isinstance(self.screen, TimelineScreen):
            self.screen.dismiss()
        else:
            self.push_screen(TimelineScreen())

    def action_predict(self) -> None:
        """w: the step's questions in a modal (tutor/ui/screens/predict.py)."""
        screen = asking(self.page)
        if screen is None:  # the palette's entry (the key is dimmed then, and says so itself)
            self.notice(self.why_not("predict", ()) or self.page.why_no_prediction(), timeout=4)
        else:
            self.push_screen(screen, lambda _answered: self.lesson.redraw_lesson())

    def action_toggle_ledger(self) -> None:
        self.lesson.toggle_ledger()

    def action_recheck(self) -> None:
        self.driver.recheck()

    @on(ProgressReset)
    def _progress_reset(self) -> None:
        self._finish_opened = False  # passing it again finishes the lesson again
        self.driver.recheck()

    # --- the language --------------------------------------------------------------------------
    def action_toggle_lang(self) -> None:
        s = self.session
        s.lang = "en" if s.lang == "ko" else "ko"
        s.progress.set_lang(s.lang)
        self.lesson.set_titles()
        self.notices.said_again()
        self._localise_keys()
        self.lab_check.relabel(self.lesson.query_one(DoctorPanel))
        for screen in self.screen_stack:  # on top or under a modal, it shows: in the new language
            if isinstance(screen, FinishScreen):
                self.call_next(screen.draw)
        self.driver.recheck()

    def _localise_keys(self) -> None:
        localise_stack(self, self.lesson, self.session.lang, self._english_keys)

    # --- the lab check -----------------------------------------------------------------------
    def run_doctor(self, api_client) -> None:
        self.lab_check.run(api_client)

    @on(DoctorDone)
    def _doctor_done(self, message: DoctorDone) -> None:
        if not self.closing and self.lab_check.done(self.lesson.query_one(DoctorPanel), message):
            self.lesson.fit_footer()

    # --- quitting, copying, screenshots, the palette -------------------------------------------
    async def action_copy_or_quit(self) -> None:
        """ctrl+c quits as q does. Text selected with the mouse (a pod's UID for restart.txt) is
        copied instead, and the selection cleared: the next ctrl+c quits."""
        selected = self.screen.get_selected_text()
        if selected:
            self.copy_to_clipboard(selected)
            self.screen.clear_selection()
            self.notice(saying("Copied. ctrl+c again quits.", "복사했습니다. ctrl+c를 한 번 더 누르면 끝납니다."), timeout=3)
            return
        await self.run_action("quit")

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's Screenshot: saved where it can be (tutor/ui/services/screenshot.py). It comes on a
        timer, after the palette closed: when q came first there is no screen left to save."""
        if self.closing or not self.screen_stack:
            return None
        # To the second, not the microsecond: the name fits whole in the notice at 60 columns.
        folder = path or str(screenshot_dir())
        return super().deliver_screenshot(filename or free_name(Path(folder)), folder, time_format or SHOT_TIME)

    @on(events.DeliveryComplete)
    @on(events.DeliveryFailed)
    def _screenshot_said(self, event: events.DeliveryComplete | events.DeliveryFailed) -> None:
        if event.name == "screenshot":
            event.prevent_default()  # Textual's own notice is in English
            failed = isinstance(event, events.DeliveryFailed)
            self.notice(delivery_words(event, self.size.width), severity="error" if failed else "information")

    def action_command_palette(self) -> None:
        open_palette(self)

    def get_system_commands(self, screen):
        yield from system_commands(self, screen)

    def action_show_help_panel(self) -> None:  # the palette's "Keys", in the learner's language
        show_keys(self)
