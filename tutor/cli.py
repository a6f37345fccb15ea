"""Command line: `lwstutor` (the TUI), `lwstutor demo`, `lwstutor check`, `lwstutor doctor`,
`lwstutor record`, `lwstutor why`, `lwstutor serve`, `lwstutor class`.

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
import re
import sys
from collections.abc import Collection
from dataclasses import dataclass, field

from tutor import __version__
from tutor.commands.results import EXIT_OK, EXIT_USAGE, UsageError
from tutor.demo import DEMO_MINUTES
from tutor.i18n import command_line, help_layout
from tutor.i18n.bilingual import default_lang, pick, say


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    help: str
    ko: str  # the help in Korean
    default: object = None
    kwargs: dict = field(default_factory=dict)  # type, choices, action, metavar
    number: dict | None = None  # a number: command_line.number's checks (positive, integer, what)
    # Its value's name in Korean where command_line.METAVARS's word for its English one would not
    # fit (N is a step for --step, a count for --max-sessions).
    metavar_ko: str = ""
    # Its words (English, Korean) for a command that takes no --replay, where its own words speak
    # of the recording: a command's help describes only options that command has.
    without_replay: tuple[str, str] | None = None

    @property
    def dest(self) -> str:
        return self.flags[-1].lstrip("-").replace("-", "_")


SECONDS = ("seconds", "초")
OPTIONS = {o.dest: o for o in (
    Option(("--lesson",), "which lesson (default: the one a --replay recording was made for, else lws); "
           "an unknown name lists those there are",
           "어느 수업인지 (기본값: --replay 녹화 파일이 만들어진 수업, 없으면 lws). 모르는 이름이면 있는 수업을 알려 줍니다",
           kwargs={"metavar": "NAME"},
           without_replay=("which lesson (default: lws); an unknown name lists those there are",
                           "어느 수업인지 (기본값: lws). 모르는 이름이면 있는 수업을 알려 줍니다")),
    Option(("--kubeconfig",), "kubeconfig file, or a list like $KUBECONFIG (default: as kubectl finds it: "
           "$KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml, in-cluster)",
           "kubeconfig 파일, 또는 $KUBECONFIG 같은 목록 (기본값: kubectl처럼 찾습니다: "
           "$KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml, 클러스터 안 설정)", kwargs={"metavar": "FILE"}),
    Option(("--context",), "kubeconfig context to use", "쓸 kubeconfig 컨텍스트"),
    Option(("-n", "--namespace"), "lesson namespace (default: the recording's, else the lesson's{namespace})",
           "수업의 네임스페이스 (기본값: 녹화 파일의 것, 없으면 수업의 것{namespace})",
           without_replay=("lesson namespace (default: the lesson's{namespace})",
                           "수업의 네임스페이스 (기본값: 수업의 것{namespace})")),
    Option(("--workdir",), "where the answer files are (default: the lesson's{workdir})",
           "답안 파일이 있는 디렉터리 (기본값: 수업의 것{workdir})", kwargs={"metavar": "DIR"}),
    Option(("--lang",), "language of the lesson and messages (default: the last one used, else the locale)",
           "수업과 메시지의 언어 (기본값: 마지막으로 쓴 언어, 없으면 로캘)", kwargs={"choices": ("ko", "en")}),
    Option(("--replay",), "use a recording instead of a live cluster", "실제 클러스터 대신 녹화 파일을 씁니다",
           kwargs={"metavar": "FILE"}),
    Option(("--speed",), "replay speed factor (default {default:g}; 0 = instant)",
           "재생 속도 배율 (기본값 {default:g}, 0이면 기다리지 않고 바로)", 1.0, number={}),
    Option(("--pause",), "seconds to stay on each step once it passes (default 4)",
           "단계를 통과한 뒤 그 단계에 머무는 초 (기본값 4)", 4.0, {"metavar": "S"}, number={"what": SECONDS}),
    Option(("--poll",), "poll the answer files instead of using file events (for NFS, WSL /mnt, containers)",
           "파일 이벤트 대신 답안 파일을 주기적으로 읽습니다 (NFS, WSL /mnt, 컨테이너용)",
           False, {"action": "store_true"}),
    Option(("--state-file",), "progress file (default: under $XDG_STATE_HOME/lwstutor)",
           "진행 파일 (기본값: $XDG_STATE_HOME/lwstutor 아래)", kwargs={"metavar": "FILE"}),
    Option(("--step",), "only step N (repeatable)", "주어진 단계만 (여러 번 줄 수 있습니다)",
           kwargs={"action": "append", "metavar": "N"}, number={"integer": True}, metavar_ko="단계"),
    Option(("--json",), "machine-readable output", "프로그램이 읽을 JSON 출력", False, {"action": "store_true"}),
    Option(("--duration",), "stop after S seconds (default: until Ctrl-C)", "주어진 초가 지나면 멈춥니다 (기본값: Ctrl-C까지)",
           kwargs={"metavar": "S"}, number={"positive": True, "what": SECONDS}),
    Option(("--overwrite",), "replace FILE if it is an earlier lwstutor recording (never any other file)",
           "녹화할 파일이 예전 lwstutor 녹화 파일이면 바꿉니다 (다른 파일은 절대 바꾸지 않습니다)",
           False, {"action": "store_true"}),
    Option(("--lws-version",), "LWS release to note in the header", "헤더에 적어 둘 LWS 릴리스 버전", ""),
    Option(("--host",), "address to listen on (default 127.0.0.1, this machine only)",
           "기다릴 주소 (기본값 127.0.0.1, 이 컴퓨터에서만)", "127.0.0.1", {"metavar": "ADDR"}),
    Option(("--port",), "port to listen on (default {default}; 0 = any free one)",
           "기다릴 포트 (기본값 {default}, 0이면 비어 있는 아무 포트)", 8000, {"metavar": "PORT"}, number={"integer": True}),
    Option(("--public-url",), "the address browsers use, when a proxy, a forwarded port or a path prefix "
           "stands in between (e.g. https://lab.example/tutor)",
           "프록시, 포워딩한 포트, 경로 접두사를 거칠 때 브라우저가 쓰는 주소 (예: https://lab.example/tutor)",
           kwargs={"metavar": "URL"}),
    Option(("--max-sessions",), "how many tutors may run at once, one per browser tab (default 4)",
           "한 번에 띄울 수 있는 튜터 개수, 브라우저 탭마다 하나 (기본값 4)", 4, {"metavar": "N"}, number={"integer": True},
           metavar_ko="개수"),
    Option(("--db",), "the class's SQLite file, kept across restarts (default: under $XDG_STATE_HOME/lwstutor)",
           "수업을 기록하는 SQLite 파일, 다시 시작해도 남습니다 (기본값: $XDG_STATE_HOME/lwstutor 아래)",
           kwargs={"metavar": "FILE"}),
    # The words of --join and --name never name the class command: a command's help speaks of no other.
    Option(("--join",), "send your status on each step to the instructor at URL, the learners' address they gave "
           "(the README says what is sent)",
           "단계마다 내 상태를 강사가 알려 준 학습자용 주소로 보냅니다 (무엇을 보내는지는 설명서에 있습니다)",
           kwargs={"metavar": "URL"}),
    Option(("--watch",), "instead of serving, watch the class at URL, the instructor's address a class server printed: "
           "learners by steps, who is stuck, what most fail with",
           "서버를 띄우는 대신, 수업 서버가 출력한 강사용 주소로 수업을 지켜봅니다: 학습자별 단계, 막힌 사람, 가장 흔한 실패",
           kwargs={"metavar": "URL"}),
    Option(("--name",), "your name as the instructor sees it, with --join (default: your login name)",
           "--join과 함께, 강사에게 보일 이름 (기본값: 로그인 이름)", kwargs={"metavar": "NAME"}),
)}

CLUSTER = ("lesson", "kubeconfig", "context", "namespace", "workdir")
JOIN = ("join", "name")  # a learner's tutor reporting to a class (`lwstutor class`)


@dataclass(frozen=True)
class Command:
    run: str                      # "module:function", imported only when the command runs
    options: tuple[str, ...]      # keys of OPTIONS this command takes
    help: tuple[str, str] = ("", "")  # (English, Korean)
    defaults: dict = field(default_factory=dict)     # this command's own defaults for its options
    positionals: tuple[tuple[str, dict], ...] = ()   # (name, add_argument keywords)


# "" is `lwstutor` with no subcommand: the tutor itself. A new subcommand is one entry here.
COMMANDS = {
    "": Command("tutor.commands.tui:run_tui", CLUSTER + ("lang", "replay", "speed", "poll", "state_file") + JOIN),
    "demo": Command("tutor.commands.demo:run_demo", ("lesson", "lang", "speed", "pause"),
                    (f"watch the whole lab being done, from a recording (no cluster needed); in real time it "
                     f"takes about {DEMO_MINUTES['lws']} minutes, --lesson gang about {DEMO_MINUTES['gang']}",
                     f"녹화 파일로 실습 전체가 진행되는 것을 봅니다 (클러스터가 필요 없습니다). 실제 속도로 "
                     f"약 {DEMO_MINUTES['lws']}분, --lesson gang은 약 {DEMO_MINUTES['gang']}분 걸립니다")),
    "check": Command("tutor.commands.check:run_check", CLUSTER + ("lang", "replay", "step", "json", "state_file"),
                     ("evaluate the steps once and print the verdicts", "단계를 한 번 평가하고 판정을 출력합니다")),
    "doctor": Command("tutor.commands.doctor:run_doctor", CLUSTER + ("lang", "json"),
                      ("check that the cluster is ready for the lab; prints exact fixes",
                       "클러스터가 실습할 준비가 되었는지 확인하고, 고치는 명령을 정확히 알려 줍니다")),
    "record": Command("tutor.commands.record:run_record", CLUSTER + ("lang", "poll", "duration", "overwrite",
                                                                     "lws_version"),
                      ("record the cluster and the answer files into FILE (JSON Lines)",
                       "클러스터와 답안 파일을 파일 하나에 녹화합니다 (한 줄에 JSON 하나씩)"),
                      positionals=(("file", {"metavar": "FILE"}),)),
    "why": Command("tutor.commands.why:run_why", CLUSTER + ("lang", "replay", "json"),
                   ("why POD is Pending, or why its node fits it: node by node (read-only)",
                    "파드가 왜 Pending인지, 또는 왜 그 노드에 맞는지 노드별로 보여 줍니다 (읽기만 합니다)"),
                   positionals=(("pod", {"metavar": "POD"}),)),
    "serve": Command("tutor.commands.serve:run_serve", CLUSTER + ("lang", "replay", "speed", "poll", "state_file",
                                                                   "host", "port", "public_url", "max_sessions")
                     + JOIN,
                     ("the tutor in a browser tab: a web server, one tutor per tab (needs the token it prints)",
                      "브라우저 탭에서 여는 튜터: 웹 서버가 탭마다 튜터를 하나씩 띄웁니다 (출력하는 토큰이 필요합니다)")),
    "class": Command("tutor.commands.class_:run_class", ("lang", "host", "port", "db", "watch"),
                     ("a class server: learners' tutors report their steps to it and the instructor reads them "
                      "(prints both addresses)",
                      "수업 서버: 학습자의 튜터가 단계별 상태를 보내고 강사가 읽습니다 (두 주소를 출력합니다)"),
                     {"port": 8001}),
}
DESCRIPTION = ("A terminal tutor for LeaderWorkerSet that watches your cluster and your answer files while you work.",
               "LeaderWorkerSet을 가르치는 터미널 튜터: 실습하는 동안 클러스터와 답안 파일을 지켜봅니다.")

_AFTER = "after_"  # dest prefix of an option given after the subcommand, merged by _finish


def _add_options(p: argparse.ArgumentParser, cmd: Command, prefix: str, lesson=None, lang: str = "en") -> None:
    """Every option, so each is recognised in any position; those the command does not take
    are hidden from its help and refused by _finish with one message, wherever they stood.
    An option's words may name its {default} for this command."""
    takes = cmd.options
    for dest, opt in OPTIONS.items():
        words = opt.without_replay if opt.without_replay and "replay" not in takes else (opt.help, opt.ko)
        text = say(lang, *words).format(
            default=cmd.defaults.get(dest, opt.default),
            **{k: f", {getattr(lesson, k)}" if lesson else "" for k in ("namespace", "workdir")})
        plain = not {"action", "choices", "metavar"} & opt.kwargs.keys()  # else argparse names it well
        kwargs = {"metavar": dest.upper(), **opt.kwargs} if plain else dict(opt.kwargs)
        if "metavar" in kwargs:
            kwargs["metavar"] = (lang == "ko" and opt.metavar_ko) or command_line.metavar(kwargs["metavar"], lang)
        if opt.number is not None:
            kwargs["type"] = command_line.number(lang, **opt.number)
        p.add_argument(*opt.flags, dest=prefix + dest, default=argparse.SUPPRESS,
                       help=text if dest in takes else argparse.SUPPRESS, **kwargs)


