"""The screen as plain text, line by line, as the terminal shows it (toasts included)."""

from __future__ import annotations

import io

from rich.cells import get_character_cell_size
from rich.console import Console


def screen_lines(app) -> list[str]:
    console = Console(file=io.StringIO(), width=app.size.width, height=app.size.height, record=True,
                      force_terminal=True, color_system="truecolor", legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text().splitlines()


def cells(line: str, start: int, end: int) -> str:
    """The characters of a line between two cell columns (a Korean character is two cells)."""
    out, x = [], 0
    for ch in line:
        if start <= x and x + get_character_cell_size(ch) <= end:
            out.append(ch)
        x += get_character_cell_size(ch)
    return "".join(out)


def region_text(app, region) -> str:
    """What the screen shows in a region, a line of text per row."""
    return "\n".join(cells(line, region.x, region.right) for line in screen_lines(app)[region.y:region.bottom])


def notices_read(app) -> str:
    """The notices' line as the learner reads it, "" when it is hidden (or shown and not laid out
    yet, when its region is not its row). Runs of spaces read as one: the line moves a word a
    cell on when a Korean character of it would stand across an edge of the panes beneath."""
    bar = app.query_one("#notices")
    if not bar.display or bar not in app.screen._compositor.visible_widgets:
        return ""
    return " ".join(screen_lines(app)[bar.region.y].split())
