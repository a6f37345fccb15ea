"""The story told from recordings of the lab control plane: the order of what happened and each
cause line against the evidence the recording holds, and no cause where that evidence is gone."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

from tests import waits
from tests.conftest import RECORDINGS, WALKTHROUGH
from tests.states import check, file_written, late, new_leader_running, not_yet_deleted, recording, state
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent, Relisted
from tutor.cluster.story import MAX_EPISODES, Story, story
from tutor.cluster.timeline import Kind, occurrences, parse_time, timeline
from tutor.narration import because, brief, what

W = "walkthrough"


def story_of(session):
    return story(session.store, "infer")


def kinds(episode):
    return [line.kind for line in episode.lines]


def the_recreation(session):
    eps = [e for e in story_of(session).of("llm", "failure", 0) if "recreate-group" in kinds(e)]
    assert len(eps) == 1
    return eps[0]


def line(episode, kind, text=""):
    found = [x for x in episode.lines if x.kind == kind and text in what(x, "en")]
    assert found, (kind, text, [what(x, "en") for x in episode.lines])
    return found[0]


def test_group_0_is_told_in_order_with_its_causes():
    for name in (W, "restart-after-failure"):
        s = state(name)
        tl = timeline(s.store, "infer")
        ep = the_recreation(s)
        old0, new0 = tl.uids("llm-0")[0], tl.uids("llm-0")[1]
        restart, recreate = line(ep, "restarted", "llm-0-1 container exited 1"), line(ep, "recreate-group")
        new_leader = line(ep, "new-uid", f"llm-0 new UID {new0.uid[:8]}")
        new_worker = line(ep, "new-uid", "llm-0-1 new UID")
        back = line(ep, "running-again")
        # the RecreateGroup event precedes the new leader's creation, the failure precedes both
        assert restart.at <= recreate.at < new_leader.at <= new_worker.at <= back.at
        assert ep.lines == tuple(sorted(ep.lines, key=lambda x: x.at))
        # the event names the worker whose restart the tutor saw, and the leader UID it deleted
        assert because(recreate, "en").startswith("llm-0-1 failed: its restart")
        assert old0.uid[:8] in what(recreate, "en")
        gc = line(ep, "garbage-collected", "worker StatefulSet llm-0 and llm-0-1")
        assert because(gc, "en") == f"owner: leader llm-0 {old0.uid[:8]}, deleted"
        assert because(new_leader, "en") == "owner: StatefulSet llm"
        assert because(new_worker, "en") == f"owner: new worker StatefulSet llm-0 of leader {new0.uid[:8]}"
        assert what(back, "en").startswith("group 0 Running again after ")
        assert not story_of(s).of("llm", "failure", 1)  # nothing happened to group 1 outside the rollout


def test_a_new_pod_the_watch_brought_late_is_still_told_running_again():
    """On a busy machine the watch can bring a new pod more than a second after its
    creationTimestamp. The tutor still saw it before it was Running, so "Running again" is told;
    only its birth falls back to the cluster's whole second."""
    s = state(W, stop=file_written("lws.yaml", "VERSION"))
    assert line(the_recreation(s), "new-uid", "llm-0-1 new UID").precise
    new_worker = s.store.obs.uid_history("llm-0-1")[-1]
    assert new_worker.running_t > new_worker.first_t  # first seen before Running
    new_worker.first_t += 1.5  # every sighting of it a second and a half later
    new_worker.running_t += 1.5
    s.store.version += 1
    ep = the_recreation(s)
    assert not line(ep, "new-uid", "llm-0-1 new UID").precise  # not sighted: its whole second
    assert kinds(ep)[-1] == "running-again"
    # Already Running when first seen (the tutor was not watching then): nothing to tell.
    new_worker.first_t = new_worker.running_t
    s.store.version += 1
    assert "running-again" not in kinds(the_recreation(s))


