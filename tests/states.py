"""Cluster states for checker tests, cut from recordings made on the real lab control plane.

`state("walkthrough", stop=before_file("restart.txt"))` replays a recording into a Session up to
(not including) the first item the predicate matches. Answer files can then be overridden to
test file-level near misses against a real cluster state.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Callable

from tests.conftest import recording_path
from tutor.checks import run_checker
from tutor.checks.verdict import Verdict
from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent, Relisted
from tutor.cluster.recording import Recording, read
from tutor.cluster.store import KINDS
from tutor.cluster.timeline import parse_time
from tutor.lesson.loader import load
from tutor.session import Session

Pred = Callable[[object], bool]


@lru_cache(maxsize=None)
def recording(name: str) -> Recording:
    return read(recording_path(name))


def state(name: str, stop: Pred | None = None, after: Pred | None = None, lang: str = "en",
          files: dict[str, str | None] | None = None,
          hooks: tuple[tuple[Pred, Callable[[Session], None]], ...] = ()) -> Session:
    """Replays up to the first item matching `stop` (excluded), or through the first matching
    `after` (included), or to the end. Each hook (pred, change) changes the state right after
    every item its predicate matches."""
    rec = recording(name)
    lesson = load(rec.header.lesson or "lws")  # the lesson the recording was made for
    s = Session(lesson, rec.header.workdir or lesson.workdir, lang)
    s.store.started_at = started_at(name)
    for item in rec.items:
        if stop is not None and stop(item):
            break
        s.apply(item)
        for pred, change in hooks:
            if pred(item):
                change(s)
        if after is not None and after(item):
            break
    else:
        assert stop is None and after is None, f"{name}: the predicate never matched"
    for fname, content in (files or {}).items():
        s.apply(FileChanged(fname, content, s.store.now))
    return s


def check(session: Session, step: int) -> Verdict:
    return run_checker(session.lesson.step(step), session.context())


def file_written(fname: str, containing: str = "") -> Pred:
    return lambda it: isinstance(it, FileChanged) and it.name == fname and it.content is not None \
        and containing in it.content


def event(kind: str, name: str, type_: str | None = None, where: Callable[[dict], bool] = lambda obj: True) -> Pred:
    return lambda it: isinstance(it, ObjectEvent) and o.kind(it.obj) == kind and o.name(it.obj) == name \
        and (type_ is None or it.type == type_) and where(it.obj)


def running(pod: str) -> Pred:
    return event("Pod", pod, where=lambda p: o.phase(p) == "Running" and not o.is_terminating(p))


ROLLED_REVISION = "557f644bdf"  # the llm template with VERSION (step 6), as the recordings have it


def new_leader_running(group: int) -> Pred:
    """Step 6's new leader of a group of llm Running (on its new revision)."""
    return event("Pod", f"llm-{group}", where=lambda p: o.phase(p) == "Running" and o.revision(p) == ROLLED_REVISION)


def not_yet_deleted(pod: str) -> Callable[[Session], None]:
    """A pod's deletion taken back, when it is Terminating. On the real node an old worker stays
    Terminating through its grace period while its group's new leader starts; the KWOK lab, whose
    pods go at once, recorded the old worker still Running beside the new leader for a moment
    (two revisions in one group). This makes that moment from the real one."""
    def change(s: Session) -> None:
        old = s.store.get("Pod", pod, "infer")
        if old is None or not o.is_terminating(old):
            return
        old = copy.deepcopy(old)  # the recording's objects are shared between states
        del old["metadata"]["deletionTimestamp"]
        old["metadata"]["resourceVersion"] += "0"
        s.apply(ObjectEvent("MODIFIED", old, s.store.now))
    return change


def final_file(name: str, fname: str) -> str:
    """The answer file as the recording leaves it: its last FileChanged."""
    return [it.content for it in recording(name).items if isinstance(it, FileChanged) and it.name == fname][-1]


def started_at(name: str) -> float | None:
    """The recording's start as wall-clock seconds, as the tutor's replay sets it."""
    parsed = parse_time(recording(name).header.started_at)
    return parsed[0] if parsed else None


def late(session: Session, lang: str | None = None, events_expired: bool = False) -> Session:
    """A tutor (or `check`) started only now: one list of what the cluster holds at this moment
    (the Events it still keeps included, or none once they expired), the answer files as they
    are, and no history."""
    fresh = Session(session.lesson, "/root/gsb-lws", lang or session.lang)
    now = session.store.now
    fresh.store.started_at = (session.store.started_at or 0.0) + now
    for kind in KINDS:
        objs = [] if kind == "Event" and events_expired else session.store.all(kind)
        fresh.apply(Relisted(kind, objs, 0.0))
    for name in session.lesson.answer_files:
        fresh.apply(session.workspace.get(name))  # with the time it was written, as its mtime says
    return fresh
