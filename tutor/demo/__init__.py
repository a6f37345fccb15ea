"""The demo: the whole lab walkthrough, recorded from the real LWS control plane, shipped with
the package so `lwstutor demo` needs no cluster. The tests use the same file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def walkthrough() -> Path:
    return Path(str(resources.files(__name__).joinpath("walkthrough.jsonl")))


END_TITLE = "That was the whole lab"
END_BODY = "Now do it yourself: in the lab VM, run tmux split-window -h lwstutor"


def paced(recording, lesson, pause: float, speed: float):
    """The recording's items as (when to emit, item) pairs, with a pause after each item that
    makes a step pass, so every verdict and recap can be read before the next step begins (the
    scripted learner was much faster than a person). Halfway through each pause a ShowStep moves
    the view to the next step, so its instructions are on screen before its activity starts.

    Only when an item is emitted moves: each keeps the time it was recorded at, the clock the
    tutor tells what it saw in beside the cluster's own timestamps, so the story is the same at
    any pause and speed as in `check --replay`. Each item is checked here, as the replay reaches
    it; `pause` is in seconds of screen time."""
    from tutor.cluster.events import ShowStep
    from tutor.session import Session

    session = Session(lesson, "", "en")  # answer files come from the recording itself
    last = len(lesson.steps)
    shift = 0.0  # recording seconds of pause so far
    for item in recording.items:
        yield item.t + shift, item
        if session.apply(item) and (newly := session.evaluate(None, set())):  # statuses only
            due = item.t + shift + pause * speed / 2
            shift += pause * speed
            if max(newly) < last:
                yield due, ShowStep(max(newly) + 1, item.t)
            elif len(session.progress.passed) == last:
                yield due, ShowStep(last, item.t, END_TITLE, END_BODY)
