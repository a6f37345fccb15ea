"""Events are listed in pages straight into the store's cap (tutor/cluster/live.py, list_once):
however many Events the namespace keeps, the tutor holds the newest MAX_EVENTS and one page, not
the whole list, and the relist still gives the watch the list's resourceVersion."""

from __future__ import annotations

import gc
import json
import random
import tracemalloc
from types import SimpleNamespace

import pytest

from tutor.cluster import kinds, live, objects as o
from tutor.cluster import store as store_module
from tutor.cluster.source_events import Relisted
from tutor.cluster.held import Held
from tutor.cluster.store import Store

NS = "infer"
LIST_RV = "987654"


def event(i: int) -> dict:
    """The i-th Event the namespace saw (a later i is newer), about the size of a real one."""
    minute, second = divmod(i, 60)
    hour, minute = divmod(minute, 60)
    when = f"2026-01-0{1 + hour // 24}T{hour % 24:02d}:{minute:02d}:{second:02d}Z"
    pod = f"llm-{i % 40}-{i % 3}"
    return {"metadata": {"name": f"{pod}.{0x188c0000000 + i:x}", "namespace": NS, "uid": f"uid-{i:08d}",
                         "resourceVersion": str(1000 + i), "creationTimestamp": when},
            "involvedObject": {"kind": "Pod", "namespace": NS, "name": pod, "uid": f"pod-uid-{i % 120:04d}",
                               "apiVersion": "v1", "resourceVersion": str(900 + i), "fieldPath": "spec.containers{main}"},
            "reason": "BackOff" if i % 7 else "FailedScheduling", "type": "Warning" if i % 7 == 0 else "Normal",
            "message": f"Back-off restarting failed container main in pod {pod}_infer(pod-uid-{i % 120:04d}) " * 2,
            "source": {"component": "kubelet", "host": "lab-server"}, "count": 1 + i % 5,
            "firstTimestamp": when, "lastTimestamp": when, "eventTime": None,
            "reportingComponent": "kubelet", "reportingInstance": "lab-server"}


class PagedEvents:
    """The API server's list call for Events: `total` of them, in the order etcd lists them (by
    name, not by time), `limit` a page, each page's JSON made when it is asked for."""

    def __init__(self, total: int):
        self.order = list(range(total))
        random.Random(total).shuffle(self.order)  # names do not sort by time across objects
        self.pages = 0

    def __call__(self, namespace, limit, _continue=None, **_):
        assert namespace == NS
        start = int(_continue or 0)
        chunk = self.order[start:start + limit]
        more = start + limit < len(self.order)
        self.pages += 1
        body = {"kind": "EventList", "apiVersion": "v1",
                "metadata": {"resourceVersion": LIST_RV, **({"continue": str(start + limit)} if more else {})},
                "items": [event(i) for i in chunk]}
        return SimpleNamespace(data=json.dumps(body).encode())


@pytest.fixture
def server(monkeypatch):
    def make(total: int) -> PagedEvents:
        fake = PagedEvents(total)
        monkeypatch.setattr(live, "list_call", lambda api_client, res: fake)
        return fake
    return make


def test_a_long_list_keeps_the_newest_events_oldest_first_and_the_lists_resource_version(server):
    fake = server(20_000)
    held = Held(store_module.MAX_EVENTS)
    items, rv = live.list_once(None, kinds.EVENT, NS, held)
    assert fake.pages == 20_000 // live.PAGE and rv == LIST_RV
    newest = [event(i) for i in range(20_000 - store_module.MAX_EVENTS, 20_000)]
    assert [o.uid(e) for e in items] == [o.uid(e) for e in newest]  # the newest, oldest first
    assert all(e["kind"] == "Event" and e["apiVersion"] == "v1" for e in items)
    assert len(held) == 20_000  # the watchdog still compares the whole count with the server's
    first = min(range(20_000), key=lambda i: o.name(event(i)))  # the API server lists by name
    assert held.get((NS, o.name(event(first)))) == o.resource_version(event(first))
    assert len(held.versions) <= store_module.MAX_EVENTS * 5 // 4  # and keeps the cap of keys


