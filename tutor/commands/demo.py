"""`lwstutor demo`: the tutor on the whole lab walkthrough recorded from the real control plane.

No cluster and no answer files are needed: both come from the recording. The demo pauses after
each passed step so the verdict and the recap can be read, and moves on to the next step.
Its progress lives only in memory, so it never marks the learner's own steps as passed.
"""

from __future__ import annotations

from functools import partial

from tutor.commands.results import EXIT_OK
from tutor.commands.setup import on_a_terminal, session_for
from tutor.progress import Progress


def run_demo(args) -> int:
    from tutor.ui.refresh.quiet_gc import held_until_first_frame

    with held_until_first_frame():  # no cycle collection before the first frame
        app = demo_app(args)
        on_a_terminal("lwstutor demo")
        app.run()
    return EXIT_OK


def demo_app(args):
    from tutor.commands.results import UsageError
    from tutor.demo import lessons_with_walkthrough, walkthrough
    from tutor.ui.app import TutorApp
    from tutor.ui.services.demo_progress import DemoProgress

    lesson = getattr(args, "lesson", None) or "lws"
    if lesson not in lessons_with_walkthrough():
        there = ", ".join(lessons_with_walkthrough())
        raise UsageError(f"--lesson {lesson}: no walkthrough to play (there are: {there})",
                         f"--lesson {lesson}: 재생할 녹화가 없습니다(있는 것: {there})", kind="lesson")
    args.replay, args.workdir = str(walkthrough(lesson)), None
    session = session_for(args, Progress())
    return TutorApp(session, context="demo", replay=True, demo=DemoProgress(),
                    start_sources=partial(start_demo, args._recording, args.speed, args.pause))


def start_demo(recording, speed: float, pause: float, app) -> None:
    from tutor.cluster.replay import ReplaySource
    from tutor.commands.tui import stop_with_error
    from tutor.demo import paced, replay_speed
    from tutor.demo.pace import plan
    from tutor.ui.services.demo_progress import keep_said

    def schedule() -> list:
        """The paced items, on the replay's thread, and their plan for the screen: how far the
        demo is and what a long wait waits for (tutor/ui/services/demo_progress.py)."""
        items = list(paced(recording, app.session.lesson, pause, speed))
        app.demo.begin(plan(items, 1 / replay_speed(speed)))
        return items

    replay = ReplaySource(recording, app.driver.inbox.put, replay_speed(speed), items=schedule,
                          on_error=partial(stop_with_error, app))
    app.run_source(replay.run, "replay", replay.stop)
    keep_said(app)
