"""The pods and events panes draw only what is in view; what they show must still be complete."""

from __future__ import annotations

import re

from textual import events

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import settled, until
from tutor.cluster import objects as o
from tutor.ui.panes.common import about_first
from tutor.ui.panes.events import lesson_events
from tutor.ui.panes.groups import groups_view
from tutor.ui.panes.pods import POD_COLUMNS


def _screen_line(widget, y: int) -> str:
    """Line y of a Line-API pane as a frame draws it."""
    return widget.render_line(y).text


def _header_ok(pods) -> bool:
    """The header line names the columns that fit, the pod and its phase among them."""
    shown = _screen_line(pods, 0).split()
    return len(shown) >= 4 and shown == pods.shown_columns() and {"pod", "phase"} <= set(shown)


async def test_pod_list_rows_cursor_and_scrolling(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        pods = app.query_one("#pods")
        store_pods = app.session.store.all("Pod", "infer")
        about = app.page.step_pods()  # the step's pods first
        assert pods.keys() == [o.name(p) for p in sorted(store_pods, key=lambda p: about_first(p, about))]
        for p in store_pods:
            cells = dict(zip(POD_COLUMNS, map(str, pods.cells(o.name(p)))))
            assert cells["uid"] == o.uid(p)[:8] and cells["revision"] == o.revision(p)[:10]
        assert _header_ok(pods)
        assert _screen_line(pods, 1).split()[0] == pods.keys()[0]
        # The rows do not fit: the cursor keys scroll them, the header stays.
        pods.focus()
        view = pods.scrollable_content_region.height - 1
        assert pods.row_count > view
        await pilot.press("ctrl+end")
        await until(pilot, lambda: pods.cursor_row == pods.row_count - 1 and pods.scroll_offset.y > 0,
                    "ctrl+end to the last row, scrolled", seen=lambda: (pods.cursor_row, pods.scroll_offset))
        last = pods.keys()[-1]
        assert _screen_line(pods, view).split()[0] == last
        assert _header_ok(pods)
        await pilot.press("ctrl+home", "down")
        await until(pilot, lambda: pods.cursor_row == 1 and pods.scroll_offset.y == 0, "ctrl+home and down to row 1",
                    seen=lambda: (pods.cursor_row, pods.scroll_offset))
        # The mouse wheel scrolls without moving the cursor.
        pods.post_message(events.MouseScrollDown(pods, x=1, y=1, delta_x=0, delta_y=0, button=0,
                                                 shift=False, meta=False, ctrl=False))
        await until(pilot, lambda: pods.scroll_offset.y > 0, "the wheel to scroll the pods",
                    seen=lambda: pods.scroll_offset)
        assert pods.cursor_row == 1


async def test_events_wrap_whole_messages(tmp_path):
    """Step 8 needs the whole FailedScheduling text: every word of every shown event is on one of
    the pane's lines, wrapped to its width, none cut."""
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 40)) as pilot:
        await settled(pilot)
        pane = app.query_one("#events")
        lines = pane.lines()
        width = pane.scrollable_content_region.width
        assert all(len(line) <= width for line in lines)
        shown = lesson_events(app.session.store, "infer")
        failed = [e for e in shown if o.event_reason(e) == "FailedScheduling"]
        assert failed and len(o.event_message(failed[0])) > width  # the case that must wrap
        flat = " ".join(" ".join(lines).split())
        for e in shown:
            assert " ".join(o.event_message(e).split()) in flat, o.event_message(e)
        assert pane.virtual_size.height == len(lines) > 2 * len(shown)
        # A line far down the pane is drawn once scrolled to.
        pane.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        y = pane.scroll_offset.y
        assert y > 0 and _screen_line(pane, 0).rstrip() == lines[y]
        assert re.search(r"\S", _screen_line(pane, pane.size.height - 1))


async def test_events_text_can_be_selected_with_the_mouse(tmp_path):
    """Dragging over the events pane selects the text under the mouse, as the Static it was."""
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 40)) as pilot:
        await settled(pilot)
        pane = app.query_one("#events")
        lines = pane.lines()
        # offsets count the border and the padding: content column c of line y is (c + 2, y + 1)
        await pilot.mouse_down("#events", offset=(3 + 2, 0 + 1))
        await pilot.hover("#events", offset=(9 + 2, 1 + 1))
        await pilot.mouse_up("#events", offset=(9 + 2, 1 + 1))
        await pilot.pause()
        picked = app.screen.get_selected_text()
        first, second = picked.split("\n")
        assert first.rstrip() == lines[0][3:] and lines[1].startswith(second) and len(second) >= 9, (picked, lines[:2])


def _groups_text(width: int) -> list[str]:
    import io

    from rich.console import Console

    from tests.states import state

    console = Console(width=width, record=True, file=io.StringIO())
    console.print(groups_view(state("walkthrough").store, "infer"))
    return console.export_text().splitlines()


def test_the_groups_of_one_lws_line_up_when_the_pane_is_wide_enough():
    lines = _groups_text(60)
    orphan = [ln for ln in lines if ln.startswith("  orphan-")]
    llm = [ln for ln in lines if ln.startswith("  llm-")]
    assert len(orphan) == 2 and len(llm) == 4
    for rows in (orphan, llm):  # the phase and node columns start at one place in every group
        assert len({ln.index("Running" if "Running" in ln else "Pending") for ln in rows}) == 1, rows
        assert len({ln.index("lab-server" if "lab-server" in ln else " - ") for ln in rows}) <= 2, rows
    assert len({ln.index("557f644b") for ln in llm}) == 1, llm
    # narrow, nothing is padded only to be cut: no "…" after blanks
    assert not any(re.search(r" {2,}…", ln) for ln in _groups_text(34))
