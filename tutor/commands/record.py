"""`lwstutor record FILE`: write a recording from a live cluster and the workdir.

FILE is created only once the cluster has answered a list: a recorder pointed at a dead server
leaves nothing behind and exits 2. It never overwrites a file that is not a lwstutor recording;
an earlier recording is replaced only with --overwrite, and then only when the new one is
complete (written beside it, renamed over it at the end).
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import tempfile
import threading
import time
from typing import TextIO

from tutor.commands import paths
from tutor.commands.results import EXIT_OK, UsageError, cluster_error
from tutor.cluster import kinds
from tutor.cluster.source_events import Conn, FileChanged, ObjectEvent, Relisted, SourceState
from tutor.cluster.failure import Failure
from tutor.cluster.live import LiveSource
from tutor.cluster.recording import Header, RecordingError, Writer, open_recording
from tutor.commands.setup import connect_for, session_for
from tutor.workspace.files import FileRead
from tutor.workspace.watch import FileWatcher
from tutor.i18n.bilingual import os_reason, say
from tutor.narration.failures import sentence


def server_version(api_client, server: str) -> str:
    """The server's version; a server that does not answer is the command's error (exit 2)."""
    from kubernetes import client

    from tutor.cluster.failure import describe

    try:
        return client.VersionApi(api_client).get_code(_request_timeout=(5, 15)).git_version
    except Exception as exc:  # noqa: BLE001 - refused, TLS, timeout, 401, 403: one line each
        raise cluster_error(describe(exc, server)) from None


def target_for(args) -> tuple[str, bool]:
    """Where to write, and whether an earlier recording is there (to be replaced)."""
    real, exists = paths.output_file(args.file, "record")
    if not exists:
        return real, False
    try:
        open_recording(real)
    except RecordingError:
        raise UsageError(f"record {args.file}: the file exists and is not a lwstutor recording; "
                         "lwstutor never overwrites it. Give a new file name",
                         f"record {args.file}: 이미 있는 파일이고 lwstutor 녹화 파일이 아닙니다. "
                         "lwstutor는 이 파일을 덮어쓰지 않습니다. 새 파일 이름을 주세요", kind="path") from None
    if not args.overwrite:
        raise UsageError(f"record {args.file}: a recording is already there; add --overwrite to replace it",
                         f"record {args.file}: 이미 녹화 파일이 있습니다. 바꾸려면 --overwrite 옵션을 붙이세요",
                         kind="path")
    return real, True


class Output:
    """The recording file, opened at the first list: a new file is created exclusively (a race
    cannot clobber another), a replaced recording is written to a temp file beside it."""

    def __init__(self, path: str, replacing: bool):
        self.path, self.replacing = path, replacing
        self.fh: TextIO | None = None
        self._tmp = ""

    def open(self):
        if self.replacing:
            fd, self._tmp = tempfile.mkstemp(prefix=f".{os.path.basename(self.path)}.", suffix=".partial",
                                             dir=os.path.dirname(self.path))
        else:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
        self.fh = os.fdopen(fd, "w", encoding="utf-8")
        return self.fh

    def close(self) -> None:
        if self.fh is None:
            return
        self.fh.close()
        if self._tmp:
            os.replace(self._tmp, self.path)


def run_record(args) -> int:
    session = session_for(args)
    target, replacing = target_for(args)
    conn = connect_for(args)
    version = server_version(conn.api_client, conn.server)
    q: queue.SimpleQueue = queue.SimpleQueue()
    start = time.monotonic()
    clock = lambda: time.monotonic() - start  # noqa: E731
    header = Header(namespace=session.lesson.namespace, workdir=session.workspace.workdir, lesson=session.lesson.id,
                    versions={"kubernetes": version, "lws": args.lws_version})
    out = Output(target, replacing)
    live = LiveSource(conn.api_client, session.lesson.namespace, q.put, resources=session.lesson.kinds,
                      clock=clock).start()
    files = FileWatcher(session.workspace.workdir, session.lesson.answer_files, q.put, force_poll=args.poll).start()
    deadline = start + args.duration if args.duration else None
    count, writer, waiting, last_failure = 0, None, [], None
    stop = threading.Event()
    # Explicit handlers: a recorder started in the background inherits an ignored SIGINT,
    # and `kill` sends SIGTERM; both must end the recording cleanly.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
            try:
                item = q.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(item, SourceState):
                last_failure = item.failure or last_failure
                if writer is not None or item.state is Conn.OK:  # before the first list: only the final error
                    say_state(item, session.lang)
                if writer is None and item.resource == kinds.POD.name and item.state is Conn.FORBIDDEN:
                    raise cluster_error(item.failure)  # a recording without pods records nothing
                continue
            if writer is None:  # nothing is written before the cluster has answered a list
                waiting.append(item)
                if not isinstance(item, Relisted):
                    continue
                try:
                    writer = Writer(out.open(), header)
                except OSError as exc:
                    en, ko = os_reason(exc)
                    raise UsageError(f"record {args.file}: cannot write ({en})",
                                     f"record {args.file}: 쓸 수 없습니다({ko})", kind="path") from None
                for early in waiting:
                    count += write_item(session, writer, early, clock)
                continue
            count += write_item(session, writer, item, clock)
    finally:
        live.stop()
        files.stop()
        live.join(5)  # no watch thread may outlive the interpreter's shutdown
        files.join(5)
        out.close()
    if writer is None:
        if last_failure is not None:
            raise cluster_error(last_failure)
        raise UsageError(f"record {args.file}: the cluster listed nothing in time; nothing was recorded",
                         f"record {args.file}: 제시간에 클러스터 목록을 받지 못해 아무것도 녹화하지 않았습니다",
                         kind="timeout")
    print("lwstutor: " + say(session.lang, "recorded {count} lines in {secs:.1f}s to {file}",
                             "{secs:.1f}초 동안 {count}줄을 {file}에 녹화했습니다", count=count, secs=clock(), file=args.file),
          file=sys.stderr)
    return EXIT_OK


def say_state(item: SourceState, lang: str) -> None:
    """One status line per change of a watch: "lwstutor: pods: ok" once it has listed (scripts
    wait for these), or why it failed."""
    # failure is a Failure when set (SourceState types it as any object)
    text = sentence(item.failure, lang) if isinstance(item.failure, Failure) else item.state.value
    print(f"lwstutor: {item.resource}: {text}", file=sys.stderr)


def write_item(session, writer: Writer, item, clock) -> int:
    """Writes what changed the session's view; relists become the events that explain them."""
    changes = session.changes(item)
    for ch in changes:
        if isinstance(ch, ObjectEvent):
            writer.event(ch)
        elif isinstance(ch, FileRead):
            writer.file(FileChanged(ch.name, ch.text, clock(), ch.written_at))
    return len(changes)
