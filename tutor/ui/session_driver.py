"""The session's driver: the refresh pump's host (tutor/ui/refresh/pump.py).

Source workers (threads) put items in the Inbox, which posts SourceReady; the app hands that to
drain(), and the pump applies the items to the Session on the app's thread and paces one
refresh that re-runs the checkers and redraws the lesson screen. Nothing re-runs on a timer:
only a change from a source or a key press triggers work. What the driver cannot do itself
(draw, say, move the view) it asks of the app through DriverHost."""

from __future__ import annotations

import asyncio
from time import monotonic
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from textual.app import App

from tutor.cluster.source_events import ShowStep
from tutor.session import Session
from tutor.ui.refresh.inbox import Inbox
from tutor.ui.messages import SourceReady
from tutor.ui.refresh.oracle import Oracle
from tutor.ui.refresh.pump import RefreshPump
from tutor.ui.refresh.quiet_gc import QuietCollector
from tutor.i18n.bilingual import Said, saying

if TYPE_CHECKING:  # imported only when the tutor joins a class: aiohttp is not on the first frame's path
    from tutor.ui.services.class_report import ClassReport


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

    def call_later(self, delay: float, fn: Callable[[], None]) -> LoopCall:
        return LoopCall(self.app, delay, fn)

    def call_soon(self, fn: Callable[[], None]) -> None:
        asyncio.get_running_loop().call_soon(fn)


class LoopCall:
    """One delayed call on the app's loop; stop() keeps it from running, even once it is due and
    queued behind the app's messages."""

    def __init__(self, app: App, delay: float, fn: Callable[[], None]):
        self._fn: Callable[[], None] | None = fn
        self._handle = asyncio.get_running_loop().call_later(delay, app.call_next, self._call)

    def _call(self) -> None:
        fn, self._fn = self._fn, None
        if fn is not None:
            fn()

    def stop(self) -> None:
        self._fn = None
        self._handle.cancel()


class DriverHost(Protocol):
    closing: bool

    def redraw(self) -> Iterator[None]: ...  # the lesson and its panes, after the checkers ran

    def passed(self, steps: list[int]) -> None: ...  # steps just passed

    lesson: Any  # the lesson screen (go to a step)

    def notice(self, message: str | Said, **kw: Any) -> Any: ...

    def open_finish(self) -> None: ...  # the end of the lesson, once it is finished

    def post_message(self, message: Any) -> bool: ...


class SessionDriver:
    def __init__(self, app: App, session: Session, *, replay: bool, reports: ClassReport | None = None):
        self.app = app
        self.host: DriverHost = app  # type: ignore[assignment]  # Textual types it as any App; it is the TutorApp
        self.session = session
        self.replay = replay
        self.inbox = Inbox(self.wake)
        self.pump = RefreshPump(self, LoopClock(app))
        self.gc = QuietCollector()  # full collections wait for a quiet moment
        self.checks_run = 0  # how many re-checks ran (tests and benchmarks read it)
        self.reports = reports  # `--join URL`: each check's step states go to the class
        # The pane-vs-store oracle, behind LWSTUTOR_ORACLE (tutor/ui/refresh/oracle.py): each settled
        # refresh's panes compared with a rebuild from the store, and a mismatch dumped.
        self.oracle = Oracle.from_env()
        self.steered = False  # the learner chose a step: the demo's own steps no longer move the view
        self.paced = False  # the source moves the view itself (the demo): its end opens the finish screen
        # A replay's instants not judged yet, the time of the last item applied, and the steps
        # those judgements passed, for the next refresh's notice (_judge_instant).
        self._unjudged = False
        self._instant: float | None = None
        self._passed_between: list[int] = []

    @property
    def closing(self) -> bool:
        return self.host.closing

    def drain(self) -> None:
        if not self.closing:
            self.pump.drain()

    def recheck(self) -> None:
        """Re-runs the checkers whose inputs changed and redraws what changed (the pump paces it)."""
        self.pump.refresh_now()

    @property
    def refreshing(self) -> bool:
        """Whether a refresh's panes are still being redrawn (in turns of the loop)."""
        return self.pump.refreshing

    # --- the pump's host ---------------------------------------------------------------------
    def take_items(self) -> list:
        return self.inbox.drain()

    def items_settled(self) -> None:
        self.inbox.settled()

    def is_barrier(self, item: Any) -> bool:
        return isinstance(item, ShowStep)  # the step shown must follow what the data before it passed

    def apply_item(self, item: Any) -> bool:
        self.inbox.applied()
        if isinstance(item, ShowStep):
            self.show_step(item)
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

    def show_step(self, item: ShowStep) -> None:
        """The demo moves the view on to the step it plays next, until the learner picks a step
        (a digit, n, p, the step list, the palette): from then on the view is theirs, and the
        recording plays on beneath it."""
        self.paced = True
        if not self.steered:
            self.host.lesson.go(item.step)
        elif item.step != self.session.progress.current and not item.title[0]:
            self.host.notice(saying("The demo plays step {n}; you stay on the step you chose.",
                                    "데모는 지금 {n}단계를 재생합니다. 화면은 그대로입니다.", n=item.step),
                             timeout=4)
        if item.title[0]:  # kept as what they say: l says them again in the other language
            self.host.notice(saying(*item.body), title=saying(*item.title), timeout=8)
            self.host.open_finish()

    def wake(self) -> None:
        self.app.post_message(SourceReady())

    def _judge_instant(self) -> None:
        """A replay is judged at every instant it holds, as `check --replay` judges it: a step that
        passed for a moment between two refreshes (a fast replay applies many instants in one)
        is latched all the same, and its notice waits for the refresh."""
        self._unjudged = False
        self._passed_between += self.session.evaluate(None, {self.session.progress.current})

    def run_checks(self) -> Iterator[None]:
        """A refresh: the checkers now, then the panes, yielding after each one redrawn. The pump
        redraws them a slice of time per turn of the loop: after a burst each may have
        thousands of rows to follow, and keys and frames must not wait for all."""
        self.checks_run += 1
        # only the step on screen shows its details: only it gets the scheduler explanations
        newly = self._passed_between + self.session.evaluate(None, {self.session.progress.current})
        self._passed_between, self._unjudged = [], False
        if self.reports is not None:  # only fills the sender's queue: never waits
            self.reports.look()
        panes = self.host.redraw()
        if newly:
            self.host.passed(newly)
        return panes

    def refresh_drawn(self) -> None:
        """A refresh is on screen (from the next frame): quiet from here, a full collection may run.
        With the oracle on, a refresh that leaves nothing to apply is compared with the store."""
        self.gc.busy()
        if self.oracle is not None and self.pump.idle and not self.inbox.waiting:
            self.oracle.check(self.app)
