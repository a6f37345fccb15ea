"""Mutation testing of answers (tests/mutations.py): on every committed recording, every single-token
mutation of each answer at the moment it passed must fail, unless ACCEPTED lists why the lab cannot
tell it from a right answer; harmless variations must still pass."""

from __future__ import annotations

import pytest

from tests.mutations import ACCEPTED, EVIDENCE_MUTANTS, FILES, evidence_mutants, mutants, passing_moments, run_one

STEP5 = [(n, i) for n, s, i in passing_moments() if s == 5]


@pytest.mark.parametrize("name,step,index", passing_moments(),
                         ids=[f"{n}-step{s}" for n, s, _ in passing_moments()])
def test_no_mutant_of_a_passing_answer_passes(name, step, index):
    r = run_one(name, step, index)
    assert r.mutants > 0
    unaccepted = [(m.op, m.where) for m, why in r.survivors if why is None]
    assert unaccepted == [], f"{name} step {step}: mutants that pass: {unaccepted}"
    assert r.harmless_failed == [], f"{name} step {step}: harmless variations that fail: {r.harmless_failed}"


def test_every_step_with_an_answer_file_is_covered():
    assert {step for _, step, _ in passing_moments()} == set(FILES)


def test_the_mutants_include_what_the_issue_names():
    ops = {m.op for m in mutants("restart.txt", "group0_before=2a8eab94-64c5-4ad0-9070-083d8ac0fa65\n"
                                                "group1_before=0321fed7-5ae9-407a-903b-5d2daa564363\n")}
    assert {"hex", "swap", "drop-line", "key"} <= ops
    wide = ("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: wide\n"
            "  annotations:\n    leaderworkerset.sigs.k8s.io/exclusive-topology: kubernetes.io/hostname\n"
            "spec:\n  leaderWorkerTemplate:\n    size: 2\n    workerTemplate:\n      spec:\n"
            "        tolerations:\n        - key: kwok.x-k8s.io/node\n          operator: Exists\n")
    ops = {m.op for m in mutants("wide.yaml", wide)}
    assert {"move-annotation", "drop-tolerations", "move-field", "value"} <= ops


def test_each_accepted_survivor_has_a_reason():
    assert all(reason and len(reason) > 20 for *_, reason in ACCEPTED)


def test_a_checker_that_accepts_anything_is_caught(monkeypatch):
    """The harness itself can fail: a step 5 that passes whatever restart.txt says has survivors."""
    from tutor.checks.verdict import passed
    from tutor.lesson.loader import load
    name, step, index = next(m for m in passing_moments() if m[1] == 5)
    monkeypatch.setattr(load().step(5).checks(), "check", lambda ctx: passed("anything"))
    r = run_one(name, step, index)
    assert r.killed == 0 and all(why is None for _, why in r.survivors)


def test_harmless_variations_cover_every_file():
    from tests.mutations import harmless
    for file in FILES.values():
        text = "a=1\nb=2\n" if not file.endswith(".yaml") else "kind: X\nmetadata:\n  name: y\n"
        assert len(harmless(file, text)) >= 3, file


@pytest.mark.parametrize("name,index", STEP5, ids=[n for n, _ in STEP5])
def test_step5_fails_whenever_another_pod_of_group_0_failed(name, index):
    """The right restart.txt, the same cluster, but the evidence says the leader llm-0 failed."""
    found = evidence_mutants(name, index)
    assert "event-names-leader" in found  # every moment has LWS's event to change
    assert [op for op, still_passes in found.items() if still_passes] == []


def test_a_watched_failure_has_every_evidence_mutant():
    watched = next(m for m in STEP5 if m[0] == "walkthrough")
    assert set(evidence_mutants(*watched)) == set(EVIDENCE_MUTANTS)


def test_a_checker_that_ignores_which_pod_failed_is_caught(monkeypatch):
    """The harness itself can fail: a step 5 that does not ask which pod failed lets them pass."""
    from tutor.lessons.lws.checks import restart_group as step5_restart
    monkeypatch.setattr(step5_restart, "_wrong_pod", lambda facts: "")
    for name, index in STEP5:
        found = evidence_mutants(name, index)
        assert found and all(found.values()), (name, found)
