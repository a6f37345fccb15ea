"""The demo's plan: its length at the defaults (and the figures the README and `demo --help` give
for it), the step it plays when, and its long waits with what each waits for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutor.cli import COMMANDS, OPTIONS, main
from tutor.cluster.recording import read
from tutor.cluster.source_events import FileChanged, ObjectEvent, ShowStep
from tutor.demo import DEMO_MINUTES, lessons_with_walkthrough, paced, replay_speed, walkthrough
from tutor.demo.pace import GRACE, LONG_WAIT, Plan, heartbeat_only, plan
from tutor.lesson.loader import load

README = Path(__file__).parent.parent / "README.md"


def demo_plan(lesson: str, speed: float | None = None, pause: float | None = None) -> Plan:
    """The plan of the lesson's demo; the CLI's defaults for what is not given."""
    speed = COMMANDS["demo"].defaults.get("speed", OPTIONS["speed"].default) if speed is None else speed
    pause = OPTIONS["pause"].default if pause is None else pause
    assert isinstance(speed, float) and isinstance(pause, float)
    return plan(paced(read(walkthrough(lesson)), load(lesson), pause, speed), 1 / replay_speed(speed))


def minutes(lesson: str) -> int:
    return round(demo_plan(lesson).end / 60)


def test_the_default_is_real_time():
    assert COMMANDS["demo"].defaults.get("speed", OPTIONS["speed"].default) == 1.0


@pytest.mark.parametrize("lesson", lessons_with_walkthrough())
def test_the_stated_length_is_the_plans(lesson):
    assert DEMO_MINUTES[lesson] == minutes(lesson), demo_plan(lesson).end


def test_the_readme_gives_each_demos_length():
    text = " ".join(README.read_text().split())
    lws = re.search(r"The LWS lab's demo takes about \*\*(\d+) minutes\*\*", text)
    gang = re.search(r"`lwstutor demo --lesson gang` about \*\*(\d+) minutes\*\*", text)
    assert lws and gang, "the README's demo section no longer says how long the demo takes"
    assert (int(lws.group(1)), int(gang.group(1))) == (minutes("lws"), minutes("gang"))


@pytest.mark.parametrize("lang,said", [("en", "about {lws} minutes, --lesson gang about {gang}"),
                                       ("ko", "약 {lws}분, --lesson gang은 약 {gang}분")])
def test_demo_help_gives_each_demos_length(lang, said, capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--help", "--lang", lang])
    out = " ".join(capsys.readouterr().out.split())  # as one line, however it wraps
    assert said.format(lws=minutes("lws"), gang=minutes("gang")) in out


def test_half_speed_takes_about_twice_as_long_as_the_issue_measured():
    """At 0.5 the LWS demo took about 400 s: the cluster's time doubles, the pauses do not."""
    assert 390 < demo_plan("lws", speed=0.5).end < 410


def test_step_5_waits_out_the_grace_period_and_says_so():
    p = demo_plan("lws")
    step5 = [w for w in p.waits if p.step_at(w.start) == 5]
    assert len(step5) == 1 and step5[0].what == GRACE
    assert 25 < step5[0].end - step5[0].start < 35  # the pods' 30 s grace period
    assert all(w.end - w.start > LONG_WAIT for w in p.waits)
    assert [s for _, s in p.steps] == sorted(s for _, s in p.steps) and p.step_at(p.end) == 8


def test_the_waits_scale_with_the_speed_and_none_at_speed_0():
    """At 4x the grace period is 7.5 s of screen time: no longer a wait worth a word."""
    assert demo_plan("lws", speed=4.0).waits == []
    assert demo_plan("lws", speed=0.0).waits == []
    assert demo_plan("lws", speed=0.0).end == pytest.approx(8 * OPTIONS["pause"].default - OPTIONS["pause"].default / 2)


def _node(rv: str, beat: str, unschedulable: bool = False) -> dict:
    return {"kind": "Node", "metadata": {"uid": "n1", "name": "a", "resourceVersion": rv},
            "spec": {"unschedulable": unschedulable},
            "status": {"conditions": [{"type": "Ready", "lastHeartbeatTime": beat}]}}


def test_a_heartbeat_ends_no_wait_and_a_real_change_does():
    before = _node("1", "06:00")
    assert heartbeat_only(before, ObjectEvent("MODIFIED", _node("2", "06:10"), 10.0))
    assert not heartbeat_only(before, ObjectEvent("MODIFIED", _node("2", "06:10", unschedulable=True), 10.0))
    assert not heartbeat_only(None, ObjectEvent("MODIFIED", before, 10.0))
    beats = [(0.0, ObjectEvent("ADDED", before, 0.0)), (9.0, ObjectEvent("MODIFIED", _node("2", "b"), 9.0)),
             (18.0, ObjectEvent("MODIFIED", _node("3", "c"), 18.0)), (25.0, FileChanged("names.txt", "x", 25.0))]
    p = plan(beats)
    assert [(w.start, w.end) for w in p.waits] == [(0.0, 25.0)]
    assert p.waits[0].what == ("the answer file names.txt", "답안 파일 names.txt")


def test_a_wait_that_cannot_be_named_says_nothing_of_what():
    items = [(0.0, ObjectEvent("ADDED", _node("1", "a"), 0.0)),
             (12.0, ObjectEvent("MODIFIED", _node("2", "a", unschedulable=True), 12.0)),
             (14.0, ShowStep(2, 12.0))]
    p = plan(items, seconds_per_unit=1.0)
    assert [w.what for w in p.waits] == [("", "")] and p.step_at(13.0) == 1 and p.step_at(14.0) == 2
