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
    """The recording's items, with a pause after each one that makes a step pass, so every
    verdict and recap can be read before the next step begins (the scripted learner was much
    faster than a person). Halfway through each pause a ShowStep moves the view to the next
    step, so its instructions are on screen before its activity starts. Each item is checked
    here, as the replay reaches it; `pause` is in seconds of screen time."""
    from dataclasses import replace

    from tutor.cluster.events import ShowStep
    from tutor.session import Session

    session = Session(lesson, "", "en")  # answer files come from the recording itself
    last = len(lesson.steps)
    shift = 0.0
    for item in recording.items:
        yield replace(item, t=item.t + shift)
        if session.apply(item) and (newly := session.evaluate(None, set())):  # statuses only
            t = item.t + shift + pause * speed / 2
            shift += pause * speed
            if max(newly) < last:
                yield ShowStep(max(newly) + 1, t)
            elif len(session.progress.passed) == last:
                yield ShowStep(last, t, END_TITLE, END_BODY)
