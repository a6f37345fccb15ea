"""Options mean the same wherever they stand: before or after the subcommand, for every command.

The cases come from the CLI's own tables, so a new command or option is covered (and a new option
without a sample value here fails test_every_option_has_a_sample).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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


@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("case", TAKEN, ids=ids)
def test_an_option_takes_effect_before_or_after_the_subcommand(case, where):
    name, dest = case
    typed, seen = SAMPLES[dest]
    argv = typed + command_argv(name) if where == "before" else command_argv(name) + typed
    args = build_parser().parse_args(argv)
    assert (args.command or "") == name
    assert getattr(args, dest) == seen
    # and every other option still has its default (this command's own first)
    for other, opt in OPTIONS.items():
        if other != dest:
            assert getattr(args, other) == COMMANDS[name].defaults.get(other, opt.default), other


@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("case", NOT_TAKEN, ids=ids)
def test_an_option_a_command_does_not_take_is_refused_in_either_position(case, where, capsys):
    name, dest = case
    typed, _ = SAMPLES[dest]
    argv = typed + command_argv(name) if where == "before" else command_argv(name) + typed
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"{OPTIONS[dest].flags[-1]} does not apply to lwstutor" in err and "it is an option of" in err


def test_after_the_subcommand_wins_and_steps_add_up():
    args = build_parser().parse_args(["--lang", "ko", "--step", "1", "check", "--lang", "en", "--step", "2"])
    assert args.lang == "en" and args.step == [1, 2]


def test_a_command_default_never_overrides_what_was_given_before_it():
    assert build_parser().parse_args(["--speed", "2", "demo"]).speed == 2.0
    assert build_parser().parse_args(["demo"]).speed == 0.5
    assert build_parser().parse_args([]).speed == 1.0


def test_the_help_shows_the_lessons_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "infer" in out and "/root/gsb-lws" in out and "--json" in out and "--speed" not in out


def test_version_loads_neither_the_lesson_nor_the_kubernetes_client():
    code = ("import sys; from tutor.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith(('tutor.lesson', 'kubernetes', 'textual', 'yaml'))))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("lwstutor ") and res.stdout.splitlines()[-1] == "[]"


# --- the options really reach the command, in a real process ------------------------------------

def run(*argv):
    return subprocess.run([sys.executable, "-m", "tutor", *argv], capture_output=True, text=True, timeout=120,
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
    res = run(*(["--speed", "0", "demo"] if where == "before" else ["demo", "--speed", "0"]))
    assert res.returncode == 2 and "--speed must be more than 0" in res.stderr


def test_commands_do_not_import_the_cli():
    """The commands get exit codes and UsageError from tutor.commands.results: no import cycle."""
    code = ("import sys, importlib\n"
            "for m in ('check', 'demo', 'doctor', 'record', 'setup', 'tui'):\n"
            "    importlib.import_module('tutor.commands.' + m)\n"
            "print('tutor.cli' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"
