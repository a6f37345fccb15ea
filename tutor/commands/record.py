"""`lwstutor record FILE`: write a recording from a live cluster and the workdir."""

from __future__ import annotations

import queue
import signal
import sys
import threading
import time

from tutor.commands.results import EXIT_OK, UsageError
from tutor.cluster.events import FileChanged, ObjectEvent, SourceState
from tutor.cluster.live import LiveSource
from tutor.cluster.recording import Header, Writer
from tutor.commands.setup import connect_for, session_for
from tutor.workspace.files import FileRead
from tutor.workspace.watch import FileWatcher


def server_version(api_client) -> str:
    from kubernetes import client

    try:
        return client.VersionApi(api_client).get_code().git_version
    except Exception:  # noqa: BLE001 - the header field is informative only
        return ""


def run_record(args) -> int:
    session = session_for(args)
    conn = connect_for(args)
    q: queue.SimpleQueue = queue.SimpleQueue()
    start = time.monotonic()
    clock = lambda: time.monotonic() - start  # noqa: E731
    try:
        fh = open(args.file, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.file}: {exc.strerror or exc}") from None
    header = Header(namespace=session.lesson.namespace, workdir=session.workspace.workdir,
                    versions={"kubernetes": server_version(conn.api_client), "lws": args.lws_version})
    with fh:
        writer = Writer(fh, header)
        live = LiveSource(conn.api_client, session.lesson.namespace, q.put, clock=clock).start()
        files = FileWatcher(session.workspace.workdir, session.lesson.answer_files, q.put,
                            force_poll=args.poll).start()
        deadline = start + args.duration if args.duration else None
        count = 0
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
                count += write_item(session, writer, item, clock)
        finally:
            live.stop()
            files.stop()
    print(f"lwstutor: recorded {count} lines in {clock():.1f}s to {args.file}", file=sys.stderr)
    return EXIT_OK


def write_item(session, writer: Writer, item, clock) -> int:
    """Writes what changed the session's view; relists become the events that explain them."""
    if isinstance(item, SourceState):
        print(f"lwstutor: {item.resource}: {item.state.value} {item.detail}".rstrip(), file=sys.stderr)
        return 0
    changes = session.changes(item)
    for ch in changes:
        if isinstance(ch, ObjectEvent):
            writer.event(ch)
        elif isinstance(ch, FileRead):
            writer.file(FileChanged(ch.name, ch.text, clock(), ch.written_at))
    return len(changes)
