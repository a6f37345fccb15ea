"""The instructor's view of a class, as data: the class state (ClassStore.state) read as a grid
of learners by steps, who is stuck or away, and per step how many passed and the failing message
most learners see; the grid's rows in an order and filtered, and one learner's verdicts. No
drawing here: the terminal view (tutor/ui/class_watch.py) and the page (class_page.py) draw these."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

# A mark per status, one cell wide each (the grid fits 80 columns with a dozen steps).
MARKS = {"pass": "✓", "fail": "✗", "waiting": "…", "error": "!", "unconfirmed": "?", "unchecked": "·"}
NOT_YET = " "  # a step the learner's tutor has not reported
STUCK_S = 10 * 60  # this long on one step without passing it: the instructor may want to go over
AWAY_S = 60.0  # no report for this long, not even a heartbeat (every 20 s): the tutor is not running


# The orders of the rows and the learners shown, first the default (the page's ?sort= and ?only=).
ORDERS = ("name", "progress", "time")
FILTERS = ("all", "stuck", "away")
FAILING = ("fail", "error")


@dataclass(frozen=True)
class Row:
    id: str
    name: str
    lesson: str
    marks: tuple[str, ...]  # one per step, 1 to the grid's last
    current: int
    on_step: float  # seconds on the current step
    stuck: bool
    away: bool
    passed: int  # steps passed
    failing: bool  # a step's latest verdict is a failure


@dataclass(frozen=True)
class Verdict:
    """One step of a learner, as their tutor last reported it."""
    step: int
    status: str
    message: str
    hints: int
    predictions: int
    seconds: float


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
            id=str(learner.get("id", "")), name=str(learner.get("name", "")), lesson=str(learner.get("lesson", "")),
            marks=tuple(MARKS.get(steps[str(n)]["status"], "?") if str(n) in steps else NOT_YET
                        for n in range(1, width + 1)),
            current=current, on_step=on_step,
            stuck=on.get("status") != "pass" and on_step >= STUCK_S,
            away=now - float(learner.get("last_seen", now)) >= AWAY_S,
            passed=sum(1 for s in steps.values() if s.get("status") == "pass"),
            failing=any(s.get("status") in FAILING for s in steps.values())))
    return out


def ordered(rows: list[Row], order: str) -> list[Row]:
    """By name; by progress, fewest steps passed first (who may need help); or by time on the
    current step, longest first. The name breaks ties, so the order holds from one read to the next."""
    by_name = sorted(rows, key=lambda r: (r.name.casefold(), r.name, r.id))
    if order == "progress":
        return sorted(by_name, key=lambda r: r.passed)
    if order == "time":
        return sorted(by_name, key=lambda r: -r.on_step)
    return by_name


def only(rows: list[Row], which: str) -> list[Row]:
    """Everyone; only the stuck or failing; or only those whose tutor stopped reporting."""
    if which == "stuck":
        return [r for r in rows if r.stuck or r.failing]
    if which == "away":
        return [r for r in rows if r.away]
    return list(rows)


def next_of(choices: tuple[str, ...], now: str) -> str:
    """The choice after `now`, the first after the last (a key cycles through them)."""
    return choices[(choices.index(now) + 1) % len(choices)] if now in choices else choices[0]


def learner(state: dict, key: str) -> dict | None:
    """The learner whose id is `key`, else the first whose name is (ids are the server's, unique)."""
    learners = state.get("learners", [])
    return (next((one for one in learners if one.get("id") == key), None)
            or next((one for one in learners if one.get("name") == key), None))


def verdicts(learner: dict) -> list[Verdict]:
    """Each step the learner's tutor reported, in step order."""
    return [Verdict(int(n), str(s.get("status", "")), str(s.get("message", "")), int(s.get("hints", 0)),
                    int(s.get("predictions", 0)), float(s.get("seconds", 0.0)))
            for n, s in sorted(learner.get("steps", {}).items(), key=lambda item: int(item[0]))]


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
