"""Options mean the same wherever they stand: before or after the subcommand, for every command.

The cases come from the CLI's own tables, so a new command or option is covered (and a new option
without a sample value here fails test_every_option_has_a_sample).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests import waits
from tests.conftest import WALKTHROUGH
from tutor.cli import COMMANDS, OPTIONS, build_parser, main

# A sample for each option: what to type, and what the command must then see.
SAMPLES = {
    "lesson": (["--lesson", "scale"], "scale"),
    "kubeconfig": (["--kubeconfig", "/k/config"], "/k/config"),
    "context": (["--context", "lab"], "lab"),
    "namespace": (["-n", "ns1"], "ns1"),
    "workdir": (["--workdir", "/w"], "/w"),
    "lang": (["--lang", "en"], "en"),
    "replay": (["--replay", "r.jsonl"], "r.jsonl"),
    "speed": (["--speed", "3"], 3.0),
    "pause": (["--pause", "2"], 2.0),
    "poll": (["--poll"], True),
    "state_file": (["--state-file", "/s.json"], "/s.json"),
    "step": (["--step", "3"], [3]),
    "json": (["--json"], True),
    "duration": (["--duration", "5"], 5.0),
    "overwrite": (["--overwrite"], True),
    "lws_version": (["--lws-version", "v9"], "v9"),
    "host": (["--host", "0.0.0.0"], "0.0.0.0"),
    "port": (["--port", "8080"], 8080),
    "public_url": (["--public-url", "https://lab.example/tutor"], "https://lab.example/tutor"),
    "max_sessions": (["--max-sessions", "2"], 2),
    "db": (["--db", "/c.sqlite3"], "/c.sqlite3"),
    "join": (["--join", "http://h:8001/c/abcdefghijklmnop"], "http://h:8001/c/abcdefghijklmnop"),
    "name": (["--name", "ana"], "ana"),
    "watch": (["--watch", "http://h:8001/i/abcdefghijklmnop"], "http://h:8001/i/abcdefghijklmnop"),
}


def command_argv(name: str) -> list[str]:
    """The subcommand with its positionals (none for the tutor itself)."""
    return [name, *(f"<{pos}>" for pos, _ in COMMANDS[name].positionals)] if name else []


TAKEN = [(c, o) for c, cmd in COMMANDS.items() for o in cmd.options]
NOT_TAKEN = [(c, o) for c, cmd in COMMANDS.items() for o in OPTIONS if o not in cmd.options]


def ids(case) -> str:
    return f"{case[0] or 'tutor'}-{case[1]}"


def test_every_option_has_a_sample():
    assert set(SAMPLES) == set(OPTIONS)


def parser_for(argv: list[str], built: str):
    """The whole parser (as `lwstutor serve` builds it for a tab), or the one the CLI builds for
    a command line: the commands it names with their arguments, the others listed only."""
    return build_parser() if built == "whole" else build_parser(words=argv)


@pytest.mark.parametrize("built", ["whole", "for the words"])
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("case", TAKEN, ids=ids)
def test_an_option_takes_effect_before_or_after_the_subcommand(case, where, built):
    name, dest = case
    typed, seen = SAMPLES[dest]
    argv = typed + command_argv(name) if where == "before" else command_argv(name) + typed
    args = parser_for(argv, built).parse_args(argv)
    assert (args.command or "") == name
    assert getattr(args, dest) == seen
    # and every other option still has its default (this command's own first)
    for other, opt in OPTIONS.items():
        if other != dest:
            assert getattr(args, other) == COMMANDS[name].defaults.get(other, opt.default), other


@pytest.mark.parametrize("built", ["whole", "for the words"])
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("case", NOT_TAKEN, ids=ids)
def test_an_option_a_command_does_not_take_is_refused_in_either_position(case, where, built, capsys):
    name, dest = case
    typed, _ = SAMPLES[dest]
    argv = typed + command_argv(name) if where == "before" else command_argv(name) + typed
    with pytest.raises(SystemExit) as exc:
        parser_for(argv, built).parse_args(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"{OPTIONS[dest].flags[-1]} does not apply to lwstutor" in err and "it is an option of" in err


def test_after_the_subcommand_wins_and_steps_add_up():
    args = build_parser().parse_args(["--lang", "ko", "--step", "1", "check", "--lang", "en", "--step", "2"])
    assert args.lang == "en" and args.step == [1, 2]


def test_a_command_default_never_overrides_what_was_given_before_it():
    assert build_parser().parse_args(["--speed", "2", "demo"]).speed == 2.0
    assert build_parser().parse_args(["demo"]).speed == 1.0  # real time, as the tutor
    assert build_parser().parse_args([]).speed == 1.0


def test_the_help_shows_the_lessons_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "infer" in out and "/root/gsb-lws" in out and "--json" in out and "--speed" not in out


def test_the_help_shows_each_commands_own_default(capsys):
    for argv, said in ((["demo", "--help"], "(default 1; 0 = instant)"), (["--help"], "(default 1; 0 = instant)")):
        with pytest.raises(SystemExit):
            main([*argv, "--lang", "en"])
        assert said in " ".join(capsys.readouterr().out.split()), argv  # as one line, however it wraps


def test_version_loads_neither_the_lesson_nor_the_kubernetes_client():
    code = ("import sys; from tutor.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith(('tutor.lesson', 'kubernetes', 'textual', 'yaml'))))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=waits.PROCESS)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("lwstutor ") and res.stdout.splitlines()[-1] == "[]"


# --- the options really reach the command, in a real process ------------------------------------

def run(*argv):
    return subprocess.run([sys.executable, "-m", "tutor", *argv], capture_output=True, text=True, timeout=waits.PROCESS,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("where", ["before", "after"])
def test_check_uses_lang_and_workdir_given_before_it(tmp_path, where):
    (tmp_path / "names.txt").write_text("pod=llm-0 group=0 worker=0\n")
    shared = ["--lang", "en", "--workdir", str(tmp_path)]
    own = ["check", "--json", "--step", "2", "--replay", str(WALKTHROUGH)]
    res = run(*(shared + own if where == "before" else own + shared))
    assert res.returncode == 1, res.stderr
    # English, and about the files in tmp_path (the recording's own names.txt passes)
    assert "llm-0-1 is missing" in json.loads(res.stdout)["steps"][0]["message"]


@pytest.mark.parametrize("where", ["before", "after"])
def test_check_and_doctor_use_the_kubeconfig_given_before_them(tmp_path, where):
    missing = str(tmp_path / "nowhere")
    for name in ("check", "doctor"):
        res = run(*(["--kubeconfig", missing, name] if where == "before" else [name, "--kubeconfig", missing]))
        # doctor reports it among its findings (and still checks the workdir); check as its error.
        assert res.returncode == 2 and missing in (res.stdout if name == "doctor" else res.stderr), (name, res)


@pytest.mark.parametrize("where", ["before", "after"])
def test_demo_uses_the_speed_given_before_it(where):
    from tutor.commands.demo import demo_app

    args = build_parser().parse_args(["--speed", "3", "demo"] if where == "before" else ["demo", "--speed", "3"])
    app = demo_app(args)
    assert app._start_sources.args[1] == 3.0  # start_demo(recording, speed, pause)


def test_demo_at_speed_0_is_instant_as_its_help_says():
    """`demo --help` says 0 = instant; `demo --speed 0` was refused. The cluster's activity comes
    at once, and each passed step is still shown for --pause seconds."""
    from tutor.commands.demo import demo_app
    from tutor.demo import paced
    from tutor.lesson.loader import load

    args = build_parser().parse_args(["demo", "--speed", "0", "--pause", "2"])
    app = demo_app(args)
    recording, speed, pause = app._start_sources.args
    assert speed == 0 and pause == 2
    times = [when for when, _ in paced(recording, load(), pause, speed)]
    assert times == sorted(times) and times[0] == 0
    # no time passes between items but the pauses: 2 s after each of the 8 steps, the last one's
    # pause after the last item
    assert 2 * 6 <= times[-1] <= 2 * 8, times[-1]


def test_commands_do_not_import_the_cli():
    """The commands get exit codes and UsageError from tutor.commands.results: no import cycle."""
    code = ("import sys, importlib\n"
            "for m in ('check', 'demo', 'doctor', 'record', 'serve', 'setup', 'tui'):\n"
            "    importlib.import_module('tutor.commands.' + m)\n"
            "print('tutor.cli' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=waits.PROCESS)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"


# --- the learner's language, before and while parsing -------------------------------------------

HANGUL = re.compile("[\uac00-\ud7a3]")


def english_phrases(text: str) -> list[str]:
    """Two English words in a row (a sentence's beginnings), once flags, metavars, paths,
    placeholders and the choices braces are taken out."""
    text = re.sub(r"--?[\w-]+|\$\w+|[\w.~-]*/[\w./~-]*|\{[^}]*\}|\b[A-Z]{2,}\b", " ", text)
    return re.findall(r"\b[A-Za-z]{3,}(?:[ ,][A-Za-z]{2,})+", text.replace("lwstutor", " "))


def main_output(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.mark.parametrize("command", [c for c in COMMANDS])
def test_help_speaks_the_learners_language(command, capsys):
    argv = [command, "--help"] if command else ["--help"]
    code, ko, _ = main_output([*argv, "--lang", "ko"], capsys)
    assert code == 0 and ko.startswith("사용법: lwstutor") and HANGUL.search(ko)
    assert not english_phrases(ko), english_phrases(ko)
    code, en, _ = main_output([*argv, "--lang", "en"], capsys)
    assert code == 0 and en.startswith("usage: lwstutor") and not HANGUL.search(en), en


@pytest.mark.parametrize("columns", [80, 60])
def test_korean_help_fits_half_a_laptop(columns, monkeypatch, capsys):
    """argparse wraps help by characters; a Korean syllable takes two columns of the terminal."""
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", str(columns))
    for command in COMMANDS:
        _, out, _ = main_output([command, "--help", "--lang", "ko"] if command else ["--help", "--lang", "ko"], capsys)
        wide = [line for line in out.splitlines() if cell_len(line) > columns]
        assert not wide, wide


# (argv, what English says, what Korean says)
PARSE_ERRORS = [
    (["--bogus"], "unrecognized arguments: --bogus", "알 수 없는 인자입니다: --bogus"),
    (["demo", "--pause"], "expected one argument", "값이 하나 필요합니다"),
    (["record"], "the following arguments are required: FILE", "다음 인자가 필요합니다: 파일"),
    (["nonsense"], "invalid choice: 'nonsense'", "'nonsense'는 없는 명령입니다"),
    (["check", "--step", "x"], "'x' is not a whole number", "'x'는 정수가 아닙니다"),
    (["check", "--json=yes"], "--json takes no value", "--json 옵션은 값을 받지 않습니다"),
    (["demo", "--kubeconfig", "k"], "--kubeconfig does not apply to lwstutor demo",
     "--kubeconfig 옵션은 lwstutor demo에 쓸 수 없습니다"),
]


@pytest.mark.parametrize("argv, en, ko", PARSE_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_argparse_errors_speak_the_learners_language(argv, en, ko, capsys):
    for lang, said in (("en", en), ("ko", ko)):
        code, _, err = main_output([*argv, "--lang", lang], capsys)
        lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("  ")]
        assert code == 2 and len(lines) == 1 and lines[0].startswith("lwstutor: ") and said in lines[0], err
        if lang == "ko":
            assert not english_phrases(lines[0].replace(said, "")), lines[0]
        else:
            assert not HANGUL.search(err), err


def test_the_language_is_known_before_parsing_from_odd_argv(tmp_path, monkeypatch, capsys):
    """--lang=ko, an abbreviation argparse accepts, a --lang with no value, one after "--": the
    peek never fails and agrees with what argparse will read; without --lang, the remembered one."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    for argv, lang in ((["--lang=ko", "--bogus"], "ko"), (["--la", "ko", "--bogus"], "ko"),
                       (["--bogus", "--lang"], "en"), (["--bogus", "--lang", "fr"], "en"),
                       (["--lang", "ko", "--lang", "en", "--bogus"], "en"), (["--bogus", "", "\udcff"], "en")):
        code, _, err = main_output(argv, capsys)
        assert code == 2 and "Traceback" not in err and bool(HANGUL.search(err)) == (lang == "ko"), (argv, err)
    (tmp_path / "lwstutor").mkdir()
    (tmp_path / "lwstutor" / "progress-lws.json").write_text(json.dumps({"version": 1, "lang": "ko"}))
    code, _, err = main_output(["--bogus"], capsys)
    assert code == 2 and "알 수 없는 인자입니다" in err
    (tmp_path / "lwstutor" / "progress-scale.json").write_text(json.dumps({"version": 1, "lang": "en"}))
    for argv in (["--lesson", "scale", "--bogus"], ["--lesson=scale", "--bogus"]):
        code, _, err = main_output(argv, capsys)
        assert code == 2 and "unrecognized arguments" in err, err


