"""Steps 5 and 6 are about sequences: their verdicts carry the part of the story they are about
(tutor/cluster/story.py), as `timeline` entries for `check --json` and, once the step passes, as
detail lines the learner reads in the verdict box."""

from __future__ import annotations

from dataclasses import replace

from tutor.checks.context import Context
from tutor.checks.verdict import Verdict

# checker name -> the step whose part of the story it shows
STEPS = {"group_recreated": 5, "rolled_out": 6}
LWS = "llm"


def with_timeline(checker: str, ctx: Context, verdict: Verdict) -> Verdict:
    step = STEPS.get(checker)
    if step is None:
        return verdict
    from tutor.cluster.story import brief, recap, story  # imported with the first checker that needs it

    episode = recap(story(ctx.store, ctx.ns), step, LWS)
    if episode is None:
        return replace(verdict, timeline=())
    entries = tuple(tuple(e.items()) for e in episode.entries(ctx.lang))
    details = verdict.details
    if verdict.passed:
        head = (ctx.t("What happened to group 0, in order (t: the whole timeline):",
                      "그룹 0 에 일어난 일, 순서대로(t: 전체 타임라인):") if step == 5 else
                ctx.t("How the rollout went, in order (t: the whole timeline):",
                      "롤아웃이 진행된 순서(t: 전체 타임라인):"))
        details = details + (head, *brief(episode, step, ctx.lang))
    return replace(verdict, details=details, timeline=entries)