def test_garbage_collection_is_drawn_from_owner_references_only():
    s = state(W, stop=file_written("lws.yaml", "VERSION"))
    ep = the_recreation(s)
    gc = line(ep, "garbage-collected")
    leader_uid = next(x.uid for x in timeline(s.store, "infer").recreations("llm", 0))
    owned = [sts for sts in s.store.obs.statefulsets.values() if sts.owner[2] == leader_uid]
    assert len(owned) == 1 and owned[0].gone_t is not None and owned[0].name in what(gc, "en")
    for pod in ("llm-0-1",):  # the worker pod it names was that StatefulSet's
        assert any(u.owner[2] == owned[0].uid and u.gone_t is not None for u in s.store.obs.uid_history(pod))
    # without the owner references, the same removals are told without a cause, or not at all
    bare = state(W, stop=file_written("lws.yaml", "VERSION"))
    bare.store.obs.statefulsets.clear()
    for hist in bare.store.obs.uids.values():
        for u in hist:
            u.owner = ()
    bare.store.version += 1
    ep = the_recreation(bare)
    assert "garbage-collected" not in kinds(ep)
    assert all(x.cause is None for x in ep.lines if x.kind == "new-uid")
    assert because(line(ep, "recreate-group"), "en").startswith("llm-0-1 failed")  # the event still says it


def test_a_late_start_draws_no_link_it_has_no_evidence_for():
    """Started after step 6: the old pods and StatefulSets are gone and no restart was watched.
    The kubelet's own events about the old worker (Created and Started, each counted twice) are
    still listed: the restart is told once, from them, and is the recreation's cause."""
    s = late(state(W, stop=file_written("wide.yaml")))
    ep = the_recreation(s)
    assert kinds(ep)[:2] == ["restarted", "recreate-group"], kinds(ep)
    restart = line(ep, "restarted", "llm-0-1 container restarting (Started event)")
    assert restart.cause is None and kinds(ep).count("restarted") == 1
    assert because(line(ep, "recreate-group"), "en").startswith("llm-0-1 failed: its restart")
    # Without the kubelet's events (a KWOK node has none), the event's own words are all there is.
    then = state(W, stop=file_written("wide.yaml"))
    bare = late(then, events_expired=True)
    bare.apply(Relisted("Event", [ev for ev in then.store.all("Event", "infer")
                                  if o.event_reason(ev) not in ("Created", "Started")], 0.0))
    ep = the_recreation(bare)
    assert kinds(ep)[0] == "recreate-group" and "restarted" not in kinds(ep)
    assert because(line(ep, "recreate-group"), "en") == "the event says worker llm-0-1 failed"
    assert "garbage-collected" not in kinds(ep) and "running-again" not in kinds(ep)
    for x in ep.lines:
        if x.kind == "new-uid":
            assert x.cause is None
    rollout = story_of(s).of("llm", "rollout")[-1]
    groups = [x.group for x in rollout.lines if x.kind == "group-replaced"]
    assert groups == [1, 0]
    assert "running-again" not in kinds(rollout)  # the tutor did not see those pods start


def test_the_rollout_replaces_group_1_before_group_0():
    for name in (W, "version-worker-only"):
        s = state(name)
        tl = timeline(s.store, "infer")
        ep = story_of(s).of("llm", "rollout")[-1]
        replaced = [x for x in ep.lines if x.kind == "group-replaced"]
        assert [x.group for x in replaced] == [1, 0]
        assert what(replaced[0], "en") == "group 1 replaced first (highest index)"
        assert what(replaced[1], "en") == "group 0 next"
        # LWS's own events say it: "Updating replica 1" before "Updating replica 0"
        updating = tl.of("llm", kinds=(Kind.GROUPS_UPDATING,))
        assert [f.group for f in updating if f.group is not None] == [1, 0]
        assert because(replaced[0], "en") == "GroupsUpdating event: Updating replica 1"
        # every new UID of the rollout is of the new revision, group 1's before group 0's
        new = [x for x in ep.lines if x.kind == "new-uid"]
        assert len(new) == 4 and all("revision" in what(x, "en") for x in new)
        assert max(x.at for x in new if x.group == 1) < min(x.at for x in new if x.group == 0)
        first = line(ep, "revision")
        assert first is ep.lines[0] and "64479854 →" in what(first, "en")
        assert what(line(ep, "rollout-done"), "en").startswith("updatedReplicas 2, Available")
        assert not any(x.odd and x.kind == "recreate-group" for x in ep.lines)  # none in these recordings


