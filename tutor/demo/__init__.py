"""The demo: the whole lab walkthrough, recorded from the real LWS control plane, shipped with
the package so `lwstutor demo` needs no cluster. The tests use the same file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def walkthrough() -> Path:
    return Path(str(resources.files(__name__).joinpath("walkthrough.jsonl")))


def paced(recording, lesson, pause: float, speed: float):
    """The recording's items with a pause after each one that makes a step pass, so every verdict
    and recap can be read before the next step begins (the scripted learner was much faster than
    a person). Each item is checked here, as the replay reaches it, so the pauses hold however
    late the UI's own re-check runs. `pause` is in seconds of screen time."""
    from dataclasses import replace

    from tutor.session import Session

    session = Session(lesson, "", "en")  # answer files come from the recording itself
    shift = 0.0
    for item in recording.items:
        yield replace(item, t=item.t + shift)
        if session.apply(item) and session.evaluate():
            shift += pause * speed
