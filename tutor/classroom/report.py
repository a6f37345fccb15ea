"""What leaves a learner's machine for the class, as schemas: every request body is decoded
against one of these and refused whole when it does not fit (no unknown field, no field too
long). A report holds the lesson, and per step its status, its one-line message, the hints
revealed, the predictions made and the seconds spent on it: never an answer file, a cluster
object or anything else (the README says so to the learner)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

MAX_BODY = 32 * 1024  # bytes: a report of every step of the longest lesson is a few KiB
MAX_STEPS = 64
NAME = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
LESSON = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
STEP = Annotated[int, msgspec.Meta(ge=1, le=MAX_STEPS)]
COUNT = Annotated[int, msgspec.Meta(ge=0, le=1000)]
# A learner id is the server's (a short random string); its key is the proof that goes with it.
LEARNER = Annotated[str, msgspec.Meta(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Status = Literal["pass", "fail", "waiting", "error", "unconfirmed", "unchecked"]


class Join(msgspec.Struct, forbid_unknown_fields=True):
    """A tutor joining: the name the instructor sees and its lesson. `key`: the learner key of an
    earlier join under this name (a tutor started again keeps its place; without it, a name
    already taken is refused)."""
    name: NAME
    lesson: LESSON
    key: Annotated[str, msgspec.Meta(max_length=128)] = ""


class Joined(msgspec.Struct):
    learner: str
    key: str
    # A learner joining again: the seconds spent on each step of the lesson before, so the time
    # on a step goes on from there (a tutor counts only while it runs).
    seconds: dict[int, float] = {}


class StepState(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    step: STEP
    status: Status
    message: Annotated[str, msgspec.Meta(max_length=400)] = ""
    hints: COUNT = 0
    predictions: COUNT = 0
    seconds: Annotated[float, msgspec.Meta(ge=0, le=10_000_000)] = 0.0


class Report(msgspec.Struct, forbid_unknown_fields=True):
    """The steps whose state changed since the last report (none: a heartbeat), and the step the
    learner is on."""
    learner: LEARNER
    lesson: LESSON
    current: STEP
    steps: Annotated[list[StepState], msgspec.Meta(max_length=MAX_STEPS)] = []


def decode_join(body: bytes) -> Join:
    return msgspec.json.decode(body, type=Join)


def decode_report(body: bytes) -> Report:
    return msgspec.json.decode(body, type=Report)
