"""Mutation testing of answers (tests/mutations.py, tests/mutations_gang.py): on every committed
recording of a lesson, every single-token mutation of each answer at the moment it passed must fail,
unless ACCEPTED lists why the lab cannot tell it from a right answer, or the lesson lists it as a
checker bug not fixed yet; harmless variations must still pass."""

from __future__ import annotations

from functools import lru_cache

import pytest

from tests.mutations import (ACCEPTED, EVIDENCE_MUTANTS, FILES, answers, evidence_mutants, matches, mutants,
                             passing_moments, run_one)
from tests.mutations_gang import GANG

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


# --- the gang lesson ------------------------------------------------------------------------------

GANG_ANSWERS = answers(GANG)


@lru_cache(maxsize=None)
def gang_run(name: str, step: int, file: str, index: int):
    return run_one(name, step, index, file, GANG)


@pytest.mark.parametrize("name,step,file,index", GANG_ANSWERS, ids=[f"{n}-step{s}-{f}" for n, s, f, _ in GANG_ANSWERS])
def test_no_mutant_of_a_passing_gang_answer_passes(name, step, file, index):
    r = gang_run(name, step, file, index)
    assert r.mutants > 0
    unaccepted = [(m.op, m.where) for m in r.unaccepted]
    assert unaccepted == [], f"{name} step {step} {file}: mutants that pass: {unaccepted}"
    assert r.harmless_failed == [], f"{name} step {step} {file}: harmless variations that fail: {r.harmless_failed}"


def test_every_gang_answer_file_is_covered():
    assert {(step, file) for _, step, file, _ in GANG_ANSWERS} == \
        {(step, file) for step, files in GANG.files.items() for file in files}


def test_each_open_gang_checker_bug_still_survives():
    """A listed checker bug whose mutants are all killed now is fixed: it leaves OPEN_BUGS."""
    survived = [(r.file, m) for r in (gang_run(*a) for a in GANG_ANSWERS) for m, _ in r.open_bugs]
    fixed = [rule for rule in GANG.open_bugs if not any(matches([rule], f, m) for f, m in survived)]
    assert fixed == [], f"checker bugs no mutant shows any more, to remove from OPEN_BUGS: {fixed}"


def test_the_gang_mutants_include_what_the_issue_names():
    pg = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata:\n  name: orphan-0\n" \
         "spec:\n  schedulingPolicy:\n    gang:\n      minCount: 2\n"
    lws = ("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: orphan\nspec:\n"
           "  leaderWorkerTemplate:\n    size: 2\n"
           "    leaderTemplate:\n      spec:\n        containers:\n        - name: leader\n"
           "        schedulingGroup:\n          podGroupName: orphan-0\n"
           "    workerTemplate:\n      spec:\n        containers:\n        - name: worker\n"
           "          resources:\n            limits:\n              nvidia.com/gpu: 1\n"
           "        schedulingGroup:\n          podGroupName: orphan-0\n")
    ops = {m.op for m in GANG.mutants("big.yaml", pg + "---\n" + lws)}
    assert {"min-count", "basic-policy", "move-field", "drop-schedulingGroup", "podgroup-name", "drop-resources",
            "value", "name-digit", "drop-line"} <= ops
    wheres = {m.where for m in GANG.mutants("big.yaml", pg + "---\n" + lws) if m.op == "move-field"}
    assert {"minCount -> schedulingPolicy", "schedulingGroup -> workerTemplate",
            "resources workerTemplate -> leaderTemplate", "size -> spec"} <= wheres
    blocker = "orphan-0-1\n0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint(s).\n"
    assert {"member", "swap", "drop-clause", "clause-number", "name-digit", "word"} <= \
        {m.op for m in GANG.mutants("blocker.txt", blocker)}
    message = "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining\n"
    assert {"digit", "word", "clause-number"} <= {m.op for m in GANG.mutants("gang.txt", message)}


def test_gang_harmless_variations_cover_every_file():
    for files in GANG.files.values():
        for file in files:
            text = "kind: X\nmetadata:\n  name: y\n" if file.endswith(".yaml") else "a b\nc d\n"
            assert len(GANG.harmless(file, text)) >= 3, file


def test_a_gang_checker_that_accepts_anything_is_caught(monkeypatch):
    """The harness itself can fail: a step 4 that passes whatever gang.txt says has survivors."""
    from tutor.checks.verdict import passed
    from tutor.lesson.loader import load
    name, step, file, index = next(a for a in GANG_ANSWERS if a[2] == "gang.txt")
    monkeypatch.setattr(load("gang").step(step).checks(), "check", lambda ctx: passed("anything"))
    r = run_one(name, step, index, file, GANG)
    assert r.killed == 0 and r.unaccepted


GANG_EVIDENCE = [(n, step, i) for step in GANG.evidence for n, s, i in passing_moments(GANG) if s == step]


@pytest.mark.parametrize("name,step,index", GANG_EVIDENCE, ids=[f"{n}-step{s}" for n, s, _ in GANG_EVIDENCE])
def test_gang_evidence_mutants_fail(name, step, index):
    """The right answers, the cluster told otherwise: each must fail, but for a listed open bug."""
    found = evidence_mutants(name, index, step, GANG)
    assert set(found) == set(GANG.evidence[step][1])  # each changes something at that moment
    survivors = {op for op, still_passes in found.items() if still_passes}
    assert survivors == {op for s, op in GANG.open_evidence_bugs if s == step}, \
        f"{name} step {step}: evidence mutants that pass, or listed bugs that are fixed: {survivors}"
