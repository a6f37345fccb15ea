"""The gang lesson (lessons/gang) on recordings made on the lab with the real node: the walkthrough
passes every step, and each wrong turn fails the step it belongs to with a message that names the
fault, never the answer. The silent states no recording holds (a feature gate off in the API
server or in the scheduler) are made from recorded ones, one field changed."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
import yaml

from tests import waits
from tests.conftest import recording_path
from tests.states import check, event, file_written, recording, state
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent
from tutor.lesson.loader import lesson_dir, load

WALK = "lesson-gang"
STEPS = ["api", "clear-orphan", "podgroup", "all-or-nothing", "blocker", "make-room", "no-fit"]


def said(v) -> str:
    return " ".join((v.message, *v.details))


def run_check(name: str, *extra: str, lang: str = "en", tmp_path=None) -> tuple[int, dict]:
    env = {"XDG_STATE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", "--lesson", "gang", "--lang", lang,
                          "--replay", str(recording_path(name)), *extra], capture_output=True, text=True, env=env,
                         timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    return out.returncode, json.loads(out.stdout)


def test_the_lesson_is_installed_with_its_lab_and_kinds():
    lesson = load("gang")
    assert [s.id for s in lesson.steps] == STEPS
    assert "PodGroup" in [k.kind for k in lesson.kinds]
    raw = yaml.safe_load((lesson_dir("gang") / "lesson.yaml").read_text(encoding="utf-8"))
    assert raw["lab"]["feature_gates"] == ["GenericWorkload"]
    assert raw["lab"]["api_versions"] == ["scheduling.k8s.io/v1beta1"]
    assert recording(WALK).header.lesson == "gang"


def test_check_passes_every_step_of_the_walkthrough(tmp_path):
    code, report = run_check(WALK, tmp_path=tmp_path)
    assert code == 0, report
    assert [(s["id"], s["status"]) for s in report["steps"]] == [(i, "pass") for i in STEPS]


def test_at_the_walkthroughs_end_the_last_steps_pass_as_the_cluster_is():
    s = state(WALK)
    for n in (1, 2, 3, 6, 7):
        assert check(s, n).passed, (n, check(s, n))
    v = check(s, 7)
    assert "stays free" in said(v), v
    assert any("within" in d for d in check(s, 6).details), check(s, 6)


# name -> (the step that must fail, words of the fault its message names)
WRONG_TURNS = {
    "lesson-gang-no-podgroup": (4, "no PodGroup of that name"),
    "lesson-gang-min-count": (4, "only 2 name it"),
    "lesson-gang-name-typo": (4, "names the PodGroup orpahn-0, and namespace infer has no PodGroup of that name"),
    "lesson-gang-worker-only": (4, "leaderTemplate has no spec.schedulingGroup"),
}
# name -> the steps that pass at its end: paths to a right state other than the walkthrough's
OTHER_PATHS = {
    # step 2 by changing orphan's templates in place (after the PodGroup was made), not by deleting it
    "lesson-gang-orphan-kept": ["api", "clear-orphan", "podgroup", "all-or-nothing"],
}


@pytest.mark.parametrize("name", sorted(WRONG_TURNS))
def test_each_wrong_turn_fails_its_step_naming_the_fault(name, tmp_path):
    step, words = WRONG_TURNS[name]
    code, report = run_check(name, tmp_path=tmp_path)
    verdict = report["steps"][step - 1]
    assert code == 1 and verdict["status"] == "fail", verdict
    assert words in verdict["message"] + " ".join(verdict["details"]), verdict
    _, ko = run_check(name, lang="ko", tmp_path=tmp_path)
    assert ko["steps"][step - 1]["status"] == "fail" and ko["steps"][step - 1]["message"] != verdict["message"]


@pytest.mark.parametrize("name", sorted(OTHER_PATHS))
def test_another_path_to_a_right_state_passes_its_steps(name, tmp_path):
    _, report = run_check(name, tmp_path=tmp_path)
    assert [s["id"] for s in report["steps"] if s["status"] == "pass"] == OTHER_PATHS[name], report["steps"]


# --- step 2 judges the state reached, whichever way the learner went ----------------------------------

KEPT = "lesson-gang-orphan-kept"


def _verdicts(items, name: str, step: int = 2, lang: str = "en") -> list[tuple[Status, str]]:
    """A step's verdict (status, message) each time it changes, along a list of recorded items."""
    from tests.states import started_at
    from tutor.session import Session

    s = Session(load("gang"), "/root/gsb-gang", lang)
    s.store.started_at = started_at(name)
    out: list[tuple[Status, str]] = []
    for item in items:
        s.apply(item)
        v = check(s, step)
        if not out or out[-1] != (v.status, v.message):
            out.append((v.status, v.message))
    return out


