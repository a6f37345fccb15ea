"""The timeline rules on states recorded from the lab control plane: evidence in time order,
recreations during a rollout told apart from failures, and the same answers when the tutor
starts late and only the cluster's own records are left."""

from __future__ import annotations

import copy
import time

from tests.states import event, file_written, late, recording, started_at, state
from tutor.cluster import objects as o
from tutor.cluster.store import Store
from tutor.cluster.source_events import ObjectEvent
from tutor.cluster.timeline import MAX_FACTS, Kind, anchor_of, occurrences, parse_time, timeline, timeline_of
from tutor.narration import timeline_lines

W = "walkthrough"


def tl_of(session):
    return timeline(session.store, "infer")


def test_facts_are_in_time_order_and_name_their_group():
    tl = tl_of(state(W))
    for a, b in zip(tl.facts, tl.facts[1:]):  # a time known to the second only lies in that second
        assert a.at <= b.at or (not (a.precise and b.precise) and int(a.at) == int(b.at)), (a, b)
    rec = tl.recreations("llm", 0)
    assert len(rec) == 1 and rec[0].pod == "llm-0-1" and rec[0].source == "event" and rec[0].precise
    assert rec[0].uid == tl.uids("llm-0")[0].uid  # the related leader pod: the UID LWS deleted
    assert tl.recreations("llm", 1) == []


def test_the_anchor_relates_the_store_clock_to_wall_clock():
    s = state(W)
    start = started_at(W)
    anchor = anchor_of(s.store)
    # started_at has whole seconds; the pods seen being created sharpen it, never below it
    assert start <= anchor < start + 1.0
    bare = state(W)
    bare.store.started_at = None  # a source that did not say when it started
    assert abs(anchor_of(bare.store) - anchor) < 1.0


def test_the_rollout_is_one_window_after_the_recreation_of_group_0():
    tl = tl_of(state(W))
    windows = tl.rollouts("llm")
    assert len(windows) == 1 and windows[0].end is not None
    rec0 = tl.recreations("llm", 0)[0]
    assert rec0.at < windows[0].start and not tl.in_rollout(rec0)
    # every UID change of group 1 is the rollout's: group 1 saw no failure
    assert tl.failures("llm", 1) == []
    replaced = [f for f in tl.uids("llm-1") if f.detail]
    assert replaced and all(tl.in_rollout(f) for f in replaced)


def test_group_0_failures_in_order():
    kinds = [f.kind for f in tl_of(state(W)).failures("llm", 0)]
    assert kinds.index(Kind.RESTARTED) < kinds.index(Kind.GROUP_RECREATED)
    assert Kind.POD_CREATED in kinds  # the new UIDs of group 0 replace the old ones


def test_uids_replace_each_other_in_order():
    chain = tl_of(state(W)).uids("llm-0")
    assert len(chain) == 3 and chain[0].detail == ""
    assert [f.detail for f in chain[1:]] == [f.uid for f in chain[:-1]]


def test_a_late_start_reads_the_same_story_from_events():
    """Started after step 6: no history, only the cluster's events and live objects."""
    full = state(W, stop=file_written("wide.yaml"))
    started_late = late(full)
    tl = tl_of(started_late)
    rec0 = tl.recreations("llm", 0)
    assert len(rec0) == 1 and not tl.in_rollout(rec0[0])
    assert rec0[0].uid == tl_of(full).uids("llm-0")[0].uid
    assert tl.failures("llm", 1) == []
    # llm-1's UIDs come from the scheduler's events: the one before the rollout is known
    before = tl_of(full).uids("llm-1")[0].uid
    assert before in [f.uid for f in tl.uids("llm-1")]
    assert started_late.store.obs.uid_owner[before.lower()] == "llm-1"
    assert len(tl.rollouts("llm")) == 1


def test_restarts_seen_at_start_come_from_the_pod():
    """Between the failure and LWS's recreation, restartCount and lastState say it."""
    s = state(W, after=event("Pod", "llm-0-1", "MODIFIED",
                             lambda p: o.restart_count(p) == 1))
    tl = tl_of(late(s))
    restarts = tl.of("llm", 0, (Kind.RESTARTED,))
    assert len(restarts) == 1 and restarts[0].source == "object" and "exit 1" in restarts[0].detail


def test_occurrences_of_series_and_aggregated_events():
    ev = {"eventTime": "2026-11-29T14:20:18.397696Z",
          "series": {"count": 2, "lastObservedTime": "2026-11-29T14:20:18.463473Z"}}
    assert [p for _, p in occurrences(ev)] == [True, True] and len(occurrences(ev)) == 2
    core = {"firstTimestamp": "2026-11-29T14:20:10Z", "lastTimestamp": "2026-11-29T14:20:15Z", "count": 3}
    assert [t for t, _ in occurrences(core)] == [parse_time(core["firstTimestamp"])[0],
                                                parse_time(core["lastTimestamp"])[0]]
    assert occurrences({"message": "no time at all"}) == []
    assert parse_time("not a time") is None and parse_time("2026-11-29T14:20:10") is None  # no zone


def test_lines_mark_the_rollout_and_speak_korean():
    tl = tl_of(state(W))
    en = timeline_lines(tl, "en", "llm", limit=100)
    assert any("LWS recreated group 0" in line and "[rollout]" not in line for line in en)
    assert any("[rollout]" in line and "llm-1 is" in line for line in en)
    assert any("그룹 0" in line for line in timeline_lines(tl, "ko", "llm", limit=100))
    assert len(timeline_lines(tl, "en", "llm", limit=5)) == 5


