"""The screen as plain text, line by line, as the terminal shows it (toasts included)."""

from __future__ import annotations

import io

from rich.console import Console


def screen_lines(app) -> list[str]:
    console = Console(file=io.StringIO(), width=app.size.width, height=app.size.height, record=True,
                      force_terminal=True, color_system="truecolor", legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text().splitlines()
