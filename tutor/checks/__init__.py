"""The checkers: pure functions of (store, answer files, lesson, language) -> Verdict.

lesson.yaml names each step's checker; this registry maps those names to code.
"""

from __future__ import annotations

import traceback
from typing import Callable

from tutor.checks import (step1_llm, step2_names, step3_env, step4_dns, step5_restart, step6_rollout,
                          step7_exclusive, step8_orphan)
from tutor.checks.context import Context
from tutor.checks.verdict import Status, Stop, Verdict

Checker = Callable[[Context], Verdict]

CHECKERS: dict[str, Checker] = {
    "llm_created": step1_llm.check,
    "names_match": step2_names.check,
    "env_captured": step3_env.check,
    "dns_resolved": step4_dns.check,
    "group_recreated": step5_restart.check,
    "rolled_out": step6_rollout.check,
    "exclusive_placed": step7_exclusive.check,
    "half_scheduled": step8_orphan.check,
}


def run_checker(name: str, ctx: Context) -> Verdict:
    """Runs one checker; a checker that raises gives an `error` verdict, never a crash."""
    fn = CHECKERS.get(name)
    if fn is None:
        return Verdict(Status.ERROR, ctx.t("No checker named {n}.", "{n} 라는 검사기가 없습니다.", n=name))
    try:
        return fn(ctx)
    except Stop as stop:
        return stop.verdict
    except Exception as exc:  # noqa: BLE001 - one bad object must not take the tutor down
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Verdict(Status.ERROR,
                       ctx.t("The checker could not read the cluster state: {e}",
                             "검사기가 클러스터 상태를 읽지 못했습니다: {e}", e=f"{type(exc).__name__}: {exc}"),
                       (f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}",))


def evaluate(ctx: Context, numbers: list[int] | None = None) -> dict[int, Verdict]:
    steps = ctx.lesson.steps if numbers is None else [ctx.lesson.step(n) for n in numbers]
    return {s.number: run_checker(s.checker, ctx) for s in steps}
