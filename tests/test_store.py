"""The store applies watch events and keeps what no snapshot shows."""

from __future__ import annotations

from tests.states import recording, state
from tutor.cluster import objects as o
from tutor.cluster import journal as journal_module
from tutor.cluster.source_events import ObjectEvent, Relisted
from tutor.cluster.store import Store


def test_uid_history_shows_group0_recreated_and_group1_not():
    s = state("restart-after-failure")
    obs = s.store.obs
    assert obs.recreations("llm-0") == 1 and obs.recreations("llm-0-1") == 1
    assert obs.recreations("llm-1") == 0 and obs.recreations("llm-1-1") == 0
    first, second = obs.uid_history("llm-0")
    assert first.gone_t is not None and first.gone_t <= second.first_t


def test_restart_seen_with_exit_code():
    s = state("restart-after-failure")
    restarts = [r for r in s.store.obs.restarts if r.pod == "llm-0-1"]
    assert restarts and restarts[0].exit_code == 1 and restarts[0].count == 1


def test_revisions_per_group_during_rollout():
    s = state("walkthrough")
    revs = s.store.obs.group_revisions
    assert len(revs[("llm", 0)]) == 2 and len(revs[("llm", 1)]) == 2


def test_events_are_kept_after_they_expire():
    s = state("walkthrough")
    ev = next(e for e in s.store.all("Event", "infer") if o.event_reason(e) == "RecreateGroup")
    s.store.apply(ObjectEvent("DELETED", ev, s.store.now + 1))
    assert all(o.uid(e) != o.uid(ev) for e in s.store.all("Event", "infer"))
    assert any(o.uid(e) == o.uid(ev) for e in s.store.events_for("infer"))


def test_relist_removes_ghosts_and_reports_the_diff():
    s = state("walkthrough")
    pods = s.store.all("Pod", "infer")
    keep = [p for p in pods if not o.name(p).startswith("wide")]
    changes = s.store.replace(Relisted("Pod", keep, s.store.now + 1))
    assert {o.name(c.obj) for c in changes if c.type == "DELETED"} == {"wide-0", "wide-0-1", "wide-1", "wide-1-1"}
    assert sorted(map(o.name, s.store.all("Pod", "infer"))) == sorted(map(o.name, keep))
    assert s.store.replace(Relisted("Pod", keep, s.store.now + 2)) == []


def test_same_resource_version_is_not_a_change():
    st = Store()
    pod = {"kind": "Pod", "metadata": {"name": "a", "namespace": "infer", "uid": "u", "resourceVersion": "5"}}
    assert st.apply(ObjectEvent("ADDED", pod, 0))
    assert not st.apply(ObjectEvent("MODIFIED", pod, 1))
    assert st.version == 1


def test_malformed_objects_do_not_crash():
    st = Store()
    for obj in ({"kind": "Pod"}, {"kind": "Pod", "metadata": {"name": "x", "labels": "oops"}, "status": []},
                {"kind": "Pod", "metadata": {"name": "y", "labels": {o.GROUP_INDEX_LABEL: "zero"}},
                 "status": {"containerStatuses": [{"restartCount": "many"}, 7]}},
                {"kind": "Event", "metadata": {"name": "e"}, "involvedObject": None}, {"kind": "Unknown"}):
        st.apply(ObjectEvent("ADDED", obj, 0))
    assert o.group_index(st.get("Pod", "y")) is None
    assert o.restart_count(st.get("Pod", "y")) == 0


def test_every_recording_replays_cleanly():
    for name in ("walkthrough", "wrong-annotation", "restart-after-failure", "dns-short-name", "names-swapped",
                 "orphan-without-llm", "version-worker-only"):
        s = state(name)
        assert s.store.all("Node") and recording(name).header.versions["kubernetes"].startswith("v1.")


def test_lws_with_pods_and_name_versions_follow_every_item():
    """lws_with_pods is the set of LWS labels on the namespace's pods; name_version moves for a
    pod's name, its LWS's pods and the subject of an Event whenever one of those changes."""
    from tutor.cluster import deps

    s = Store()
    for item in recording("walkthrough").items:
        if not isinstance(item, ObjectEvent):
            continue
        before = dict(s.name_version)
        changed = s.apply(item)
        labels = {o.lws_name(p) for p in s.all("Pod", "infer")} - {""}
        assert s.lws_with_pods("infer") == labels
        obj = item.obj
        kind = o.kind(obj)
        key = deps.EventsAbout(str(o.event_regarding(obj).get("name", ""))) if kind == "Event" \
            else deps.Named(kind, o.name(obj))
        assert (s.name_version.get(key) != before.get(key)) == changed, (kind, o.name(obj))
        pods_of = deps.PodsOf(o.lws_name(obj))
        if changed and kind == "Pod" and o.lws_name(obj):
            assert s.name_version[pods_of] != before.get(pods_of)


def test_changes_name_what_moved_for_each_reader():
    """take_changes: the first take says rebuild; then pods (deletions too), the groups they left
    and joined, LWS and events, by key, each reader on its own."""
    class Reader:
        pass

    items = [it for it in recording("walkthrough").items if isinstance(it, ObjectEvent)]
    st = Store()
    panes, checks = Reader(), Reader()
    st.apply(items[0])
    assert not st.journal._entries  # nobody reads yet: nothing is noted
    assert st.take_changes(panes).everything and st.take_changes(checks).everything
    for it in items:
        st.apply(it)
    ch = st.take_changes(panes)
    assert not ch.everything
    assert ch.pods == {("infer", o.name(it.obj)) for it in items if o.kind(it.obj) == "Pod"}
    assert ("infer", "llm", 0) in ch.groups and ("infer", "llm", 1) in ch.groups
    assert ch.objects["LeaderWorkerSet"] == {("infer", o.name(x)) for x in st.all("LeaderWorkerSet")}
    assert list(ch.events) == [("infer", k) for k in st.events_named("infer")]
    assert not st.take_changes(panes)  # taken: nothing new for this reader
    pod = st.get("Pod", "llm-1-1", "infer")
    st.apply(ObjectEvent("DELETED", pod, st.now + 1))
    gone = st.take_changes(panes)
    assert gone.pods == {("infer", "llm-1-1")} and gone.groups == {("infer", "llm", 1)}
    assert st.take_changes(checks).pods >= {("infer", "llm-1-1"), ("infer", "llm-1")}  # the other still has it all
    assert not st.journal._entries  # every reader took it: nothing is held


def test_a_reader_far_behind_rebuilds_and_one_that_keeps_up_does_not(monkeypatch):
    class Reader:
        pass

    monkeypatch.setattr(journal_module, "MAX_JOURNAL", 8)
    st = Store()
    keeps_up, hidden = Reader(), Reader()
    st.take_changes(keeps_up), st.take_changes(hidden)
    for it in recording("walkthrough").items:
        if isinstance(it, ObjectEvent) and st.apply(it):
            assert not st.take_changes(keeps_up).everything
            assert len(st.journal._entries) <= 8
    assert st.take_changes(hidden).everything
