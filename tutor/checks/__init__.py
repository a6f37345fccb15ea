"""The checkers: pure functions of (store, answer files, lesson, language) -> Verdict.

Each lesson brings its own, one module per step (the lesson loader finds it by the step's id);
this runs them with one error path and adds the story a step tells (step_story.py).
"""

from __future__ import annotations

import traceback
from dataclasses import replace

from tutor.checks.context import Context
from tutor.checks.reads import Reads
from tutor.checks.step_story import with_timeline
from tutor.checks.verdict import Status, Stop, Verdict
from tutor.lesson.loader import Step
from tutor.i18n.bilingual import say


def reads_of(step: Step) -> Reads | None:
    """What a step's checker reads (its module's READS; tutor/checks/reads.py), or None when
    it declares nothing (then it runs on every change)."""
    try:
        return getattr(step.checks(), "READS", None)
    except ImportError:
        return None  # run_checker says so


def run_checker(step: Step, ctx: Context) -> Verdict:
    """Runs one step's checker; a checker that is missing or raises gives an `error` verdict,
    never a crash."""
    try:
        try:
            verdict = step.checks().check(ctx)
        except Stop as stop:
            verdict = stop.verdict
        return with_timeline(step, ctx, verdict)
    except ImportError as exc:
        return Verdict(Status.ERROR, say(ctx.lang, "No checker for step {n} ({m}): {e}", "{n}단계의 검사기({m})가 없습니다: {e}",
                                                   n=step.number, m=step.checker, e=exc))
    except Exception as exc:  # noqa: BLE001 - one bad object must not take the tutor down
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Verdict(Status.ERROR,
                       say(ctx.lang, "The checker could not read the cluster state: {e}",
                                     "검사기가 클러스터 상태를 읽지 못했습니다: {e}", e=f"{type(exc).__name__}: {exc}"),
                       (f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}",))


def evaluate(ctx: Context, numbers: list[int] | None = None, explain: set[int] | None = None) -> dict[int, Verdict]:
    """Verdicts of the steps asked for (all by default); `explain` limits the scheduler
    explanations in their details to those steps (all by default)."""
    steps = ctx.lesson.steps if numbers is None else [ctx.lesson.step(n) for n in numbers]
    quiet = replace(ctx, explain=False)
    return {s.number: run_checker(s, ctx if explain is None or s.number in explain else quiet)
            for s in steps}
