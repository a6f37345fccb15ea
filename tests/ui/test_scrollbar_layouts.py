"""A pane's scrollbar takes its new size in the layout that gives the pane its own: one layout of
the screen, not two (tutor/ui/textual_compat.py: scrollbars_sized_in_one_layout). Textual's
scrollbar set its size as a layout reactive, and a verdict growing beside a lesson that scrolls
laid the whole screen out a second time to find the same arrangement."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tests.ui.settle import still, until
from tutor.ui.textual_compat import SizedInOneLayout  # the compat module sets the scrollbars on import


class Grows(SizedInOneLayout, Static):
    """As the verdict's body grows: its own new size asks for no second layout."""


class GrowingBesideAScroll(App):
    CSS = "#grows { height: auto; } #pane { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield Grows("one line", id="grows")
        with VerticalScroll(id="pane"):
            yield Static("\n".join(f"line {i}" for i in range(100)))


async def test_a_pane_made_shorter_lays_the_screen_out_once_with_its_scrollbar():
    app = GrowingBesideAScroll()
    async with app.run_test(size=(40, 20)) as pilot:
        pane = app.query_one("#pane", VerticalScroll)
        await until(pilot, lambda: pane.size.height == 19 and pane.vertical_scrollbar.size.height == 19,
                    "the pane and its scrollbar laid out under one line", seen=lambda: pane.size)
        layouts: list[object] = []
        app.screen.screen_layout_refresh_signal.subscribe(app.screen, layouts.append)
        app.query_one(Grows).update("three\nlines\nnow")
        await until(pilot, lambda: pane.size.height == 17, "the pane two rows shorter", seen=lambda: pane.size)
        await until(pilot, lambda: pane.vertical_scrollbar.size.height == 17, "its scrollbar as tall as the pane",
                    seen=lambda: pane.vertical_scrollbar.size)
        await still(pilot, lambda: len(layouts) == 1, "one layout of the screen for the new height")
        assert pane.vertical_scrollbar.window_size == 17, "the thumb is set for the pane's new height"
