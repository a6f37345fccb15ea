"""The panes follow the store's changes (each pane's model in tutor/ui/panes/) instead of walking
the namespace on every re-check; what they hold must equal the pane's from-scratch rebuild at every
moment.

The recordings are replayed item by item, with a refresh after every item and after uneven
batches of items (a refresh takes all the changes since the last one). Tight bounds on what the
panes show and on the Events the store keeps make the walkthrough's few dozen pods and events
cross them: the newest events push older ones out of the pane, a shown event is changed or
forgotten, groups beyond the shown ones come and go.
"""

from __future__ import annotations

import copy
import itertools

import pytest
from rich.console import Console
from rich.text import Text

from tests.conftest import RECORDINGS
from tests.states import recording, started_at
from tests.ui.harness import empty_recording, make_app
from tutor.cluster import objects as o
from tutor.cluster import journal as journal_module
from tutor.cluster import store as store_module
from tutor.cluster.source_events import ObjectEvent
from tutor.cluster.store import Store
from tutor.lesson.loader import load
from tutor.session import Session
from tutor.ui.panes import events as events_pane
from tutor.ui.panes import groups as groups_pane
from tutor.ui.panes import ledger as ledger_pane
from tutor.ui.panes import pods as pods_pane
from tutor.ui.panes.common import pod_order

NS = "infer"
GPU = load().gpu_resource
RECORDING_NAMES = ["walkthrough", *sorted(p.stem for p in RECORDINGS.glob("*.jsonl"))]


def _drawn(cell) -> object:
    """A cell as it is drawn: its text, its style and its styled spans."""
    if isinstance(cell, Text):
        return cell.plain, str(cell.style), [(s.start, s.end, str(s.style)) for s in cell.spans]
    return cell


def _rows_from_scratch(store) -> tuple[list[str], dict]:
    pods = sorted(store.pods_named(NS).values(), key=pod_order)
    cells = {o.name(p): tuple(map(_drawn, pods_pane.pod_cells(p, store.obs.recreations(o.name(p))))) for p in pods}
    return [o.name(p) for p in pods], cells


class Panes:
    """One of each incremental model, read the way the panes read them."""

    def __init__(self) -> None:
        self.rows = pods_pane.PodRows()
        self.groups = groups_pane.GroupsKey()
        self.events = events_pane.LessonEvents()
        self.waiting = events_pane.WaitingPods()
        self.ledger = ledger_pane.Ledger()
        self.keys = None  # the ledger's last key, and the from-scratch one by value

    def check(self, store, lang: str = "en") -> None:
        self.rows.update(store, NS)
        assert (self.rows.order, {n: tuple(map(_drawn, c)) for n, c in self.rows.cells.items()}) \
            == _rows_from_scratch(store)
        assert self.groups.update(store, NS, lang) == groups_pane.groups_key(store, NS, lang)
        assert [id(e) for e in self.events.update(store, NS)] == [id(e) for e in events_pane.lesson_events(store, NS)]
        assert self.waiting.key(store, NS) == events_pane.explanations_key(store, NS)
        key = self.ledger.update(store, NS, GPU)
        assert _segments(self.ledger.view(store, NS, GPU, lang)) == _segments(ledger_pane.ledger_view(store, NS, GPU, lang))
        about = ("orphan-0", "orphan-0-1", "wide-1")  # a step's pods: their nodes first, a line a node
        assert _segments(self.ledger.view(store, NS, GPU, lang, about, compact=True)) \
            == _segments(ledger_pane.ledger_view(store, NS, GPU, lang, about, compact=True))
        nodes, rows = ledger_pane.ledger_key(store, NS)
        keys = (key, (nodes, sorted(rows)))  # the same rows in another order draw the same
        if self.keys is not None:
            assert (keys[0] == self.keys[0]) == (keys[1] == self.keys[1])
        self.keys = keys


def _segments(renderable) -> list:
    console = Console(width=70, color_system="truecolor", legacy_windows=False)
    return list(console.render(renderable))


def _replay(name: str, batches, languages=("en",)) -> int:
    """Replays a recording, refreshing after each batch (sizes cycled); returns the refreshes."""
    s = Session(load(), "/root/gsb-lws", "en")
    s.store.started_at = started_at(name)
    panes = Panes()
    langs = itertools.cycle(languages)
    sizes = itertools.cycle(batches)
    items = list(recording(name).items)
    refreshes = 0
    i = 0
    while i < len(items):
        for item in items[i:i + next(sizes)]:
            s.apply(item)
            i += 1
        lang = next(langs)
        panes.check(s.store, lang)
        refreshes += 1
    return refreshes