def test_a_list_under_the_cap_is_kept_whole(server):
    server(300)
    items, _ = live.list_once(None, kinds.EVENT, NS)
    assert sorted(o.uid(e) for e in items) == [f"uid-{i:08d}" for i in range(300)]
    assert [o.event_time(e) for e in items] == sorted(o.event_time(e) for e in items)


def test_the_store_after_the_relist_holds_what_a_whole_list_would_leave(server, monkeypatch):
    """The store keeps the newest MAX_EVENTS by when they last changed; listed straight into the
    cap, it holds the same Events, in the same order, as after applying every Event one by one
    as they happened. (A whole list applied in the order the API lists it, by name, left the
    last MAX_EVENTS by name, whatever their time.)"""
    monkeypatch.setattr(store_module, "MAX_EVENTS", 50)
    server(2_000)
    items, _ = live.list_once(None, kinds.EVENT, NS)
    assert len(items) == 50
    capped = Store()
    capped.replace(Relisted("Event", items, 1.0))
    whole = Store()
    whole.replace(Relisted("Event", [{**event(i), "kind": "Event", "apiVersion": "v1"} for i in range(2_000)], 1.0))
    assert [o.uid(e) for e in capped.events_for(NS)] == [o.uid(e) for e in whole.events_for(NS)]


def _peak(total: int, keep: bool = True, held: bool = False) -> int:
    """The most memory the list held at once, in bytes (what the fake server made included).
    `held`: with what the live source keeps for its watchdog (tutor/cluster/held.py)."""
    fake = PagedEvents(total)
    saved, saved_kept = live.list_call, live.kept_from_a_list
    live.list_call = lambda api_client, res: fake
    if not keep:
        live.kept_from_a_list = lambda res: None
    try:
        gc.collect()
        tracemalloc.start()
        items, _ = live.list_once(None, kinds.EVENT, NS, Held(store_module.MAX_EVENTS) if held else None)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        live.list_call, live.kept_from_a_list = saved, saved_kept
    del items
    return peak


def test_the_memory_a_list_holds_is_bounded_by_the_cap_not_by_the_namespaces_history():
    cap, more = store_module.MAX_EVENTS, 20_000 - store_module.MAX_EVENTS - live.PAGE
    at_cap = _peak(cap + live.PAGE)  # the cap and a page: what any list holds at least
    whole = _peak(20_000, keep=False)  # the list read whole, as before
    per_event = whole / 20_000
    # 18,500 more Events than the cap and a page: the Events kept hold no more memory...
    assert _peak(20_000) - at_cap < 0.01 * per_event * more, (at_cap, whole)
    # ...nor with what the watchdog keeps: a count, and the keys and resourceVersions of the
    # first MAX_EVENTS in list order (a map of every key was about a tenth of an Event each)
    long = _peak(20_000, held=True)
    assert long - _peak(cap + live.PAGE, held=True) < 0.01 * per_event * more, (long, whole)
    assert long < whole / 3, (long, whole)


def test_a_relist_past_the_cap_keeps_the_newest_not_those_the_list_left_out(server, monkeypatch):
    """A relist (after a 410, or the watchdog's) in a namespace past the cap: the Events the list
    left out for being older than the newest MAX_EVENTS are not listed, so the store takes them
    as deleted. A deletion is no change of the Event: it keeps its place, and the new Events
    push those out, not the newest the list kept."""
    monkeypatch.setattr(store_module, "MAX_EVENTS", 50)
    st = Store()
    server(60)
    st.replace(Relisted("Event", live.list_once(None, kinds.EVENT, NS)[0], 1.0))  # events 10..59
    server(70)
    st.replace(Relisted("Event", live.list_once(None, kinds.EVENT, NS)[0], 2.0))  # 20..69: ten new
    assert sorted(o.uid(e) for e in st.events_for(NS)) == [f"uid-{i:08d}" for i in range(20, 70)]