def _podgroup_last(name: str) -> list:
    """The recording with its PodGroup made only at its end, after everything else: the other
    order of making the PodGroup and changing (or making again) orphan."""
    items = recording(name).items
    is_pg = [isinstance(it, ObjectEvent) and o.kind(it.obj) == "PodGroup" for it in items]
    rest = [it for it, pg in zip(items, is_pg) if not pg]
    end = rest[-1].t
    moved = []
    for it, pg in zip(items, is_pg):
        if pg:
            obj = copy.deepcopy(it.obj)
            obj["metadata"]["creationTimestamp"] = "2099-01-01T00:00:00Z"  # made after all the rest
            moved.append(ObjectEvent(it.type, obj, end))
    return rest + moved


def test_an_in_place_change_rolls_the_group_and_step_2_says_what_it_did():
    """Changing orphan's templates in place starts LWS's group rolling update: the old leader is
    deleted and waits out its grace period, its worker goes with it, and the group is made again
    from the new templates, its pods gang members (the recording: "Updating replica 0")."""
    rolling = state(KEPT, after=event("Pod", "orphan-0", where=o.is_terminating))
    v = check(rolling, 2)
    assert v.status is Status.WAITING and "rolls its group" in v.message, v
    assert "orphan-0" in v.message and "orphan-0-1" in v.message, v
    assert any("orphan-0 is Terminating" in d and "grace period (30 s)" in d for d in v.details), v
    worker_left = state(KEPT, after=event("Pod", "orphan-0", "DELETED"))
    v = check(worker_left, 2)
    assert v.status is Status.WAITING and "(orphan-0-1)" in v.message, v
    for lang, words in (("en", "changed in place"), ("ko", "그 자리에서 바꾸자")):
        v = check(state(KEPT, lang=lang), 2)
        assert v.passed and words in v.message, v
    v = check(state(KEPT), 2)
    assert "rolled its group" in v.message and "grace period" in v.message and "bound keeps" not in said(v), v
    assert all(o.scheduling_group(p) == "orphan-0" for p in state(KEPT).context().pods_of("orphan")), \
        "the recording's new pods are gang members"


def test_the_old_pods_in_no_gang_fail_step_2_before_the_learner_acts():
    s = state(KEPT, stop=event("LeaderWorkerSet", "orphan", "MODIFIED"))
    v = check(s, 2)
    assert v.status is Status.FAIL and "orphan-0, orphan-0-1" in v.message and "runs on lab-server" in v.message, v
    assert "Delete orphan" in v.details[0] and "schedulingGroup cannot be changed" in v.details[0], v


@pytest.mark.parametrize("name", [WALK, KEPT, "lesson-gang-no-podgroup"])
def test_step_2_is_the_same_whether_the_podgroup_came_first_or_last(name):
    """Deleted (the walkthrough, and no PodGroup at all) or changed in place: step 2's verdicts
    along the way and at the end are the same with the PodGroup made before orphan or after it."""
    first, last = _verdicts(recording(name).items, name), _verdicts(_podgroup_last(name), name)
    assert first == last
    assert last[-1][0] is Status.PASS, last


