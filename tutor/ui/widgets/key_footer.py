"""The lesson's footer: as many keys as its one row holds, by priority, q and ? always.

Textual's footer lays its keys out in a row and cuts what does not fit at the right, where q
is: at 80 columns with the lab check panel's x, or at 60 columns, q and ? were lost or cut in
the middle of a Korean word. Here each key's width is counted as the compact footer draws it
(key, a space, its words, a cell between keys; the palette's key docked at the right with its
rule), and the keys of least use give way first. Every key still works; ? lists them all.

The keys come from Textual's own footer, which reads the screen's public active bindings; this
one keeps those that fit its own width, in the order the help lists them, and fits them again
whenever its width or the keys the step offers change."""

from __future__ import annotations

from typing import Any, Callable

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer


def key_cells(key_display: str, description: str) -> int:
    """Cells a key takes in the compact footer, the cell after it included."""
    return cell_len(key_display) + (1 + cell_len(description) if description else 0) + 1


def fitting(keys: list[tuple[str, int]], room: int) -> set[str]:
    """The actions, among (action, cells) in priority order, that fit in `room` cells."""
    shown: set[str] = set()
    for action, cells in keys:
        if cells <= room:
            shown.add(action)
            room -= cells
    return shown


class KeyFooter(Footer):
    def __init__(self, wanted: Callable[[], dict[str, bool]], priority: tuple[str, ...], order: dict[str, int]):
        """`wanted()`: by action, whether the step offers its key now (missing: not a footer key);
        `priority`: the actions most needed first; `order`: where each is listed."""
        super().__init__(compact=True)  # compact: every key the README lists fits 80 columns
        self._wanted, self._priority, self._order = wanted, priority, order
        self._fitted: tuple = ()
        self._composed: tuple | None = None  # what the keys shown were composed from (None: none yet)

    def _keys_now(self) -> tuple:
        """What the keys would be composed from now: the screen's keys as the footer shows them
        (key, words, whether on) and what the step offers, at this width."""
        app = self.app
        keys = tuple((binding.key, app.get_key_display(binding), binding.description, binding.action, enabled, tooltip,
                      binding.show, binding.group)
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values())
        return keys, self._fit(), self.show_command_palette, self.compact

    def _fit(self) -> tuple:
        return (tuple(sorted(self._wanted().items())), self.size.width or self.app.size.width)

    async def recompose(self) -> None:
        """Textual's footer recomposes once per change of the screen's keys, each after the next
        refresh: a key that changes two (a step's hint count and the focus, a language and the
        keys' words) composed the same keys twice. Once is enough; the same keys are not composed
        again."""
        if self._composed is not None and self._composed == self._keys_now():
            return
        await super().recompose()

    def compose(self) -> ComposeResult:
        composed = self._keys_now()
        keys: list[Any] = list(super().compose())  # FooterKey: key_display, description, action
        self._composed = composed if keys else None  # none yet: the screen's keys were not ready
        palette = [k for k in keys if k.has_class("-command-palette")]
        ours = {getattr(k, "action", ""): k for k in keys if k not in palette}
        wanted, width = self._fitted = self._fit()
        room = width - sum(1 + key_cells(k.key_display, k.description) for k in palette)  # its rule, then the key
        wanted = dict(wanted)
        candidates = [(a, key_cells(ours[a].key_display, ours[a].description))
                      for a in self._priority if a in ours and wanted.get(a)]
        shown = fitting(candidates, room)
        kept = sorted((k for a, k in ours.items() if a in shown), key=lambda k: self._order.get(k.action, -1))
        self.styles.grid_size_columns = len(kept)
        yield from kept
        yield from palette

    def fit_again(self) -> None:
        """Fits the keys again when what the step offers or the width changed since."""
        if self.is_attached and self._fit() != self._fitted:
            self.refresh(recompose=True)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_again()
