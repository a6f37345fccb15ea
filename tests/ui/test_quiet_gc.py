"""Full collections wait for a quiet moment, and the app leaves the collector as it found it."""

from __future__ import annotations

import asyncio
import gc
from contextlib import contextmanager

from tests import waits
from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import settled
from tutor.ui.refresh.quiet_gc import NEVER, QuietCollector


@contextmanager
def started_collector():
    """A started QuietCollector and the list of full collections that ran meanwhile; on leaving,
    the collector is stopped and the thresholds must be back as they were."""
    saved = gc.get_threshold()
    full = []

    def note(phase, info):
        if phase == "stop" and info["generation"] == 2:
            full.append(info)

    qc = QuietCollector()
    qc.start()
    gc.callbacks.append(note)
    try:
        assert gc.get_threshold() == (saved[0], saved[1], NEVER)
        yield qc, full
    finally:
        gc.callbacks.remove(note)
        qc.stop()
    assert gc.get_threshold() == saved


async def test_a_full_collection_runs_once_refreshes_stop():
    with started_collector() as (qc, full):
        qc.busy()
        qc.busy()  # a second refresh replaces the first's pending collection
        await waits.until(asyncio.sleep, lambda: full, "a full collection")
        assert len(full) == 1


async def test_a_busy_stream_still_collects_in_full_after_the_longest_wait(monkeypatch):
    import tutor.ui.refresh.quiet_gc as quiet_gc

    monkeypatch.setattr(quiet_gc, "LONGEST", 0.2)
    with started_collector() as (qc, full):
        # refreshes every 0.1 s: never quiet for QUIET seconds, yet a full collection comes
        async def a_refresh_later(_step: float) -> None:
            qc.busy()
            await asyncio.sleep(0.1)

        qc.busy()
        await waits.until(a_refresh_later, lambda: full, "a full collection in a stream of refreshes")


async def test_the_app_restores_the_thresholds(tmp_path):
    saved = gc.get_threshold()
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert gc.get_threshold()[2] == NEVER
    assert gc.get_threshold() == saved


async def test_collections_held_at_start_up_run_again_once_the_first_frame_is_up(tmp_path):
    from tutor.ui.refresh.quiet_gc import hold_until_first_frame

    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    hold_until_first_frame()
    try:
        assert not gc.isenabled()
        async with app.run_test(size=(100, 40)) as pilot:
            await settled(pilot)
            assert gc.isenabled()
            assert gc.get_freeze_count() > 0  # start-up's objects: no collection walks them again
    finally:
        gc.enable()
        gc.unfreeze()


async def test_an_app_started_without_the_hold_freezes_nothing(tmp_path):
    frozen = gc.get_freeze_count()
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_a_tui_that_cannot_start_lets_collections_run_again(tmp_path):
    from tutor.cli import main

    assert main(["--replay", str(tmp_path / "missing.jsonl")]) == 2
    assert gc.isenabled()
    assert main(["--replay", str(WALKTHROUGH), "--state-file", str(tmp_path)]) == 2  # a directory: refused
    assert gc.isenabled()


@contextmanager
def freezing_collector(monkeypatch):
    """A collector as the CLI's app runs it: start-up held, then released at the first frame,
    from when each quiet collection freezes what survived it."""
    import tutor.ui.refresh.quiet_gc as quiet_gc

    monkeypatch.setattr(quiet_gc, "QUIET", 0.01)
    quiet_gc.hold_until_first_frame()
    try:
        with started_collector() as (qc, full):
            qc.first_frame()
            yield qc, full
    finally:
        gc.enable()
        gc.unfreeze()


async def quiet_collection(qc, full) -> None:
    runs = len(full)
    qc.busy()
    await waits.until(asyncio.sleep, lambda: len(full) > runs, "a quiet collection")


async def test_what_a_quiet_collection_leaves_is_frozen_for_the_next(monkeypatch):
    with freezing_collector(monkeypatch) as (qc, full):
        kept = [[i] for i in range(5000)]  # what a store builds after start-up (tracked objects)
        before = gc.get_freeze_count()
        await quiet_collection(qc, full)
        assert gc.get_freeze_count() > before + len(kept) - 100  # (a few frozen ones were freed meanwhile)


async def test_cyclic_garbage_frozen_waits_for_the_thorough_collection(monkeypatch):
    import weakref

    import tutor.ui.refresh.quiet_gc as quiet_gc

    class Node:
        pass

    with freezing_collector(monkeypatch) as (qc, full):
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only the collector frees it
        gone = weakref.ref(a)
        await quiet_collection(qc, full)  # frozen while still in use
        del a, b
        await quiet_collection(qc, full)
        assert gone() is not None  # frozen: a quiet collection does not walk it
        monkeypatch.setattr(quiet_gc, "THOROUGH", 0.0)
        await quiet_collection(qc, full)
        assert gone() is None