def test_a_deleted_orphans_worker_is_waited_for_not_failed():
    """Deleting orphan takes its leader at once (it waits out its grace period) and its worker only
    once the leader is gone: the worker StatefulSet belongs to the leader pod."""
    s = state(WALK, after=event("LeaderWorkerSet", "orphan", "DELETED"))
    v = check(s, 2)
    assert v.status is Status.WAITING and "orphan is deleted" in v.message and "once the leader is gone" in v.message, v
    statuses = [status for status, _ in _verdicts(recording(WALK).items, WALK)]
    assert statuses[statuses.index(Status.FAIL):] == [Status.FAIL, Status.FAIL, Status.WAITING, Status.PASS, Status.PASS], \
        _verdicts(recording(WALK).items, WALK)


def test_pods_left_by_a_cascade_orphan_delete_fail_step_2():
    s = state(WALK, stop=event("LeaderWorkerSet", "orphan", "DELETED"))
    _modify(s, "StatefulSet", "orphan", lambda sts: sts["metadata"].pop("ownerReferences", None))
    s.apply(ObjectEvent("DELETED", s.store.get("LeaderWorkerSet", "orphan", "infer"), s.store.now))
    v = check(s, 2)
    assert v.status is Status.FAIL and "orphan-0" in v.message and "--cascade=orphan" in v.details[0], v


def test_a_min_count_above_the_group_fails_step_3_by_the_rule_not_the_number():
    s = state("lesson-gang-min-count")
    v = check(s, 3)
    assert v.status is Status.FAIL and "more than the pods of one group" in v.message, v
    assert "minCount counts the pods of one group" in v.message


def test_a_blocker_file_naming_the_leader_points_at_the_other_reason():
    stop = file_written("blocker.txt", "orphan-0-1")
    for lang in ("en", "ko"):
        s = state(WALK, stop=stop, lang=lang, files={"blocker.txt": "orphan-0\n"})
        v = check(s, 5)
        assert v.status is Status.FAIL and "orphan-0" in v.message and "orphan-0-1" not in said(v), v
    s = state(WALK, stop=stop, files={"blocker.txt": "orphan-0-1\n"})
    v = check(s, 5)
    assert v.status is Status.FAIL and "2 parts" in v.message and "Insufficient" not in said(v), v


def test_a_gang_message_from_another_moment_fails_without_quoting_the_live_one():
    stop = file_written("blocker.txt")
    s = state(WALK, stop=stop, files={"gang.txt": "minCount (2) cannot be satisfied\n"})
    v = check(s, 4)
    assert v.status is Status.FAIL and "status.conditions" in said(v), v
    assert "remaining" not in said(v)


def _modify(s, kind: str, name: str, change) -> None:
    obj = copy.deepcopy(s.store.get(kind, name, "infer"))
    change(obj)
    obj["metadata"]["resourceVersion"] += "0"
    s.apply(ObjectEvent("MODIFIED", obj, s.store.now))


def test_pods_stripped_of_their_group_name_the_api_servers_gate():
    """With GenericWorkload off in the API server, pods are created without schedulingGroup
    although their templates have it (pkg/api/pod/util.go dropDisabledSchedulingGroup)."""
    s = state(WALK, stop=file_written("gang.txt"))
    for pod in ("orphan-0", "orphan-0-1"):
        _modify(s, "Pod", pod, lambda p: p["spec"].pop("schedulingGroup"))
    v = check(s, 4)
    assert v.status is Status.FAIL and "API server dropped the field" in v.message, v
    assert any("lwstutor doctor --lesson gang" in d for d in v.details)


def test_a_member_bound_alone_with_no_condition_names_the_schedulers_gate():
    s = state(WALK, stop=event("PodGroup", "orphan-0", where=lambda pg: bool(o.condition(pg, "PodGroupInitiallyScheduled"))))
    _modify(s, "Pod", "orphan-0", lambda p: p["spec"].update(nodeName="lab-server"))
    v = check(s, 4)
    assert v.status is Status.FAIL and "scheduler placed pods one by one" in v.message and "orphan-0" in v.message, v


