"""`lwstutor check` on recordings: the JSON contract, exit codes, usage errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests import waits
from tests.conftest import RECORDINGS, WALKTHROUGH

WALK = str(WALKTHROUGH)


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True, text=True, timeout=waits.PROCESS,
                          stdin=subprocess.DEVNULL)


def test_finished_lab_prints_eight_passes():
    res = run("check", "--json", "--replay", WALK)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["lesson"] == "lws"
    assert [s["step"] for s in out["steps"]] == list(range(1, 9))
    assert all(s["status"] == "pass" for s in out["steps"]), out
    assert set(out["steps"][0]) >= {"step", "id", "status", "message", "details"}


def test_wrong_turn_exits_1_with_the_fail_message():
    res = run("check", "--json", "--step", "2", "--replay", str(RECORDINGS / "names-swapped.jsonl"), "--lang", "en")
    assert res.returncode == 1
    step = json.loads(res.stdout)["steps"]
    assert len(step) == 1 and step[0]["status"] == "fail" and "line 2" in step[0]["message"]


def test_text_output_and_language():
    res = run("check", "--step", "4", "--replay", str(RECORDINGS / "dns-short-name.jsonl"), "--lang", "ko")
    assert res.returncode == 1 and "✗ 4." in res.stdout and "NXDOMAIN" in res.stdout and "전체 이름" in res.stdout


def test_workdir_overrides_the_recorded_files(tmp_path):
    (tmp_path / "names.txt").write_text("pod=llm-0 group=0 worker=0\n")
    res = run("check", "--json", "--step", "2", "--replay", WALK, "--workdir", str(tmp_path), "--lang", "en")
    assert res.returncode == 1 and "llm-0-1 is missing" in json.loads(res.stdout)["steps"][0]["message"]


def test_usage_errors_exit_2(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a recording\n")
    res = run("check", "--replay", str(bad), "--lang", "en")
    assert res.returncode == 2 and "not a lwstutor recording" in res.stderr
    res = run("check", "--replay", str(bad), "--lang", "ko")
    assert res.returncode == 2 and "lwstutor 녹화 파일이 아닙니다" in res.stderr
    res = run("check", "--replay", WALK, "--step", "9", "--lang", "en")
    assert res.returncode == 2 and "steps 1 to 8" in res.stderr
    res = run("check", "--bogus")
    assert res.returncode == 2


def test_check_json_says_which_solutions_were_shown_and_what_passed_after(tmp_path):
    from tutor.progress import Progress

    state = tmp_path / "p.json"
    p = Progress.load(state, 8)
    p.latch(1, "passed first"), p.show_solution(1)  # the pass came before the solution
    p.show_solution(2)  # shown, passed since only in this check
    p.show_solution(3), p.latch(3, "passed after")  # the tutor latched the pass after it
    before = state.read_text()
    res = run("check", "--json", "--replay", WALK, "--state-file", str(state), "--lang", "en")
    assert res.returncode == 0, res.stderr
    got = {s["step"]: (s["solution_shown"], s["after_solution"]) for s in json.loads(res.stdout)["steps"]}
    assert got == {1: (True, False), 2: (True, True), 3: (True, True), **{n: (False, False) for n in range(4, 9)}}
    assert state.read_text() == before  # check only reads the progress
    res = run("check", "--step", "3", "--replay", WALK, "--state-file", str(state), "--lang", "ko")
    assert "(풀이를 본 뒤 통과)" in res.stdout
    # a step that fails passed after nothing, its solution shown or not
    res = run("check", "--json", "--step", "2", "--replay", str(RECORDINGS / "names-swapped.jsonl"),
              "--state-file", str(state), "--lang", "en")
    step = json.loads(res.stdout)["steps"][0]
    assert step["status"] == "fail" and step["solution_shown"] is True and step["after_solution"] is False


def test_check_json_grades_the_predictions_the_tutor_kept(tmp_path):
    from tests.states import state
    from tutor.checks.prediction import story_and_episode
    from tutor.lesson.loader import load
    from tutor.progress import Progress

    lesson = load()
    restart = next(s for s in lesson.steps if s.id == "restart-group")
    _, episode = story_and_episode(state("walkthrough").store, "infer", restart)
    state_file = tmp_path / "p.json"
    p = Progress.load(state_file, 8)
    p.predict(restart.number, "new-uids", "worker", episode.start - 5)  # before the failure: graded, and wrong
    res = run("check", "--json", "--replay", WALK, "--state-file", str(state_file), "--lang", "en")
    steps = {s["step"]: s for s in json.loads(res.stdout)["steps"]}
    got = steps[restart.number]["predictions"]
    assert [(g["question"], g["choice"], g["seen"], g["right"]) for g in got if g["question"] == "new-uids"] == \
        [("new-uids", "worker", "group", False)]
    assert "predictions" not in steps[1]  # a step that asks none says nothing of them


def test_check_reads_the_progress_the_tutor_keeps_for_the_same_arguments(tmp_path):
    import os

    from tutor.progress import Progress

    replay_state = tmp_path / "state" / "lwstutor" / f"replay-{WALKTHROUGH.stem}.json"
    assert os.environ["XDG_STATE_HOME"] == str(tmp_path / "state")
    Progress.load(replay_state, 8).show_solution(5)
    steps = json.loads(run("check", "--json", "--replay", WALK).stdout)["steps"]
    assert [s["step"] for s in steps if s["solution_shown"]] == [5]
    other = tmp_path / "other.json"
    other.write_text('{"mine": true}')
    res = run("check", "--replay", WALK, "--state-file", str(other), "--lang", "en")
    assert res.returncode == 2 and "not a lwstutor progress file" in res.stderr and other.read_text() == '{"mine": true}'


@pytest.mark.parametrize(("lang", "said"), [("en", "no such file"), ("ko", "그런 파일이 없습니다")])
def test_check_refuses_a_state_file_that_is_not_there(tmp_path, lang, said):
    """check reads the progress (which solutions were shown) and never writes it: a --state-file
    that is not there is a typo, said in one line, not an empty progress."""
    missing = tmp_path / "typo.json"
    res = run("check", "--replay", WALK, "--state-file", str(missing), "--lang", lang)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.splitlines() == [f"lwstutor: --state-file {missing}: {said}"]
    assert not missing.exists()


def test_no_cluster_is_a_clear_error(tmp_path):
    res = run("check", "--kubeconfig", str(tmp_path / "missing"), "--lang", "en")
    assert res.returncode == 2 and "cannot connect" in res.stderr and "kubeconfig" in res.stderr
    res = run("check", "--kubeconfig", str(tmp_path / "missing"), "--lang", "ko")
    assert res.returncode == 2 and "연결할 수 없습니다" in res.stderr and "kubeconfig" in res.stderr


def test_version():
    res = run("--version")
    assert res.returncode == 0 and res.stdout.startswith("lwstutor ")


# `lwstutor --replay FILE` (the TUI) run for real, only headless: the recording is parsed on the
# replay's thread after the first frame, so a bad line is found while the app runs. It draws
# through Textual's headless driver, named as textual-serve names its own (no terminal needed).
HEADLESS_TUI = ("import os, sys, tutor.ui.app as a; run = a.TutorApp.run; "
                "os.environ['TEXTUAL_DRIVER'] = 'textual.drivers.headless_driver:HeadlessDriver'; "
                "a.TutorApp.run = lambda self, **kw: run(self, headless=True, size=(100, 30)); "
                "from tutor.cli import main; sys.exit(main(sys.argv[1:]))")


@pytest.mark.parametrize("lang, said", [("en", "not valid JSON"), ("ko", "올바른 JSON이 아닙니다")])
def test_tui_on_a_recording_with_a_bad_line_ends_with_that_line(tmp_path, lang, said):
    bad = tmp_path / "bad.jsonl"
    lines = open(WALK, encoding="utf-8").read().splitlines()[:5] + ["{not json"]
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = subprocess.run([sys.executable, "-c", HEADLESS_TUI, "--replay", str(bad), "--speed", "0",
                          "--state-file", str(tmp_path / "p.json"), "--lang", lang],
                         capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    assert res.returncode == 2, res.stderr
    assert f"lwstutor: {bad}:6: {said}" in res.stderr and "Traceback" not in res.stderr


def test_tui_refuses_a_file_that_is_not_a_recording_before_starting(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a recording\n")
    res = subprocess.run([sys.executable, "-c", HEADLESS_TUI, "--replay", str(bad), "--lang", "en"],
                         capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    assert res.returncode == 2 and "not a lwstutor recording" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("lang, said", [("en", "a watch event needs"), ("ko", "워치 이벤트에는")])
def test_check_on_a_recording_with_a_bad_line_names_it(tmp_path, lang, said):
    bad = tmp_path / "bad.jsonl"
    lines = open(WALK, encoding="utf-8").read().splitlines()[:5] + ['{"t": 1, "type": "ADDED"}']
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = run("check", "--replay", str(bad), "--lang", lang)
    assert res.returncode == 2 and f"{bad}:6: {said}" in res.stderr and "Traceback" not in res.stderr
    res = run("check", "--replay", str(bad), "--lang", lang, "--json")
    assert json.loads(res.stdout)["error"]["message"].startswith(f"{bad}:6: {said}")


def test_doctor_reads_an_image_tag_as_docker_does():
    from tutor.preflight import _tag

    assert _tag("registry.k8s.io/lws/lws:v0.9.0") == "v0.9.0"
    assert _tag("registry.k8s.io/lws/lws:v0.10.0@sha256:" + "a" * 64) == "v0.10.0"
    assert _tag("localhost:5000/lws") == "" and _tag("lws") == ""


@pytest.mark.parametrize("lang, said", [("en", "draws its screen on a terminal"), ("ko", "터미널에 화면을 그리는데")])
@pytest.mark.parametrize("argv", [["demo"], ["--replay", WALK, "--state-file", "{P}"]], ids=["demo", "tutor"])
def test_the_tutor_without_a_terminal_says_so_in_one_line(tmp_path, argv, lang, said):
    """Its input from /dev/null and its screen into a pipe: Textual would draw for nobody at full
    speed (it once grew to gigabytes); one line and exit 2 instead, at once."""
    from tests.hostile_cli import assert_one_line_error, lwstutor

    run = lwstutor(*(a.replace("{P}", str(tmp_path / "p.json")) for a in argv), "--lang", lang)
    message = assert_one_line_error(run, said)
    assert run.seconds < 15 and "tmux split-window -h" in message and "lwstutor check" in message, message

