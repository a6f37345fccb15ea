"""Steps 5 and 6 are about sequences: their verdicts carry the part of the story they are about
(tutor/cluster/story.py), as `timeline` entries for `check --json` and, once the step passes, as
detail lines; the lesson's recap lists the same lines under "What you just saw"."""

from __future__ import annotations

from dataclasses import replace

from tutor.checks.context import Context
from tutor.checks.verdict import Verdict
from tutor.cluster.store import Store

# checker name -> the step whose part of the story it shows
STEPS = {"group_recreated": 5, "rolled_out": 6}
LWS = "llm"
HEADS = {5: ("What happened to group 0, in order (t: the whole timeline):",
             "그룹 0 에 일어난 일, 순서대로(t: 전체 타임라인):"),
         6: ("How the rollout went, in order (t: the whole timeline):",
             "롤아웃이 진행된 순서(t: 전체 타임라인):")}


def _episode(store: Store, namespace: str, step: int):
    from tutor.cluster.story import recap, story_of  # imported with the first step that needs it

    return recap(story_of(store, namespace, LWS), step, LWS)


def recap_lines(store: Store, namespace: str, step: int, lang: str) -> list[str]:
    """The step's part of the story as short lines (offset, what, the key cause), or []."""
    from tutor.cluster.story import brief

    episode = _episode(store, namespace, step) if step in HEADS else None
    return brief(episode, step, lang) if episode is not None else []


def recap_markdown(store: Store, namespace: str, step: int, lang: str) -> str:
    """The same lines as a markdown list, for the lesson's recap ("" when there is nothing)."""
    lines = recap_lines(store, namespace, step, lang)
    if not lines:
        return ""
    items = []
    for line in lines:
        offset, _, text = line.partition(" ")
        items.append(f"- `{offset}` {text}")
    return "\n\n" + "\n".join(items)


def with_timeline(checker: str, ctx: Context, verdict: Verdict) -> Verdict:
    step = STEPS.get(checker)
    if step is None:
        return verdict
    try:
        return _told(step, ctx, verdict)
    except Exception as exc:  # noqa: BLE001 - the story is an aside: it must never change a verdict
        return replace(verdict, timeline=(), details=verdict.details + (
            ctx.t("(the timeline could not be told: {e})", "(타임라인을 만들지 못했습니다: {e})",
                  e=f"{type(exc).__name__}: {exc}"),))


def _told(step: int, ctx: Context, verdict: Verdict) -> Verdict:
    episode = _episode(ctx.store, ctx.ns, step)
    if episode is None:
        return replace(verdict, timeline=())
    entries = tuple(tuple(e.items()) for e in episode.entries(ctx.lang))
    details = verdict.details
    if verdict.passed:
        details = details + (ctx.t(*HEADS[step]), *recap_lines(ctx.store, ctx.ns, step, ctx.lang))
    return replace(verdict, details=details, timeline=entries)
