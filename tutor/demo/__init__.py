"""The demo: a lesson's whole walkthrough, recorded from the real LWS control plane, shipped with
the package so `lwstutor demo` needs no cluster. The tests use the same files."""

from __future__ import annotations

from pathlib import Path

# The package's own directory: it is installed as files, and importlib.resources would import its
# readers (and zipfile) before the tutor's first frame (tests/test_first_frame_imports.py).
HERE = Path(__file__).parent


def walkthrough(lesson: str = "lws") -> Path:
    """The lesson's walkthrough: walkthrough.jsonl for the LWS lab, walkthrough-<lesson>.jsonl
    for another lesson (which may have none: the path is then of no file)."""
    name = "walkthrough.jsonl" if lesson == "lws" else f"walkthrough-{lesson}.jsonl"
    return HERE / name


def lessons_with_walkthrough() -> list[str]:
    """The lessons `lwstutor demo --lesson` can play."""
    return sorted(["lws"] * (HERE / "walkthrough.jsonl").is_file()
                  + [p.stem.removeprefix("walkthrough-") for p in HERE.glob("walkthrough-*.jsonl")])


# How long each lesson's demo takes at the defaults (real time, 4 s per passed step), in whole
# minutes, as `demo --help` and the README say it: tests/test_demo_pace.py holds it to the plan.
DEMO_MINUTES = {"lws": 4, "gang": 2}

END_TITLE = ("That was the whole lab", "실습 전체를 보셨습니다")
END_BODY = ("Now do it yourself. In the lab VM, run tmux split-window -h lwstutor",
            "이제 직접 해 보세요. 실습 VM에서 tmux split-window -h lwstutor 명령을 실행하세요")
# What the demo of each lesson ends with, in both languages: a lesson that is one module of the
# lab is not "the whole lab".
END_TITLES = {"lws": END_TITLE, "gang": ("That was the whole gang scheduling module", "갱 스케줄링 모듈 전체를 보셨습니다")}
END_BODIES = {"lws": END_BODY,
              "gang": ('Now do it yourself. In the lab VM, run tmux split-window -h "lwstutor --lesson gang"',
                       '이제 직접 해 보세요. 실습 VM에서 tmux split-window -h "lwstutor --lesson gang" 명령을 실행하세요')}


def replay_speed(speed: float) -> float:
    """The speed to emit paced() items at: 0 (instant) paces them in seconds of screen time."""
    return speed if speed > 0 else 1.0


def paced(recording, lesson, pause: float, speed: float):
    """The recording's items as (when to emit, item) pairs, with a pause after each item that
    makes a step pass, so every verdict and recap can be read before the next step begins (the
    scripted learner was much faster than a person). Halfway through each pause a ShowStep moves
    the view to the next step, so its instructions are on screen before its activity starts.

    Only when an item is emitted moves: each keeps the time it was recorded at, the clock the
    tutor tells what it saw in beside the cluster's own timestamps, so the story is the same at
    any pause and speed as in `check --replay`. Each item is checked here, as the replay reaches
    it; `pause` is in seconds of screen time. At speed 0 the cluster's activity comes at once and
    only the pauses take time: emit these at speed 1 (replay_speed)."""
    from tutor.cluster.source_events import ShowStep
    from tutor.session import Session

    session = Session(lesson, "", "en")  # answer files come from the recording itself
    last = len(lesson.steps)
    # At speed 0 (instant) only the pauses take time: the times given are seconds of screen
    # time, to be emitted at speed 1. Otherwise they are recording seconds, at `speed`.
    instant = speed <= 0
    stay = pause if instant else pause * speed  # a pause, on that clock
    shift = 0.0  # pauses so far, on that clock
    for item in recording.items:
        at = shift if instant else item.t + shift
        yield at, item
        if session.apply(item) and (newly := session.evaluate(None, set())):  # statuses only
            due = at + stay / 2
            shift += stay
            if max(newly) < last:
                yield due, ShowStep(max(newly) + 1, item.t)
            elif len(session.progress.passed) == last:
                yield due, ShowStep(last, item.t, END_TITLES.get(lesson.id, END_TITLE), END_BODIES.get(lesson.id, END_BODY))
