"""Events in the order the cluster produced them, along every recording: the events pane never
shows an event above one the cluster wrote after it.

An event's timestamps cannot order it: a core Event's lastTimestamp is whole seconds and an
events.k8s.io one's eventTime is microseconds, so ordered by time the kubelet's `Started` (40 s,
written at 40.6 s) sat below LWS's `AllGroupsReady` (40.14 s) that it caused. The order the cluster
wrote them in is their resourceVersions', compared as Kubernetes compares them (tutor/cluster/objects.py:
written_order, whose source note tests/test_fact_sources.py finds in the lab's apimachinery)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.cluster import objects as o
from tutor.cluster.recording import open_recording
from tutor.cluster.source_events import ObjectEvent
from tutor.cluster.store import Store
from tutor.ui.panes.events import lesson_events

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = sorted([*ROOT.glob("tests/data/recordings/*.jsonl"), *ROOT.glob("tests/data/lessons/*.jsonl"),
                     *ROOT.glob("tutor/demo/*.jsonl")])


def _written_order_is_clear(events: list[dict]) -> bool:
    return all(o.resource_version(e).isdigit() for e in events)


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_no_event_is_shown_above_one_written_after_it(path: Path):
    recording = open_recording(path)
    store, checked, wrong = Store(), 0, []
    for item in recording.items:
        if not isinstance(item, ObjectEvent):
            continue
        store.apply(item)
        if o.kind(item.obj) != "Event":
            continue
        shown = lesson_events(store, recording.header.namespace)
        assert _written_order_is_clear(shown), "a recorded Event without a resourceVersion"
        written = [int(o.resource_version(e)) for e in shown]
        checked += len(shown) > 1
        for above, below, a, b in zip(shown, shown[1:], written, written[1:]):
            if a < b:  # shown above an event the cluster wrote after it
                wrong.append(f"t={item.t}: {o.event_reason(above)} (rv {a}) above {o.event_reason(below)} (rv {b})")
    assert checked, "the recording shows no two events: nothing was read"
    assert not wrong, f"{len(wrong)} events out of the cluster's order, first: {wrong[0]}"


def test_written_order_compares_as_kubernetes_does():
    def ev(rv: str, at: str) -> dict:
        return {"kind": "Event", "metadata": {"resourceVersion": rv}, "lastTimestamp": at}

    # a shorter integer is less, whatever the strings say; the time orders only what has none
    assert o.event_order(ev("999", "2026-01-01T00:00:09Z")) < o.event_order(ev("1000", "2026-01-01T00:00:01Z"))
    assert o.written_order(ev("0123", "")) == o.written_order(ev("", "")) == o.written_order(ev("1a", "")) == 0
    assert o.event_order(ev("", "2026-01-01T00:00:01Z")) < o.event_order(ev("", "2026-01-01T00:00:02Z"))
