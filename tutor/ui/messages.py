"""Messages the app's workers post; widgets are only touched on the app's thread."""

from __future__ import annotations

from textual.message import Message


class SourceReady(Message):
    """Items are waiting in the inbox (posted once per batch, not once per event)."""


class DoctorDone(Message):
    """The lab preflight finished (run in a worker at start-up on a live cluster)."""

    def __init__(self, findings: list) -> None:
        super().__init__()
        self.findings = findings
