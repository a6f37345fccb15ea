"""Shared set-up for the commands: lesson, session, progress and where the data comes from."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from tutor.commands import paths
from tutor.commands.results import UsageError
from tutor.lesson.loader import DEFAULT, Lesson, LessonError, available, load
from tutor.progress import Progress, looks_like_ours, remembered_lang, state_dir
from tutor.session import Session
from tutor.i18n.bilingual import default_lang, both


def lesson_for(args) -> Lesson:
    """The lesson (--lesson, else the one the replayed recording was made for, else the LWS lab),
    with the namespace from -n (else the recording's, else the lesson's). Only the recording's
    header is read here (once per args); its items are parsed when first used."""
    name, ns = getattr(args, "lesson", None), args.namespace
    if getattr(args, "replay", None):
        rec = getattr(args, "_recording", None)
        if rec is None or rec.path != str(Path(args.replay)):
            rec = args._recording = open_recording(args.replay)
        made_for = rec.header.lesson or DEFAULT  # a recording that names none was made for the LWS lab
        if name and name != made_for:
            raise UsageError(*both(
                "--lesson {name}: {rec} was recorded for lesson {made_for}; leave out --lesson, or give --lesson {made_for}",
                "--lesson {name}: {rec:은} {made_for} 수업을 녹화한 파일입니다. --lesson 옵션을 빼거나 --lesson {made_for:으로} "
                "주세요", name=name, rec=args.replay, made_for=made_for), kind="lesson")
        name, ns = made_for, ns or rec.header.namespace
    # The tutor itself (no subcommand) splits its steps' texts later: the current one before its
    # first frame, the others after it (tutor/commands/tui.py). Every other command, all now.
    lesson = lesson_named(name or DEFAULT, texts=bool(getattr(args, "command", None)))
    return replace(lesson, namespace=ns or lesson.namespace)


def lesson_named(name: str, texts: bool = True) -> Lesson:
    """An installed lesson by name; another name is a usage error that lists those there are.
    With `texts`, every step's text is split now, so a broken step file is that usage error too."""
    there = available()
    if name not in there:
        listed = ", ".join(there)
        raise UsageError(f"--lesson {name}: no such lesson (there are: {listed})",
                         f"--lesson {name}: 그런 수업이 없습니다(있는 수업: {listed})", kind="lesson")
    try:
        lesson = load(name)
        if texts:
            lesson.check_texts()
    except LessonError as exc:
        raise lesson_error(name, exc) from None
    return lesson


def lesson_error(name: str, exc: LessonError) -> UsageError:
    """A lesson that cannot be read, as a usage error: one line that names the file."""
    return UsageError(f"--lesson {name}: {exc}", f"--lesson {name}: 수업을 읽지 못했습니다: {exc}", kind="lesson")


@contextmanager
def _recording_errors_as_usage():
    """A recording that cannot be read is the user's input to fix: exit code 2, its message."""
    from tutor.cluster.recording import RecordingError

    try:
        yield
    except RecordingError as exc:
        raise recording_error(exc) from None


def recording_error(exc) -> UsageError:
    """A recording that cannot be read (tutor.cluster.recording.RecordingError), as a usage error
    in both languages."""
    from tutor.narration.recording_errors import both

    return UsageError(*both(exc), kind="recording")


def open_recording(path: str):
    from tutor.cluster.recording import open_recording as open_

    paths.input_file(path, "--replay")
    with _recording_errors_as_usage():
        return open_(path)


def replay_items(args, use_files: bool) -> list:
    """The replayed recording's items, parsed now: a bad line is a usage error naming it."""
    with _recording_errors_as_usage():
        return args._recording.items_for(use_files)


def workdir_for(args, lesson: Lesson, check: bool = True) -> str:
    """The answer files' directory. One given with --workdir must be a directory now (the
    default may not exist yet: the learner creates it in step 1)."""
    if args.workdir and check:
        paths.directory(os.path.expanduser(args.workdir), "--workdir")
    return os.path.abspath(os.path.expanduser(args.workdir or lesson.workdir))


def progress_for(args, lesson: Lesson, replay: bool) -> Progress:
    """Live progress lives in the learner's state dir; a replay gets its own file per recording,
    so watching the demo never marks the learner's own steps as passed. A --state-file is
    used only if it is new or one lwstutor could have written; the tutor never replaces, or
    sets aside, anything else."""
    given = getattr(args, "state_file", None)
    if given:
        real, exists = paths.output_file(os.path.expanduser(given), "--state-file")
        if exists and not looks_like_ours(Path(real)):
            raise UsageError(f"--state-file {given}: not a lwstutor progress file, and lwstutor replaces "
                             "only its own; give a new file name",
                             f"--state-file {given}: lwstutor 진행 파일이 아닙니다. lwstutor는 자기가 쓴 "
                             "파일만 바꿉니다. 새 파일 이름을 주세요", kind="path")
        return Progress.load(Path(real), len(lesson.steps), make_dirs=False)
    return Progress.load(default_progress_path(args, lesson, replay), len(lesson.steps))