def test_an_api_file_without_podgroups_points_at_doctor_and_the_flags():
    s = state(WALK, files={"api.txt": "NAME  SHORTNAMES  APIVERSION  NAMESPACED  KIND\n"})
    for lang, words in (("en", "does not serve scheduling.k8s.io/v1beta1"), ("ko", "제공하지 않으므로")):
        s.lang = lang
        v = check(s, 1)
        assert v.status is Status.FAIL and words in v.message, v
        assert "lwstutor doctor --lesson gang" in v.details[0]


def test_a_worker_of_big_bound_alone_fails_step_7():
    s = state(WALK)
    _modify(s, "Pod", "big-0-1", lambda p: p["spec"].update(nodeName="lab-server"))
    v = check(s, 7)
    assert v.status is Status.FAIL and "big-0-1" in v.message, v


def test_a_leader_bound_while_its_worker_waits_fails_step_4_saying_where_to_look():
    """The gang held (its condition False) but its leader bound: step 4's pass says neither pod is
    bound, so this is checked, not assumed."""
    stop = file_written("blocker.txt")
    for lang, words in (("en", ["Bound while the rest of the gang orphan-0 waits: orphan-0, on lab-server",
                                "Where to look: spec.nodeName and spec.schedulerName of orphan-0"]),
                        ("ko", ["갱 orphan-0의 나머지 파드가 기다리는데 orphan-0이 lab-server에 바인딩됐습니다",
                                "볼 곳: orphan-0의 spec.nodeName과 spec.schedulerName"])):
        s = state(WALK, stop=stop, lang=lang)
        assert check(s, 4).passed
        _modify(s, "Pod", "orphan-0", lambda p: p["spec"].update(nodeName="lab-server"))
        v = check(s, 4)
        assert v.status is Status.FAIL and words[0] in v.message and words[1] in v.details[0], v


