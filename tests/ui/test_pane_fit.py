"""The live panes at half a laptop: what a learner must read stays whole at 60 to 160 columns, in
Korean and in English (the pods' names and phases, the nodes' names and GPUs)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.moments import moments
from tests.ui.screen_text import region_text
from tests.ui.settle import settled, step_drawn, until
from tutor.cluster import objects as o
from tutor.cluster import resources as res
from tutor.i18n.bilingual import say
from tutor.ui.panes.ledger import NodeLedger
from tutor.ui.panes.pods import HEADERS, POD_COLUMNS, PodList

SIZES = [(60, 20), (80, 24), (100, 30), (160, 40)]


@pytest.mark.parametrize("moment,step", [("group0-recreated", 5), ("rollout-underway", 6)])
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_pod_rows_keep_name_and_phase_whole(tmp_path, size, lang, moment, step):
    app = make_app(WALKTHROUGH, lang=lang, upto=moments()[moment], state_file=tmp_path / "p.json")
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        await pilot.press(str(step))
        await step_drawn(pilot, step)
        pods = app.query_one(PodList)

        def drawn() -> list[str]:
            return region_text(app, pods.scrollable_content_region).splitlines()
        await until(pilot, lambda: drawn() and say(lang, *HEADERS["pod"]) in drawn()[0], "the pods pane drawn",
                    seen=drawn)
        lines = drawn()
        # the header: whole words, in the learner's language, in the columns' order
        headers = [say(lang, *HEADERS[h]) for h in POD_COLUMNS]
        shown = lines[0].split()
        assert shown and all(word in headers for word in shown), (lines[0], headers)
        assert [headers.index(w) for w in shown] == sorted(headers.index(w) for w in shown)
        assert say(lang, *HEADERS["pod"]) in shown and say(lang, *HEADERS["phase"]) in shown
        rows = [k for k in pods.keys()][pods.scroll_offset.y:][:len(lines) - 1]
        assert rows, lines
        for key, line in zip(rows, lines[1:]):
            cells = pods.cells(key)
            assert line.split()[0] == key and str(cells.pod) in line, (key, line)
            assert f" {cells.phase.plain} " in f"{line} ", (key, line)


@pytest.mark.parametrize("step,nodes", [(7, ["gpu-a", "gpu-b"]), (8, ["lab-server"])])
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_nodes_a_line_each_and_the_steps_nodes_in_view(tmp_path, size, lang, step, nodes):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        await pilot.press(str(step))
        await step_drawn(pilot, step)
        ledger = app.query_one(NodeLedger)
        assert ledger.display

        def drawn() -> list[str]:
            return region_text(app, ledger.scrollable_content_region).splitlines()
        await until(pilot, lambda: any(re.match(r"\s*[●✗] \S+ GPU", line) for line in drawn()), "the ledger drawn",
                    seen=drawn)
        shown = drawn()
        store = app.session.store
        gpu = app.session.lesson.gpu_resource
        heads = {}
        for line in shown:
            m = re.match(r"\s*[●✗] (\S+) GPU (\d+)/(\d+)\b", line)
            if m:
                assert m.group(1) not in heads, shown  # a node once
                heads[m.group(1)] = (int(m.group(2)), int(m.group(3)))
            else:  # no line of a node's taint alone, nor a node's head cut before its GPUs
                assert "⊘" not in line and not line.lstrip().startswith(("●", "✗")), shown
        for name in nodes:
            assert name in heads, (name, shown)
            node = next(n for n in store.all("Node") if o.name(n) == name)
            assert heads[name][1] == res.capacity(node, gpu)
