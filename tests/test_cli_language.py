"""Every CLI message, read as the learner reads it: the usage and --help of every subcommand, the
errors a learner can meet (the hostile paths of tests/test_cli_hostile.py, a refusing cluster,
bad usage) and the JSON errors of check, doctor and record, each in Korean and in English, held
to the language and particle rules of tests/lang_scan.py. A run reports all its findings."""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict

import pytest

from tests.hostile_cli import dead_kubeconfig, make_sandbox
from tests.lang_scan import HANGUL, scan
from tests.test_cli_hostile import COMMANDS, W, _argv
from tutor.cli import COMMANDS as SUBCOMMANDS
from tutor.cli import build_parser, main

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


# --- the help's fields, read from the parser ----------------------------------------------------

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def helps(lang: str) -> dict[str, argparse.ArgumentParser]:
    """Each command's parser as its --help shows it in `lang` ("" the tutor itself)."""
    root = build_parser(lang=lang)
    sub = next(a for a in root._actions if isinstance(a, argparse._SubParsersAction))
    return {name: root if not name else sub.choices[name] for name in SUBCOMMANDS}


def shown(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The arguments its help shows, by dest (what the other language's help must show too)."""
    return {a.dest: a for a in parser._actions if a.help is not argparse.SUPPRESS}


def value_name(action: argparse.Action) -> str | None:
    """The name the help gives the argument's value (none for a flag or a choice)."""
    return action.metavar if isinstance(action.metavar, str) and not isinstance(action, argparse._SubParsersAction) \
        else None


def label(action: argparse.Action) -> str:
    return "/".join(action.option_strings) or str(action.metavar)


def _words(parser: argparse.ArgumentParser) -> str:
    """The help's words: the command's description and each shown argument's help."""
    return "\n".join([parser.description or "", *(a.help or "" for a in shown(parser).values())])


HELPS = {lang: helps(lang) for lang in LANGS}


@pytest.mark.parametrize("name", list(SUBCOMMANDS), ids=lambda n: n or "tutor")
def test_each_help_shows_the_same_fields_in_both_languages(name):
    ko, en = shown(HELPS["ko"][name]), shown(HELPS["en"][name])
    assert ko.keys() == en.keys()
    for dest in en:
        k, e = ko[dest], en[dest]
        assert (k.option_strings, list(k.choices or ()), k.nargs) == (e.option_strings, list(e.choices or ()), e.nargs), \
            dest  # the commands, by name: their parsers differ by language
        assert (value_name(k) is None) == (value_name(e) is None), dest


@pytest.mark.parametrize("name", list(SUBCOMMANDS), ids=lambda n: n or "tutor")
def test_korean_help_names_each_value_in_korean_and_for_what_it_is(name):
    """A value's name is a Korean word (ADDR, PORT, URL, N read as letters), one its option's help
    says (a count of tutors is not a 단계), and no English name of a value is left in the words."""
    parser, english = HELPS["ko"][name], HELPS["en"][name]
    found = []
    for action in shown(parser).values():
        metavar = value_name(action)
        if metavar is None:
            continue
        if not re.fullmatch(f"[{HANGUL}]+", metavar):
            found.append(f"{label(action)}: {metavar!r} is not a Korean word")
        said = action.help or parser.description or ""  # a positional is told of in the description
        if metavar not in said:
            found.append(f"{label(action)}: {metavar!r} names a value its words do not speak of: {said!r}")
    words = _words(parser)
    for action in shown(english).values():
        metavar = value_name(action)
        if metavar and re.search(rf"(?<![\w$-]){re.escape(metavar)}(?![\w-])", words):
            found.append(f"{label(action)}: the English value name {metavar!r} is in the Korean words")
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(SUBCOMMANDS), ids=lambda n: n or "tutor")
def test_each_help_speaks_only_of_options_its_command_has(name, lang):
    """An option another one's words mention (--lesson's default "made from the --replay
    recording") is one the command takes: `lwstutor demo` has no --replay. And no option's words
    speak of another command."""
    parser = HELPS[lang][name]
    has = {flag for a in shown(parser).values() for flag in a.option_strings}
    assert sorted(set(FLAG.findall(_words(parser))) - has) == []
    # nor another command's ways: --speed once said "demo 0.5" in every command's help
    others = {n for n in SUBCOMMANDS if n and n != name}
    options_words = " ".join(a.help or "" for a in shown(parser).values() if a.option_strings)
    assert sorted(others & set(re.findall(r"[a-z]+", options_words))) == []


def test_english_value_names_are_capitals():
    """argparse's way: FILE, N, ADDR (the Korean help has its words instead)."""
    names = {value_name(a) for p in HELPS["en"].values() for a in shown(p).values()} - {None}
    assert names and all(re.fullmatch(r"[A-Z][A-Z_]*", n) for n in names if n), names