def test_a_step_out_of_range_is_said_by_check_in_the_learners_language():
    for step in ("-1", "0", "9"):
        res = run("check", "--replay", str(WALKTHROUGH), "--step", step, "--lang", "ko")
        assert res.returncode == 2 and f"--step {step}: 이 수업의 단계는 1부터 8까지입니다" in res.stderr, res.stderr


def test_a_parse_error_with_json_is_json_in_the_learners_language(capsys):
    code, out, _ = main_output(["check", "--json", "--step", "x", "--lang", "ko"], capsys)
    assert code == 2 and "'x'는 정수가 아닙니다" in json.loads(out)["error"]["message"]


# Every number an option takes, refused when it makes no sense: (argv, option, values refused)
NUMBERS = [
    (["record", "out.jsonl"], "--duration", ["-5", "0", "nan", "inf", "x"]),
    (["demo"], "--speed", ["-1", "nan", "inf", "x"]),
    (["--replay", str(WALKTHROUGH)], "--speed", ["-1", "nan", "inf"]),
    (["demo"], "--pause", ["-1", "nan", "inf", "x"]),
    (["check"], "--step", ["x", "1.5"]),
]


@pytest.mark.parametrize("argv, option, values", NUMBERS, ids=lambda v: v if isinstance(v, str) else "")
def test_a_number_that_makes_no_sense_is_one_line_in_the_learners_language(argv, option, values, capsys, tmp_path,
                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)  # record's FILE is never written: the number is refused first
    for value in values:
        for lang in ("en", "ko"):
            code, _, err = main_output([*argv, option, value, "--lang", lang], capsys)
            lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("  ")]
            assert code == 2 and len(lines) == 1 and option in lines[0] and value in lines[0], (value, err)
            assert bool(HANGUL.search(lines[0])) == (lang == "ko"), lines[0]
    assert not list(tmp_path.iterdir())
