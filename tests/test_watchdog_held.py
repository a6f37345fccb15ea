"""The live source's watchdog keeps, of Events, no more keys than the store keeps Events
(tutor/cluster/held.py), however long the namespace's history, and still sees every disagreement
that a map of every listed key and resourceVersion saw (what it kept before)."""

from __future__ import annotations

import json
import random
import threading
from types import SimpleNamespace

from tutor.cluster import kinds, live
from tutor.cluster import store as store_module
from tutor.cluster.held import Held

NS = "infer"
CAP = store_module.MAX_EVENTS
MOST_KEPT = CAP + CAP // 4  # Held lets go of the keys past the cap in steps of a quarter of it


def pod_of(i: int) -> str:
    # An LWS's pods keep their names from one group to the next, and so do their Events' prefixes.
    return f"llm-{i % 97}" + ("" if i % 2 else f"-{i % 3}")


def event(i: int, count: int = 1, rv: int | None = None) -> dict:
    """The i-th Event of the namespace: named as the kubelet names them, its object's name and a
    hex time that grows, so a newer Event of a pod lists after its older ones."""
    pod = pod_of(i)
    return {"kind": "Event", "apiVersion": "v1",
            "metadata": {"name": f"{pod}.{0x188c0000000 + i * 7919:x}", "namespace": NS,
                         "resourceVersion": str(rv if rv is not None else 1000 + i)},
            "involvedObject": {"kind": "Pod", "namespace": NS, "name": pod},
            "reason": "BackOff", "message": f"Back-off restarting failed container in pod {pod}", "count": count,
            "lastTimestamp": f"2026-01-01T00:00:{i % 60:02d}Z"}


def key(ev: dict) -> tuple[str, str]:
    return (NS, ev["metadata"]["name"])


def history(alive: int, changes: int, seed: int = 7):
    """A namespace with `alive` Events, then `changes` watch events: a new Event, one of the alive
    ones counted again, or the oldest deleted (the API server's TTL), about a third each. Yields
    (type, event); the first `alive` are the list."""
    rng = random.Random(seed)
    rv = 10_000_000
    for i in range(alive):
        yield "LISTED", event(i)
    oldest, nxt = 0, alive
    for _ in range(changes):
        rv += 1
        roll = rng.random()
        if roll < 0.34 or nxt - oldest < 2:
            yield "ADDED", event(nxt, rv=rv)
            nxt += 1
        elif roll < 0.67:
            yield "MODIFIED", event(rng.randrange(oldest, nxt), count=2, rv=rv)
        else:
            yield "DELETED", event(oldest, rv=rv)
            oldest += 1


def server_answer(truth: dict) -> tuple[int, tuple[str, str] | None, str]:
    """What `peek` gets from the API server: the count, and the first object in key order."""
    if not truth:
        return 0, None, ""
    first = min(truth)
    return len(truth), first, truth[first]


def whole_map_agrees(held: dict, said) -> bool:
    """The watchdog's comparison with a map of every key, as it was."""
    count, first, first_rv = said
    return count in (None, len(held)) and (first is None or held.get(first) == first_rv)


def missed(truth: dict, rng: random.Random) -> list[dict]:
    """The API server's objects after changes the watch did not pass on, one of each kind: a new
    first Event, one past every key, the first one deleted or changed, another one deleted or
    changed; and the first one deleted as another is made (the count stays)."""
    keys = sorted(truth)
    some = keys[rng.randrange(1, len(keys))]
    without_first = {k: v for k, v in truth.items() if k != keys[0]}
    return [{**truth, (NS, "a-first"): "1"}, {**truth, (NS, "zz-last"): "1"},
            without_first, {**truth, keys[0]: "changed"},
            {k: v for k, v in truth.items() if k != some}, {**truth, some: "changed"},
            {**without_first, (NS, "a-first"): "1"}, {**without_first, (NS, "zz-last"): "1"}]