@pytest.mark.parametrize("change,words", [
    (lambda d: d["spec"].update(replicas=2), ["spec.replicas is 2", "all 2 groups would name the one PodGroup orphan-0"]),
    (lambda d: d["spec"]["leaderWorkerTemplate"].update(size=3), ["leaderWorkerTemplate.size is 3",
                                                                  "a leader and one worker"]),
    (lambda d: d["spec"].update(restartPolicy=d["spec"]["leaderWorkerTemplate"].pop("restartPolicy")),
     ["restartPolicy must go under spec.leaderWorkerTemplate"]),
    (lambda d: d["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"]["containers"][0].update(
        resources=d["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0].pop("resources")),
     ["leaderTemplate has a nvidia.com/gpu limit of 1"]),
], ids=["replicas", "size", "restartPolicy-under-spec", "gpu-on-the-leader"])
def test_an_orphan_file_unlike_the_group_the_gang_is_made_for_fails_step_4(change, words):
    stop = file_written("blocker.txt")
    s = state(WALK, stop=stop)
    doc = yaml.safe_load(s.workspace.get("orphan.yaml").text)
    change(doc)
    s.apply(FileChanged("orphan.yaml", yaml.safe_dump(doc), s.store.now))
    v = check(s, 4)
    assert v.status is Status.FAIL and all(w in said(v) for w in words), v


def test_the_advice_to_see_the_gang_wait_again_makes_its_podgroup_anew():
    """PodGroupInitiallyScheduled never goes back from True (k8s.io/api scheduling/v1beta1, and the
    scheduler's updatePodGroupCondition): once the gang is placed, deleting orphan and scaling llm
    back leaves the PodGroup placed, and step 4 would wait forever. The advice deletes the PodGroup
    too, after orphan's pods, and makes both again."""
    for lang, words in (("en", ["delete orphan", "the PodGroup orphan-0 as well", "PodGroupInitiallyScheduled",
                                "never goes back from True", "scale llm back to 2 groups",
                                "apply orphan-pg.yaml and orphan.yaml again"]),
                        ("ko", ["orphan을 지우고", "PodGroup orphan-0도 지우세요", "다시 바뀌지 않습니다",
                                "llm을 다시 그룹 둘로", "orphan-pg.yaml과 orphan.yaml을 다시 적용하세요"])):
        s = state(WALK, lang=lang)
        for step in (4, 5):
            v = check(s, step)
            assert v.status is Status.UNCONFIRMED, (step, v)
            assert all(w in " ".join(v.details) for w in words), (step, v.details)
        text = " ".join(check(s, 4).details)
        assert text.index("orphan") < text.index("orphan-0") < text.index("llm"), text  # in the order that works


def test_big_placed_whole_is_told_to_make_its_podgroup_anew():
    s = state(WALK)
    for pod in ("big-0", "big-0-1", "big-0-2"):
        _modify(s, "Pod", pod, lambda p: p["spec"].update(nodeName="lab-server"))
    v = check(s, 7)
    assert v.status is Status.FAIL and "All 3 pods of big are bound" in v.message, v
    assert "the PodGroup big-0 too" in v.details[0] and "apply big.yaml again" in v.details[0], v


def test_a_files_podgroup_without_a_gang_policy_fails_step_3():
    s = state(WALK)
    s.apply(FileChanged("orphan-pg.yaml", "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n"
                        "metadata: {name: orphan-0, namespace: infer}\nspec: {schedulingPolicy: {basic: {}}}\n",
                        s.store.now))
    v = check(s, 3)
    assert v.status is Status.FAIL and "no gang policy" in v.message, v


def test_a_podgroup_made_without_a_gang_is_made_again_not_applied_over():
    """A PodGroup's policy cannot change once it is made (scheduling/v1beta1 PodGroupSchedulingPolicy):
    applying the right file over a basic one is refused, so step 3 says to delete it first; a wrong
    minCount, which can change, is fixed by applying the file again."""
    s = state(WALK)
    _modify(s, "PodGroup", "orphan-0", lambda pg: pg["spec"].update(schedulingPolicy={"basic": {}}))
    v = check(s, 3)
    assert v.status is Status.FAIL and "delete the PodGroup orphan-0, then apply" in v.message, v
    assert any("no gang policy" in d for d in v.details), v
    s = state(WALK)
    _modify(s, "PodGroup", "orphan-0", lambda pg: pg["spec"]["schedulingPolicy"]["gang"].update(minCount=3))
    v = check(s, 3)
    assert v.status is Status.FAIL and "apply the file again" in v.message and "delete" not in v.message, v


# --- what each checker declares it reads (READS) is all it reads ------------------------------------

GANG_RECORDINGS = [WALK, *sorted(WRONG_TURNS), *sorted(OTHER_PATHS)]


@pytest.mark.parametrize("name", GANG_RECORDINGS)
def test_gang_verdicts_equal_a_full_run_after_every_item(name):
    """An incremental session (a checker re-runs only when what it declares it reads changed)
    gives the very verdicts of one that runs every checker on every item."""
    from tests.states import started_at
    from tests.test_incremental_checks import FullSession
    from tutor.session import Session

    sessions = []
    for cls in (Session, FullSession):
        s = cls(load("gang"), "/root/gsb-gang", "en")
        s.store.started_at = started_at(name)
        sessions.append(s)
    inc, full = sessions
    mismatches = []
    for i, item in enumerate(recording(name).items):
        inc.apply(item)
        full.apply(item)
        inc.evaluate()
        full.evaluate()
        mismatches += [f"item {i} step {n}: {inc.verdicts[n].message!r} != {full.verdicts[n].message!r}"
                       for n in full.verdicts if inc.verdicts[n] != full.verdicts[n]]
    assert mismatches == [], "\n".join(mismatches[:5])


# --- predict, then see --------------------------------------------------------------------------------

def _seen(step_no: int, question: str, **kw):
    from tutor.checks.prediction import story_and_episode

    s = state(WALK, **kw)
    step = s.lesson.step(step_no)
    st, episode = story_and_episode(s.store, "infer", step)
    assert episode is not None
    q = next(q for q in step.predict if q.id == question)
    return getattr(step.checks(), q.grade)(episode, st), episode


def test_the_gangs_binds_came_in_one_go():
    got, episode = _seen(6, "first-bound")
    assert got.choice == "together", got
    assert sorted(p for line in got.lines for p in line.pods) == ["orphan-0", "orphan-0-1"]
    assert episode.lines[-1].kind == "gang-placed" and episode.lines[-1].what.as_dict()["spread"] < 1.0


def test_big_took_no_gpu_while_it_waited():
    got, episode = _seen(7, "free-gpu")
    assert got.choice == "no" and "stayed free" in got.said[0], got
    assert [line.kind for line in episode.lines] == ["gang-held"]


def test_a_leader_first_prediction_is_graded_wrong_with_its_why():
    from tutor.checks.prediction import graded, markdown

    s = state(WALK)
    step = s.lesson.step(6)
    made = 0.0  # long before the gang was placed
    grades = graded(step, s.store, "infer", {"first-bound": {"choice": "leader", "at": made}})
    assert grades and grades[0].right is False, grades
    for lang, words in (("en", "Permit stage"), ("ko", "Permit 단계")):
        assert words in markdown(grades, lang)


@pytest.mark.parametrize("stop", [None, file_written("blocker.txt")], ids=["end", "before-room-was-made"])
def test_the_leader_waited_with_its_worker(stop):
    """Step 4's question: the leader, which needs no GPU, got no node while its worker had none;
    the gang's later binds (step 6, together) do not make it a leader that ran alone."""
    got, episode = _seen(4, "leader-alone", **({"stop": stop} if stop else {}))
    assert got.choice == "waits", got
    assert got.lines == episode.lines and [line.kind for line in got.lines] == ["gang-held"]


def test_a_leader_bound_without_its_worker_ran_alone():
    from tutor.cluster.story import Episode, Fields, Line, Story

    def bound(at: float, pod: str) -> Line:
        return Line(at, 0, "gang-bound", Fields.of(pod=pod, node="lab-server"), pods=(pod,))

    held = Episode("orphan", "gang-held", 0, Fields(), (Line(10.0, 0, "gang-held", Fields()),))
    def placed(*binds: Line) -> Story:
        return Story((held, Episode("orphan", "gang-placed", 0, Fields(), binds)))

    grade = load("gang").step(4).checks().predict_leader_alone
    got = grade(held, placed(bound(5.0, "orphan-0")))
    assert got.choice == "runs" and got.lines[0].pods == ("orphan-0",) and "lab-server" in got.said[0], got
    assert grade(held, placed(bound(5.0, "orphan-0"), bound(40.0, "orphan-0-1"))).choice == "runs"
    assert grade(held, placed(bound(40.0, "orphan-0"), bound(40.001, "orphan-0-1"))).choice == "waits"


@pytest.mark.parametrize("name", ["lesson-gang-no-podgroup", "lesson-gang-min-count", "lesson-gang-name-typo",
                                  "lesson-gang-worker-only"])
def test_a_gang_the_scheduler_never_tried_leaves_step_4s_question_open(name):
    """No PodGroup, too high a minCount, a misspelt name, a leader left out: the scheduler never
    tries the gang, so there is no held episode to grade the question by."""
    from tutor.checks.prediction import open_questions, story_and_episode

    s = state(name)
    step = s.lesson.step(4)
    assert story_and_episode(s.store, "infer", step)[1] is None
    assert [q.id for q in open_questions(step, s.store, "infer", {})] == ["leader-alone"]


def test_step_4s_graded_answers_read_right_in_both_languages():
    from tests.test_korean import problems
    from tutor.checks.prediction import graded, markdown

    s = state(WALK)
    step = s.lesson.step(4)
    for choice, right in (("runs", False), ("kept", False), ("waits", True)):
        (g,) = graded(step, s.store, "infer", {"leader-alone": {"choice": choice, "at": 0.0}})
        assert g.right is right, (choice, g)
        ko = markdown([g], "ko")
        assert not problems(ko), problems(ko)
        if not right:
            assert step.predict[0].choice(choice).why_not("en") in markdown([g], "en")
