"""`lwstutor` (no subcommand): the Textual tutor on a live cluster or a replay."""

from __future__ import annotations

import threading
import time
from functools import partial

from tutor.commands.results import EXIT_OK, UsageError
from tutor.commands.setup import (class_join_for, recording_error, connect_for, find_kubeconfig_for, lesson_error,
                                  lesson_for, on_a_terminal, progress_for, session_for)
from tutor.lesson.loader import LessonError


def run_tui(args) -> int:
    from tutor.ui.refresh.quiet_gc import held_until_first_frame

    with held_until_first_frame():  # no cycle collection before the first frame
        app = tui_app(args)
        on_a_terminal("lwstutor")
        app.run()
    if app.connect_error:  # the connection or the recording failed after the first frame: same message and code
        err = app.connect_error
        raise err if isinstance(err, UsageError) else recording_error(err)
    return EXIT_OK


def tui_app(args):
    """The app `lwstutor` runs, from its parsed flags (the tests build it the same way)."""
    replay = bool(args.replay)
    joining = class_join_for(args)
    lesson = lesson_for(args)
    progress = progress_for(args, lesson, replay)
    try:  # the step shown first: split before the first frame, the others after it (texts_then)
        lesson.check_texts([progress.current])
    except LessonError as exc:
        raise lesson_error(lesson.id, exc) from None
    session = session_for(args, progress)
    context = ""
    if replay:
        starter = partial(start_replay, args._recording, args.speed, use_files=not args.workdir,
                          poll=args.poll)
        context = "replay"
    else:
        # The kubernetes client takes about half a second to import: connect in a thread once
        # the first frame is up. A kubeconfig that is missing or unreadable is still an error
        # before the UI starts (finding it imports nothing heavy).
        find_kubeconfig_for(args)
        starter = partial(connect_then_start, args, poll=args.poll)
    from tutor.ui.app import TutorApp

    return TutorApp(session, context=context, replay=replay, start_sources=partial(texts_then, starter),
                    class_report=class_report_for(joining, session) if joining else None)


def class_report_for(joining: tuple[str, str], session):
    """The reports of `--join URL --name NAME` (tutor/ui/services/class_report.py); the learner key
    the class gives is kept beside the progress, so the tutor started again keeps its place."""
    from tutor.classroom.address import JoinAddress
    from tutor.classroom.learner_keys import KeyBook
    from tutor.classroom.sender import Sender
    from tutor.progress import state_dir
    from tutor.ui.services.class_report import ClassReport

    url, name = joining
    sender = Sender(JoinAddress.parse(url), name, session.lesson.id, KeyBook(state_dir() / "class-keys.json"))
    return ClassReport(session, sender)


def texts_then(start_sources, app) -> None:
    """Once the first frame is up: the other steps' texts are split (a broken step file ends the
    app with the one-line message it gave before the UI), then the sources start."""
    try:
        app.session.lesson.check_texts()
    except LessonError as exc:
        app.connect_error = lesson_error(app.session.lesson.id, exc)
        app.call_after_refresh(app.exit)  # not at once: the lesson pane began its drawing worker
        return
    start_sources(app)


def connect_then_start(args, app, poll: bool) -> None:
    """Connects off the UI thread, then starts the live sources on it; a connection that cannot
    be configured ends the app with the same message and exit code as before the UI."""
    def work() -> None:
        try:
            conn = connect_for(args)
        except UsageError as exc:
            stop_with_error(app, exc)
            return
        app.call_from_thread(started, conn)

    def started(conn) -> None:
        app.context_name = conn.context
        start_live(conn.api_client, app, poll)
        app.lesson.redraw_live()

    # After the first frame: importing the kubernetes client holds the GIL for about half a second.
    app.call_after_refresh(threading.Thread(target=work, name="connect", daemon=True).start)


def start_files(app, poll: bool) -> None:
    from tutor.workspace.watch import FileWatcher

    s = app.session
    watcher = FileWatcher(s.workspace.workdir, s.lesson.answer_files, app.driver.inbox.put, force_poll=poll)
    app.run_source(watcher.run, "answer-files", watcher.stop)


def start_live(api_client, app, poll: bool):
    """Starts the watches, their watchdog, the answer files' watcher and doctor; returns the
    live source."""
    from tutor.cluster.live import LiveSource

    live = LiveSource(api_client, app.session.lesson.namespace, app.driver.inbox.put, resources=app.session.lesson.kinds)
    app.session.store.started_at = time.time() - live.clock()
    app.session.awaiting_lists = {res.name for res in live.resources}
    for res in live.resources:
        app.run_source(partial(live.run_resource, res), f"watch-{res.name}", live.stop)
    app.run_source(live.run_watchdog, "watchdog", live.stop)
    start_files(app, poll)
    app.run_doctor(api_client)
    return live


def stop_with_error(app, message) -> None:
    """From a source's thread: ends the app; run_tui then prints the message and exits with
    code 2, as when the same problem is found before the UI starts."""
    app.connect_error = message
    try:
        app.call_from_thread(app.exit)
    except RuntimeError:  # the app has already stopped
        pass


def start_replay(recording, speed: float, app, use_files: bool, poll: bool) -> None:
    from tutor.cluster.replay import ReplaySource

    from tutor.commands.setup import mark_start

    mark_start(app.session, recording)
    if not use_files:  # --workdir given: the learner's files, not the recording's
        start_files(app, poll)
    # The recording is parsed on the replay's thread (items_for is called there), not before
    # the first frame; a bad line ends the app with the message that names it.
    replay = ReplaySource(recording, app.driver.inbox.put, speed, items=lambda: recording.items_for(use_files),
                          on_error=partial(stop_with_error, app))
    app.call_after_refresh(app.run_source, replay.run, "replay", replay.stop)  # parsing holds the GIL