def test_the_kept_keys_stay_within_the_cap_and_answer_as_a_map_of_every_key_did():
    held, whole, truth = Held(CAP), {}, {}
    rng = random.Random(3)
    most = 0
    for n, (typ, ev) in enumerate(history(alive=20_000, changes=40_000)):
        k, rv = key(ev), ev["metadata"]["resourceVersion"]
        if typ == "LISTED":
            held.listed(k, rv)
        elif typ == "ADDED":
            held.added(k, rv)
        elif typ == "MODIFIED":
            held.modified(k, rv)
        else:
            held.deleted(k)
        if typ == "DELETED":
            whole.pop(k, None)
            truth.pop(k, None)
        else:
            whole[k] = truth[k] = rv
        most = max(most, len(held.versions))
        if n % 997 == 0 and n >= 20_000:
            assert held.agrees(*server_answer(truth)) and whole_map_agrees(whole, server_answer(truth))
            for after in missed(truth, rng):
                said = server_answer(after)
                assert held.agrees(*said) == whole_map_agrees(whole, said), (n, said)
    assert len(held) == len(truth) > 15 * CAP  # every Event counted, far more than the cap
    assert most <= MOST_KEPT, most
    assert held.versions  # Events of the first pods came and went: the first keys stayed known


def test_a_key_list_order_past_the_kept_ones_is_counted_not_kept():
    held = Held(2)
    for name in ("e", "d", "c", "b", "a"):
        held.listed((NS, name), name.upper())
    assert len(held) == 5 and set(held.versions) <= {(NS, "a"), (NS, "b"), (NS, "c")}
    held.added((NS, "z"), "Z")
    held.modified((NS, "y"), "Y")  # beyond the bound: no count, nothing kept
    held.deleted((NS, "e"))
    assert len(held) == 5 and held.get((NS, "z")) is None
    assert held.agrees(5, (NS, "a"), "A") and not held.agrees(5, (NS, "a"), "A2")
    assert not held.agrees(4, (NS, "a"), "A") and not held.agrees(5, (NS, "zz"), "ZZ")  # one listed after z


class FakeServer:
    """The API server's Events for the live source: a list of the history's first `alive` in key
    order, in pages, then one watch that passes on the rest and ends the source."""

    def __init__(self, alive: int, changes: int, src_box: list):
        self.events = history(alive, changes)
        self.alive = alive
        self.src_box = src_box
        self.truth: dict = {}

    def __call__(self, namespace, watch=False, limit=None, _continue=None, **_):
        if watch:
            return SimpleNamespace(stream=self.watch_lines, release_conn=lambda: None)
        if _continue is None:
            listed = sorted((next(self.events)[1] for _ in range(self.alive)), key=key)
            self.truth = {key(ev): ev["metadata"]["resourceVersion"] for ev in listed}
            self.pages = [listed[i:i + limit] for i in range(0, len(listed), limit)]
        page = self.pages.pop(0)
        meta = {"resourceVersion": "10000000", **({"continue": "more"} if self.pages else {})}
        return SimpleNamespace(data=json.dumps({"metadata": meta, "items": page}).encode())

    def watch_lines(self, amt=None, decode_content=False):
        for typ, ev in self.events:
            if typ == "DELETED":
                self.truth.pop(key(ev))
            else:
                self.truth[key(ev)] = ev["metadata"]["resourceVersion"]
            yield (json.dumps({"type": typ, "object": ev}) + "\n").encode()
        self.src_box[0].stop()


def test_the_live_sources_watchdog_holds_the_cap_of_events_and_still_finds_a_silent_watch(monkeypatch):
    """20,000 Events listed and 30,000 changes watched: the watchdog holds a count and at most
    MOST_KEPT keys. Looking with the API server's answer, it agrees; after a change the watch did
    not pass on (a first Event deleted), two looks with nothing heard between drop the watch."""
    box: list = []
    server = FakeServer(20_000, 30_000, box)
    monkeypatch.setattr(live, "list_call", lambda api_client, res: server)
    src = live.LiveSource(None, NS, lambda item: None, resources=(kinds.EVENT,))
    box.append(src)
    th = threading.Thread(target=src.run_resource, args=(kinds.EVENT,))
    th.start()
    th.join(120)
    assert not th.is_alive(), "the source did not end after the watch's last line"
    held = src.held[kinds.EVENT.name]
    assert len(held) == len(server.truth) > 15 * CAP and len(held.versions) <= MOST_KEPT, (len(held), len(held.versions))
    src._stop.clear()
    monkeypatch.setattr(live, "peek", lambda api_client, res, namespace: server_answer(server.truth))
    src._responses[kinds.EVENT.name] = SimpleNamespace()  # a watch is open
    src.check(kinds.EVENT)
    assert not src._doubts and not src._relist
    del server.truth[min(server.truth)]  # deleted; the watch says nothing of it
    src.check(kinds.EVENT)
    assert not src._relist  # seen once: it may be in flight
    src.check(kinds.EVENT)
    assert src._relist == {kinds.EVENT.name}
