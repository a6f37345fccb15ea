"""Command line: `lwstutor` (the TUI), `lwstutor demo`, `lwstutor check`, `lwstutor doctor`,
`lwstutor record`, `lwstutor why`.

Connection flags follow kubectl (--kubeconfig, --context, -n/--namespace). Heavy imports
(kubernetes, textual) happen inside the commands so `--version` and the first frame are quick.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from tutor import __version__

EXIT_OK, EXIT_NOT_PASSED, EXIT_USAGE = 0, 1, 2


def _common(p: argparse.ArgumentParser, lesson_ns: str, workdir: str) -> None:
    g = p.add_argument_group("cluster (as kubectl)")
    g.add_argument("--kubeconfig", help="kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    g.add_argument("--context", help="kubeconfig context to use")
    g.add_argument("-n", "--namespace", default=lesson_ns, help=f"lesson namespace (default: {lesson_ns})")
    p.add_argument("--workdir", help=f"where the answer files are (default: {workdir})")
    p.add_argument("--lang", choices=("ko", "en"), help="language of the lesson and messages")
    p.add_argument("--replay", metavar="FILE", help="use a recording instead of a live cluster")


def build_parser() -> argparse.ArgumentParser:
    from tutor.lesson.loader import load

    lesson = load()
    root = argparse.ArgumentParser(prog="lwstutor", description="A terminal tutor for LeaderWorkerSet "
                                   "that watches your cluster and your answer files while you work.")
    root.add_argument("--version", action="version", version=f"lwstutor {__version__}")
    _common(root, lesson.namespace, lesson.workdir)
    root.add_argument("--speed", type=float, default=1.0, help="replay speed factor (default 1; 0 = instant)")
    root.add_argument("--poll", action="store_true", help="poll the answer files instead of using file events "
                      "(for NFS, WSL /mnt, containers)")
    root.add_argument("--state-file", help="progress file (default: under $XDG_STATE_HOME/lwstutor)")
    sub = root.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser("demo", help="watch the whole lab being done, from a recording (no cluster needed)")
    demo.add_argument("--speed", type=float, default=0.5, help="replay speed factor (default 0.5)")
    demo.add_argument("--pause", type=float, default=4.0, metavar="S",
                      help="seconds to stay on each step once it passes (default 4)")
    demo.add_argument("--lang", choices=("ko", "en"), help="language of the lesson and messages")
    demo.set_defaults(namespace=lesson.namespace, workdir=None, replay=None, state_file=None)

    chk = sub.add_parser("check", help="evaluate the steps once and print the verdicts")
    _common(chk, lesson.namespace, lesson.workdir)
    chk.add_argument("--step", type=int, action="append", metavar="N", help="only step N (repeatable)")
    chk.add_argument("--json", action="store_true", help="machine-readable output")

    doc = sub.add_parser("doctor", help="check that the cluster is ready for the lab; prints exact fixes")
    _common(doc, lesson.namespace, lesson.workdir)
    doc.add_argument("--json", action="store_true", help="machine-readable output")

    rec = sub.add_parser("record", help="record the cluster and the answer files into FILE (JSON Lines)")
    _common(rec, lesson.namespace, lesson.workdir)
    rec.add_argument("file", metavar="FILE")
    rec.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: until Ctrl-C)")
    rec.add_argument("--lws-version", default="", help="LWS release to note in the header")
    rec.add_argument("--poll", action="store_true", help="poll the answer files instead of file events")

    why = sub.add_parser("why", help="why POD is Pending, or why its node fits it: node by node (read-only)")
    _common(why, lesson.namespace, lesson.workdir)
    why.add_argument("pod", metavar="POD")
    why.add_argument("--json", action="store_true", help="machine-readable output")
    return root


def default_lang(cli_lang: str | None, saved: str = "") -> str:
    if cli_lang:
        return cli_lang
    if saved in ("ko", "en"):
        return saved
    env = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or ""
    return "en" if env and not env.startswith("ko") and not env.startswith(("C", "POSIX")) else "ko"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--version"]:  # as argparse would answer, without loading the lesson for the defaults
        print(f"lwstutor {__version__}")
        return EXIT_OK
    args = build_parser().parse_args(argv)
    try:
        if args.command == "check":
            from tutor.commands.check import run_check
            return run_check(args)
        if args.command == "demo":
            from tutor.commands.demo import run_demo
            return run_demo(args)
        if args.command == "doctor":
            from tutor.commands.doctor import run_doctor
            return run_doctor(args)
        if args.command == "record":
            from tutor.commands.record import run_record
            return run_record(args)
        if args.command == "why":
            from tutor.commands.why import run_why
            return run_why(args)
        from tutor.commands.tui import run_tui
        return run_tui(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `lwstutor check | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except UsageError as exc:
        print(f"lwstutor: {exc}", file=sys.stderr)
        return EXIT_USAGE


class UsageError(Exception):
    pass


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
