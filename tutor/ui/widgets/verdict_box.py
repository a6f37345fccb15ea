"""The live verdict of the current step: status, message and details."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tutor.checks.verdict import Status, Verdict

STYLE = {Status.PASS: ("PASS", "bold green"), Status.FAIL: ("FAIL", "bold red"),
         Status.WAITING: ("WAIT", "bold yellow"), Status.ERROR: ("ERROR", "bold magenta")}


class VerdictBox(Static):
    def show(self, verdict: Verdict | None, latched: bool, labels: dict[str, str]) -> None:
        # Verdicts are frozen dataclasses: an equal one draws the same box, so skip the relayout.
        if getattr(self, "_shown", None) == (verdict, latched, labels):
            return
        self._shown = (verdict, latched, labels)
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
        t.append(verdict.message)
        for d in verdict.details:
            t.append(f"\n  {d}", style="dim")
        self.update(t)
