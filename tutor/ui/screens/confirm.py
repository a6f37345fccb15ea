"""A yes/no question asked before a change takes (reset, the solution)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from tutor.ui.bindings.key_words import keyed
from tutor.ui.bindings.keys import HELP_HERE, QUIT_HERE
from tutor.ui.screens.base import ClosesItself


class ConfirmScreen(ClosesItself, ModalScreen[bool]):
    BINDINGS = [keyed("y", "answer(True)", ("Yes", "예")), keyed("n,escape", "answer(False)", ("No", "아니요")),
                HELP_HERE, QUIT_HERE]  # q quits without an answer: nothing was changed yet

    def __init__(self, question: str, yes: str = "Yes", no: str = "No"):
        super().__init__()
        self._question, self._yes, self._no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(self._question)
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self._yes} (y)", variant="error", id="yes")
                yield Button(f"{self._no} (n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
