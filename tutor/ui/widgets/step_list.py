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
    "unconfirmed": ("?", "bold cyan"),  # neither passed nor failed: it cannot be confirmed
    "not-started": ("·", "dim"),
}


def step_strip(rows: list[tuple[int, str, str]], current: int) -> str:
    """The steps on one line, "1✓ 2✓ 3✗ 4· …", the current one highlighted (markup): where the
    learner is when the step list has no room (a short terminal), in the lesson pane's border."""
    cells = []
    for number, _, mark in rows:
        sign, style = MARKS[mark]
        cell = f"{number}[{style}]{sign}[/]"
        cells.append(f"[reverse] {cell} [/]" if number == current else cell)
    return " ".join(cells)


class StepList(RedrawsOnChange, OptionList):
    """Highlights the current step; selecting one jumps to it (the app handles the message)."""

    def show(self, rows: list[tuple[int, str, str]], current: int) -> None:
        if self._is_new((rows, current)):  # else the options stay as they are
            self._label(rows)
        if self.highlighted != current - 1:
            self.highlighted = current - 1

    def _label(self, rows: list[tuple[int, str, str]]) -> None:
        labels = [Text.assemble((f"{MARKS[mark][0]} ", MARKS[mark][1]), (f"{number}. ", "dim"), title)
                  for number, title, mark in rows]
        ids = [f"step-{number}" for number, _, _ in rows]
        if [opt.id for opt in self.options] == ids:
            # The same steps, a mark or a title changed: the prompts alone, which repaints the
            # list; clearing and adding the options would lay out the whole screen.
            for i, label in enumerate(labels):
                if self.get_option_at_index(i).prompt != label:
                    self.replace_option_prompt_at_index(i, label)
        else:
            self.clear_options()
            self.add_options([Option(label, id=i) for label, i in zip(labels, ids)])