@pytest.mark.parametrize("shown_events, shown_groups, kept_events", [(60, 6, 1000), (5, 1, 1000), (8, 1, 12)])
def test_walkthrough_item_by_item_equals_a_rebuild(monkeypatch, shown_events, shown_groups, kept_events):
    monkeypatch.setattr(events_pane, "MAX_EVENTS", shown_events)
    monkeypatch.setattr(groups_pane, "MAX_GROUPS", shown_groups)
    monkeypatch.setattr(ledger_pane, "MAX_GROUPS", shown_groups)
    monkeypatch.setattr(ledger_pane, "MAX_NAMES", min(shown_groups, 6))  # GPU holders named per group
    monkeypatch.setattr(store_module, "MAX_EVENTS", kept_events)
    assert _replay("walkthrough", [1]) == len(recording("walkthrough").items)
    _replay("walkthrough", [3, 1, 7, 2, 20], languages=("en", "en", "ko"))


@pytest.mark.parametrize("name", RECORDING_NAMES)
def test_every_recording_in_uneven_batches_equals_a_rebuild(monkeypatch, name):
    monkeypatch.setattr(events_pane, "MAX_EVENTS", 6)
    monkeypatch.setattr(groups_pane, "MAX_GROUPS", 1)
    monkeypatch.setattr(ledger_pane, "MAX_GROUPS", 1)
    monkeypatch.setattr(ledger_pane, "MAX_NAMES", 1)
    _replay(name, [1, 4, 2, 9])


def test_a_reader_that_falls_behind_rebuilds(monkeypatch):
    """Past MAX_JOURNAL changes not taken, the store drops them and the reader rebuilds."""
    monkeypatch.setattr(journal_module, "MAX_JOURNAL", 10)
    s = Session(load(), "/root/gsb-lws", "en")
    panes = Panes()
    items = recording("walkthrough").items
    for item in items[:5]:
        s.apply(item)
    panes.check(s.store)
    for item in items[5:120]:
        s.apply(item)
    assert s.store.take_changes(panes.rows).everything
    panes.rows = pods_pane.PodRows()  # the one that just took everything would miss it
    panes.check(s.store)
    for item in items[120:]:
        s.apply(item)
        panes.check(s.store)


def _event(i: int, when: str, rv: str = "") -> dict:
    """A copy of a real Event from the walkthrough, as event i, last seen at `when`."""
    real = next(it.obj for it in recording("walkthrough").items
                if isinstance(it, ObjectEvent) and o.kind(it.obj) == "Event" and _is_lesson(it.obj))
    ev = copy.deepcopy(real)
    ev["metadata"].update(name=f"ev-{i}", uid=f"uid-{i}", resourceVersion=rv)
    for field in ("lastTimestamp", "eventTime", "firstTimestamp"):
        ev.pop(field, None)
    ev["lastTimestamp"] = when
    return ev


def _is_lesson(ev: dict) -> bool:
    return o.event_regarding(ev).get("kind") in events_pane.LESSON_KINDS


def test_events_pane_refills_when_a_shown_event_gets_older_or_is_forgotten(monkeypatch):
    """Events do not change in time order: a shown event can move behind ones not shown (its
    time rewritten), or be the one the store forgets; the next newest must take its place.
    Among equal times the store's order decides, and a change moves an event to its end."""
    monkeypatch.setattr(events_pane, "MAX_EVENTS", 3)
    monkeypatch.setattr(store_module, "MAX_EVENTS", 5)
    st = Store()
    model = events_pane.LessonEvents()

    def put(ev: dict) -> None:
        assert st.apply(ObjectEvent("MODIFIED", ev, 1.0))
        assert [o.name(e) for e in model.update(st, o.namespace(ev))] == \
            [o.name(e) for e in events_pane.lesson_events(st, o.namespace(ev))]

    for i, when in enumerate(["2026-01-01T00:00:05Z", "2026-01-01T00:00:04Z", "2026-01-01T00:00:03Z",
                              "2026-01-01T00:00:02Z", "2026-01-01T00:00:01Z"]):
        put(_event(i, when))
    put(_event(0, "2026-01-01T00:00:00Z"))  # the newest becomes the oldest: ev-3 comes in
    put(_event(5, "2026-01-01T00:00:00Z"))  # the store forgets ev-1, shown: ev-4 comes in
    assert [o.name(e) for e in model.update(st, "infer")] == ["ev-2", "ev-3", "ev-4"]
    for i in (6, 7, 8):  # equal times: the order the store saw them in
        put(_event(i, "2026-01-01T00:00:09Z"))
    put(_event(6, "2026-01-01T00:00:09Z"))  # changed again: now the last of the three
    assert [o.name(e) for e in model.update(st, "infer")] == ["ev-7", "ev-8", "ev-6"]


