"""The help screen: every key that does something here, generated from the bindings."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tutor.i18n.bilingual import say
from tutor.ui.bindings.key_words import key_name, keyed
from tutor.ui.bindings.keys import QUIT_HERE
from tutor.ui.screens.base import ClosesItself


def bindings_table(bindings: list[Binding], title: str) -> Table:
    table = Table(title=title, show_header=False, box=None, expand=True, padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")  # fold, not an ellipsis, where a Korean word meets the edge
    for b in bindings:
        if not b.description:
            continue
        keys = b.key_display or ", ".join(key_name(k) for k in b.key.split(","))
        table.add_row(keys, Text(b.description + (f" — {b.tooltip}" if b.tooltip else "")))
    return table


class HelpScreen(ClosesItself, ModalScreen[None]):
    # q quits here as everywhere (the footer beneath says so); esc and ? close it.
    BINDINGS = [keyed("escape,question_mark", "dismiss", ("Close", "닫기")), QUIT_HERE]

    def __init__(self, bindings: list[Binding], title: str, extra: str = ""):
        super().__init__()
        self._keys = bindings
        self._title = title
        self._extra = extra

    @classmethod
    def of_keys(cls, bindings: list[Binding], lang: str) -> "HelpScreen":
        """Every key given, under the tutor's title and its promise, in the learner's language."""
        return cls(bindings, say(lang, "Keys", "키"),
                   say(lang, "The tutor only reads: your cluster and your files are never changed.",
                             "튜터는 읽기만 합니다. 클러스터와 파일은 절대 바꾸지 않습니다."))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(bindings_table(self._keys, self._title))
            if self._extra:
                yield Static(Text(self._extra, style="dim"), id="help-extra")

    def on_click(self) -> None:
        self.dismiss()
