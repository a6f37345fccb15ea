"""The demo's pauses change when items are emitted, never the times they say they happened at:
steps 5 and 6 tell the same story, line for line, whatever the demo's pause and speed, as a
replay read straight through (what `check --replay` reads)."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tutor.checks.step_story import recap_markdown
from tutor.cluster.source_events import ShowStep
from tutor.cluster.recording import read
from tutor.commands.setup import mark_start
from tutor.demo import paced
from tutor.lesson.loader import load
from tutor.session import Session


def told(items, recording, lang: str = "en") -> dict[int, list[str]]:
    lesson = load()
    s = Session(lesson, "/root/gsb-lws", lang)
    mark_start(s, recording)
    for item in items:
        if not isinstance(item, ShowStep):
            s.apply(item)
    # the lines the lesson's recap lists for each step
    return {n: recap_markdown(s.store, lesson.namespace, lesson.step(n), lang).split("\n")[2:] for n in (5, 6)}


@pytest.mark.parametrize("pause,speed", [(4.0, 0.5), (0.0, 0.5), (10.0, 2.0), (4.0, 20.0)])
def test_the_demo_tells_steps_5_and_6_as_check_replay_does(pause, speed):
    rec = read(WALKTHROUGH)
    straight = told(rec.items, rec)
    schedule = list(paced(rec, load(), pause, speed))
    demo = told([item for _, item in schedule], rec)
    assert straight[5] and straight[6]
    assert demo == straight
    # the pauses are there: later items are emitted later than they happened
    if pause:
        assert schedule[-1][0] > schedule[-1][1].t
    assert [when for when, _ in schedule] == sorted(when for when, _ in schedule)


def test_in_step_5_the_cause_comes_before_its_effect():
    rec = read(WALKTHROUGH)
    lines = told([item for _, item in paced(rec, load(), 4.0, 0.5)], rec)[5]
    said = " | ".join(lines)
    assert said.index("container exited") < said.index("RecreateGroup") < said.index("removed") \
        < said.index("new UID"), lines
    assert "Running again" in lines[-1], lines