class _Parser(argparse.ArgumentParser):
    """Speaks the learner's language: argparse's own words (its headings, its errors) from their
    catalogue in that language while it parses or shows its help (tutor.i18n.command_line), and
    an error about one option worded as the tutor words it. An error is one line, `lwstutor: <what
    is wrong>`, with where the help is on a line of its own. With --json anywhere on the line, the
    error is JSON on stdout instead (exit 2 as ever)."""
    json_errors = False
    lang = "en"

    def __init__(self, *, lang: str = "en", **kwargs):  # argparse makes the subparsers by keyword
        self.lang = lang
        with command_line.speaking(lang):  # the headings and -h's help are said as it is made
            # exit_on_error=False: an error about an option reaches parse_known_args whole
            super().__init__(formatter_class=help_layout.formatter_for(lang), exit_on_error=False, **kwargs)

    def parse_args(self, args=None, namespace=None):  # noqa: D102 - argparse's, in the learner's language
        with command_line.speaking(self.lang):
            return super().parse_args(args, namespace)

    def parse_known_args(self, args=None, namespace=None):  # noqa: D102 - argparse's, in the learner's language
        with command_line.speaking(self.lang):
            try:
                return super().parse_known_args(args, namespace)
            except argparse.ArgumentError as exc:
                self.error(command_line.argument_error(exc, self.lang))

    def format_usage(self):  # noqa: D102 - argparse's, in the learner's language
        with command_line.speaking(self.lang):
            return super().format_usage()

    def format_help(self):  # noqa: D102 - argparse's, in the learner's language
        with command_line.speaking(self.lang):
            return super().format_help()

    def error(self, message: str):  # noqa: D102 - argparse's
        from tutor.commands.results import UsageError, print_json

        if self.json_errors:
            print_json(UsageError(message).to_json(self.lang))
        else:
            hint = pick(command_line.SEE_HELP, self.lang, prog=self.prog)
            self._print_message(f"lwstutor: {message}\n  {hint}\n", sys.stderr)
        self.exit(EXIT_USAGE)


