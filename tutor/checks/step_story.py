"""The steps about sequences (a step with a `story` in lesson.yaml) carry the part of the story
they are about (tutor/cluster/story.py, told by tutor/narration): as `timeline` entries for
`check --json` and, once the step passes, as detail lines under the step's head; the lesson's
recap lists the same lines under "What you just saw"."""

from __future__ import annotations

from dataclasses import replace

from tutor.checks.context import Context
from tutor.checks.verdict import Verdict
from tutor.cluster.store import Store
from tutor.lesson.loader import Step, StoryRef
from tutor.narration import brief, brief_items, entries
from tutor.i18n.bilingual import say


def _episode(store: Store, namespace: str, ref: StoryRef):
    from tutor.cluster.story import story_of  # imported with the first step that needs it

    return story_of(store, namespace, ref.lws).step_episode(ref.lws, ref.episode, ref.group, ref.failed)


def _step_episode(store: Store, namespace: str, step: Step):
    """The episode the step's recap tells, or None (no story, or not yet)."""
    return _episode(store, namespace, step.story) if step.story is not None else None


def recap_markdown(store: Store, namespace: str, step: Step, lang: str) -> str:
    """The same lines as a markdown list, for the lesson's recap ("" when there is nothing)."""
    episode = _step_episode(store, namespace, step)
    items = [f"- `{at}` {text}" for at, text in brief_items(episode, lang)] if episode is not None else []
    return "\n\n" + "\n".join(items) if items else ""


def with_timeline(step: Step, ctx: Context, verdict: Verdict) -> Verdict:
    if step.story is None:
        return verdict
    try:
        return _told(step.story, ctx, verdict)
    except Exception as exc:  # noqa: BLE001 - the story is an aside: it must never change a verdict
        return replace(verdict, timeline=(), details=verdict.details + (
            say(ctx.lang, "(the timeline could not be told: {e})", "(타임라인을 만들지 못했습니다: {e})",
                          e=f"{type(exc).__name__}: {exc}"),))


def _told(story: StoryRef, ctx: Context, verdict: Verdict) -> Verdict:
    episode = _episode(ctx._store, ctx.ns, story)
    if episode is None:
        return replace(verdict, timeline=())
    told = tuple(tuple(e.items()) for e in entries(episode, ctx.lang))
    details = verdict.details
    if verdict.passed:
        details = details + (story.head(ctx.lang), *brief(episode, ctx.lang))  # the episode found above
    return replace(verdict, details=details, timeline=told)