def default_progress_path(args, lesson: Lesson, replay: bool) -> Path:
    """Where the tutor keeps progress without --state-file: per lesson, or per replayed recording."""
    if replay:
        return state_dir() / f"replay-{Path(args.replay).stem}.json"
    return state_dir() / f"progress-{lesson.id}.json"


def progress_to_read(args, lesson: Lesson, replay: bool) -> Progress:
    """The progress the tutor keeps with these arguments, read only (check reports from it which
    solutions were shown): nothing is moved or written. A --state-file must be a file lwstutor
    wrote; the default file may be missing (no progress yet)."""
    given = getattr(args, "state_file", None)
    if not given:
        return Progress.peek(default_progress_path(args, lesson, replay), len(lesson.steps))
    path = paths.input_file(os.path.expanduser(given), "--state-file")
    if not looks_like_ours(Path(path)):
        raise UsageError(f"--state-file {given}: not a lwstutor progress file",
                         f"--state-file {given}: lwstutor 진행 파일이 아닙니다", kind="path")
    return Progress.peek(Path(path), len(lesson.steps))


def chosen_lang(args) -> str:
    """The language of this run: --lang, else the one saved with the learner's progress, else
    the locale. Reads the progress file only (for an error message before anything started)."""
    lang = getattr(args, "lang", None)
    if lang:
        return lang
    try:
        name = getattr(args, "lesson", None)
        saved = remembered_lang(name if name in available() else DEFAULT)
    except Exception:  # noqa: BLE001 - an error message must not fail for want of a language
        saved = ""
    return default_lang(None, saved)


def session_for(args, progress: Progress | None = None) -> Session:
    lesson = lesson_for(args)
    progress = progress or Progress()
    lang = default_lang(getattr(args, "lang", None), progress.lang)
    return Session(lesson, workdir_for(args, lesson), lang, progress)


def mark_start(session: Session, recording=None) -> None:
    """Tells the store the wall-clock time of its t=0, so the timeline can put what the tutor saw
    beside the cluster's own timestamps: a recording's started_at, or now for a live source."""
    import time

    if recording is None:
        session.store.started_at = time.time()
        return
    from tutor.cluster.objects import parse_time  # the one parser (timeline imports it from there)

    parsed = parse_time(recording.header.started_at)
    session.store.started_at = parsed[0] if parsed else None


@contextmanager
def _connect_errors_as_usage():
    """A cluster that cannot be found or configured: exit code 2, its message in both languages."""
    from tutor.cluster.connect import ConnectError
    from tutor.narration.connecting import fixes, sentence

    try:
        yield
    except ConnectError as exc:
        raise UsageError(f"cannot connect: {sentence(exc, 'en')}", f"연결할 수 없습니다: {sentence(exc, 'ko')}",
                         kind="kubeconfig", fixes=fixes(exc)) from None


def find_kubeconfig_for(args):
    """Which kubeconfig kubectl would use, without importing the kubernetes client."""
    from tutor.cluster.connect import find_kubeconfig

    with _connect_errors_as_usage():
        return find_kubeconfig(args.kubeconfig)


def connect_for(args):
    from tutor.cluster.connect import connect

    with _connect_errors_as_usage():
        return connect(args.kubeconfig, args.context)


def on_a_terminal(command: str) -> None:
    """The tutor draws its screen on a terminal (Textual reads stdin, draws on stderr). With either
    redirected (a pipe, a file, /dev/null) it would draw for nobody, at full speed, for ever: a
    one-line error instead. A served tutor draws through textual-serve's driver (TEXTUAL_DRIVER)."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return
    streams = (sys.__stdin__, sys.__stderr__)
    if all(s is not None and s.isatty() for s in streams):
        return
    raise UsageError(*both(
        "{cmd} draws its screen on a terminal, and its input or output here is not one (a pipe, a file, "
        "/dev/null): run it in a terminal (tmux split-window -h {shell}), or lwstutor check in a script",
        "{cmd:은} 터미널에 화면을 그리는데, 지금은 입력이나 출력이 터미널이 아닙니다(파이프, 파일, /dev/null). "
        "터미널에서 실행하거나(tmux split-window -h {shell}), 스크립트에서는 lwstutor check를 쓰세요",
        cmd=command, shell=command if " " not in command else f'"{command}"'), kind="terminal")


def class_join_for(args) -> tuple[str, str] | None:
    """(the learners' address, the name) of `--join URL [--name NAME]`, checked; None without
    --join. The name defaults to the login name. Imports nothing heavy: the sender is built by
    the tutor (tutor.commands.tui.class_report_for)."""
    from tutor.i18n import classroom

    if not getattr(args, "join", None):
        if getattr(args, "name", None):
            raise UsageError(*classroom.NAME_WITHOUT_JOIN)
        return None
    from tutor.classroom.address import JoinAddress

    try:
        url = JoinAddress.parse(args.join).url
    except ValueError:
        raise UsageError(*both(*classroom.BAD_JOIN, url=args.join)) from None
    name = (args.name or _login_name()).strip()
    if not 1 <= len(name) <= 40 or not name.isprintable():
        raise UsageError(*both(*classroom.BAD_NAME, name=name))
    return url, name


def _login_name() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name to be found (a container's bare uid)
        return ""
