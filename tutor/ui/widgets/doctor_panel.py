"""One dismissible panel for lab problems found at start-up, instead of a wall of errors."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static


class DoctorPanel(VerticalScroll):
    """The lab check's findings, and the notices too long for the notices' line (kept whole
    here, below the findings, until x hides the panel)."""

    ALLOW_MAXIMIZE = True
    can_focus = True
    _findings: Text | None = None
    _notes: tuple[str, ...] = ()

    def compose(self):
        yield Static(id="doctor-body")

    def shown(self, on: bool) -> None:
        """Shows or hides the panel; the side it sits in knows (tutor.tcss gives it room at 60x20)."""
        self.display = on
        if self.parent is not None:
            self.parent.set_class(on, "-with-panel")

    def show(self, findings: list, title: str, hint: str) -> bool:
        """Shows the failed findings; returns False (and stays hidden) when there are none."""
        bad = [f for f in findings if not f.ok]
        if not bad:
            return False
        self.shown(True)
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
        self._findings = t
        self._draw()
        return True

    def note(self, text: str, title: str, hint: str) -> None:
        """A notice kept whole (the same one once), the newest last; the panel shows."""
        if text not in self._notes:
            self._notes = (*self._notes, text)
        if self._findings is None:
            self.border_title, self.border_subtitle = title, hint
        self.shown(True)
        self._draw()

    def _draw(self) -> None:
        t = Text()
        if self._findings is not None:
            t.append_text(self._findings)
        for note in self._notes:
            if t:
                t.append("\n")
            t.append("! ", style="bold yellow").append(note)
        for body in self.query("#doctor-body").results(Static):
            body.update(t)
