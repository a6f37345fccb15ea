"""Group 0's recreation told by a newer LWS in other words, or not told at all: states derived
from the real recordings (the walkthrough, watched from the start, and late-after-step5, a tutor
started after step 5) by changing LWS's RecreateGroup event as each item is replayed, and nothing
else. The kubelet's restart of llm-0-1, the old leader's deletion and the rebuilt group are as the
real control plane recorded them, so step 5 and the story must tell the recreation the same:

- the reason renamed (GroupRecreated): a newer LWS's word for it;
- the message reworded ("Recreating group 0 because pod llm-0-1 restarted"), the reason kept;
- reason and message both new, in an older-style event with no action or related object, so
  nothing of it says what it did;
- the event missing: a release that records none, or one dropped by the API server.

Against them, the by-hand case keeps its verdict: the same walkthrough with the restart's traces
taken out (a leader replaced with no container failing first) is no recreation.
"""

from __future__ import annotations

import copy
from typing import Callable

import pytest

from tests.states import check, late, recording, started_at
from tests.test_korean import problems
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent
from tutor.cluster.story import story_of
from tutor.cluster.timeline import Kind, timeline_of
from tutor.lesson.loader import load
from tutor.narration import because, brief, timeline_lines, what
from tutor.session import Session

W, LATE5 = "walkthrough", "late-after-step5"
REWORDED = "Recreating group 0 because pod llm-0-1 restarted"

Edit = Callable[[dict], "dict | None"]  # an object of the recording -> the derived one, None to drop it


def is_recreate(obj: dict) -> bool:
    return o.kind(obj) == "Event" and o.event_reason(obj) == "RecreateGroup"


def on_recreate(change: Callable[[dict], None]) -> Edit:
    def edit(obj: dict) -> dict | None:
        if not is_recreate(obj):
            return obj
        obj = copy.deepcopy(obj)  # the recording's objects are shared between states
        change(obj)
        return obj
    return edit


def renamed(ev: dict) -> None:
    ev["reason"] = "GroupRecreated"


def reworded(ev: dict) -> None:
    ev["message"] = REWORDED


def bare(ev: dict) -> None:
    """Renamed and reworded, as a core/v1 event with no action and no related object."""
    ev.update(reason="PodGroupRestarted", message="Restarting the pods of llm's replica 0")
    ev.pop("action", None)
    ev.pop("related", None)


def missing(obj: dict) -> dict | None:
    return None if is_recreate(obj) else obj


EDITS = {"renamed": on_recreate(renamed), "reworded": on_recreate(reworded), "bare": on_recreate(bare),
         "missing": missing}


def derived(name: str, edit: Edit, lang: str = "en", stop: Callable[[object], bool] | None = None) -> Session:
    """The recording replayed as `tests.states.state` does, each object through `edit`."""
    s = Session(load(), "/root/gsb-lws", lang)
    s.store.started_at = started_at(name)
    for item in recording(name).items:
        if stop is not None and stop(item):
            break
        if isinstance(item, ObjectEvent):
            obj = edit(item.obj)
            if obj is None:
                continue
            item = ObjectEvent(item.type, obj, item.t)
        s.apply(item)
    return s


def texts(v) -> str:
    return " ".join((v.message, *v.details))


@pytest.mark.parametrize("how", list(EDITS))
@pytest.mark.parametrize("name,started", [(W, "watching"), (W, "late"), (LATE5, "as recorded"), (LATE5, "late")])
def test_step5_passes_however_the_recreation_is_told(how, name, started):
    s = derived(name, EDITS[how])
    v = check(late(s) if started == "late" else s, 5)
    assert v.status is Status.PASS, v
    assert "llm-0-1 failed and LWS rebuilt only group 0" in v.message
    assert "evidence" not in v.message and "by hand" not in texts(v)


@pytest.mark.parametrize("how", list(EDITS))
def test_the_recap_tells_the_recreation_in_order(how):
    """Restart, recreation, new leader, new worker: in that order, for the pod that failed."""
    for s in (derived(W, EDITS[how]), late(derived(LATE5, EDITS[how]))):
        ep = story_of(s.store, "infer", "llm").step_episode("llm", "recreation", 0, failed="llm-0-1")
        assert ep is not None and ep.failed == "llm-0-1"
        kinds = [line.kind for line in ep.lines]
        assert kinds.index("restarted") < kinds.index("recreate-group") < kinds.index("new-uid"), kinds
        told = [line for line in ep.lines if line.kind == "recreate-group"]
        assert len(told) == 1 and because(told[0], "en").startswith("llm-0-1 failed: its restart"), told
        news = [what(line, "en") for line in ep.lines if line.kind == "new-uid"]
        assert news[0].startswith("llm-0 new UID") and news[1].startswith("llm-0-1 new UID"), news
        assert any("container restart" in b or "container exited" in b for b in brief(ep, "en"))


def test_the_recreation_says_what_told_it():
    """The reason as the event has it; one known by its effects says no event told it."""
    def said(how):
        ep = story_of(derived(W, EDITS[how]).store, "infer", "llm").step_episode("llm", "recreation", 0)
        return next(line for line in ep.lines if line.kind == "recreate-group")
    assert what(said("renamed"), "en").startswith("LWS GroupRecreated: deleted leader llm-0")
    assert what(said("reworded"), "en").startswith("LWS RecreateGroup: deleted leader llm-0")
    effects = said("missing")
    assert "no event says so" in what(effects, "en") and "이벤트 없음" in what(effects, "ko")
    v = check(derived(W, missing), 5)
    assert "told by its effects" in texts(v) and "llm-0-1's container restarted" in texts(v), v
    ko = check(derived(W, missing, lang="ko"), 5)
    assert ko.passed and "이벤트는 없지만" in texts(ko), ko
    assert not problems(texts(ko)) and not problems(what(effects, "ko"))


