"""The demo's plan, in seconds of screen time: how long it takes, which step it plays when, and
the long waits in it with what each is waiting for. Built from the paced items (paced()), so the
plan is the schedule the replay keeps, at any pause and speed.

A wait is a stretch of more than LONG_WAIT seconds with nothing new on screen. A node's heartbeat
(a MODIFIED that moves only its heartbeat times) shows nothing, so it does not end a wait: the
kubelet beats every 10 s, and the pods' grace period of 30 s would otherwise never be one wait."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from tutor.cluster.source_events import FileChanged, ObjectEvent, ShowStep

LONG_WAIT = 10.0  # seconds of screen time: a shorter wait says nothing

# What a wait waits for, worded (English, Korean); {name} is a file's name.
GRACE = ("the pods' termination grace period", "파드 종료 유예 기간")
ANSWER_FILE = ("the answer file {name}", "답안 파일 {name}")


@dataclass(frozen=True)
class Wait:
    start: float  # seconds of screen time since the demo started
    end: float
    what: tuple[str, str] = ("", "")  # (English, Korean); empty: only that something comes next


@dataclass
class Plan:
    end: float = 0.0  # when the last item is emitted: the demo's length
    steps: list[tuple[float, int]] = field(default_factory=lambda: [(0.0, 1)])  # (from when, step)
    waits: list[Wait] = field(default_factory=list)

    def step_at(self, elapsed: float) -> int:
        return max((step for when, step in self.steps if when <= elapsed), default=1)

    def wait_at(self, elapsed: float) -> Wait | None:
        return next((w for w in self.waits if w.start <= elapsed < w.end), None)


def plan(schedule: Iterable[tuple[float, Any]], seconds_per_unit: float = 1.0) -> Plan:
    """The plan of paced() items; `seconds_per_unit` turns their times into screen seconds
    (1 / replay_speed)."""
    result = Plan()
    objects: dict[str, dict] = {}  # the objects as of now, by uid
    last = 0.0  # when something last showed
    for at, item in schedule:
        now = at * seconds_per_unit
        result.end = now
        if isinstance(item, ShowStep):
            result.steps.append((now, item.step))
            continue
        quiet = isinstance(item, ObjectEvent) and heartbeat_only(objects.get(_uid(item.obj)), item)
        if not quiet:
            if now - last > LONG_WAIT:
                result.waits.append(Wait(last, now, waiting_for(objects.values(), item)))
            last = now
        if isinstance(item, ObjectEvent):
            if item.type == "DELETED":
                objects.pop(_uid(item.obj), None)
            else:
                objects[_uid(item.obj)] = item.obj
    return result


def _uid(obj: dict) -> str:
    meta = obj.get("metadata") or {}
    return str(meta.get("uid") or (obj.get("kind"), meta.get("namespace"), meta.get("name")))


def heartbeat_only(before: dict | None, event: ObjectEvent) -> bool:
    """A MODIFIED that changes only the object's version and its conditions' heartbeat times."""
    return event.type == "MODIFIED" and before is not None and _without_beat(before) == _without_beat(event.obj)


def _without_beat(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _without_beat(v) for k, v in obj.items() if k not in ("resourceVersion", "lastHeartbeatTime")}
    if isinstance(obj, list):
        return [_without_beat(v) for v in obj]
    return obj


def waiting_for(objects: Iterable[dict], coming: Any) -> tuple[str, str]:
    """What a wait that ends with `coming` waits for, as the objects before it tell: pods being
    deleted wait out their grace period; a learner's answer file is the learner's to write."""
    if any(o.get("kind") == "Pod" and (o.get("metadata") or {}).get("deletionTimestamp")
           and (o.get("metadata") or {}).get("deletionGracePeriodSeconds") for o in objects):
        return GRACE
    if isinstance(coming, FileChanged):
        return (ANSWER_FILE[0].format(name=coming.name), ANSWER_FILE[1].format(name=coming.name))
    return ("", "")
