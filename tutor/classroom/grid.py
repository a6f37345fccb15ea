"""The instructor's view of a class, as data: the class state (ClassStore.state) read as a grid
of learners by steps, who is stuck or away, and per step how many passed and the failing message
most learners see. No drawing here: the terminal view (tutor/ui/class_watch.py) draws these."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

# A mark per status, one cell wide each (the grid fits 80 columns with a dozen steps).
MARKS = {"pass": "✓", "fail": "✗", "waiting": "…", "error": "!", "unconfirmed": "?", "unchecked": "·"}
NOT_YET = " "  # a step the learner's tutor has not reported
STUCK_S = 10 * 60  # this long on one step without passing it: the instructor may want to go over
AWAY_S = 60.0  # no report for this long, not even a heartbeat (every 20 s): the tutor is not running


@dataclass(frozen=True)
class Row:
    name: str
    lesson: str
    marks: tuple[str, ...]  # one per step, 1 to the grid's last
    current: int
    on_step: float  # seconds on the current step
    stuck: bool
    away: bool


@dataclass(frozen=True)
class StepSummary:
    step: int
    passed: int
    learners: int
    failing: int  # learners whose latest status on it is fail (or error)
    common: str   # the failing message most of them see ("" when none fails)
    common_count: int


def last_step(state: dict) -> int:
    """The grid's width: the highest step any learner is on or has reported."""
    seen = [int(n) for learner in state.get("learners", []) for n in learner.get("steps", {})]
    seen += [int(learner.get("current", 1)) for learner in state.get("learners", [])]
    return max(seen, default=0)


def rows(state: dict) -> list[Row]:
    now, width = float(state.get("now", 0.0)), last_step(state)
    out = []
    for learner in state.get("learners", []):
        steps = learner.get("steps", {})
        current = int(learner.get("current", 1))
        on = steps.get(str(current), {})
        on_step = float(on.get("seconds", 0.0))
        out.append(Row(
            name=str(learner.get("name", "")), lesson=str(learner.get("lesson", "")),
            marks=tuple(MARKS.get(steps[str(n)]["status"], "?") if str(n) in steps else NOT_YET
                        for n in range(1, width + 1)),
            current=current, on_step=on_step,
            stuck=on.get("status") != "pass" and on_step >= STUCK_S,
            away=now - float(learner.get("last_seen", now)) >= AWAY_S))
    return out


def summaries(state: dict) -> list[StepSummary]:
    learners = state.get("learners", [])
    out = []
    for n in range(1, last_step(state) + 1):
        statuses = [learner.get("steps", {}).get(str(n)) for learner in learners]
        failing = Counter(s["message"] for s in statuses if s and s["status"] in ("fail", "error"))
        common, count = failing.most_common(1)[0] if failing else ("", 0)
        out.append(StepSummary(n, sum(1 for s in statuses if s and s["status"] == "pass"), len(learners),
                               sum(failing.values()), common, count))
    return out


def clock(seconds: float) -> str:
    """m:ss under an hour, else h:mm (a grid cell of at most 5 columns)."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}h{s % 3600 // 60:02d}"
