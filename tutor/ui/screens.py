"""Modal screens: help (generated from the bindings) and a yes/no confirm, and what every screen
of ours over the lesson keeps to (ClosesItself)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.geometry import Size
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, Static
from tutor.ui.key_words import keyed


def bindings_table(bindings: list[Binding], title: str) -> Table:
    table = Table(title=title, show_header=False, box=None, expand=True, padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")  # fold, not an ellipsis, where a Korean word meets the edge
    for b in bindings:
        if not b.description:
            continue
        keys = b.key_display or ", ".join(k.strip() for k in b.key.split(","))
        table.add_row(keys, Text(b.description + (f" — {b.tooltip}" if b.tooltip else "")))
    return table


def breakpoint_classes(screen: Screen, size: Size) -> dict[str, bool]:
    """The breakpoint classes of a screen of `size` (its own breakpoints, else the app's): on
    each axis, the one with the largest threshold the size reaches, as Textual sets them at the
    screen's first resize."""
    classes: dict[str, bool] = {}
    for extent, own, apps in ((size.width, screen.HORIZONTAL_BREAKPOINTS, screen.app.HORIZONTAL_BREAKPOINTS),
                              (size.height, screen.VERTICAL_BREAKPOINTS, screen.app.VERTICAL_BREAKPOINTS)):
        points = (apps if own is None else own) or []
        reached = next((name for threshold, name in sorted(points, reverse=True) if extent >= threshold), None)
        classes.update({name: name == reached for _, name in points})
    return classes


class ClosesItself:
    """Mixed into every screen pushed over the lesson.

    It starts with the breakpoint classes of the app's size. Textual sets them on a pushed
    screen at its first resize, after its first layout, so a short terminal first showed it
    laid out for a tall one: the finish screen with every verdict's sentences, taken away a
    frame later (and a snapshot taken in between kept that frame's scrollbar).

    Textual's dismiss pops the screen on top, whichever it is, and the pop takes effect a turn
    later: a second esc, enter or n queued before it (keys arrive in bursts) dismissed the
    screen beneath, down to the lesson's own, and the app ended. A screen dismisses only
    itself, once; later keys do nothing. Its handlers find their widgets with query() (none
    once it is gone), never query_one(): a screen popped while it mounted still gets its mount
    event, its children already removed."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.update_classes(breakpoint_classes(self, self.app.size), animate=False)

    def dismiss(self, result=None) -> AwaitComplete:
        if not self.is_active:  # gone already, or another screen on top of it
            return AwaitComplete()
        return super().dismiss(result)


class HelpScreen(ClosesItself, ModalScreen[None]):
    BINDINGS = [keyed("escape,q,question_mark", "dismiss", ("Close", "닫기"), show=False)]

    def __init__(self, bindings: list[Binding], title: str, extra: str = ""):
        super().__init__()
        self._keys = bindings
        self._title = title
        self._extra = extra

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(bindings_table(self._keys, self._title))
            if self._extra:
                yield Static(Text(self._extra, style="dim"), id="help-extra")

    def on_click(self) -> None:
        self.dismiss()


class ConfirmScreen(ClosesItself, ModalScreen[bool]):
    BINDINGS = [keyed("y", "answer(True)", ("Yes", "예")), keyed("n,escape", "answer(False)", ("No", "아니요"))]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No"):
        super().__init__()
        self._question, self._yes, self._no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(self._question)
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self._yes} (y)", variant="error", id="yes")
                yield Button(f"{self._no} (n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
