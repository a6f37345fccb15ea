"""The live panes' column: the panes that do not fit whole give way, from the bottom.

At 60x20 each pane has a fixed height or a least one (tutor.tcss), which together just fill the
column. A notice's line, or the lab check panel beside the lesson, takes rows from it, and Textual
then pushes the last pane below the screen: its bottom border and its last rows go unseen and
nothing says so. Here the events pane, then the pods pane, is hidden instead while the column is
too short for it; the groups pane (or the node ledger in its place) always stays."""

from __future__ import annotations

from textual.containers import Vertical
from textual.css.scalar import Unit
from textual.widget import Widget

GIVE_WAY = ("#pods", "#events")  # top to bottom: the last goes first


def rows_needed(pane: Widget) -> int:
    """The rows a pane takes at the least: its fixed height, else its min-height, else none."""
    for scalar in (pane.styles.height, pane.styles.min_height):
        if scalar is not None and scalar.unit is Unit.CELLS:
            return int(scalar.value)
    return 0


class LiveColumn(Vertical):
    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Shows the panes that fit whole in the column's height, hiding the others from the bottom."""
        room = self.size.height
        if not room:
            return  # not laid out yet
        top = [p for p in self.children if p.display and f"#{p.id}" not in GIVE_WAY]
        used = sum(rows_needed(p) for p in top)
        below = [self.query_one(pane_id) for pane_id in GIVE_WAY]
        needed = [rows_needed(p) for p in below]
        shown = len(below)
        while shown and used + sum(needed[:shown]) > room:
            shown -= 1
        for i, pane in enumerate(below):
            if pane.display != (i < shown):
                pane.display = i < shown