def test_a_pod_whose_labels_change_moves_to_its_place():
    """The display order follows the labels (LWS, group, worker), not only pods coming and going."""
    st = Store()
    rows = pods_pane.PodRows()
    base = next(p for p in (it.obj for it in recording("walkthrough").items if isinstance(it, ObjectEvent))
                if o.kind(p) == "Pod" and o.lws_name(p))

    def put(name: str, group: str, rv: str) -> None:
        pod = copy.deepcopy(base)
        pod["metadata"].update(name=name, resourceVersion=rv)
        pod["metadata"]["labels"]["leaderworkerset.sigs.k8s.io/group-index"] = group
        assert st.apply(ObjectEvent("MODIFIED", pod, 1.0))
        rows.update(st, NS)
        assert rows.order == _rows_from_scratch(st)[0]

    for i, name in enumerate(["a", "b", "c"]):
        put(name, str(i), "1")
    put("a", "7", "2")
    assert rows.order == ["b", "c", "a"]


def test_gpu_holders_of_a_group_without_an_index_sort_among_group_0():
    """A pod with no group index sorts as group 0 on its node, between group 0's own pods; the
    holders of the first groups are found by reading only as far as they can be."""
    rows = [ledger_pane.LedgerRow(*row) for row in (
        ("a", "n", True, False, "x", None, 0, (("gpu", 1),)), ("b", "n", True, False, "x", 0, 1, (("gpu", 2),)),
        ("c", "n", True, True, "x", None, 2, (("gpu", 1),)), ("d", "n", True, False, "x", 0, 3, (("gpu", 1),)),
        ("e", "n", True, False, "x", 4, 0, (("gpu", 1),)), ("f", "n", True, False, "x", 3, 0, (("cpu", 1),)))]
    for shown in (1, 2, 3):
        holders = ledger_pane._NodeHolders()
        for row in rows:
            holders.change(row, row.holds("gpu"), 1)
        holders.change(rows[4], 1, -1)
        holders.change(rows[4], 1, 1)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ledger_pane, "MAX_GROUPS", shown)
            assert [x.plain for x in holders.lines()] == [x.plain for x in ledger_pane._holders(rows, "gpu")]
        assert (holders.used, holders.others) == (6, 1)


def _pane_widths(pods) -> list[int]:
    cells = [pods.cells(k) for k in pods.keys()]
    return [max([len(h)] + [render_len(c[i]) for c in cells]) for i, h in enumerate(pods_pane.POD_COLUMNS)]


def render_len(cell) -> int:
    return (cell if isinstance(cell, Text) else Text(str(cell))).cell_len


@pytest.mark.parametrize("journal", [journal_module.MAX_JOURNAL, 2])
async def test_the_panes_in_the_app_equal_a_rebuild_after_every_item(tmp_path, monkeypatch, journal):
    """The widgets themselves: the pods pane's rows, order and column widths, the groups pane's
    key and the events pane's blocks, after every item of the walkthrough, redrawn as a refresh
    redraws them. With a journal of 2 changes, most items overflow it: the panes rebuild."""
    monkeypatch.setattr(journal_module, "MAX_JOURNAL", journal)
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = app.session
        s.store.started_at = started_at("walkthrough")
        pods, events, groups = app.query_one("#pods"), app.query_one("#events"), app.query_one("#groups")
        ledger = app.query_one("#ledger")
        assert ledger.display  # step 1 shows it
        for item in recording("walkthrough").items:
            s.apply(item)
            app.lesson.redraw_live()
            order, cells = _rows_from_scratch(s.store)
            assert pods.keys() == order
            assert {k: tuple(map(_drawn, pods.cells(k))) for k in order} == cells
            assert pods._widths == _pane_widths(pods)
            assert groups._drawn_key.last == ("", groups_pane.groups_key(s.store, NS, app.lang))
            want = events_pane.event_blocks(s.store, NS, s.lang)
            assert [_drawn(b) for b in events._blocks] == [_drawn(b) for b in want]
            if ledger.display:
                view = ledger_pane.ledger_view(s.store, NS, GPU, app.lang, app.page.step_pods(), ledger.compact)
                assert [_drawn(b) for b in ledger._blocks] == [_drawn(b) for b in getattr(view, "renderables", [view])]
        assert pods.row_count and len(events._blocks) > 10
