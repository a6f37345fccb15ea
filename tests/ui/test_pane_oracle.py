"""The pane-vs-store oracle (tutor/ui/refresh/oracle.py), and the stale panes it was made to catch: a pane
drawn from a state that was then replaced without a redraw."""

from __future__ import annotations

from tests.conftest import WALKTHROUGH
from tests.states import recording
from tests.ui.harness import make_app
from tests.ui.settle import settled, until
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent
from tutor.ui.refresh.oracle import compare


def _wide_pod_item(rec):
    """The first item that adds a pod of the `wide` LWS (step 7's), and the time just before it."""
    i = next(i for i, it in enumerate(rec.items) if isinstance(it, ObjectEvent) and it.type == "ADDED"
             and o.kind(it.obj) == "Pod" and o.name(it.obj).startswith("wide-"))
    return rec.items[i], rec.items[i - 1].t


async def _idle_on(pilot, step: int) -> None:
    """Waits until step `step` is the current one and the pump has redrawn for it."""
    app = pilot.app
    await until(pilot, lambda: app.session.progress.current == step and app.driver.pump.idle, f"step {step}, the pump idle",
                seen=lambda: (app.session.progress.current, app.driver.pump.idle))


async def test_every_pane_equals_its_rebuild_from_the_store_after_the_walkthrough(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert compare(app) == []
        for step in ("7", "8"):  # the steps that show the node ledger in the groups pane's place
            await pilot.press(step)
            await _idle_on(pilot, int(step))
            assert compare(app) == []


async def test_the_oracle_names_the_pane_and_the_row_of_a_stale_pod(tmp_path):
    """A pod the store replaced under the pane, with nothing redrawn: the oracle names the pane,
    the pod's row, both versions and the store's object."""
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        store = app.session.store
        pod = store.get("Pod", "llm-0-1", "infer")
        pending = {**pod, "metadata": {**pod["metadata"], "resourceVersion": "999999"},
                   "status": {**pod["status"], "phase": "Pending"}}
        store.apply(ObjectEvent("MODIFIED", pending, store.now))  # behind the pump's back: no refresh
        found = compare(app)
        assert [(m.pane, m.row) for m in found if m.pane == "pods"] == [("pods", "llm-0-1")]
        m = next(m for m in found if m.pane == "pods")
        assert "Running" in m.shown and "Pending" in m.rebuilt and m.obj is pending
        app.driver.recheck()
        await until(pilot, lambda: app.driver.pump.idle and compare(app) == [], "the re-check to redraw the stale pod's row",
                    seen=lambda: compare(app))


async def test_a_step_chosen_while_a_refresh_is_drawn_leaves_no_pane_drawn_for_the_step_before(tmp_path, monkeypatch):
    """The ledger orders the nodes the step is about first. A refresh drawn in turns read the step
    when it began; the learner chose step 8 between two turns, and the step's keys redrew every
    pane for step 8 at once; the refresh then went on and drew the ledger for step 7 over it,
    which stayed until the cluster next changed."""
    import tutor.ui.refresh.pump as pump_module

    monkeypatch.setattr(pump_module, "REDRAW_SLICE", 0.0)  # a turn of the loop after every pane
    rec = recording("walkthrough")
    item, before = _wide_pod_item(rec)
    app = make_app(WALKTHROUGH, upto=before, state_file=tmp_path / "p.json")
    turns = []
    real_turn = app.driver.pump._turn

    def turn(*args):
        turns.append(app.driver.checks_run)
        if len(turns) == 2:  # the refresh drew its first pane (the groups, followed while hidden)
            app.lesson.action_goto(8)  # a key between two turns, as the learner presses it
        real_turn(*args)

    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        await pilot.press("7")
        await _idle_on(pilot, 7)
        assert app.query_one("#ledger").display and compare(app) == []
        app.driver.pump._turn = turn
        app.driver.inbox.put(item)  # a wide pod comes: a pod changed, every pane has something to redo
        await until(pilot, lambda: len(turns) >= 2 and app.driver.pump.idle, "the refresh drawn in turns to end",
                    seen=lambda: (turns, app.driver.pump.idle))
        app.driver.pump._turn = real_turn
        assert app.session.progress.current == 8 and app.query_one("#ledger").display
        assert compare(app) == []


async def test_behind_the_flag_each_settled_refresh_is_compared_and_a_mismatch_dumped(tmp_path, monkeypatch):
    """LWSTUTOR_ORACLE names a file: the whole walkthrough replayed is compared after its settled
    refreshes with no mismatch; a pods pane that stopped following the store is caught at the
    next refresh, dumped with the pane, the row, the store's object and the last items, and
    counted."""
    import json

    from tutor.ui.panes.pods import PodList

    dump = tmp_path / "mismatches.jsonl"
    monkeypatch.setenv("LWSTUTOR_ORACLE", str(dump))
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert app.driver.oracle.checks >= 1 and app.driver.oracle.mismatches == 0 and not dump.exists()
        monkeypatch.setattr(PodList, "redraw", lambda self, live: iter(()))  # a pane that misses a change
        pod = app.session.store.get("Pod", "llm-0-1", "infer")
        pending = {**pod, "metadata": {**pod["metadata"], "resourceVersion": "999999"},
                   "status": {**pod["status"], "phase": "Pending"}}
        app.driver.inbox.put(ObjectEvent("MODIFIED", pending, app.session.store.now))
        await until(pilot, lambda: app.driver.oracle.mismatches > 0, "the oracle to count the stale pods pane")
        found = [json.loads(line) for line in dump.read_text().splitlines()]
        m = next(m for m in found if m["pane"] == "pods")
        assert m["row"] == "llm-0-1" and "Running" in m["shown"] and "Pending" in m["store"]
        assert m["object"]["metadata"]["resourceVersion"] == "999999"
        assert m["last_items"][-1].startswith("MODIFIED Pod llm-0-1") and "rv=999999" in m["last_items"][-1]