def test_a_new_leader_beside_an_old_worker_is_shown_as_an_oddity():
    """On the real node the old worker's container runs through its grace period, Terminating,
    while the new leader starts: the detector sees it, group 1 then group 0, for about 30 s each.
    The moment the KWOK lab recorded (the old worker still Running) is made from it (states.py)."""
    real = state(W).store.obs.mixed
    assert [(m.group, m.terminating) for m in real] == [(1, ("llm-1-1",)), (0, ("llm-0-1",))]
    assert all(m.until is not None and 25 < m.until - m.t < 35 for m in real)
    assert [x.group for x in story_of(state(W)).of("llm", "rollout")[-1].lines if x.kind == "mixed-revisions"] == [1, 0]
    s = state(W, after=new_leader_running(1), hooks=((new_leader_running(1), not_yet_deleted("llm-1-1")),))
    ep = story_of(s).of("llm", "rollout")[-1]
    mixed = [x for x in ep.lines if x.kind == "mixed-revisions"]
    assert [x.group for x in mixed] == [m.group for m in s.store.obs.mixed]  # one per moment the store saw
    assert all(x.odd and x.cause is None for x in mixed)
    first = s.store.obs.mixed[0]
    assert what(mixed[0], "en").startswith(f"⚠ new llm-{first.group} (557f644b) Running beside old "
                                          f"llm-{first.group}-1 (64479854")
    # on the real node the old worker ran through its grace period, and the line says so and how long
    told = [what(x, "en") for x in story_of(state(W)).of("llm", "rollout")[-1].lines if x.kind == "mixed-revisions"]
    assert all("(64479854 Terminating) for 3" in t and t.endswith(" s") for t in told), told


def test_a_recreate_group_inside_the_rollout_is_not_a_failure():
    """Recorded: LWS logged RecreateGroup for group 1 while the rollout replaced it (the tutor
    started after the rollout, so only the cluster's records tell it)."""
    s = state("late-after-rollout-recreated-group1")
    st = story_of(s)
    rollout = st.of("llm", "rollout")
    assert len(rollout) == 1
    odd = [x for x in rollout[0].lines if x.kind == "recreate-group"]
    assert len(odd) == 1 and odd[0].odd and odd[0].group == 1 and what(odd[0], "en").startswith("⚠ ")
    assert because(odd[0], "en") == "nothing in group 1 restarted: part of the rollout, not a failure"
    assert not st.of("llm", "failure", 1)
    # a FailedScheduling of an earlier LWS called llm, before this one was created, is not told
    born = parse_time(s.store.get("LeaderWorkerSet", "llm", "infer")["metadata"]["creationTimestamp"])[0]
    earlier = [e for e in s.store.events_for("infer") if o.event_reason(e) == "FailedScheduling"
               and occurrences(e)[-1][0] < born]
    assert earlier  # the recording has one
    assert all(e.start >= born for e in st.of("llm", "scheduling"))


def test_a_rollout_the_tutor_joined_midway_is_one_rollout_in_order():
    """LWS reported all groups ready between group 1 and group 0: still one rollout."""
    st = story_of(state("late-mid-rollout"))
    rollouts = st.of("llm", "rollout")
    assert len(rollouts) == 1
    ep = rollouts[0]
    assert [x.group for x in ep.lines if x.kind == "group-replaced"] == [1, 0]
    assert ep.lines[0].kind == "revision" and kinds(ep)[-1] == "rollout-done"


