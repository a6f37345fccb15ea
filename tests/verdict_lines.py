"""Every verdict line a learner could read while a recording plays: message, details and
timeline, after every instant of it, in one language, as `check --replay` judges it."""

from __future__ import annotations

from functools import lru_cache
from itertools import groupby

from tests.conftest import GANG_WALKTHROUGH, LESSON_RECORDINGS, RECORDINGS, WALKTHROUGH
from tutor.cluster.source_events import FileChanged
from tutor.cluster.recording import read
from tutor.commands.setup import mark_start
from tutor.lesson.loader import load
from tutor.session import Session

ALL = [WALKTHROUGH, GANG_WALKTHROUGH, *sorted(RECORDINGS.glob("*.jsonl")), *sorted(LESSON_RECORDINGS.glob("*.jsonl"))]


@lru_cache(maxsize=None)
def lines(path: str, lang: str, empty_workdir: bool = False) -> tuple[tuple[int, str], ...]:
    """(step, line) pairs, each once. With empty_workdir, the answer files never arrive."""
    rec = read(path)
    lesson = load(rec.header.lesson or "lws")
    s = Session(lesson, rec.header.workdir or lesson.workdir, lang)
    mark_start(s, rec)
    seen: dict[tuple[int, str], None] = {}
    for _, items in groupby(rec.items, key=lambda it: it.t):
        items = [it for it in items if not (empty_workdir and isinstance(it, FileChanged))]
        if any([s.apply(it) for it in items]):
            s.evaluate()
            for n, v in s.verdicts.items():
                timeline = [str(dict(e).get(k) or "") for e in v.timeline or () for k in ("what", "cause")]
                for line in (v.message, *v.details, *timeline):
                    seen.setdefault((n, line), None)
    return tuple(seen)
