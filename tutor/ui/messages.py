"""Messages posted up to the app: by its workers (widgets are only touched on the app's thread)
and by the lesson screen."""

from __future__ import annotations

from textual.message import Message


class SourceReady(Message):
    """Items are waiting in the inbox (posted once per batch, not once per event)."""


class DoctorDone(Message):
    """The lab preflight finished (run in a worker at start-up on a live cluster, and again when
    the language switches while its findings are shown: `again`)."""

    def __init__(self, findings: list, again: bool = False) -> None:
        super().__init__()
        self.findings = findings
        self.again = again


class ProgressReset(Message):
    """The learner reset a step or all progress (the lesson screen, after asking): passing again
    finishes the lesson again, and the checkers run anew."""
