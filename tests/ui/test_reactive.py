"""Verdicts and panes follow the data by themselves: no key press, no polling timer."""

from __future__ import annotations

import threading
import time

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.test_incremental import _segments
from tests.states import file_written, recording
from tests.ui.harness import empty_recording, make_app
from tests import waits
from tests.ui.settle import settled, still, until
from tutor.checks.verdict import Status
from tutor.ui.refresh.oracle import compare


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
        runs = app.driver.checks_run
        # A source thread delivers the learner's names.txt, exactly as the file watcher would.
        item = next(it for it in rec.items if file_written("names.txt")(it))
        threading.Thread(target=app.driver.inbox.put, args=(item,)).start()
        await until(pilot, lambda: app.session.verdicts[2].status is Status.PASS, "step 2 to pass on names.txt",
                    seen=lambda: app.session.verdicts[2])
        assert app.driver.checks_run == runs + 1  # one debounced re-check, triggered by the data
        assert 2 in app.session.progress.passed
        assert "PASS" in app.query_one("#verdict").text()
        # a notice still up from step 1 is joined: one line names both
        # (the step shown passed alone: its notice offers the solution to compare)
        assert {n.message for n in app.notices} & {"✓ Steps 1, 2 passed",
                                                          "✓ Step 2 passed: recap in the step · s compares solutions"}
        # Nothing more happens while the data is still.
        await still(pilot, lambda: app.driver.checks_run == runs + 1, "no re-check while the data is still")


