"""Command line: `lwstutor` (the TUI), `lwstutor demo`, `lwstutor check`, `lwstutor doctor`,
`lwstutor record`, `lwstutor why`.

Options are parsed in one place. Each option is declared once (OPTIONS) and each command names the
options it takes (COMMANDS). Every option is accepted before and after the subcommand and means
the same in both places; one given to a command that does not take it is refused. Defaults are
filled in after parsing: argparse lets a subcommand's defaults overwrite what was given before
the subcommand, which once made `lwstutor --lang en --workdir DIR check` ignore both options.

Connection flags follow kubectl (--kubeconfig, --context, -n/--namespace). Heavy imports
(kubernetes, textual, the lesson) happen inside the commands so `--version` and the first frame
are quick.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field

from tutor import __version__
from tutor.commands.results import EXIT_OK, EXIT_USAGE, UsageError


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    help: str
    default: object = None
    kwargs: dict = field(default_factory=dict)  # type, choices, action, metavar

    @property
    def dest(self) -> str:
        return self.flags[-1].lstrip("-").replace("-", "_")


OPTIONS = {o.dest: o for o in (
    Option(("--lesson",), "which lesson (default: the one a --replay recording was made for, else lws); "
           "an unknown name lists those there are", kwargs={"metavar": "NAME"}),
    Option(("--kubeconfig",), "kubeconfig file, or a list like $KUBECONFIG (default: as kubectl finds it: "
           "$KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml, in-cluster)", kwargs={"metavar": "FILE"}),
    Option(("--context",), "kubeconfig context to use"),
    Option(("-n", "--namespace"), "lesson namespace (default: the recording's, else the lesson's{namespace})"),
    Option(("--workdir",), "where the answer files are (default: the lesson's{workdir})", kwargs={"metavar": "DIR"}),
    Option(("--lang",), "language of the lesson and messages (default: the last one used, else the locale)",
           kwargs={"choices": ("ko", "en")}),
    Option(("--replay",), "use a recording instead of a live cluster", kwargs={"metavar": "FILE"}),
    Option(("--speed",), "replay speed factor (default 1, demo 0.5; 0 = instant)", 1.0, {"type": float}),
    Option(("--pause",), "seconds to stay on each step once it passes (default 4)", 4.0,
           {"type": float, "metavar": "S"}),
    Option(("--poll",), "poll the answer files instead of using file events (for NFS, WSL /mnt, containers)",
           False, {"action": "store_true"}),
    Option(("--state-file",), "progress file (default: under $XDG_STATE_HOME/lwstutor)", kwargs={"metavar": "FILE"}),
    Option(("--step",), "only step N (repeatable)", kwargs={"type": int, "action": "append", "metavar": "N"}),
    Option(("--json",), "machine-readable output", False, {"action": "store_true"}),
    Option(("--duration",), "stop after S seconds (default: until Ctrl-C)", kwargs={"type": float, "metavar": "S"}),
    Option(("--overwrite",), "replace FILE if it is an earlier lwstutor recording (never any other file)",
           False, {"action": "store_true"}),
    Option(("--lws-version",), "LWS release to note in the header", ""),
)}

CLUSTER = ("lesson", "kubeconfig", "context", "namespace", "workdir")


@dataclass(frozen=True)
class Command:
    run: str                      # "module:function", imported only when the command runs
    options: tuple[str, ...]      # keys of OPTIONS this command takes
    help: str = ""
    defaults: dict = field(default_factory=dict)     # this command's own defaults for its options
    positionals: tuple[tuple[str, dict], ...] = ()   # (name, add_argument keywords)


# "" is `lwstutor` with no subcommand: the tutor itself. A new subcommand is one entry here.
COMMANDS = {
    "": Command("tutor.commands.tui:run_tui", CLUSTER + ("lang", "replay", "speed", "poll", "state_file")),
    "demo": Command("tutor.commands.demo:run_demo", ("lang", "speed", "pause"),
                    "watch the whole lab being done, from a recording (no cluster needed)", {"speed": 0.5}),
    "check": Command("tutor.commands.check:run_check", CLUSTER + ("lang", "replay", "step", "json", "state_file"),
                     "evaluate the steps once and print the verdicts"),
    "doctor": Command("tutor.commands.doctor:run_doctor", CLUSTER + ("lang", "json"),
                      "check that the cluster is ready for the lab; prints exact fixes"),
    "record": Command("tutor.commands.record:run_record", CLUSTER + ("lang", "poll", "duration", "overwrite",
                                                                     "lws_version"),
                      "record the cluster and the answer files into FILE (JSON Lines)",
                      positionals=(("file", {"metavar": "FILE"}),)),
    "why": Command("tutor.commands.why:run_why", CLUSTER + ("lang", "replay", "json"),
                   "why POD is Pending, or why its node fits it: node by node (read-only)",
                   positionals=(("pod", {"metavar": "POD"}),)),
}

_AFTER = "after_"  # dest prefix of an option given after the subcommand, merged by _finish


def _add_options(p: argparse.ArgumentParser, takes: tuple[str, ...], prefix: str, lesson=None) -> None:
    """Every option, so each is recognised in any position; those the command does not take
    are hidden from its help and refused by _finish with one message, wherever they stood."""
    for dest, opt in OPTIONS.items():
        text = opt.help.format(**{k: f", {getattr(lesson, k)}" if lesson else "" for k in ("namespace", "workdir")})
        plain = not {"action", "choices", "metavar"} & opt.kwargs.keys()  # else argparse names it well
        kwargs = {"metavar": dest.upper(), **opt.kwargs} if plain else opt.kwargs
        p.add_argument(*opt.flags, dest=prefix + dest, default=argparse.SUPPRESS,
                       help=text if dest in takes else argparse.SUPPRESS, **kwargs)


class _ErrorsAsJson(argparse.ArgumentParser):
    """With --json anywhere on the line, a usage error is JSON on stdout too (exit 2 as ever)."""
    json_errors = False

    def error(self, message: str):  # noqa: D102 - argparse's
        if self.json_errors:
            from tutor.commands.results import UsageError, print_json

            print_json(UsageError(message).to_json("en"))
            self.exit(EXIT_USAGE)
        super().error(message)


class _Parser(_ErrorsAsJson):
    def parse_args(self, args=None, namespace=None):  # noqa: D102 - argparse's, then _finish
        return _finish(self, super().parse_args(args, namespace))


def build_parser(lesson=None, json_errors: bool = False) -> argparse.ArgumentParser:
    """The parser; its parse_args returns finished args (merged, checked, defaults filled in).
    With a lesson, the help shows its namespace and workdir as the defaults."""
    root = _Parser(prog="lwstutor", description="A terminal tutor for LeaderWorkerSet "
                   "that watches your cluster and your answer files while you work.")
    root.json_errors = json_errors
    root.add_argument("--version", action="version", version=f"lwstutor {__version__}")
    _add_options(root, COMMANDS[""].options, "", lesson)
    sub = root.add_subparsers(dest="command", metavar="COMMAND", parser_class=_ErrorsAsJson)
    for name, cmd in COMMANDS.items():
        if name:
            p = sub.add_parser(name, help=cmd.help, description=cmd.help)
            p.json_errors = json_errors
            for pos, kwargs in cmd.positionals:
                p.add_argument(pos, **kwargs)
            _add_options(p, cmd.options, _AFTER, lesson)
    return root


def _finish(parser: argparse.ArgumentParser, ns: argparse.Namespace) -> argparse.Namespace:
    """One option set from both positions: after the subcommand wins, --step adds up. Then refuse
    what the command does not take and fill in the defaults (the command's own first)."""
    name = ns.command or ""
    cmd = COMMANDS[name]
    given = {}
    for dest, opt in OPTIONS.items():
        before, after = ns.__dict__.pop(dest, None), ns.__dict__.pop(_AFTER + dest, None)
        if opt.kwargs.get("action") == "append" and before and after:
            given[dest] = before + after
        elif before is not None or after is not None:
            given[dest] = after if after is not None else before
    for dest in given:
        if dest not in cmd.options:
            where = f"lwstutor {name}" if name else "lwstutor without a subcommand (the tutor)"
            takers = [f"lwstutor {n}" if n else "lwstutor (the tutor)" for n, c in COMMANDS.items()
                      if dest in c.options]
            parser.error(f"{'/'.join(OPTIONS[dest].flags)} does not apply to {where}; "
                         f"it is an option of {', '.join(takers)}")
    for dest, opt in OPTIONS.items():
        setattr(ns, dest, given.get(dest, cmd.defaults.get(dest, opt.default)))
    return ns


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The lesson is loaded only to show its defaults in --help: --version and parsing stay quick.
    lesson = None
    if {"-h", "--help"} & set(argv):
        from tutor.lesson.loader import load
        lesson = load()
    args = build_parser(lesson, json_errors="--json" in argv).parse_args(argv)
    module, function = COMMANDS[args.command or ""].run.split(":")
    try:
        from importlib import import_module
        return getattr(import_module(module), function)(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `lwstutor check | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except UsageError as exc:
        report(args, exc)
        return EXIT_USAGE


def report(args, exc: UsageError) -> None:
    """The one error path: one line in the learner's language (fixes on lines of their own), or
    JSON on stdout with --json."""
    from tutor.commands.setup import chosen_lang
    from tutor.commands.results import print_json

    lang = chosen_lang(args)
    if getattr(args, "json", False):
        print_json(exc.to_json(lang))
        return
    label = "해결" if lang == "ko" else "fix"
    print("\n".join([f"lwstutor: {exc.text(lang)}", *(f"  {label}: {f}" for f in exc.fixes)]), file=sys.stderr)
