"""The live verdict of the current step: status, message and details."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tutor.checks.verdict import Status, Verdict
from tutor.ui.widgets.redraw import RedrawsOnChange

MAX_DETAILS = 30  # the box shows this many detail lines, then how many more there are
MAX_CHARS = 2000

STYLE = {Status.PASS: ("PASS", "bold green"), Status.FAIL: ("FAIL", "bold red"),
         Status.WAITING: ("WAIT", "bold yellow"), Status.ERROR: ("ERROR", "bold magenta")}


class VerdictBox(RedrawsOnChange, Static):
    def show(self, verdict: Verdict | None, latched: bool, labels: dict[str, str]) -> None:
        # Verdicts are frozen dataclasses: an equal one draws the same box, so skip the relayout.
        if not self._is_new((verdict, latched, labels)):
            return
        for cls in ("-pass", "-fail", "-waiting", "-error"):
            self.remove_class(cls)
        t = Text()
        if verdict is None:
            t.append(labels["checking"], style="dim")
            self.update(t)
            return
        self.add_class(f"-{verdict.status.value}")
        word, style = STYLE[verdict.status]
        if latched and not verdict.passed:
            t.append(f" {labels['passed']} ", style="bold reverse green")
            t.append(f"  {labels['now']}: ", style="dim")
        t.append(f" {word} ", style=f"{style} reverse")
        t.append(" ")
        t.append(_clip(verdict.message))
        for d in verdict.details[:MAX_DETAILS]:
            t.append(f"\n  {_clip(d)}", style="dim")
        if len(verdict.details) > MAX_DETAILS:
            t.append(f"\n  … +{len(verdict.details) - MAX_DETAILS}", style="dim")
        self.update(t)


def _clip(text: str) -> str:
    """A message quotes the learner's file; a file of one enormous line must not become a
    box that takes seconds to wrap."""
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + "…"