async def test_a_burst_is_one_recheck(tmp_path):
    """The whole walkthrough at once: one refresh when it starts and one when it is applied, and
    in between at most one per PROGRESS_EVERY while it lasts (a loaded machine applies it slower;
    tests/test_pump.py holds the pacing on a fake clock)."""
    from tutor.ui.refresh.pump import PROGRESS_EVERY

    rec = recording("walkthrough")
    app = make_app(WALKTHROUGH, upto=0.0, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        runs = app.driver.checks_run
        def burst():
            for it in rec.items:
                app.driver.inbox.put(it)
        t = threading.Thread(target=burst)
        started = time.monotonic()
        t.start()
        t.join()
        # every item applied, its refresh drawn
        await until(pilot, lambda: app.driver.pump.idle and app.driver.checks_run > runs, "the burst applied and drawn",
                    waits.REPLAY, seen=lambda: (app.driver.pump.idle, app.driver.checks_run - runs))
        lasted = app.driver.pump.refreshed_at - started
        assert app.driver.checks_run - runs <= 2 + int(lasted / PROGRESS_EVERY), (app.driver.checks_run - runs, lasted)
        # The end state of the lab passes every step, even seen in one go.
        assert all(v.status is Status.PASS for v in app.session.verdicts.values()), app.session.verdicts
        assert app.query_one("#pods").row_count == 10  # llm, wide and orphan pods
        assert compare(app) == []  # and every pane says what the store holds


async def test_reconnecting_dims_the_panes_and_keeps_the_data(tmp_path):
    """What a source reports when the API server goes away: the header says so, the panes keep
    the last data, dimmed, and come back when the watch is OK again."""
    from tutor.cluster.source_events import Conn, SourceState

    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        rows = app.query_one("#pods").row_count
        app.driver.inbox.put(SourceState("pods", Conn.RECONNECTING, "ConnectionRefusedError"))
        await until(pilot, lambda: app.query_one("#live").has_class("-stale"), "the panes dimmed")
        await until(pilot, lambda: "reconnecting" in str(app.query_one("#status").render()),
                    "the header to say reconnecting", seen=lambda: str(app.query_one("#status").render()))
        assert app.query_one("#pods").row_count == rows
        app.driver.inbox.put(SourceState("pods", Conn.OK))
        await until(pilot, lambda: not app.query_one("#live").has_class("-stale"), "the panes back from dimmed")


async def _redrawn_in_turns(tmp_path, monkeypatch, slice_s: float, overtaken: bool = False):
    """The walkthrough from half-way: the first half of the rest sent by a source thread, the
    second while the burst's refresh is drawn; the screen once every item was applied and drawn,
    with how the refresh went. `overtaken`: the thread is held after its first item until the
    second half was sent, as a loaded machine once held it (the second half then overtakes it)."""
    import tutor.ui.refresh.pump as pump_module

    rec = recording("walkthrough")
    cut = rec.items[len(rec.items) // 2].t
    monkeypatch.setattr(pump_module, "REDRAW_SLICE", slice_s)
    app = make_app(WALKTHROUGH, upto=cut, state_file=tmp_path / f"p{slice_s}{overtaken}.json")
    turns, overlaps, applied_while_drawing, deferred, later = [], [], [], [], []
    redraw_turn, recheck, apply = app.driver.pump._turn, app.driver.run_checks, app.session.apply
    sent_later = threading.Event()
    applied_ids = set()

    def noted_apply(item):
        applied_while_drawing.append(app.driver.refreshing)
        applied_ids.add(id(item))
        return apply(item)

    def counted_turn(*args):
        turns.append(app.driver.checks_run)
        deferred.append(app.driver.pump.drain_after_redraw)  # items came while the panes were drawn
        if later and app.driver.checks_run > 1:  # the rest comes while the burst's refresh is drawn
            for it in later.pop():
                app.driver.inbox.put(it)
            sent_later.set()
        redraw_turn(*args)

    def noted_recheck():
        overlaps.append(app.driver.refreshing and app.driver.pump.timer is None)
        return recheck()

    app.driver.pump._turn, app.driver.run_checks, app.session.apply = counted_turn, noted_recheck, noted_apply
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        rest = [it for it in rec.items if it.t > cut]
        first = rest[:len(rest) // 2]
        later.append(rest[len(rest) // 2:])

        def send_first():
            app.driver.inbox.put(first[0])
            if overtaken:
                sent_later.wait(30)
            for it in first[1:]:
                app.driver.inbox.put(it)

        source = threading.Thread(target=send_first)
        source.start()
        if not overtaken:
            # Every item of the first half is in the inbox before the loop's next turn, so no
            # refresh can send the second half ahead of it. (A source thread left to run beside
            # the loop was once overtaken on a loaded machine: llm-0-1's new pod came before its
            # old one was deleted, and the store, rightly, showed it as the events came.)
            source.join()
        # Until everything came and was drawn: on a loaded machine (a whole run on two
        # workers) that took more than the 10 s this once waited, and the panes were compared
        # half-way through the last refresh.
        await until(pilot, lambda: all(id(it) in applied_ids for it in rest) and app.driver.pump.idle,
                    "the rest of the walkthrough applied and drawn", waits.REPLAY,
                    seen=lambda: (sum(id(it) in applied_ids for it in rest), len(rest), app.driver.pump.idle))
        await settled(pilot)
        source.join()
        assert compare(app) == []  # every pane says what the store holds
        pods, events = app.query_one("#pods"), app.query_one("#events")
        shown = (tuple(pods.keys()), tuple(map(str, (pods.cells(k) for k in pods.keys()))), events.text(),
                 _segments(app.query_one("#groups").content))
        llm01 = (str(pods.cells("llm-0-1").pod), str(pods.cells("llm-0-1").phase))
    assert applied_while_drawing and not any(applied_while_drawing)  # one state per refresh
    return shown, turns, overlaps, deferred, llm01


async def test_a_refresh_redraws_its_panes_in_turns_of_the_loop_and_ends_as_one(tmp_path, monkeypatch):
    """With no time for more than one pane per turn, a burst's refresh takes several turns of
    the loop; no second refresh starts and nothing is applied meanwhile (what comes is applied
    after), and the panes end as a refresh in one go draws them."""
    sliced, turns, overlaps, deferred, llm01 = await _redrawn_in_turns(tmp_path, monkeypatch, 0.0)
    whole, whole_turns, _, _, _ = await _redrawn_in_turns(tmp_path, monkeypatch, 10.0)
    assert sliced == whole
    assert llm01 == ("llm-0-1 ↻2", "Running")  # as the walkthrough ends
    assert len(turns) > len(set(turns)) and len(whole_turns) == len(set(whole_turns))
    assert any(deferred) and not any(overlaps)


@pytest.mark.parametrize("slice_s", [0.0, 10.0], ids=["sliced", "whole"])
async def test_a_source_overtaken_by_the_rest_shows_the_pod_as_the_events_came(tmp_path, monkeypatch, slice_s):
    """The mismatch a loaded machine once gave the test above (the sliced run showed llm-0-1 ↻2
    Running, the whole one llm-0-1 ↻4 Pending), made on purpose: the thread sending the first
    half is held after its first item until the second half was sent. The store then sees
    llm-0-1's newest pod (13fc473e, Pending, then Running) before the pod it replaced (d6f9195b)
    fails and is deleted, and that pod's last events after: five UIDs in turn, the last one
    Pending. Every pane shows exactly that; the screen was not stale, the test's source had sent
    the walkthrough out of order."""
    _, _, _, _, llm01 = await _redrawn_in_turns(tmp_path, monkeypatch, slice_s, overtaken=True)
    assert llm01 == ("llm-0-1 ↻4", "Pending")


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_before_the_cluster_first_answers_the_verdict_says_so(lang, tmp_path):
    """A cluster that refuses from the start: no verdict can be had, and the verdict pane says
    why in the learner's language instead of "checking…" for ever; once the cluster answers, the
    pane says it checks."""
    from tutor.cluster.source_events import Conn, SourceState
    from tutor.cluster.failure import describe

    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        # The replay's source starts after the first frame and says it listed (listed_once): on
        # a loaded machine, later than a fixed pause, and then over the state set below.
        await settled(pilot)
        # as a live start before the first list (tutor/commands/tui.py): nothing judged yet
        app.session.verdicts.clear()
        app.session.awaiting_lists, app.session.listed_once = {"pods"}, False
        failure = describe(ConnectionRefusedError(111, "Connection refused"), "https://127.0.0.1:1")
        app.driver.inbox.put(SourceState("pods", Conn.RECONNECTING, "ConnectionRefusedError", failure=failure))
        want = {"ko": "클러스터가 응답하지 않습니다", "en": "the cluster does not answer"}[lang]

        def said() -> str:
            return " ".join(app.query_one("#verdict").text().split())
        await until(pilot, lambda: want in said(), "the verdict to say the cluster does not answer", seen=said)
        assert "checking" not in said() and "확인 중" not in said(), said()
        app.driver.inbox.put(SourceState("pods", Conn.OK))
        await until(pilot, lambda: want not in said(), "the verdict to stop saying so", seen=said)
