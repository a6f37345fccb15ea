"""The node ledger (g, and on the placement steps) and the explanation under FailedScheduling."""

from __future__ import annotations

import io

from rich.console import Console

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import on_screen, quiet, settled
from tutor.ui.screens.help import HelpScreen
from tutor.ui.panes.groups import GroupsPane
from tutor.ui.panes.ledger import NodeLedger


def _plain(renderable) -> str:
    console = Console(width=100, file=io.StringIO())
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def _ledger_text(app) -> str:
    return "\n".join(app.query_one(NodeLedger).lines())


async def test_ledger_on_placement_steps_and_g_switches_it(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 60)) as pilot:  # tall enough for a line per holding group
        await settled(pilot)
        await pilot.press("8")
        await pilot.pause()
        ledger, groups = app.query_one(NodeLedger), app.query_one(GroupsPane)
        assert ledger.display and not groups.display
        text = _ledger_text(app)
        # lab-server's four GPUs are held by llm's two groups; the KWOK nodes show their taint
        server = text[text.index("lab-server"):]
        assert "GPU 4/4" in server.splitlines()[0]
        assert "llm #0  llm-0, llm-0-1" in server and "llm #1  llm-1, llm-1-1" in server
        # on the node's line, which the pane's edge may cut: the line's whole text holds it
        assert ledger.text().count("⊘ kwok.x-k8s.io/node=fake:NoSchedule") == 2
        assert "orphan-0-1 (1 GPU)" in text  # the worker still waits
        await pilot.press("g")
        await pilot.pause()
        assert groups.display and not ledger.display
        await pilot.press("g")
        await pilot.pause()
        assert ledger.display and not groups.display
        # a step that is not about placement shows the groups; g shows the ledger there too
        await pilot.press("3")
        await pilot.pause()
        assert groups.display and not ledger.display
        await pilot.press("g")
        await pilot.pause()
        assert ledger.display
        await pilot.press("7")  # a new step decides again
        await pilot.pause()
        assert ledger.display and not groups.display
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        assert "Switch the groups pane and the node ledger" in _plain(app.screen.query_one("Static").content)


async def test_ledger_redraws_only_when_placement_changes(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        ledger = app.query_one(NodeLedger)
        drawn, before = ledger._drawn_key.last, ledger._blocks
        app.driver.recheck()  # nothing moved: the same key, the body is not updated
        await quiet(pilot)  # the refresh drawn, in its turns
        assert ledger._drawn_key.last is drawn and ledger._blocks is before


async def test_failed_scheduling_event_carries_the_explanation(tmp_path):
    for lang, words in (("en", "node by node, now:"), ("ko", "노드별로, 지금:")):
        app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / f"{lang}.json")
        async with app.run_test(size=(100, 40)) as pilot:
            await settled(pilot)
            text = app.query_one("#events").text()
            block = text[text.index("FailedScheduling pod/orphan-0-1"):]
            assert words in block
            assert "lab-server: nvidia.com/gpu" in block and "llm-0, llm-0-1" in block
            assert "gpu-a, gpu-b:" in block and "kwok.x-k8s.io/node=fake:NoSchedule" in block


def test_ledger_key_moves_with_placement_not_with_heartbeats():
    import copy

    from tests.states import state
    from tutor.cluster.source_events import ObjectEvent
    from tutor.ui.panes.ledger import ledger_key

    s = state("walkthrough")
    key = ledger_key(s.store, "infer")
    node = copy.deepcopy(s.store.get("Node", "gpu-a"))
    node["metadata"]["resourceVersion"] = "heartbeat"
    for c in node["status"].get("conditions", []):
        c["lastHeartbeatTime"] = "2030-01-01T00:00:00Z"
    s.store.apply(ObjectEvent("MODIFIED", node, s.store.now))
    assert ledger_key(s.store, "infer") == key  # a heartbeat: nothing to redraw
    cordoned = copy.deepcopy(node)
    cordoned["metadata"]["resourceVersion"] = "cordon"
    cordoned["spec"]["unschedulable"] = True
    s.store.apply(ObjectEvent("MODIFIED", cordoned, s.store.now))
    assert ledger_key(s.store, "infer") != key
    pod = copy.deepcopy(s.store.get("Pod", "orphan-0-1", "infer"))
    pod["metadata"]["resourceVersion"] = "status"
    pod["status"]["conditions"] = []
    before = ledger_key(s.store, "infer")
    s.store.apply(ObjectEvent("MODIFIED", pod, s.store.now))
    assert ledger_key(s.store, "infer") == before  # its status moved, not its placement
