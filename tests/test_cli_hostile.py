"""Hostile paths for every option of the CLI that takes one: each gets a one-line error naming the
path and what is wrong (exit 2, JSON with --json), in bounded time, and nothing in the sandbox
changes. `--state-file DIR` once renamed the directory it named; the tutor runs as root in lab
VMs. The same rules on a dead, refusing or forbidding cluster: tests/e2e/test_cli_cluster_failures.py.
"""

from __future__ import annotations

import json
import os
import re

import pytest

from tests.conftest import WALKTHROUGH
from tests.hostile_cli import dead_kubeconfig, assert_one_line_error, lwstutor, make_sandbox, picture

W = str(WALKTHROUGH)
DEAD = "https://127.0.0.1:1"  # nothing listens on port 1: a refused connection, never a request sent

# What each kind of option must say of each hostile path (None: the path is fine for it).
WRITE = {
    "directory": "is a directory", "fifo": "is a FIFO", "symlink to a directory": "is a directory",
    "symlink to a device": "is a device", "device": "is a device", "symlink loop": "symlink loop",
    "dangling symlink": "which does not exist", "missing parent": "does not exist",
    "a new file under /proc": "cannot write a file in /proc",
}
STATE_FILE = {**WRITE, "someone else's file": "not a lwstutor progress file",
              "a file under /proc": "not a lwstutor progress file"}
RECORD = {**WRITE, "someone else's file": "not a lwstutor recording", "a file under /proc": "not a lwstutor recording"}
REPLAY = {
    "directory": "is a directory", "fifo": "is a FIFO", "symlink to a directory": "is a directory",
    "symlink to a device": "is a device", "device": "is a device", "symlink loop": "symlink loop",
    "dangling symlink": "which does not exist", "someone else's file": "not a lwstutor recording",
    "missing parent": "no such file", "a file under /proc": "not a lwstutor recording",
    "a new file under /proc": "no such file",
}
WORKDIR = {
    "directory": None, "fifo": "is a FIFO, not a directory", "symlink to a directory": None,
    "symlink to a device": "is a device, not a directory", "device": "is a device, not a directory",
    "symlink loop": "symlink loop", "dangling symlink": "which does not exist",
    "someone else's file": "is a file, not a directory", "missing parent": "no such directory",
    "a file under /proc": "is a file, not a directory", "a new file under /proc": "no such directory",
}
# check reads the progress (which solutions were shown), never writes it: a path to read, and one of lwstutor's
READ_STATE = {**REPLAY, "someone else's file": "not a lwstutor progress file",
              "a file under /proc": "not a lwstutor progress file"}
KUBECONFIG = {
    "directory": "is a directory", "fifo": "not a regular file", "symlink to a directory": "is a directory",
    "symlink to a device": "not a regular file", "device": "not a regular file",
    "symlink loop": "symbolic links", "dangling symlink": "No such file", "someone else's file": "is not a kubeconfig",
    "missing parent": "no kubeconfig at", "a file under /proc": "not valid YAML",
    "a new file under /proc": "no kubeconfig at",
}

# (command line with {P} for the path, what it must say, takes --json)
COMMANDS = {
    "tutor --state-file": (["--replay", W, "--state-file", "{P}"], STATE_FILE, False),
    "tutor --replay": (["--replay", "{P}"], REPLAY, False),
    "tutor --workdir": (["--replay", W, "--workdir", "{P}"], WORKDIR, False),
    "tutor --kubeconfig": (["--kubeconfig", "{P}"], KUBECONFIG, False),
    "check --replay": (["check", "--replay", "{P}"], REPLAY, True),
    "check --workdir": (["check", "--replay", W, "--workdir", "{P}"], WORKDIR, True),
    "check --kubeconfig": (["check", "--kubeconfig", "{P}"], KUBECONFIG, True),
    "check --state-file": (["check", "--replay", W, "--state-file", "{P}"], READ_STATE, True),
    "why --replay": (["why", "llm-0", "--replay", "{P}"], REPLAY, True),
    "why --workdir": (["why", "llm-0", "--replay", W, "--workdir", "{P}"], WORKDIR, True),
    "why --kubeconfig": (["why", "llm-0", "--kubeconfig", "{P}"], KUBECONFIG, True),
    "record FILE": (["record", "{P}", "--kubeconfig", "{DEAD}"], RECORD, False),
    "record --workdir": (["record", "{OUT}", "--workdir", "{P}", "--kubeconfig", "{DEAD}"], WORKDIR, False),
    "record --kubeconfig": (["record", "{OUT}", "--kubeconfig", "{P}"], KUBECONFIG, False),
}
CASES = [(cmd, path) for cmd, (_, said, _) in COMMANDS.items() for path in said if said[path] is not None]


