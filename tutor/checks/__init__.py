"""The checkers: pure functions of (store, answer files, lesson, language) -> Verdict.

lesson.yaml names each step's checker; this registry maps those names to code.
"""

from __future__ import annotations

import importlib
import traceback
from dataclasses import replace
from typing import Callable

from tutor.checks.context import Context
from tutor.checks.reads import Reads
from tutor.checks.timeline_recap import with_timeline
from tutor.checks.verdict import Status, Stop, Verdict

Checker = Callable[[Context], Verdict]


def _imported_on_first_call(module: str) -> Checker:
    """The check() of tutor.checks.<module>, imported when it first runs: no checker runs
    before the tutor's first frame, so none is imported before it."""
    def check(ctx: Context) -> Verdict:
        return importlib.import_module(f"tutor.checks.{module}").check(ctx)
    return check


MODULES = {
    "llm_created": "step1_llm",
    "names_match": "step2_names",
    "env_captured": "step3_env",
    "dns_resolved": "step4_dns",
    "group_recreated": "step5_restart",
    "rolled_out": "step6_rollout",
    "exclusive_placed": "step7_exclusive",
    "half_scheduled": "step8_orphan",
}
CHECKERS: dict[str, Checker] = {name: _imported_on_first_call(module) for name, module in MODULES.items()}


def reads_of(name: str) -> Reads | None:
    """What a checker reads (its module's READS; tutor/checks/reads.py), or None when unknown."""
    module = MODULES.get(name)
    return importlib.import_module(f"tutor.checks.{module}").READS if module else None


def run_checker(name: str, ctx: Context) -> Verdict:
    """Runs one checker; a checker that raises gives an `error` verdict, never a crash."""
    fn = CHECKERS.get(name)
    if fn is None:
        return Verdict(Status.ERROR, ctx.t("No checker named {n}.", "{n} 라는 검사기가 없습니다.", n=name))
    try:
        try:
            verdict = fn(ctx)
        except Stop as stop:
            verdict = stop.verdict
        return with_timeline(name, ctx, verdict)
    except Exception as exc:  # noqa: BLE001 - one bad object must not take the tutor down
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Verdict(Status.ERROR,
                       ctx.t("The checker could not read the cluster state: {e}",
                             "검사기가 클러스터 상태를 읽지 못했습니다: {e}", e=f"{type(exc).__name__}: {exc}"),
                       (f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}",))


def evaluate(ctx: Context, numbers: list[int] | None = None, explain: set[int] | None = None) -> dict[int, Verdict]:
    """Verdicts of the steps asked for (all by default); `explain` limits the scheduler
    explanations in their details to those steps (all by default)."""
    steps = ctx.lesson.steps if numbers is None else [ctx.lesson.step(n) for n in numbers]
    quiet = replace(ctx, explain=False)
    return {s.number: run_checker(s.checker, ctx if explain is None or s.number in explain else quiet)
            for s in steps}