def test_the_story_names_the_pod_that_really_failed():
    """The leader failed (leader-failed): its restart, then LWS's RecreateGroup, whose cause is
    the leader's restart, not a worker's; the walkthrough's is llm-0-1's."""
    s = state("leader-failed")
    ep = the_recreation(s)
    assert ep.failed == "llm-0" and kinds(ep)[:2] == ["restarted", "recreate-group"]
    assert what(line(ep, "restarted"), "en").startswith("llm-0 container exited 1")
    assert because(line(ep, "recreate-group"), "en").startswith("the leader llm-0 failed: its restart")
    assert because(line(ep, "recreate-group"), "ko").startswith("리더 llm-0 실패")
    assert the_recreation(state(W, stop=file_written("lws.yaml", "VERSION"))).failed == "llm-0-1"
    # told late, with only LWS's event left: its words name the leader, as what it is
    then = late(s, events_expired=True)
    then.apply(Relisted("Event", [ev for ev in s.store.all("Event", "infer")
                                  if o.event_reason(ev) not in ("Created", "Started")], 0.0))
    ep = the_recreation(then)
    assert ep.failed == "llm-0" and "restarted" not in kinds(ep)
    assert because(line(ep, "recreate-group"), "en") == "the event says the leader llm-0 failed (LWS calls it a worker)"


def test_step_5s_recap_is_the_recreation_after_llm01_failed():
    """The step fails llm-0-1: a later recreation after another pod failed is not its recap."""
    worker = the_recreation(state(W, stop=file_written("lws.yaml", "VERSION")))
    leader = the_recreation(state("leader-failed"))
    assert leader.start > worker.start
    assert Story((worker, leader)).step_episode("llm", "recreation", 0, failed="llm-0-1") is worker
    assert Story((leader,)).step_episode("llm", "recreation", 0, failed="llm-0-1") is leader  # with no other, it is what happened


def test_each_failed_group_has_its_own_story_and_step_5_tells_group_0():
    for name in ("both-workers-failed", "group1-failed-after-step5"):
        st = story_of(state(name))
        for g in (0, 1):
            eps = st.of("llm", "failure", g)
            assert len(eps) == 1, (name, g)
            order = kinds(eps[0])
            assert order[:2] == ["restarted", "recreate-group"] and order[-1] == "running-again"
            assert all(x.group == g for x in eps[0].lines)
        assert st.step_episode("llm", "recreation", 0).group == 0


def test_failed_scheduling_says_where_to_look():
    s = state(W)
    ep = story_of(s).of("orphan", "scheduling")
    assert len(ep) == 1 and ep[0].group == 0
    only = ep[0].lines[0]
    assert what(only, "en").startswith("orphan-0-1 FailedScheduling")
    assert "node ledger" in because(only, "en") and "노드" in because(only, "ko")


def test_step_5_and_6_verdicts_carry_their_part_of_the_story():
    s = state(W, stop=file_written("lws.yaml", "VERSION"))
    v = check(s, 5)
    assert v.passed and v.timeline
    entries = [dict(e) for e in v.timeline]
    assert [e["kind"] for e in entries][:2] == ["restarted", "recreate-group"]
    assert all(e["group"] == 0 for e in entries)
    told = brief(story_of(s).step_episode("llm", "recreation", 0), "en")
    assert v.details[-len(told):] == tuple(told)
    assert any("Running again after" in d for d in v.details)
    ko = check(state(W, lang="ko"), 6)
    assert ko.passed and any("그룹 1 먼저 교체" in d for d in ko.details)
    order = [d for d in ko.details if "그룹 1 먼저" in d or "다음은 그룹 0" in d]
    assert len(order) == 2 and "그룹 1" in order[0]
    # not passed: entries for a grader, no recap lines in the details
    before = check(state(W, stop=file_written("restart.txt")), 5)
    assert not before.passed and before.timeline == () and not any("+0.00s" in d for d in before.details)
    assert check(s, 4).timeline is None and "timeline" not in check(s, 4).to_json()


