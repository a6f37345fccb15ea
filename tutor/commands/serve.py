"""`lwstutor serve`: the tutor in a browser tab (tutor/serve), one tutor process per tab.

Every tab runs the same command: this tutor's options, checked here first so a wrong one is
the usual one-line error now and not a tab that ends at once. Progress is the tutor's state file,
so a reload resumes where the learner was (its writes are whole-file renames: tabs side by side
never leave it half-written).
"""

from __future__ import annotations

import errno
import os
import shlex
import sys
import tempfile
from urllib.parse import urlsplit

from tutor.commands.results import EXIT_OK, UsageError
from tutor.commands.setup import (chosen_lang, class_join_for, find_kubeconfig_for, lesson_for, progress_for,
                                  workdir_for)
from tutor.i18n.bilingual import os_reason, pick, say

# The plain tutor's options that a served tutor takes: each passed on as given (paths made absolute).
PASSED_ON = ("lesson", "kubeconfig", "context", "namespace", "workdir", "replay", "speed", "poll", "state_file",
             "join", "name")
PATHS = ("workdir", "replay", "state_file")
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def run_serve(args) -> int:
    from tutor.i18n import serving
    from tutor.serve.gate import Gate
    from tutor.serve.server import TutorServer

    lang = chosen_lang(args)
    public_url = checked_public_url(args.public_url)
    if args.max_sessions < 1:
        raise UsageError(pick(serving.BAD_CAP, "en", value=args.max_sessions),
                         pick(serving.BAD_CAP, "ko", value=args.max_sessions))
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: give a port from 1 to 65535 (0: any free one)",
                         f"--port {args.port}: 1부터 65535까지의 포트를 주세요(0이면 비어 있는 아무 포트)")
    class_join_for(args)  # each tab's tutor joins the class itself, under the one --name
    lesson = lesson_for(args)  # the checks the plain tutor makes before its first frame
    progress_for(args, lesson, bool(args.replay))
    workdir_for(args, lesson)
    if not args.replay:
        find_kubeconfig_for(args)

    gate = Gate(args.max_sessions)
    # A tab's tutor that cannot start writes why in here, for its page; gone when the server stops.
    with tempfile.TemporaryDirectory(prefix="lwstutor-serve-", ignore_cleanup_errors=True) as scratch:
        failure_file = os.path.join(scratch, "failed.json")
        server = TutorServer(tutor_command(args, lang, failure_file), args.host, args.port, gate, lang, public_url,
                             failure_file=failure_file)
        serve_until_stopped(server, args, lang, lesson, gate, public_url)
    print(pick(serving.STOPPED, lang), flush=True)
    return EXIT_OK


def serve_until_stopped(server, args, lang: str, lesson, gate, public_url: str) -> None:
    from tutor.i18n import serving

    def listening(host: str, port: int) -> None:
        where = public_url or f"http://{address_for_browsers(host)}:{port}"
        what = args.replay and say(lang, "replay of {f}", "{f} 재생", f=os.path.basename(args.replay)) \
            or say(lang, "lesson {name}", "{name} 수업", name=lesson.id)
        lines = [pick(serving.STARTED, lang, what=what), f"  {where}/?token={gate.token}",
                 pick(serving.LIMITS, lang, cap=gate.cap)]
        if args.host not in LOOPBACK:
            lines.append(pick(serving.OPEN_NETWORK, lang, host=args.host))
        print("\n".join(lines), flush=True)

    try:
        server.run(listening)
    except OSError as exc:
        addr = f"{args.host}:{args.port}"
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(pick(serving.PORT_TAKEN, "en", port=args.port, addr=addr),
                             pick(serving.PORT_TAKEN, "ko", port=args.port, addr=addr), kind="port") from None
        reason = os_reason(exc)
        raise UsageError(pick(serving.CANNOT_LISTEN, "en", host=args.host, port=args.port, reason=reason[0]),
                         pick(serving.CANNOT_LISTEN, "ko", host=args.host, port=args.port, reason=reason[1]),
                         kind="port") from None


def address_for_browsers(host: str) -> str:
    """The host part of the printed address: a wildcard bind is reached by this machine's name."""
    if host in ("0.0.0.0", "::", ""):
        import socket

        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def checked_public_url(url: str | None) -> str:
    from tutor.i18n import serving

    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(pick(serving.BAD_PUBLIC_URL, "en", url=url), pick(serving.BAD_PUBLIC_URL, "ko", url=url))
    return url.rstrip("/")


def tutor_command(args, lang: str, failure_file: str = "") -> str:
    """The shell command each tab's tutor runs: this Python, `-P -m tutor.served_tab` (the
    tutor, and a reason for the tab's page when it cannot start: in `failure_file`), the options
    given.

    `-P` keeps the current directory off sys.path: run from a clone, its source folder `tutor/`
    would otherwise shadow the installed package (which alone holds `tutor/lessons`)."""
    from tutor.serve import FAILURE_FLAG, TAB_MODULE

    argv = [sys.executable, "-P", "-m", TAB_MODULE, *([FAILURE_FLAG, failure_file] if failure_file else []),
            "--lang", lang]
    for dest in PASSED_ON:
        value = getattr(args, dest, None)
        flag = "--" + dest.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value not in (None, False, ""):
            if dest in PATHS:
                value = os.path.abspath(os.path.expanduser(value))
            elif dest == "kubeconfig":  # a list like $KUBECONFIG
                value = os.pathsep.join(os.path.abspath(os.path.expanduser(p)) for p in value.split(os.pathsep) if p)
            argv += [flag, str(value)]
    return shlex.join(argv)
