"""`lwstutor check --replay` on the recordings of wrong turns and late starts."""

from __future__ import annotations

import json

import pytest

from tests.conftest import RECORDINGS
from tests.test_cli import run


def check_json(name: str, *args: str) -> tuple[int, dict]:
    res = run("check", "--json", "--lang", "en", "--replay", str(RECORDINGS / f"{name}.jsonl"), *args)
    assert res.returncode in (0, 1, 3), res.stderr
    return res.returncode, {s["step"]: s for s in json.loads(res.stdout)["steps"]}


@pytest.mark.parametrize("name", ["late-after-step6", "late-after-step8", "late-mid-rollout"])
def test_check_as_a_grader_after_the_rollout_cannot_confirm_the_lookup_and_fails_nothing(name):
    """Steps 1 to 6 done. Step 4's lookup predates the rollout that gave llm-1 a new IP, which a check with no history
    cannot confirm: neither a pass nor a fail ("unconfirmed"), saying how to confirm it again.
    Nothing else is wrong: exit 3, not 1."""
    code, steps = check_json(name, *(a for n in range(1, 7) for a in ("--step", str(n))))
    assert steps[4]["status"] == "unconfirmed", steps[4]
    assert "cannot be confirmed" in steps[4]["message"] and "look the name up afresh" in steps[4]["message"]
    assert [n for n, s in steps.items() if s["status"] != "pass"] == [4] and code == 3, steps
    code, steps = check_json(name)  # steps 7 and 8 not done yet there: those fail, and fail wins
    assert steps[4]["status"] == "unconfirmed" and code == (3 if name == "late-after-step8" else 1)


@pytest.mark.parametrize("name", ["late-after-step6", "late-after-step8", "late-mid-rollout"])
def test_the_unconfirmed_lookup_in_text_and_in_korean(name):
    res = run("check", "--step", "4", "--lang", "ko", "--replay", str(RECORDINGS / f"{name}.jsonl"))
    assert res.returncode == 3, res.stdout + res.stderr
    first = res.stdout.splitlines()[0]
    assert first.startswith("? 4.") and "확인할 수 없습니다" in first and "잘못한 것이 아닙니다" in first, first
    assert "✗" not in res.stdout
    res = run("check", "--step", "4", "--lang", "en", "--replay", str(RECORDINGS / f"{name}.jsonl"))
    assert res.returncode == 3 and res.stdout.startswith("? 4.") and "cannot be confirmed" in res.stdout


def test_check_once_after_the_whole_lab_passes_all_but_an_unconfirmable_lookup():
    code, steps = check_json("late-after-step8")
    assert code == 3 and [n for n, s in steps.items() if s["status"] != "pass"] == [4], steps
    assert all("live" not in s for s in steps.values())


def test_a_typo_in_a_uid_fails_step5():
    for name in ("uid-typo", "uid-made-up"):
        code, steps = check_json(name, "--step", "5")
        assert code == 1 and steps[5]["status"] == "fail", steps
        assert "is not the UID llm-0 had before the failure" in steps[5]["message"]
        assert any(line.startswith("timeline of llm") for line in steps[5]["details"])


def test_both_workers_failed_never_passed():
    code, steps = check_json("both-workers-failed", "--step", "5")
    assert code == 1 and steps[5]["status"] == "fail" and "live" not in steps[5]


def test_the_leader_failed_never_passed_and_its_timeline_names_it():
    code, steps = check_json("leader-failed", "--step", "5")
    assert code == 1 and steps[5]["status"] == "fail" and "live" not in steps[5]
    assert steps[5]["message"].startswith("The pod that failed is llm-0, the leader of group 0")
    told = [e for e in steps[5]["timeline"] if e["kind"] in ("restarted", "recreate-group")]
    assert told[0]["what"].startswith("llm-0 container exited 1")
    assert told[1]["cause"].startswith("the leader llm-0 failed: its restart")


def test_group1_failed_after_step5_is_reported_as_it_is_now():
    """Step 5 passed before llm-1-1 failed (latched, as the tutor's progress); now it fails."""
    code, steps = check_json("group1-failed-after-step5", "--step", "5")
    assert steps[5]["live"]["status"] == "fail" and "recreated group 1 too" in steps[5]["live"]["message"]


def test_a_check_after_a_rollout_that_recreated_group_1_passes_step5():
    code, steps = check_json("late-after-rollout-recreated-group1", "--step", "5", "--step", "6")
    assert code == 0 and steps[5]["status"] == "pass" and "live" not in steps[5], steps


def test_text_output_in_korean_for_a_wrong_uid():
    res = run("check", "--step", "5", "--lang", "ko", "--replay", str(RECORDINGS / "uid-typo.jsonl"))
    assert res.returncode == 1 and "실패 전 llm-0의 UID가 아닙니다" in res.stdout