def test_the_timeline_is_bounded_and_cached():
    s = state(W)
    tl = tl_of(s)
    assert tl is tl_of(s) and len(tl.facts) <= MAX_FACTS
    assert timeline(Store(), "infer").facts == ()
    assert recording(W).header.started_at  # the recordings carry the start the anchor uses


def test_facts_as_json_for_a_narrator():
    import json
    tl = tl_of(state(W))
    facts = tl.to_json("llm", 1)
    assert json.loads(json.dumps(facts)) == facts
    assert {f["kind"] for f in facts} >= {"pod-created", "pod-deleting"} and all(f["group"] == 1 for f in facts)
    assert any(f["rollout"] for f in facts) and facts[0]["at"].endswith("+00:00")


def test_a_partition_move_on_the_first_revision_is_no_rollout():
    """LWS emits GroupsUpdating "Updating replicas 1 to -1 (inclusive)" on the revision it was
    created with (seen in late-mid-rollout). Such an event next to a failure must not hide it."""
    from tutor.cluster.source_events import ObjectEvent

    s = state(W, after=event("Pod", "llm-0-1", "MODIFIED", lambda p: o.restart_count(p) == 1))
    tl = tl_of(s)
    restart = tl.of("llm", 0, (Kind.RESTARTED,))[-1]
    initial = tl.of("llm", kinds=(Kind.REVISION_CREATED,))[0]
    assert initial.detail == "initial"
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(restart.at + 0.2)) + ".000000Z"
    lws = s.store.get("LeaderWorkerSet", "llm", "infer")
    s.apply(ObjectEvent("ADDED", {
        "kind": "Event", "apiVersion": "events.k8s.io/v1",
        "metadata": {"name": "llm.partition", "namespace": "infer", "uid": "e-partition", "resourceVersion": "1"},
        "eventTime": stamp, "reason": "GroupsUpdating", "note": "Updating replicas 1 to -1 (inclusive)",
        "regarding": {"kind": "LeaderWorkerSet", "name": "llm", "namespace": "infer", "uid": o.uid(lws)},
        "related": {"kind": "ControllerRevision", "name": f"llm-{initial.revision}-1", "namespace": "infer"},
        "type": "Normal", "action": "Update"}, s.store.now))
    tl = tl_of(s)
    assert tl.of("llm", kinds=(Kind.GROUPS_UPDATING,))[-1].revision == initial.revision
    assert tl.rollouts("llm") == []
    assert any(f.kind is Kind.RESTARTED for f in tl.failures("llm", 0))


def test_one_lws_timeline_is_kept_while_only_other_lws_change():
    """What steps 4 to 6 read is rebuilt when llm's evidence changes, never for another LWS's
    pods or Events (a busy LWS beside llm); a pod named after llm counts, labelled or not."""
    s = state(W)
    ns, mine = "infer", timeline_of(s.store, "infer", "llm")
    assert mine is timeline_of(s.store, ns, "llm")
    orphan = next(p for p in s.store.all("Pod", ns) if o.lws_name(p) == "orphan")
    moved = copy.deepcopy(orphan)
    moved["metadata"]["resourceVersion"] = "999999"
    moved["metadata"]["labels"]["app"] = "moved"
    assert s.apply(ObjectEvent("MODIFIED", moved, s.store.now + 1))
    about_orphan = copy.deepcopy(next(e for e in s.store.events_for(ns)
                                      if o.event_regarding(e).get("name") == o.name(orphan)))
    about_orphan["metadata"]["uid"], about_orphan["metadata"]["name"] = "e-new", "orphan-event-new"
    assert s.apply(ObjectEvent("ADDED", about_orphan, s.store.now + 1))
    assert timeline_of(s.store, ns, "llm") is mine
    stray = copy.deepcopy(orphan)  # a pod named like llm's, without its labels
    stray["metadata"].update(name="llm-7", uid="u-stray", labels={}, resourceVersion="1000000")
    assert s.apply(ObjectEvent("ADDED", stray, s.store.now + 1))
    rebuilt = timeline_of(s.store, ns, "llm")
    assert rebuilt is not mine and [f.uid for f in rebuilt.uids("llm-7")] == ["u-stray"]


def test_a_time_known_to_the_second_comes_after_its_cause_in_that_second_and_says_so():
    """The RecreateGroup event is timed to the microsecond (42.4); the deletion it asked for is an
    object's timestamp, known to the second (42): it is told after its cause, marked ≈."""
    tl = tl_of(state(W))
    facts = tl.of("llm", 0)
    recreated = next(i for i, f in enumerate(facts) if f.kind is Kind.GROUP_RECREATED)
    restarted = next(i for i, f in enumerate(facts) if f.kind is Kind.RESTARTED)
    deleting = [i for i, f in enumerate(facts) if f.kind is Kind.POD_DELETING and int(f.at) == int(facts[recreated].at)]
    assert deleting and restarted < recreated < min(deleting)
    lines = timeline_lines(tl, "en", "llm", 0, limit=100)
    assert lines[min(deleting)].startswith("≈") and not lines[recreated].startswith("≈")
    assert all(line[10] == " " and line[11] != " " for line in lines)  # one column, both kinds of time
