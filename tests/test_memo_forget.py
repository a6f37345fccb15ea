"""What is derived from a stored object (tutor/cluster/memo.py, objects.memo) is kept while the
store holds that very object, not after: the store forgets each version it replaces or drops, so
the memo never keeps a pod or an Event alive that no store holds (it kept them until its bound
pushed them out: at 1,000 pods and 10,000 events, some 20 MB of old versions)."""

from __future__ import annotations

from tests.bench.synth import Cloner, parse
from tutor.cluster import objects as o
from tutor.cluster import store as store_module
from tutor.cluster.memo import ByIdentity
from tutor.cluster.resources import pod_requests
from tutor.cluster.store import Store
from tutor.ui.panes.common import pod_order
from tutor.ui.panes.events import event_order


def held_by(store: Store) -> dict[int, dict]:
    objs = [obj for bucket in store._objs.values() for obj in bucket.values()]
    return {id(obj): obj for obj in objs + list(store.obs.events_seen.values())}


def test_the_memo_keeps_only_versions_the_store_holds_through_a_long_stream(monkeypatch):
    monkeypatch.setattr(o, "memo", ByIdentity(20_000))
    monkeypatch.setattr(store_module, "MAX_EVENTS", 200)  # Events past the cap are dropped too
    cloner, store = Cloner(), Store()
    lines = list(cloner.population(100)) + [line for line, _ in zip(cloner.storm(100, 6_000), range(6_000))]
    for n, line in enumerate(lines):
        ev = parse(line, float(n))
        store.apply(ev)
        if ev.type == "DELETED":
            continue
        # what the panes and checkers compute of each object a re-check reads
        if o.kind(ev.obj) == "Pod":
            pod_order(ev.obj), pod_requests(ev.obj)
        elif o.kind(ev.obj) == "Event":
            event_order(ev.obj)
    held = held_by(store)
    kept = o.memo.objects()
    n_kept, n_held = len(kept), len(held)
    assert 0 < n_kept <= n_held
    n_let_go = sum(held.get(id(obj)) is not obj for obj in kept)
    assert n_let_go == 0
    assert len(lines) > 10 * len(held)  # the stream replaced each object many times over


def test_a_forgotten_object_is_computed_again_and_others_are_not():
    memo = ByIdentity(10)
    a, b = {"n": 1}, {"n": 2}
    calls: list = []

    def f(x):
        calls.append(x["n"])
        return x["n"] * 10

    assert memo(a, "f", f) == 10 and memo(a, "f", f) == 10 and memo(b, "f", f) == 20
    memo.forget(a)
    memo.forget({"n": 2})  # an equal dict is not the one held: nothing is forgotten
    assert memo(a, "f", f) == 10 and memo(b, "f", f) == 20
    assert calls == [1, 2, 1]
    assert memo(a, "g", lambda x: None) is None and memo(a, "g", f) is None  # None is kept too
