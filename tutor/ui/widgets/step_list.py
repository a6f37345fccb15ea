"""The step list with a status mark per step."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tutor.ui.widgets.redraw import RedrawsOnChange

MARKS = {
    "passed": ("✓", "bold green"),
    "fail": ("✗", "bold red"),
    "waiting": ("…", "bold yellow"),
    "error": ("!", "bold magenta"),
    "not-started": ("·", "dim"),
}


class StepList(RedrawsOnChange, OptionList):
    """Highlights the current step; selecting one jumps to it (the app handles the message)."""

    def show(self, rows: list[tuple[int, str, str]], current: int) -> None:
        if not self._is_new((rows, current)):  # nothing new: keep the options
            if self.highlighted != current - 1:
                self.highlighted = current - 1
            return
        options = []
        for number, title, mark in rows:
            sym, style = MARKS[mark]
            label = Text.assemble((f"{sym} ", style), (f"{number}. ", "dim"), title)
            options.append(Option(label, id=f"step-{number}"))
        highlighted = self.highlighted
        self.clear_options()
        self.add_options(options)
        self.highlighted = current - 1 if highlighted is None or highlighted != current - 1 else highlighted
