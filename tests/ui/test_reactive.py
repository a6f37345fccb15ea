"""Verdicts and panes follow the data by themselves: no key press, no polling timer."""

from __future__ import annotations

import threading

from tests.conftest import WALKTHROUGH
from tests.ui.test_incremental import _segments
from tests.states import file_written, recording
from tests.ui.harness import make_app
from tests.ui.settle import settled
from tutor.checks.verdict import Status


async def test_a_source_change_updates_verdict_and_panes(tmp_path):
    rec = recording("walkthrough")
    cut = next(it.t for it in rec.items if file_written("names.txt")(it))
    app = make_app(WALKTHROUGH, upto=cut - 0.001, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        await pilot.press("2")
        assert app.session.verdicts[2].status is Status.FAIL
        table = app.query_one("#pods")
        assert table.row_count == 4 and "llm-1-1" in str(table.cells("llm-1-1")[0])
        runs = app.checks_run
        # A source thread delivers the learner's names.txt, exactly as the file watcher would.
        item = next(it for it in rec.items if file_written("names.txt")(it))
        threading.Thread(target=app.inbox.put, args=(item,)).start()
        for _ in range(100):
            await pilot.pause(0.05)
            if app.session.verdicts[2].status is Status.PASS:
                break
        assert app.session.verdicts[2].status is Status.PASS
        assert app.checks_run == runs + 1  # one debounced re-check, triggered by the data
        assert 2 in app.session.progress.passed
        assert "PASS" in app.query_one("#verdict").text()
        # a notice still up from step 1 is joined: one line names both
        assert {n.message for n in app._notifications} & {"✓ Steps 1, 2 passed", "✓ Step 2 passed: recap in the step"}
        # Nothing more happens while the data is still.
        await pilot.pause(0.5)
        assert app.checks_run == runs + 1


async def test_a_burst_is_one_recheck(tmp_path):
    rec = recording("walkthrough")
    app = make_app(WALKTHROUGH, upto=0.0, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        runs = app.checks_run
        def burst():
            for it in rec.items:
                app.inbox.put(it)
        t = threading.Thread(target=burst)
        t.start()
        t.join()
        for _ in range(100):
            await pilot.pause(0.05)
            if app._refresh_timer is None and app.checks_run > runs:
                break
        assert app.checks_run - runs <= 2, app.checks_run - runs
        # The end state of the lab passes every step, even seen in one go.
        assert all(v.status is Status.PASS for v in app.session.verdicts.values()), app.session.verdicts
        assert app.query_one("#pods").row_count == 10  # llm, wide and orphan pods


async def test_reconnecting_dims_the_panes_and_keeps_the_data(tmp_path):
    """What a source reports when the API server goes away: the header says so, the panes keep
    the last data, dimmed, and come back when the watch is OK again."""
    from tutor.cluster.events import Conn, SourceState

    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        rows = app.query_one("#pods").row_count
        app.inbox.put(SourceState("pods", Conn.RECONNECTING, "ConnectionRefusedError"))
        await pilot.pause(0.3)
        assert app.query_one("#live").has_class("-stale")
        assert "reconnecting" in str(app.query_one("#status").render())
        assert app.query_one("#pods").row_count == rows
        app.inbox.put(SourceState("pods", Conn.OK))
        await pilot.pause(0.3)
        assert not app.query_one("#live").has_class("-stale")


async def test_a_refresh_redraws_its_panes_in_turns_of_the_loop_and_ends_as_one(tmp_path, monkeypatch):
    """With no time for more than one pane per turn, a burst's refresh takes several turns of
    the loop; no second refresh starts and nothing is applied meanwhile (what comes is applied
    after), and the panes end as a refresh in one go draws them."""
    import tutor.ui.app as app_module

    rec = recording("walkthrough")
    cut = rec.items[len(rec.items) // 2].t

    async def panes(slice_s: float) -> tuple:
        monkeypatch.setattr(app_module, "REDRAW_SLICE", slice_s)
        app = make_app(WALKTHROUGH, upto=cut, state_file=tmp_path / f"p{slice_s}.json")
        turns, overlaps, applied_while_drawing, deferred, later = [], [], [], [], []
        redraw_turn, recheck, apply = app._redraw_turn, app.recheck, app.session.apply

        def noted_apply(item):
            applied_while_drawing.append(app.refreshing)
            return apply(item)

        def counted_turn(*args):
            turns.append(app.checks_run)
            deferred.append(app._drain_after_redraw)  # items came while the panes were drawn
            if later and app.checks_run > 1:  # the rest comes while the burst's refresh is drawn
                for it in later.pop():
                    app.inbox.put(it)
            redraw_turn(*args)

        def noted_recheck():
            overlaps.append(app.refreshing and app._refresh_timer is None)
            recheck()

        app._redraw_turn, app.recheck, app.session.apply = counted_turn, noted_recheck, noted_apply
        async with app.run_test(size=(100, 40)) as pilot:
            await settled(pilot)
            rest = [it for it in rec.items if it.t > cut]
            later.append(rest[len(rest) // 2:])
            threading.Thread(target=lambda: [app.inbox.put(it) for it in rest[:len(rest) // 2]]).start()
            for _ in range(200):
                await pilot.pause(0.05)
                if len(applied_while_drawing) >= len(rec.items) and not app.refreshing \
                        and app._refresh_timer is None:
                    break
            await pilot.pause(0.1)
            pods, events = app.query_one("#pods"), app.query_one("#events")
            shown = (tuple(pods.keys()), tuple(map(str, (pods.cells(k) for k in pods.keys()))), events.text(),
                     _segments(app.query_one("#groups-body").content))
        assert applied_while_drawing and not any(applied_while_drawing)  # one state per refresh
        return shown, turns, overlaps, deferred

    sliced, turns, overlaps, deferred = await panes(0.0)
    whole, whole_turns, _, _ = await panes(10.0)
    assert sliced == whole
    assert len(turns) > len(set(turns)) and len(whole_turns) == len(set(whole_turns))
    assert any(deferred) and not any(overlaps)