class _RootParser(_Parser):
    def parse_args(self, args=None, namespace=None):  # noqa: D102 - argparse's, then _finish
        return _finish(self, super().parse_args(args, namespace))


def build_parser(lesson=None, json_errors: bool = False, lang: str = "en",
                 words: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser, in `lang`; its parse_args returns finished args (merged, checked, defaults
    filled in). With a lesson, the help shows its namespace and workdir as the defaults. With
    `words` (the command line), only the commands named in it get their arguments, the one run
    among them; the others are listed, with their help, as `lwstutor --help` lists them (their
    arguments took half of the 5 ms the parser cost the tutor's first frame)."""
    root = _RootParser(prog="lwstutor", description=say(lang, *DESCRIPTION), lang=lang)
    root.json_errors = json_errors
    root.add_argument("--version", action="version", version=f"lwstutor {__version__}",
                      help=pick(command_line.VERSION, lang))
    _add_options(root, COMMANDS[""], "", lesson, lang)
    sub = root.add_subparsers(dest="command", metavar=command_line.metavar("COMMAND", lang), parser_class=_Parser)
    for name, cmd in COMMANDS.items():
        if name:
            text = say(lang, *cmd.help)
            p = sub.add_parser(name, help=text, description=text, lang=lang)
            p.json_errors = json_errors
            if words is not None and name not in words:
                continue
            for pos, kwargs in cmd.positionals:
                p.add_argument(pos, **{**kwargs, "metavar": command_line.metavar(kwargs["metavar"], lang)})
            _add_options(p, cmd, _AFTER, lesson, lang)
    return root


def _finish(parser: _Parser, ns: argparse.Namespace) -> argparse.Namespace:
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
            lang = parser.lang
            where = f"lwstutor {name}" if name else say(lang, "lwstutor without a subcommand (the tutor)",
                                                         "하위 명령 없는 lwstutor(튜터)")
            takers = [f"lwstutor {n}" if n else say(lang, "lwstutor (the tutor)", "lwstutor(튜터)")
                      for n, c in COMMANDS.items() if dest in c.options]
            parser.error(say(lang, "{flags} does not apply to {where}; it is an option of {takers}",
                             "{flags} 옵션은 {where}에 쓸 수 없습니다. 이 옵션을 받는 명령: {takers}",
                             flags="/".join(OPTIONS[dest].flags), where=where, takers=", ".join(takers)))
    for dest, opt in OPTIONS.items():
        setattr(ns, dest, given.get(dest, cmd.defaults.get(dest, opt.default)))
    return ns


def lang_before_parsing(argv: list) -> str:
    """The language to parse in: --lang as argv has it, else the one remembered with the progress
    of the lesson argv names (else the LWS lab's), else the locale. Reads one small file at most
    and imports neither the lesson loader nor the kubernetes client (--version stays quick)."""
    lang = command_line.peek_lang(argv)
    if lang:
        return lang
    from tutor.progress import remembered_lang

    try:
        lesson = next((argv[i + 1] if a == "--lesson" else a.partition("=")[2] for i, a in enumerate(argv)
                       if isinstance(a, str) and (a == "--lesson" and i + 1 < len(argv) or a.startswith("--lesson="))),
                      "lws")
        saved = remembered_lang(lesson if isinstance(lesson, str) and re.fullmatch(r"[a-z0-9][a-z0-9_-]*", lesson)
                                else "lws")
    except Exception:  # noqa: BLE001 - the language of a message must never be why it fails
        saved = ""
    return default_lang(None, saved)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The lesson is loaded only to show its defaults in --help: --version and parsing stay quick.
    lesson = None
    if {"-h", "--help"} & set(argv):
        from tutor.lesson.loader import load
        lesson = load()
    lang = lang_before_parsing(argv)
    args = build_parser(lesson, json_errors="--json" in argv, lang=lang, words=argv).parse_args(argv)
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
    label = say(lang, "fix", "해결")
    print("\n".join([f"lwstutor: {exc.text(lang)}", *(f"  {label}: {f}" for f in exc.fixes_in(lang))]), file=sys.stderr)
