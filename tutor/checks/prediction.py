"""Predict, then see (a step's `predict` in lesson.yaml): before the step's episode happens, the
tutor may ask what the learner thinks the cluster will do; once it has, the step's recap grades
the answer against the timeline the tutor saw, and says how it differs.

The lesson owns the questions, their choices and their graders: each question names a function
of the step's checker module, a pure function of the step's episode and its LWS's story
(tutor/cluster/story.py) that says which choice the timeline bore out, and with which lines (a
Seen). Here is only what every lesson shares: which questions are still open, when an answer was
made on the story's clock, and a graded answer as words. An answer counts as a prediction only
when it was made before the episode's first line; one made later is shown, not graded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.lesson.loader import Choice, Question, Step
from tutor.narration import offset, seconds, with_cause
from tutor.i18n.bilingual import Words, pick, say

if TYPE_CHECKING:  # the story is imported with the first step that asks (step_story.py does the same)
    from tutor.cluster.story import Episode, Line, Story
    from tutor.cluster.store import Store


@dataclass(frozen=True)
class Seen:
    """What a grader read in the timeline."""
    choice: str  # the id of the choice the timeline bore out; "" when it cannot tell (yet)
    said: Words  # what the cluster did, in a sentence
    lines: tuple[Line, ...] = ()  # the episode's lines that show it
    also: Words | None = None  # something more the timeline shows, worth knowing beside it


@dataclass(frozen=True)
class Graded:
    question: Question
    choice: Choice | None  # what the learner picked (None: a choice the lesson no longer has)
    made: float  # when, on the story's clock (wall-clock seconds)
    episode: Episode
    seen: Seen

    @property
    def late(self) -> bool:
        """Made once the episode had begun: an answer, not a prediction."""
        return self.made >= self.episode.start

    @property
    def right(self) -> bool | None:
        """None when it is not graded: made too late, or the timeline cannot tell."""
        if self.late or not self.seen.choice or self.choice is None:
            return None
        return self.choice.id == self.seen.choice


def story_and_episode(store: Store, namespace: str, step: Step) -> tuple[Story, Episode | None]:
    """The step's LWS's story, and the episode of it the step is about (None: not yet)."""
    from tutor.cluster.story import story_of

    ref = step.story
    assert ref is not None  # the loader takes questions only on a step with a story (loader._predict)
    st = story_of(store, namespace, ref.lws)
    return st, st.step_episode(ref.lws, ref.episode, ref.group, ref.failed)


def open_questions(step: Step, store: Store, namespace: str, answers: dict) -> list[Question]:
    """The step's questions still to ask: none once its episode has begun, none answered."""
    if not step.predict or all(q.id in answers for q in step.predict):
        return []
    if story_and_episode(store, namespace, step)[1] is not None:
        return []
    return [q for q in step.predict if q.id not in answers]


def made_at(store: Store, namespace: str, step: Step, t: float) -> float:
    """A moment of the tutor's clock (t, seconds since its source started) on the story's clock,
    where the episode's lines are."""
    st, _ = story_and_episode(store, namespace, step)
    return (st.anchor if st.anchor is not None else 0.0) + t


def graded(step: Step, store: Store, namespace: str, answers: dict) -> list[Graded]:
    """The step's answered questions, each graded against its episode (none before it begins)."""
    if not step.predict or not answers:
        return []
    st, episode = story_and_episode(store, namespace, step)
    if episode is None:
        return []
    out = []
    for q in step.predict:
        answer = answers.get(q.id)
        if not isinstance(answer, dict):
            continue
        grader = getattr(step.checks(), q.grade)
        out.append(Graded(q, q.choice(str(answer.get("choice"))), float(answer.get("at", 0.0)), episode,
                          grader(episode, st)))
    return out


def markdown(grades: list[Graded], lang: str) -> str:
    """The graded answers, for the step's recap ("" when there are none)."""
    if not grades:
        return ""
    parts = [f"### {say(lang, 'Predicted, then seen', '예측과 실제')}"]
    for g in grades:
        parts.append(f"**{g.question.text(lang)}**")
        parts.append(verdict(g, lang))
        parts.append(say(lang, "What the cluster did: {said}", "클러스터가 한 일: {said}", said=pick(g.seen.said, lang)))
        if g.seen.lines:
            parts.append("\n".join(f"- `{offset(g.episode, line)}` {with_cause(line, lang)}" for line in g.seen.lines))
        if g.right is False and g.choice is not None and g.choice.why_not(lang):
            parts.append(g.choice.why_not(lang))
        if g.seen.also:
            parts.append(pick(g.seen.also, lang))
    return "\n\n".join(parts)


def verdict(g: Graded, lang: str) -> str:
    """One line: what was predicted, and whether the timeline bore it out."""
    picked = g.choice.text(lang) if g.choice is not None else "?"
    if g.late:
        return say(lang, "You answered: *{c}*, {s} s after the cluster had begun (the first line below), so it is "
                         "not graded as a prediction.",
                   "답: *{c}*. 클러스터가 움직이기 시작하고 {s}초 뒤에 한 답이므로(아래 첫 줄) 예측으로 채점하지 "
                   "않습니다.", c=picked, s=seconds(g.made - g.episode.start))
    if g.right is None:
        return say(lang, "You predicted: *{c}*. The timeline cannot tell yet whether that is what happened.",
                   "예측: *{c}*. 그대로 되었는지 타임라인으로는 아직 알 수 없습니다.", c=picked)
    if g.right:
        return say(lang, "You predicted: *{c}*. ✓ Right, {s} s before the cluster acted.",
                   "예측: *{c}*. ✓ 맞았습니다. 클러스터가 움직이기 {s}초 전에 한 예측입니다.",
                   c=picked, s=seconds(g.episode.start - g.made))
    return say(lang, "You predicted: *{c}*. ✗ The cluster did otherwise.",
               "예측: *{c}*. ✗ 클러스터는 다르게 움직였습니다.", c=picked)


def entries(grades: list[Graded], lang: str) -> list[dict]:
    """The graded answers as `check --json` gives them."""
    return [{"question": g.question.id, "choice": g.choice.id if g.choice else None, "seen": g.seen.choice or None,
             "right": g.right, "late": g.late, "what": pick(g.seen.said, lang)} for g in grades]
