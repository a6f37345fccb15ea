"""Every CLI message, read as the learner reads it: the usage and --help of every subcommand, the
errors a learner can meet (the hostile paths of tests/test_cli_hostile.py, a refusing cluster,
bad usage) and the JSON errors of check, doctor and record, each in Korean and in English, held
to the language and particle rules of tests/lang_scan.py. A run reports all its findings."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from tests.hostile_cli import dead_kubeconfig, make_sandbox
from tests.lang_scan import scan
from tests.test_cli_hostile import COMMANDS, W, _argv
from tutor.cli import COMMANDS as SUBCOMMANDS
from tutor.cli import main

# Part of the screen audit (run alone with -m audit): Korean --help still shows FILE, WSL and
# JSON Lines, open work of the learner's screen.
pytestmark = pytest.mark.audit

LANGS = ["ko", "en"]
DEAD = "https://127.0.0.1:1"
# Where a learner reads words in a JSON answer (keys and kinds are for programs).
READ = {"message", "title", "detail", "details", "fix", "fixes", "why"}
# Names the learner gave (the sandbox's kubeconfig context, a link's target, bad values typed):
# theirs, shown as given.
THEIRS = frozenset({"dead", "nowhere", "nope", "xx", "u", "t"})


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    """Runs lwstutor in this process (as tests/test_cli.py does) and returns (code, stdout, stderr)."""
    monkeypatch.setenv("KUBECONFIG", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / "sandbox"
    paths = make_sandbox(root)
    dead = dead_kubeconfig(tmp_path / "dead.kubeconfig")
    subs = {"{DEAD}": str(dead), "{OUT}": str(tmp_path / "out.jsonl")}

    def run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's --help and usage errors
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    run.paths, run.subs = paths, subs
    return run


def _read_json(text: str) -> str:
    """The strings of a JSON answer that a learner reads."""
    try:
        doc = json.loads(text)
    except ValueError:
        return text
    out: list[str] = []

    def walk(node, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in READ:
            out.append(node)

    walk(doc)
    return "\n".join(out)


class Findings:
    def __init__(self) -> None:
        self.by_rule: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))

    def read(self, text: str, lang: str, where: str) -> None:
        """A message's findings, its words of one rule together (a line of English in Korean
        mode is one finding, naming its words)."""
        per_line: dict[tuple[str, str], list[str]] = defaultdict(list)
        for f in scan(text, lang, code=THEIRS):
            per_line[(f.rule, f.line)].append(f.text)
        for (rule, line), words in per_line.items():
            self.by_rule[rule][f"{', '.join(dict.fromkeys(words))[:80]}  «{line[:110]}»"].append(where)

    def report(self) -> str:
        out = []
        for rule in sorted(self.by_rule):
            whats = self.by_rule[rule]
            out.append(f"== {rule}: {sum(map(len, whats.values()))} ({len(whats)} distinct)")
            for what, wheres in sorted(whats.items(), key=lambda kv: -len(kv[1])):
                more = f" (+{len(wheres) - 1} more)" if len(wheres) > 1 else ""
                out.append(f"   {what}\n      at {wheres[0]}{more}")
        return "\n".join(out)

    def done(self) -> None:
        if self.by_rule:
            pytest.fail(self.report(), pytrace=False)


@pytest.mark.parametrize("lang", LANGS)
def test_usage_and_help_read_well(cli, lang):
    found = Findings()
    for name in SUBCOMMANDS:
        sub = [name] if name else []
        code, out, err = cli(*sub, "--help", "--lang", lang)
        found.read(out + err, lang, f"lwstutor {name} --help --lang {lang}".replace("  ", " "))
        code, out, err = cli(*sub, "--no-such-flag", "--lang", lang)
        found.read(out + err, lang, f"lwstutor {name} --no-such-flag --lang {lang}".replace("  ", " "))
    for argv in (["check", "--step", "x"], ["check", "--step", "99", "--replay", W], ["why"], ["record"],
                 ["demo", "--speed", "-1"], ["demo", "--kubeconfig", "F"], ["--lesson", "nope", "check", "--replay", W],
                 ["nope"], ["--lang", "xx"]):
        code, out, err = cli(*argv, "--lang", lang)
        found.read(out + err, lang, " ".join(["lwstutor", *argv, "--lang", lang]))
    found.done()


HOSTILE = sorted(COMMANDS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("cmd", HOSTILE)
def test_errors_read_well(cli, cmd, lang):
    """Each hostile path each command takes, with --json too where it has it."""
    template, said, takes_json = COMMANDS[cmd]
    found = Findings()
    for path, words in said.items():
        if words is None:
            continue
        argv = _argv(template, cli.paths[path], cli.subs)
        code, out, err = cli(*argv, "--lang", lang)
        found.read(out + err, lang, f"{cmd} ({path}) --lang {lang}")
        if takes_json:
            code, out, err = cli(*argv, "--lang", lang, "--json")
            found.read(_read_json(out) + err, lang, f"{cmd} ({path}) --json --lang {lang}")
    found.done()


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusing_cluster_reads_well(cli, lang, tmp_path):
    found = Findings()
    dead = cli.subs["{DEAD}"]
    for argv in (["check"], ["why", "llm-0"], ["doctor"], ["record", cli.subs["{OUT}"]]):
        code, out, err = cli(*argv, "--kubeconfig", dead, "--lang", lang)
        found.read(out + err, lang, " ".join([*argv[:1], "(refused)", "--lang", lang]))
        code, out, err = cli(*argv, "--kubeconfig", dead, "--lang", lang, "--json")
        found.read(_read_json(out) + err, lang, " ".join([*argv[:1], "(refused) --json --lang", lang]))
    code, out, err = cli("doctor", "--kubeconfig", dead, "--workdir", cli.paths["someone else's file"],
                         "--lang", lang, "--json")
    found.read(_read_json(out) + err, lang, f"doctor (refused, workdir a file) --json --lang {lang}")
    code, out, err = cli("why", "no-such-pod", "--replay", W, "--lang", lang)
    found.read(out + err, lang, f"why no-such-pod --replay --lang {lang}")
    code, out, err = cli("why", "no-such-pod", "--replay", W, "--lang", lang, "--json")
    found.read(_read_json(out) + err, lang, f"why no-such-pod --replay --json --lang {lang}")
    found.done()