@pytest.fixture
def sandbox(tmp_path):
    root = tmp_path / "sandbox"
    paths = make_sandbox(root)
    dead = dead_kubeconfig(tmp_path / "dead.kubeconfig")
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path / "home")}
    return root, paths, {"{DEAD}": str(dead), "{OUT}": str(tmp_path / "out.jsonl")}, env


def _argv(template: list[str], path: str, subs: dict) -> list[str]:
    out = []
    for a in template:
        a = a.replace("{P}", path)
        for k, v in subs.items():
            a = a.replace(k, v)
        out.append(a)
    return out


@pytest.mark.parametrize("cmd,path", CASES, ids=[f"{c} {p}" for c, p in CASES])
def test_a_hostile_path_gets_one_line_and_changes_nothing(sandbox, cmd, path):
    root, paths, subs, env = sandbox
    template, said, takes_json = COMMANDS[cmd]
    before = picture(root)
    run = lwstutor(*_argv(template, paths[path], subs), "--lang", "en", env=env)
    message = assert_one_line_error(run, said[path])
    assert paths[path] in message or os.path.basename(paths[path]) in message, message  # it names the path
    if takes_json:
        run = lwstutor(*_argv(template, paths[path], subs), "--lang", "en", "--json", env=env)
        assert_one_line_error(run, said[path], json_out=True)
    assert picture(root) == before
    assert not os.path.exists(subs["{OUT}"])  # record wrote nothing


def test_the_message_is_korean_in_korean(sandbox):
    root, paths, subs, env = sandbox
    run = lwstutor("--replay", W, "--state-file", paths["directory"], "--lang", "ko", env=env)
    assert_one_line_error(run, "파일이 아니라 디렉터리입니다", paths["directory"])
    run = lwstutor("check", "--replay", W, "--workdir", paths["someone else's file"], "--lang", "ko", "--json", env=env)
    assert_one_line_error(run, "디렉터리가 아니라 파일입니다", json_out=True)


KOREAN_CASES = [(cmd, path) for cmd, path in CASES if cmd.startswith("tutor ") or cmd == "record FILE"]


@pytest.mark.parametrize("cmd,path", KOREAN_CASES, ids=[f"{c} {p}" for c, p in KOREAN_CASES])
def test_every_hostile_path_is_said_in_korean_alone(sandbox, cmd, path):
    """In Korean, no English is left but what stays as typed: the path, flags, commands, names."""
    root, paths, subs, env = sandbox
    template, _, _ = COMMANDS[cmd]
    message = assert_one_line_error(lwstutor(*_argv(template, paths[path], subs), "--lang", "ko", env=env))
    left = re.sub(r"\S*/\S*|--[\w-]+|\"[^\"]*\"|대상: [^)]*", " ", message.replace(paths[path], " "))
    allowed = {"lwstutor", "kubeconfig", "YAML", "FIFO", "JSON", "UTF", "record", "clusters", "users", "contexts", "mkdir"}
    assert not [w for w in re.findall(r"[A-Za-z]{3,}", left) if w not in allowed], message


def test_state_file_dir_no_longer_renames_the_directory(sandbox):
    """The report that started this: `--state-file /tmp` moved /tmp aside."""
    root, paths, subs, env = sandbox
    run = lwstutor("--replay", W, "--state-file", paths["directory"], "--lang", "en", env=env)
    assert_one_line_error(run, "is a directory")
    assert (root / "a-dir" / "inside.txt").read_text() == "kept\n"
    assert not [p for p in root.iterdir() if "corrupt" in p.name]


