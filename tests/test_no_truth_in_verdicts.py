"""Verdicts point, they never tell: a failing or waiting verdict names what is wrong and where to
look, never the value the learner was graded against.

Every answer mutation (tests/mutations.py) at the moment its answer passed, and every recording of
a wrong turn at its end, is checked in both languages; each verdict that does not pass (message
and details) must hold none of the truths of that cluster state: a pod's UID or IP (any the tutor
knows of), an LWS_* variable as the pod has it, the leader's full DNS name, a pod's group/worker
labels, the scheduler's clauses, the lines of the right answer that the wrong one lacks, and the
kubectl commands of the step's solution. What the learner wrote is no truth to hide: a value that
is in the answer files already may be quoted back.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import LESSON_RECORDINGS, RECORDINGS
from tests.mutations import FILES, mutants, passing_moments, state_at
from tests.states import check, state
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged
from tutor.lessons.lws.checks.dns import full_name
from tutor.lessons.lws.checks.env import pod_lws_env
from tutor.lessons.lws.checks.orphan import WORKER as ORPHAN_WORKER, clauses, scheduler_reasons

LANGS = ("en", "ko")
TOLD = (Status.FAIL, Status.WAITING)


def plain(text: str) -> str:
    """Quotes, braces and backticks dropped and spaces collapsed: `{"a": b}` reads as `a: b`."""
    return " ".join(re.sub(r"[\"'`{}]", "", text).split())


def _commands(solution: str) -> set[str]:
    """The kubectl commands of a solution, each on one line (its continuations joined)."""
    joined = re.sub(r"\\\s*\n\s*", " ", solution)
    return {plain(m.group()) for m in re.finditer(r"kubectl [^)|>;&\n]+", joined)}


def truths(s, step: int, lacking: str = "") -> set[str]:
    """What the state says the right answers are; `lacking`: the right answer's lines the wrong
    one has not."""
    ctx = s.context()
    found: set[str] = {full_name(ctx)}
    obs = s.store.obs
    for uid, pod in obs.uid_owner.items():
        found.add(uid)
        for seen in obs.uid_history(pod):
            found.update(seen.ips)
    for pod in s.store.all("Pod", ctx.ns):
        found.add(o.uid(pod))
        if o.pod_ip(pod):
            found.add(o.pod_ip(pod))
        labels = o.labels(pod)
        g, w = labels.get(o.GROUP_INDEX_LABEL), labels.get(o.WORKER_INDEX_LABEL)
        if g is not None and w is not None:
            found |= {f"group-index={g}", f"worker-index={w}", f"pod={o.name(pod)} group={g} worker={w}"}
        for name, value in pod_lws_env(pod).items():
            if value is not None:
                found.add(f"{name}={value}")
                if len(value) >= 6:
                    found.add(value)
    worker = ctx.pod(ORPHAN_WORKER)
    if worker is not None:
        found |= {c for msg in scheduler_reasons(ctx, worker) for c in clauses(msg) if " " in c}
    for lang in LANGS:
        found |= _commands(s.lesson.step(step).text(lang).solution)
    found |= {line for line in (plain(x) for x in lacking.split("\n")) if len(line) >= 8}
    return {plain(t) for t in found if t}


def told(text: str, truth: str) -> bool:
    return re.search(r"(?<![\w.-])" + re.escape(truth) + r"(?![\w-])", plain(text)) is not None


def leaks(s, step: int, lacking: str = "") -> list[str]:
    """Each truth a failing or waiting verdict of `step` holds, in either language, that the
    answer files do not."""
    written = " ".join(plain(s.workspace.get(f).text or "") for f in s.lesson.answer_files)
    hidden = {t for t in truths(s, step, lacking) if not told(written, t)}
    out = []
    for lang in LANGS:
        s.lang = lang
        v = check(s, step)
        if v.status not in TOLD:
            continue
        for line in (v.message, *v.details):
            out += [f"[{lang} {v.status.value}] {t!r} in: {line}" for t in sorted(hidden) if told(line, t)]
    s.lang = "en"
    return out


def _lacking(original: str, mutant: str) -> str:
    have = {plain(line) for line in mutant.split("\n")}
    return "\n".join(line for line in original.split("\n") if plain(line) not in have)


@pytest.mark.parametrize("name,step,index", passing_moments(),
                         ids=[f"{n}-step{s}" for n, s, _ in passing_moments()])
def test_no_verdict_on_a_mutant_tells_the_answer(name, step, index):
    s = state_at(name, index)
    file = FILES[step]
    original = s.workspace.get(file).text
    written = s.workspace.get(file).written_at
    found = []
    for m in mutants(file, original):
        s.apply(FileChanged(file, m.text, s.store.now, written))
        found += [f"{m.op} {m.where[:40]!r}: {leak}" for leak in leaks(s, step, _lacking(original, m.text))]
    s.apply(FileChanged(file, original, s.store.now, written))
    assert found == [], "\n".join(found[:20])


# The wrong turns of the LWS lab, and those of the other lessons (each recording names its lesson).
WRONG_TURNS = sorted(p.stem for p in (*RECORDINGS.glob("*.jsonl"), *LESSON_RECORDINGS.glob("lesson-gang-*.jsonl")))


@pytest.mark.parametrize("name", WRONG_TURNS)
def test_no_verdict_at_the_end_of_a_wrong_turn_tells_the_answer(name):
    s = state(name)
    found = [f"step {n}: {leak}" for n in range(1, len(s.lesson.steps) + 1) for leak in leaks(s, n)]
    assert found == [], "\n".join(found[:20])


def test_the_truths_are_found_where_they_are():
    """The test can fail: an old verdict that named the right UID is caught."""
    s = state("uid-typo")
    uid = next(u for u in s.store.obs.uid_owner)
    assert told(f"LWS deleted llm-0 {uid}. Copy UIDs exactly.", uid)
    assert uid in truths(s, 5)
    assert "llm-1.llm.infer.svc.cluster.local" in truths(s, 4)
    assert not told("10.42.0.15", "10.42.0.1")
