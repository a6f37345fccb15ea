"""The palette's "Keys" panel (Textual's HelpPanel) in the learner's language: every key of the
focused widget and its screen, each said as the footer says it (tutor/ui/bindings/key_words.py),
Textual's own keys too (tutor/ui/bindings/textual_words.py)."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import HelpPanel, KeyPanel, Markdown
from textual.widgets._key_panel import BindingsTable  # its CSS names this class: ours must be one

from tutor.ui.bindings import textual_words  # noqa: F401 - Textual's own keys' Korean, registered on import
from tutor.ui.bindings.key_words import key_name, localised


def keys_said(binding: Binding) -> str:
    return binding.key_display or " ".join(dict.fromkeys(key_name(k) for k in binding.key.split(",")))


class SaidBindings(BindingsTable):
    """The focused widget's keys, then its parents', the screen's and the app's: one row a key."""

    def render_bindings_table(self) -> Table:
        lang = getattr(self.app, "lang", "en")
        table = Table(padding=(0, 0), show_header=False, box=box.SIMPLE)
        table.add_column("", justify="right")
        table.add_column("", overflow="fold")  # fold, as the help screen: no word cut with …
        key_style = self.get_component_rich_style("bindings-table--key")
        words_style = self.get_component_rich_style("bindings-table--description")
        # One row an action: its keys together (ctrl+c and super+c), as said by the nearest binding
        rows: dict[str, tuple[Binding, list[str]]] = {}
        for active in self.screen.active_bindings.values():
            if not active.binding.system:
                rows.setdefault(active.binding.action, (active.binding, []))[1].append(keys_said(active.binding))
        for binding, keys in rows.values():
            said = localised(binding, lang)
            words = Text(said.description, style=words_style, end="")
            if said.tooltip:
                words.append(" " + said.tooltip, "dim")
            table.add_row(Text(" ".join(dict.fromkeys(keys)), style=key_style), words)
        return table


class SaidKeyPanel(KeyPanel):
    def compose(self) -> ComposeResult:
        yield SaidBindings(shrink=True, expand=False)


class KeysPanel(HelpPanel):
    """What the palette's "Keys" mounts in place of Textual's own (its widget help stays empty:
    no widget of the tutor has a HELP text)."""

    def compose(self) -> ComposeResult:
        yield Markdown(id="widget-help")
        yield SaidKeyPanel(id="keys-help")


def show_keys_panel(screen) -> None:
    """The palette's "Keys": the panel on `screen`, once."""
    if not screen.query(HelpPanel):  # as Textual does: one panel a screen
        screen.mount(KeysPanel())