def test_record_never_overwrites_a_recording_without_overwrite(sandbox, tmp_path):
    root, paths, subs, env = sandbox
    rec = root / "earlier.jsonl"
    rec.write_bytes(WALKTHROUGH.read_bytes())
    before = picture(root)
    run = lwstutor("record", str(rec), "--kubeconfig", subs["{DEAD}"], "--lang", "en", env=env)
    assert_one_line_error(run, "a recording is already there", "--overwrite")
    # With --overwrite, a dead cluster still leaves the earlier recording whole: nothing listed.
    run = lwstutor("record", str(rec), "--overwrite", "--kubeconfig", subs["{DEAD}"], "--lang", "en", env=env)
    assert_one_line_error(run, "cannot reach https://127.0.0.1:1: connection refused")
    assert picture(root) == before


@pytest.mark.parametrize("cmd", ["check", "why llm-0", "record {OUT}"])
def test_a_refused_connection_is_one_line_and_exit_2(sandbox, cmd):
    root, paths, subs, env = sandbox
    argv = _argv(cmd.split(), "", subs)
    run = lwstutor(*argv, "--kubeconfig", subs["{DEAD}"], "--lang", "en", env=env)
    assert_one_line_error(run, "cannot reach https://127.0.0.1:1: connection refused")
    assert not os.path.exists(subs["{OUT}"])
    if cmd != "record {OUT}":
        run = lwstutor(*argv, "--kubeconfig", subs["{DEAD}"], "--lang", "ko", "--json", env=env)
        err = json.loads(run.stdout)["error"]
        assert run.code == 2 and err["kind"] == "refused" and "연결이 거부되었습니다" in err["message"], run


def test_doctor_on_a_refused_connection_still_checks_the_workdir(sandbox, tmp_path):
    root, paths, subs, env = sandbox
    run = lwstutor("doctor", "--kubeconfig", subs["{DEAD}"], "--workdir", paths["someone else's file"],
                   "--lang", "en", "--json", env=env)
    assert run.code == 2 and "Traceback" not in run.stderr, run
    out = json.loads(run.stdout)
    assert out["error"]["kind"] == "refused"
    checks = {c["id"]: c for c in out["checks"]}
    assert not checks["cluster"]["ok"] and "connection refused" in checks["cluster"]["title"]
    assert not checks["workdir"]["ok"] and "is a file, not a directory" in checks["workdir"]["title"]


@pytest.mark.parametrize("path, kind", [("device", "a device"), ("fifo", "a FIFO"), ("symlink to a device", "a device"),
                                        ("someone else's file", "a file")])
def test_doctor_never_advises_moving_what_stands_at_the_workdir(sandbox, path, kind):
    """`doctor --workdir /dev/null` once suggested moving /dev/null away: what stands there is
    not the tutor's to move (a device, a FIFO, a system file); the fix is another directory."""
    root, paths, subs, env = sandbox
    for lang, said, fix in (("en", f"is {kind}, not a directory", "--workdir"),
                            ("ko", "디렉터리가 아니라", "--workdir")):
        run = lwstutor("doctor", "--kubeconfig", subs["{DEAD}"], "--workdir", paths[path], "--lang", lang, "--json",
                       env=env)
        workdir = {c["id"]: c for c in json.loads(run.stdout)["checks"]}["workdir"]
        text = " ".join([workdir["title"], *workdir["fix"]])
        assert not workdir["ok"] and said in workdir["title"] and paths[path] in workdir["title"], workdir
        assert fix in text and "move" not in text and "치우" not in text and "mv " not in text, workdir


def test_doctor_without_any_kubeconfig_still_checks_the_workdir(sandbox, tmp_path):
    root, paths, subs, env = sandbox
    run = lwstutor("doctor", "--kubeconfig", paths["missing parent"], "--workdir", str(root), "--lang", "en",
                   "--json", env=env)
    assert run.code == 2 and "Traceback" not in run.stderr, run
    out = json.loads(run.stdout)
    assert out["error"]["kind"] == "kubeconfig"
    checks = {c["id"]: c for c in out["checks"]}
    assert not checks["kubeconfig"]["ok"] and checks["workdir"]["ok"]


def test_a_usage_error_with_json_is_json():
    run = lwstutor("check", "--json", "--step", "x", "--lang", "en")
    assert run.code == 2
    assert "'x' is not a whole number" in json.loads(run.stdout)["error"]["message"]
