"""Incremental checks (tutor/session.py, tutor/checks/reads.py): a session re-runs a checker only
when something its READS names changed. After every item of every committed recording, its
verdicts and the steps it latches as passed equal those of a session that runs every checker
every time, as `lwstutor check` asks (every explanation) and as the TUI asks (the step on screen
explained, steps changed, the language switched, a step's progress reset)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import pytest

from tests.conftest import RECORDINGS
from tests.states import recording, started_at
from tutor import checks
from tutor.lesson.loader import load
from tutor.session import Session

STEPS = 8


def recordings() -> list[str]:
    return ["walkthrough"] + sorted(p.stem for p in RECORDINGS.glob("*.jsonl"))


class FullSession(Session):
    """The reference: every checker runs on every evaluation."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.incremental = False


@dataclass
class Compared:
    items: int = 0
    evaluations: int = 0  # step verdicts asked for
    runs: Counter = field(default_factory=Counter)  # step -> runs of its checker, incremental
    mismatches: list[str] = field(default_factory=list)


def _session(cls, name: str) -> Session:
    s = cls(load(), "/root/gsb-lws", "en")
    s.store.started_at = started_at(name)
    return s


def replay_compared(name: str, tui: bool) -> Compared:
    """Feeds a recording item by item to an incremental and a full session; after each item
    both evaluate, as `check` does (tui=False) or as the TUI does, and every difference in the
    verdicts of all steps, or in the steps newly passed, is noted."""
    inc, full = _session(Session, name), _session(FullSession, name)
    out = Compared()
    shown = 1
    for i, item in enumerate(recording(name).items):
        inc.apply(item)
        full.apply(item)
        asks: list[tuple[list[int] | None, set[int] | None]] = [] if tui else [(None, None)]
        if tui:
            lang = "ko" if (i // 40) % 2 else "en"  # `l`: the language switched now and then
            inc.lang = full.lang = lang
            if i % 60 == 59:  # the palette's "reset step"
                inc.progress.reset(shown)
                full.progress.reset(shown)
            if i % 7 == 6:  # the learner goes to another step: it is checked at once, explained
                shown = shown % STEPS + 1
                asks = [([shown], {shown})]
            asks.append((None, {shown}))  # a re-check: only the step on screen explained
        for numbers, explain in asks:
            got, want = inc.evaluate(numbers, explain), full.evaluate(numbers, explain)
            out.evaluations += len(numbers or range(STEPS))
            if got != want:
                out.mismatches.append(f"{name} item {i}: newly passed {got}, a full run {want}")
            for n in numbers or range(1, STEPS + 1):
                a, b = inc.verdicts[n], full.verdicts[n]
                if a != b:
                    out.mismatches.append(f"{name} item {i} step {n} (explain {explain}): "
                                          f"{a.status.value} {a.message!r} {a.details!r}; a full run: "
                                          f"{b.status.value} {b.message!r} {b.details!r}")
        out.items += 1
    out.runs = inc.checker_runs
    return out


@pytest.mark.parametrize("tui", [False, True], ids=["check", "tui"])
@pytest.mark.parametrize("name", recordings())
def test_verdicts_equal_a_full_run_after_every_item(name, tui):
    r = replay_compared(name, tui)
    assert r.items > 0
    assert r.mismatches == [], "\n".join(r.mismatches[:5])


def test_the_incremental_session_skips_most_checkers():
    """Over all recordings, far fewer checkers run than verdicts are asked for, so incremental
    checking has not turned into running everything. Steps 4 to 6 read the timeline, which
    nearly every item of a recording moves; steps 2 and 3 read a few objects by name."""
    runs: Counter = Counter()
    asked = items = 0
    for name in recordings():
        r = replay_compared(name, tui=False)
        runs.update(r.runs)
        asked, items = asked + r.evaluations, items + r.items
    assert asked == items * STEPS and sum(runs.values()) < asked * 0.6, (runs, asked)
    assert runs[2] < items / 4 and runs[3] < items / 4, (runs, items)


def test_a_skipped_step_keeps_its_verdict_and_a_read_change_reruns_it():
    s = _session(Session, "walkthrough")
    for item in recording("walkthrough").items:
        s.apply(item)
    s.evaluate()
    runs = sum(s.checker_runs.values())
    s.evaluate()
    assert sum(s.checker_runs.values()) == runs  # nothing changed: nothing ran
    english = s.verdicts[3].message
    s.lang = "ko"
    s.evaluate([3])
    assert sum(s.checker_runs.values()) == runs + 1 and s.verdicts[3].message != english
    s.evaluate([3], explain=set())  # asked without the explanations: another verdict shape
    assert sum(s.checker_runs.values()) == runs + 2


def caught(step: int) -> list[str]:
    """The mismatches of the first recording that shows any for `step` (none: [])."""
    for name in recordings():
        found = [m for m in replay_compared(name, tui=False).mismatches if f" step {step} " in m]
        if found:
            return found
    return []


def test_a_declaration_that_misses_a_pod_its_checker_reads_is_caught(monkeypatch):
    """The equivalence test can fail: step 3 declared without llm-1-1, the pod it compares
    env.txt with, keeps a stale verdict."""
    from tutor.lessons.lws.checks import env as step3_env

    monkeypatch.setattr(step3_env, "READS", replace(step3_env.READS, pods=()))
    assert caught(3)


def test_a_declaration_that_misses_the_names_of_its_lws_evidence_is_caught(monkeypatch):
    """The same for the evidence of an LWS: step 5 declared with llm, its labelled pods and the
    Events about it, but not what is noted under the names of its objects (handlers.named_after:
    the kubelet's Events about llm-0-1, a pod's history), keeps a stale verdict."""
    from tutor.lessons.lws.checks import restart_group as step5_restart
    from tutor.checks.reads import Reads, merged

    narrow = Reads(lws=("llm",), pods_of=("llm",), events_about=("llm",), clock=True)
    monkeypatch.setattr(step5_restart, "READS", merged(replace(step5_restart.READS, evidence_of=()), narrow))
    assert caught(5)


def test_every_checker_declares_what_it_reads():
    lesson = load()
    for step in lesson.steps:
        assert isinstance(checks.reads_of(step), checks.Reads), step.id
    missing = replace(lesson.step(1), id="no-such-step")
    assert checks.reads_of(missing) is None
    v = checks.run_checker(missing, Session(lesson, "/root/gsb-lws", "en").context())
    assert v.status.value == "error" and "no_such_step" in v.message
