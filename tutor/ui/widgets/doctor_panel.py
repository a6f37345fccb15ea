"""One dismissible panel for lab problems found at start-up, instead of a wall of errors."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static


class DoctorPanel(VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def compose(self):
        yield Static(id="doctor-body")

    def show(self, findings: list, title: str, hint: str) -> bool:
        """Shows the failed findings; returns False (and stays hidden) when there are none."""
        bad = [f for f in findings if not f.ok]
        self.display = bool(bad)
        if not bad:
            return False
        self.border_title = title
        self.border_subtitle = hint
        t = Text()
        for f in bad:
            t.append("✗ ", style="bold red").append(f.title, style="bold")
            if f.detail:
                t.append(f": {f.detail}")
            t.append("\n")
            for fix in f.fix:
                t.append("  " + fix.replace("\n", "\n  ") + "\n", style="cyan")
        t.rstrip()
        self.query_one("#doctor-body", Static).update(t)
        return True
