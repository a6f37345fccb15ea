"""A joined tutor's reports to its class (`lwstutor --join URL`): after each check, the steps
whose state changed go to the sender (tutor/classroom/sender.py), and every HEARTBEAT the step
the learner is on, with its time. Imported only when the tutor joins a class (aiohttp stays off
the path to the first frame otherwise). put() only fills a dict: the UI never waits on the network,
and the sender's task runs on the app's loop between frames.

A step's state is its status (a latched pass stays "pass"), its one-line message, the hints
revealed, the predictions made and the seconds the learner has spent on it while the tutor ran:
nothing else (no answer file, no cluster object) is read here."""

from __future__ import annotations

from time import monotonic
from typing import TYPE_CHECKING

from tutor.checks.verdict import Status
from tutor.classroom import report
from tutor.classroom.report import MAX_STEPS, StepState
from tutor.classroom.sender import Link, Sender
from tutor.i18n import classroom
from tutor.i18n.bilingual import pick, saying
from tutor.session import Session

if TYPE_CHECKING:
    from tutor.ui.app import TutorApp

HEARTBEAT = 20.0
MESSAGE_CHARS = 400  # the schema's bound: a longer message is cut, not refused
# A verdict's status as the schema names it (a status added to the checks must be added here too).
STATUS: dict[Status, report.Status] = {Status.PASS: "pass", Status.FAIL: "fail", Status.WAITING: "waiting",
                                       Status.ERROR: "error", Status.UNCONFIRMED: "unconfirmed"}


class ClassReport:
    def __init__(self, session: Session, sender: Sender):
        self.session, self.sender = session, sender
        self._put: dict[int, tuple] = {}  # step -> what was last put for it (seconds aside)
        self._spent: dict[int, float] = {}  # step -> seconds on it before the learner last came to it
        self._on, self._since = session.progress.current, monotonic()
        self._carried = False  # the time from the runs before was added (carry_on)

    def start(self, app: TutorApp) -> None:
        """On the app's loop, once the first frame is up: the sender's task, and the heartbeat. A
        change of the link redraws the header; a refusal is also a notice."""
        def changed(link: Link) -> None:
            if app.closing:
                return
            app.lesson.draw_status()
            if link is Link.REFUSED:
                said = self.sender.refusal
                why = classroom.REFUSALS.get(self.sender.refusal_kind, (said, said))
                app.notice(saying(*classroom.REFUSED_NOTICE, host=self.sender.address.host, why=why),
                           severity="warning", timeout=15)

        self.sender.on_change = changed
        self.sender.on_joined = self.carry_on
        app.run_worker(self.sender.run(), name="class-report", group="class", exit_on_error=False)
        app.set_interval(HEARTBEAT, self.beat)
        self.look()

    def look(self) -> None:
        """After a check (and a step moved to): each step whose state changed since last put."""
        self._clock()
        for step in self.session.lesson.steps[:MAX_STEPS]:
            state = self.state(step.number)
            said = (state.status, state.message, state.hints, state.predictions)
            if self._put.get(step.number) != said:
                self._put[step.number] = said
                self.sender.put(state, self.session.progress.current)

    def beat(self) -> None:
        """The step the learner is on, its time brought up to now (and a hint or a prediction made
        since the last check)."""
        self._clock()
        self.look()
        current = self.session.progress.current
        if current <= MAX_STEPS:
            self.sender.put(self.state(current), current)

    def state(self, step: int) -> StepState:
        s = self.session
        verdict = s.verdicts.get(step)
        latched = s.progress.passed.get(step)
        status: report.Status
        if latched is not None:
            status, message = "pass", str(latched.get("message", ""))
        elif verdict is not None:
            status, message = STATUS[verdict.status], verdict.message
        else:
            status, message = "unchecked", ""
        seconds = self._spent.get(step, 0.0) + (monotonic() - self._since if step == self._on else 0.0)
        return StepState(step, status, message[:MESSAGE_CHARS], s.progress.hints.get(step, 0),
                         len(s.progress.predictions.get(step, {})), round(seconds, 1))

    def carry_on(self, before: dict[int, float]) -> None:
        """The class's time on each step from the runs before this one: counted on from there,
        once a run (a second join's time would include this run's own)."""
        if self._carried:
            return
        self._carried = True
        for step, seconds in before.items():
            self._spent[step] = self._spent.get(step, 0.0) + seconds
        self.beat()

    def _clock(self) -> None:
        """Time on a step counts while it is the one shown."""
        current = self.session.progress.current
        if current != self._on:
            now = monotonic()
            self._spent[self._on] = self._spent.get(self._on, 0.0) + now - self._since
            self._on, self._since = current, now

    def header(self, lang: str) -> str:
        """The header's words for the link: reporting, the server away, or refused."""
        words = {Link.AWAY: classroom.AWAY, Link.REFUSED: classroom.REFUSED}.get(self.sender.link, classroom.REPORTING)
        return pick(words, lang, host=self.sender.address.host)