def test_check_json_has_timeline_entries_on_steps_5_and_6():
    res = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", "--step", "5", "--step", "6",
                          "--replay", str(WALKTHROUGH), "--lang", "en"],
                         capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    steps = {s["step"]: s for s in json.loads(res.stdout)["steps"]}
    five, six = steps[5]["timeline"], steps[6]["timeline"]
    assert set(five[0]) == {"time", "offset", "lws", "group", "kind", "what", "cause"}
    assert [e["kind"] for e in five].index("recreate-group") < [e["kind"] for e in five].index("new-uid")
    assert five[1]["time"].endswith("Z") and five[0]["offset"] == 0
    assert [e["group"] for e in six if e["kind"] == "group-replaced"] == [1, 0]
    assert all(e["cause"] is None or isinstance(e["cause"], str) for e in five + six)
    # a wrong turn without a failure has nothing to tell for step 5
    res = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", "--step", "5", "--replay",
                          str(RECORDINGS / "names-swapped.jsonl")],
                         capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    assert json.loads(res.stdout)["steps"][0]["timeline"] == []


def test_the_story_is_cached_per_store_version_and_bounded():
    s = state(W)
    st = story_of(s)
    assert st is story_of(s)
    assert all(len(st.of(lws)) <= MAX_EPISODES for lws in st.lws_names())
    # the newest LWS at the bottom: orphan's pod was the last thing to happen
    assert st.episodes[-1].lws == "orphan"
    item = next(it for it in recording(W).items if isinstance(it, ObjectEvent))
    moved = copy.deepcopy(item.obj)
    moved["metadata"]["resourceVersion"] = "999999"
    s.apply(ObjectEvent("MODIFIED", moved, s.store.now))
    assert story_of(s) is not st


def test_statefulsets_seen_are_bounded(monkeypatch):
    from tutor.cluster import observations as observations_module

    full = state(W)
    monkeypatch.setattr(observations_module, "MAX_STATEFULSETS", 3)
    s = state(W)
    kept = list(s.store.obs.statefulsets)
    assert len(kept) == 3 and kept == list(full.store.obs.statefulsets)[-3:]  # the newest
    # the worker StatefulSets of group 0's recreation are gone from the record: no GC line drawn
    assert "garbage-collected" not in kinds(the_recreation(s))


def test_a_broken_story_never_changes_a_verdict(monkeypatch):
    from tutor.cluster import story as story_module

    s = state(W)
    good = check(s, 6)
    monkeypatch.setattr(story_module, "_story_of_cached", lambda store, key: 1 / 0)  # a step's recap
    s.store.version += 1  # past the cache
    v = check(s, 6)
    assert v.status is good.status and v.message == good.message and v.timeline == ()
    assert v.details[-1] == "(the timeline could not be told: ZeroDivisionError: division by zero)"


def test_one_lws_story_is_that_lws_part_of_the_whole_story():
    """story_of (a step's recap) and timeline_of (steps 4 to 6) build one LWS's episodes and facts
    alone, from its own evidence; after every item of every recording they are exactly the whole
    story's episodes and the whole timeline's facts of that LWS, on the same clock."""
    from tests.states import started_at
    from tutor.cluster.story import story_of as one
    from tutor.cluster.timeline import timeline, timeline_of
    from tutor.lesson.loader import load
    from tutor.session import Session

    compared = 0
    for name in ["walkthrough"] + sorted(p.stem for p in RECORDINGS.glob("*.jsonl")):
        s = Session(load(), "/root/gsb-lws", "en")
        s.store.started_at = started_at(name)
        for item in recording(name).items:
            if not s.apply(item):
                continue
            whole = story(s.store, "infer")
            whole_tl = timeline(s.store, "infer")
            for lws in set(whole.lws_names()) | whole_tl.lws_names | {"llm"}:
                assert one(s.store, "infer", lws).episodes == tuple(whole.of(lws)), (name, lws)
                mine = timeline_of(s.store, "infer", lws)
                assert mine.facts == tuple(f for f in whole_tl.facts if f.lws == lws), (name, lws)
                assert mine.anchor == whole_tl.anchor and mine.rollouts(lws) == whole_tl.rollouts(lws)
                compared += 1
    assert compared > 1000