def test_a_renamed_event_still_names_what_it_deleted():
    """v0.9's event deletes a pod (action Delete, related: the leader) whatever its reason."""
    tl = timeline_of(late(derived(LATE5, EDITS["renamed"])).store, "infer", "llm")
    rec = tl.recreations("llm", 0)
    assert [(f.source, f.pod, f.uid[:8]) for f in rec] == [("event", "llm-0-1", "a9c6ad05")]


def test_one_recreation_each_however_told():
    for how, edit in EDITS.items():
        tl = timeline_of(derived(W, edit).store, "infer", "llm")
        first = [f for f in tl.recreations("llm", 0) if not tl.in_rollout(f)]
        assert len(first) == 1, (how, first)
        assert first[0].uid == tl.uids("llm-0")[0].uid, how
        assert not tl.recreations("llm", 1) or all(tl.in_rollout(f) for f in tl.recreations("llm", 1)), how


# --- a leader replaced with no failure first is no recreation ----------------------------------

def no_restart(obj: dict) -> dict | None:
    """The event missing and no trace of llm-0-1's container failing: its restartCount and
    lastState cleared, the kubelet's Started/Created/Pulled events counted once (as after a
    deletion by hand, which restarts nothing)."""
    obj = missing(obj)
    if obj is None:
        return None
    if o.kind(obj) == "Pod" and o.name(obj) == "llm-0-1" and o.restart_count(obj):
        obj = copy.deepcopy(obj)
        for cs in o.container_statuses(obj):
            cs["restartCount"], cs["lastState"] = 0, {}
    elif o.kind(obj) == "Event" and o.event_regarding(obj).get("name") == "llm-0-1" and o.event_count(obj) > 1:
        obj = copy.deepcopy(obj)
        obj["count"] = 1
        obj.pop("series", None)
    return obj


@pytest.mark.parametrize("started", ["watching", "late"])
def test_a_leader_replaced_with_nothing_failed_first_is_no_recreation(started):
    s = derived(W, no_restart)
    s = late(s) if started == "late" else s
    tl = timeline_of(s.store, "infer", "llm")
    assert not tl.of("llm", 0, (Kind.RESTARTED,)) and not tl.recreations("llm", 0)
    v = check(s, 5)
    assert v.status is Status.FAIL and "no sign that LWS recreated group 0" in v.message, v


# --- what the tutor does not know is shown as it is --------------------------------------------

def test_an_lws_event_of_an_unknown_reason_is_shown_with_its_words():
    """The bare event above (reason and message both new, nothing saying what it did): the
    timeline, the story and the events pane show its reason and message, and step 5's details
    carry it in llm's timeline, where the late start has it among the newest."""
    from tutor.ui.panes.events import event_blocks

    said = "PodGroupRestarted: Restarting the pods of llm's replica 0"
    s = late(derived(LATE5, EDITS["bare"]))
    tl = timeline_of(s.store, "infer", "llm")
    assert [f.detail for f in tl.of("llm", kinds=(Kind.LWS_EVENT,))] == [said]
    assert any(line.endswith(f"LWS event {said}") for line in timeline_lines(tl, "en", "llm"))
    assert any(f"LWS 이벤트 {said}" in line for line in timeline_lines(tl, "ko", "llm"))
    told = [e for e in story_of(s.store, "infer", "llm").episodes if e.kind == "event"]
    assert [[what(line, "en") for line in e.lines] for e in told] == [[said]]
    pane = [b.plain for b in event_blocks(s.store, "infer")]
    assert any("PodGroupRestarted leaderworkerset/llm" in b and "Restarting the pods of llm's replica 0" in b
               for b in pane), pane
    assert any(said in d for d in check(s, 5).details)


def test_the_known_reasons_stay_out_of_the_unknown():
    for name in (W, LATE5, "late-mid-rollout", "both-workers-failed"):
        s = derived(name, lambda obj: obj)
        assert not timeline_of(s.store, "infer", "llm").of("llm", kinds=(Kind.LWS_EVENT,)), name
        assert not [e for e in story_of(s.store, "infer", "llm").episodes if e.kind == "event"], name


def test_an_lws_condition_of_an_unknown_type_is_shown_with_its_status():
    """A newer LWS's condition (GangScheduled, say) beside v0.9's Available: the groups pane
    names it with its status, True or not; LWS's own False ones stay the stale leftovers they are."""
    from tutor.ui.panes import groups

    def conditions(obj: dict) -> dict:
        if o.kind(obj) != "LeaderWorkerSet" or o.name(obj) != "llm":
            return obj
        obj = copy.deepcopy(obj)
        obj.setdefault("status", {}).setdefault("conditions", []).extend([
            {"type": "GangScheduled", "status": "False", "reason": "Waiting", "message": "2 of 4 pods"},
            {"type": "Partitioned", "status": "True", "reason": "Set", "message": "partition 0"}])
        return obj

    s = derived(W, conditions)
    header = groups._lws_header(s.store.get("LeaderWorkerSet", "llm", "infer"), "en").plain
    assert "GangScheduled=False" in header and "  Partitioned" in header and "  Available" in header, header
    assert "Progressing" not in header  # LWS's own, False: a leftover
    assert check(s, 6).passed
