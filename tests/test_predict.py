"""Predict, then see: the lesson's graders read the real recordings' timelines, an answer is
graded only when it came before the episode, and the questions are open only until it begins."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.states import event, file_written, state
from tests.test_korean import problems
from tutor.checks.prediction import Graded, graded, markdown, made_at, open_questions, story_and_episode
from tutor.cluster.story import Episode, Line, Story
from tutor.lesson.loader import LessonError, _predict, load
from tutor.progress import Progress

LESSON = load()
RESTART, ROLLOUT = LESSON.step(5), LESSON.step(6)


def seen(name: str, step, question: str, **kw):
    s = state(name, **kw)
    st, episode = story_and_episode(s.store, "infer", step)
    assert episode is not None, name
    q = next(q for q in step.predict if q.id == question)
    return getattr(step.checks(), q.grade)(episode, st)


def pods(seen_) -> list[str]:
    return [p for line in seen_.lines for p in line.pods]


@pytest.mark.parametrize("name", ["walkthrough", "late-after-step5", "late-mid-rollout", "restart-after-failure",
                                  "group1-failed-after-step5"])
def test_a_worker_failed_gives_its_whole_group_new_uids(name):
    got = seen(name, RESTART, "new-uids")
    assert got.choice == "group" and pods(got) == ["llm-0", "llm-0-1"], got
    assert "group 1 kept its UIDs" in got.said[0] and got.also is None


def test_the_leader_failed_instead_still_rebuilt_group_0():
    """leader-failed: llm-0 failed, not llm-0-1; the step's episode is that recreation, and the
    whole group got new UIDs all the same."""
    got = seen("leader-failed", RESTART, "new-uids")
    assert got.choice == "group" and pods(got) == ["llm-0", "llm-0-1"]


def test_group_1s_own_failure_meanwhile_is_said_beside_it():
    got = seen("both-workers-failed", RESTART, "new-uids")
    assert got.choice == "group"
    assert got.also and "llm-1 and llm-1-1" in got.also[0] and "group 1 itself" in got.also[0]


def test_before_the_new_uids_it_cannot_tell():
    rebuilt = event("Pod", "llm-0", "ADDED", where=lambda p: p["metadata"]["uid"].startswith("2e0b4d6f"))
    got = seen("walkthrough", RESTART, "new-uids", stop=rebuilt)
    assert got.choice == "" and "no pod of group 0" in got.said[0]


@pytest.mark.parametrize("name", ["walkthrough", "late-after-step6", "late-mid-rollout", "version-worker-only",
                                  "late-after-rollout-recreated-group1"])
def test_the_rollout_replaced_group_1_first(name):
    got = seen(name, ROLLOUT, "first-group")
    assert got.choice == "group-1", got
    turns = [line.group for line in got.lines if line.kind == "group-replaced"]
    assert turns == [1, 0]


def test_the_next_group_waited_for_group_1_to_run_again():
    got = seen("walkthrough", ROLLOUT, "first-group")
    assert [line.kind for line in got.lines] == ["group-replaced", "running-again", "group-replaced"]
    assert "only once group 1 was Running again" in got.said[0]


def _line(at: float, group: int | None, kind: str, pods=(), old=()) -> Line:
    return Line(at, group, kind, (kind, kind), pods=tuple(pods), old=tuple(old))


def test_both_groups_at_once_when_the_second_began_before_the_first_ran_again():
    lines = (_line(0, None, "revision"), _line(1, 1, "group-replaced"), _line(5, 0, "group-replaced"),
             _line(9, 1, "running-again"))
    got = ROLLOUT.checks().predict_first_group(Episode("llm", "rollout", None, ("", ""), lines), Story((), 0.0))
    assert got.choice == "together"


@pytest.mark.parametrize("name", ["walkthrough", "version-worker-only"])
def test_no_old_leader_ran_with_a_new_worker_but_the_other_way_round_did(name):
    got = seen(name, ROLLOUT, "old-leader")
    assert got.choice == "no"
    assert "every new worker came from its new leader's worker StatefulSet" in got.said[0]
    mixed = [line for line in got.lines if line.kind == "mixed-revisions"]
    assert [(line.pods, line.old) for line in mixed] == [(("llm-1",), ("llm-1-1",)), (("llm-0",), ("llm-0-1",))]
    assert got.also and "The other way round did happen" in got.also[0]


@pytest.mark.parametrize("name", ["late-mid-rollout", "late-after-step6"])
def test_a_tutor_started_after_the_rollout_began_cannot_tell(name):
    got = seen(name, ROLLOUT, "old-leader")
    assert got.choice == "" and "started after the rollout" in got.said[0]


def test_an_old_leader_beside_a_new_worker_is_a_yes():
    """What LWS promises never happens, made up: the grader says so when the timeline shows it."""
    lines = (_line(0, None, "revision"), _line(1, 1, "mixed-revisions", ["llm-1-1"], ["llm-1"]),
             _line(9, None, "rollout-done"))
    got = ROLLOUT.checks().predict_old_leader(Episode("llm", "rollout", None, ("", ""), lines), Story((), -1.0))
    assert got.choice == "yes" and got.lines == lines[1:2]


# --- graded, or not ---------------------------------------------------------------------------------

def _walkthrough_graded(at_offset: float, choice: str = "group") -> Graded:
    s = state("walkthrough")
    _, episode = story_and_episode(s.store, "infer", RESTART)
    (g,) = graded(RESTART, s.store, "infer", {"new-uids": {"choice": choice, "at": episode.start + at_offset}})
    return g


def test_a_prediction_before_the_episode_is_graded():
    right, wrong = _walkthrough_graded(-5), _walkthrough_graded(-5, "worker")
    assert right.right is True and not right.late
    assert wrong.right is False
    md = markdown([wrong], "en")
    assert "✗ The cluster did otherwise" in md and "a restarted worker cannot rejoin" in md
    assert "`+32.00s` llm-0 new UID" in md


def test_a_prediction_made_once_the_episode_had_begun_is_not_graded():
    g = _walkthrough_graded(+0.5)
    assert g.late and g.right is None
    md = markdown([g], "en")
    assert "not graded as a prediction" in md and "✓" not in md and "✗" not in md


def test_the_questions_are_open_only_before_the_episode():
    before = state("walkthrough", stop=file_written("lws.yaml", "VERSION"))
    assert [q.id for q in open_questions(RESTART, before.store, "infer", {})] == []  # group 0 was rebuilt
    assert [q.id for q in open_questions(ROLLOUT, before.store, "infer", {})] == ["first-group", "old-leader"]
    assert [q.id for q in open_questions(ROLLOUT, before.store, "infer", {"first-group": {}})] == ["old-leader"]
    early = state("walkthrough", after=file_written("restart.txt"))
    assert [q.id for q in open_questions(RESTART, early.store, "infer", {})] == ["new-uids"]
    _, episode = story_and_episode(state("walkthrough").store, "infer", RESTART)
    assert made_at(early.store, "infer", RESTART, early.store.now) < episode.start


def test_the_korean_of_every_graded_answer_reads_right():
    s = state("both-workers-failed")
    _, episode = story_and_episode(s.store, "infer", RESTART)
    said = []
    for choice in ("worker", "group", "all"):
        for off in (-5, 5):
            said.append(markdown(graded(RESTART, s.store, "infer",
                                        {"new-uids": {"choice": choice, "at": episode.start + off}}), "ko"))
    w = state("walkthrough")
    _, roll = story_and_episode(w.store, "infer", ROLLOUT)
    for a, b in (("group-0", "yes"), ("group-1", "no"), ("together", "no")):
        said.append(markdown(graded(ROLLOUT, w.store, "infer", {"first-group": {"choice": a, "at": roll.start - 1},
                                                                "old-leader": {"choice": b, "at": roll.start - 1}}), "ko"))
    texts = said + [q.text("ko") for st in (RESTART, ROLLOUT) for q in st.predict] + [
        t for st in (RESTART, ROLLOUT) for q in st.predict for c in q.choices for t in (c.text("ko"), c.why_not("ko"))]
    bad = {t: problems(t) for t in texts if problems(t)}
    assert not bad, bad
    assert "✗ 클러스터는 다르게 움직였습니다" in said[0] and "예측으로 채점하지 않습니다" in said[1]


# --- the lesson's data and the progress file ------------------------------------------------------

def test_a_question_needs_the_steps_story_and_choices():
    q = {"id": "q", "grade": "f", "question": {"en": "?"}, "choices": [{"id": "a"}, {"id": "b"}]}
    assert _predict([q], RESTART.story, "x")[0].choice("b").id == "b"
    with pytest.raises(LessonError, match="needs the step's story"):
        _predict([q], None, "x")
    with pytest.raises(LessonError, match="2 to 9 choices"):
        _predict([{**q, "choices": [{"id": "a"}]}], RESTART.story, "x")
    assert all(callable(getattr(st.checks(), q.grade)) for st in LESSON.steps for q in st.predict)


def test_predictions_are_kept_once_and_reset_with_their_step(tmp_path):
    path = tmp_path / "p.json"
    p = Progress.load(path, 8)
    assert p.predict(5, "new-uids", "group", 100.5)
    assert not p.predict(5, "new-uids", "worker", 200.0)  # the first answer stands
    again = Progress.load(path, 8)
    assert again.predictions == {5: {"new-uids": {"choice": "group", "at": 100.5}}}
    again.reset(5)
    assert Progress.load(path, 8).predictions == {}


def test_a_file_from_before_predictions_loads_and_a_bad_entry_is_dropped(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"version": 1, "current": 5, "passed": {}, "hints": {"5": 1}}))
    old = Progress.load(path, 8)
    assert old.current == 5 and old.hints == {5: 1} and old.predictions == {} and not old.notice
    path.write_text(json.dumps({"version": 1, "predictions": {
        "5": {"new-uids": {"choice": "group", "at": 1.5}, "x": {"choice": 3, "at": 1}, "y": {"choice": "a", "at": True}},
        "6": "nope", "99": {"q": {"choice": "a", "at": 1}}, "٣": {"q": {"choice": "a", "at": 1}}}}))
    p = Progress.load(path, 8)
    assert p.predictions == {5: {"new-uids": {"choice": "group", "at": 1.5}}} and not p.notice


def test_the_story_clock_is_the_tutors():
    s = state("walkthrough")
    st, _ = story_and_episode(s.store, "infer", RESTART)
    assert st.anchor is not None and abs(st.anchor - s.store.started_at) < 1.5
    assert replace(st, anchor=None).anchor is None  # a Story made without one (tests, old callers) still works
