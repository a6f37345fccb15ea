"""Cluster states for checker tests, cut from recordings made on the real lab control plane.

`state("walkthrough", stop=before_file("restart.txt"))` replays a recording into a Session up to
(not including) the first item the predicate matches. Answer files can then be overridden to
test file-level near misses against a real cluster state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from tests.conftest import recording_path
from tutor.checks import run_checker
from tutor.checks.verdict import Verdict
from tutor.cluster import objects as o
from tutor.cluster.events import FileChanged, ObjectEvent
from tutor.cluster.recording import Recording, read
from tutor.lesson.loader import load
from tutor.session import Session

Pred = Callable[[object], bool]


@lru_cache(maxsize=None)
def recording(name: str) -> Recording:
    return read(recording_path(name))


def state(name: str, stop: Pred | None = None, after: Pred | None = None, lang: str = "en",
          files: dict[str, str | None] | None = None) -> Session:
    """Replays up to the first item matching `stop` (excluded), or through the first matching
    `after` (included), or to the end."""
    s = Session(load(), "/root/gsb-lws", lang)
    for item in recording(name).items:
        if stop is not None and stop(item):
            break
        s.apply(item)
        if after is not None and after(item):
            break
    else:
        assert stop is None and after is None, f"{name}: the predicate never matched"
    for fname, content in (files or {}).items():
        s.apply(FileChanged(fname, content, s.store.now))
    return s


def check(session: Session, step: int) -> Verdict:
    return run_checker(session.lesson.step(step).checker, session.context())


def file_written(fname: str, containing: str = "") -> Pred:
    return lambda it: isinstance(it, FileChanged) and it.name == fname and it.content is not None \
        and containing in it.content


def event(kind: str, name: str, type_: str | None = None, where: Callable[[dict], bool] = lambda obj: True) -> Pred:
    return lambda it: isinstance(it, ObjectEvent) and o.kind(it.obj) == kind and o.name(it.obj) == name \
        and (type_ is None or it.type == type_) and where(it.obj)


def running(pod: str) -> Pred:
    return event("Pod", pod, where=lambda p: o.phase(p) == "Running" and not o.is_terminating(p))


def final_file(name: str, fname: str) -> str:
    return recording(name).files_at_end()[fname]
