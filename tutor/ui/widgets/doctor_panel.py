"""One dismissible panel for lab problems found at start-up, instead of a wall of errors."""

from __future__ import annotations

from rich.cells import cell_len
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
    _hints: tuple[str, str] = ("", "")  # how to hide it: whole, and short

    def compose(self):
        yield Static(id="doctor-body")

    @property
    def has_findings(self) -> bool:
        return self._findings is not None

    def label(self, title: str, hint: str, short: str = "") -> None:
        """Its border's words, in the learner's language: the title, and how to hide it (`short`
        where the whole `hint` would be cut)."""
        self.border_title = title
        self._hints = (hint, short or hint)
        self._fit_hint()

    def on_resize(self) -> None:
        self._fit_hint()

    def _fit_hint(self) -> None:
        hint, short = self._hints
        # the border's corners and a space each side of the words
        self.border_subtitle = hint if cell_len(hint) + 4 <= self.outer_size.width else short

    def shown(self, on: bool) -> None:
        """Shows or hides the panel; the side it sits in knows (tutor.tcss gives it room at 60x20)."""
        self.display = on
        if self.parent is not None:
            self.parent.set_class(on, "-with-panel")

    def show(self, findings: list, title: str, hint: str, short: str = "") -> bool:
        """Shows the failed findings; returns False (and stays hidden) when there are none."""
        bad = [f for f in findings if not f.ok]
        if not bad:
            return False
        self.shown(True)
        self.label(title, hint, short)
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
            self.label(title, hint)
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
