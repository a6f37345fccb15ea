"""A checker's answer: a status, one message that names what to fix, and detail lines."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Status(str, Enum):
    PASS = "pass"
    FAIL = "fail"
    WAITING = "waiting"  # a real outcome: pods starting, a rollout in progress
    ERROR = "error"  # the checker itself broke, or the data made no sense
    # Neither pass nor fail: the answer may be right, but what would prove it is gone (the tutor
    # was not running when it happened and the cluster keeps no record). The learner did nothing
    # wrong; the verdict says how to make it confirmable again.
    UNCONFIRMED = "unconfirmed"


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str
    details: tuple[str, ...] = ()
    # What happened, in order, for the steps about sequences (tutor/checks/step_story.py):
    # `check --json` entries {time, offset, lws, group, kind, what, cause}; None on other steps.
    timeline: tuple[tuple[tuple[str, object], ...], ...] | None = None

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    def to_json(self) -> dict:
        out: dict[str, object] = {"status": self.status.value, "message": self.message, "details": list(self.details)}
        if self.timeline is not None:
            out["timeline"] = [dict(entry) for entry in self.timeline]
        return out


def passed(message: str, *details: str) -> Verdict:
    return Verdict(Status.PASS, message, tuple(details))


def failed(message: str, *details: str) -> Verdict:
    return Verdict(Status.FAIL, message, tuple(details))


def waiting(message: str, *details: str) -> Verdict:
    return Verdict(Status.WAITING, message, tuple(details))


def unconfirmed(message: str, *details: str) -> Verdict:
    return Verdict(Status.UNCONFIRMED, message, tuple(details))


class Stop(Exception):
    """Raised inside a checker to return a verdict from deep in a helper."""

    def __init__(self, verdict: Verdict):
        super().__init__(verdict.message)
        self.verdict = verdict
