"""`lwstutor class`: the class server (tutor/classroom/class_server.py) until Ctrl-C, and the two
addresses it prints: the learners' (for `lwstutor --join`) and the instructor's; with --watch
URL, the instructor's view of a class instead. The class is in an SQLite file (--db, else under
the state directory); its tokens are kept there too, so a restart prints the same addresses and
learners' tutors carry on where they were."""

from __future__ import annotations

import asyncio
import errno
import signal
import sqlite3
from pathlib import Path

from tutor.commands import paths
from tutor.commands.results import EXIT_OK, UsageError
from tutor.commands.serve import LOOPBACK, address_for_browsers
from tutor.commands.setup import chosen_lang
from tutor.i18n.bilingual import both, os_reason, pick
from tutor.i18n.sqlite_reasons import sqlite_reason

DB_NAME = "class.sqlite3"


def db_path(args) -> Path:
    from tutor.progress import state_dir

    return Path(args.db).expanduser() if args.db else state_dir() / DB_NAME


def run_class(args) -> int:
    from tutor.classroom.class_store import ClassStore
    from tutor.i18n import classroom, serving

    lang = chosen_lang(args)
    if args.watch:
        return run_watch(args, lang)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: give a port from 1 to 65535 (0: any free one)",
                         f"--port {args.port}: 1부터 65535까지의 포트를 주세요(0이면 비어 있는 아무 포트)")
    path = db_path(args)
    paths.file_in_new_directories(str(path), "--db")
    try:
        store = ClassStore(path)
    except (OSError, sqlite3.Error) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else sqlite_reason(exc)
        raise UsageError(pick(classroom.CANNOT_OPEN, "en", db=path, reason=reason[0]),
                         pick(classroom.CANNOT_OPEN, "ko", db=path, reason=reason[1]), kind="path") from None
    try:
        asyncio.run(_serve(store, args, lang, path))
    except OSError as exc:
        addr = f"{args.host}:{args.port}"
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(*both(*serving.PORT_TAKEN, port=args.port, addr=addr), kind="port") from None
        reason = os_reason(exc)
        raise UsageError(pick(serving.CANNOT_LISTEN, "en", host=args.host, port=args.port, reason=reason[0]),
                         pick(serving.CANNOT_LISTEN, "ko", host=args.host, port=args.port, reason=reason[1]),
                         kind="port") from None
    finally:
        store.close()
    print(pick(classroom.STOPPED, lang), flush=True)
    return EXIT_OK


def run_watch(args, lang: str) -> int:
    """`lwstutor class --watch URL`: the instructor's view (tutor/ui/class_watch.py)."""
    from tutor.classroom.state_reader import state_url
    from tutor.commands.setup import on_a_terminal
    from tutor.i18n import classroom

    try:
        url = state_url(args.watch)
    except ValueError:
        raise UsageError(*both(*classroom.BAD_WATCH, url=args.watch)) from None
    on_a_terminal("lwstutor class --watch")
    from tutor.ui.class_watch import ClassWatch

    ClassWatch(url, lang).run()
    return EXIT_OK


async def _serve(store, args, lang: str, path: Path) -> None:
    from tutor.classroom import address
    from tutor.classroom.class_server import serve
    from tutor.i18n import classroom

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # a clean stop: the store closes, nothing half-written
        loop.add_signal_handler(sig, stop.set)

    def listening(port: int) -> None:
        base = f"http://{address_for_browsers(args.host)}:{port}"
        lines = [pick(classroom.STARTED, lang, db=path), pick(classroom.LEARNERS, lang),
                 f"  lwstutor --join {address.learners(base, store.tokens.join)} --name {pick(classroom.NAME, lang)}",
                 pick(classroom.INSTRUCTOR, lang), f"  {address.instructor(base, store.tokens.instructor)}"]
        if args.host not in LOOPBACK:
            lines.append(pick(classroom.OPEN_NETWORK, lang, host=args.host))
        lines.append(pick(classroom.STOP, lang))
        print("\n".join(lines), flush=True)

    await serve(store, args.host, args.port, listening, stop)
