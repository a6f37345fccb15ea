"""The footer: as many keys as its one row holds, by priority, q and ? always, and only keys that
work on the screen on top.

Textual's footer lays its keys out in a row and cuts what does not fit at the right, where q
is: at 80 columns with the lab check panel's x, or at 60 columns, q and ? were lost or cut in
the middle of a Korean word. Here each key's width is counted as the compact footer draws it
(key, a space, its words, a cell between keys; the palette's key docked at the right with its
rule), and the keys of least use give way first. Every key still works; ? lists them all.

A modal (the help, a question, the finish screen, the palette) has no footer of its own: the
footer of the screen beneath shows through, and Textual's showed that screen's keys, which a
modal stops (n and l under the help did nothing, and the help's own q was not there). Under a
modal this footer shows the modal's keys instead. It fits them again whenever its width, the
screen on top or the keys the step offers change."""

from __future__ import annotations

import weakref
from typing import Callable, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer

from tutor.ui.bindings.key_words import localised
from tutor.ui.textual_compat import FooterKey, footer_ready

# Where no list says otherwise (a modal, the timeline): the way out and the help fit first, and
# are listed last, as on the lesson's footer.
ALWAYS = ("quit", "help")


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


def action_name(binding: Binding) -> str:
    """"app.quit" -> "quit", "answer(True)" -> "answer": what the priority lists name."""
    return parse_action(binding.action)[1]


class FooterEntry(NamedTuple):
    binding: Binding  # in the learner's language
    key_display: str
    enabled: bool

    @property
    def label(self) -> str:
        """The key as the footer draws it: "q Quit"."""
        return f"{self.key_display} {self.binding.description}".strip()

    @property
    def cells(self) -> int:
        return key_cells(self.key_display, self.binding.description)


class KeyFooter(Footer):
    def __init__(self, wanted: Callable[[], dict[str, bool]] | None = None, priority: tuple[str, ...] = (),
                 order: dict[str, int] | None = None, lang: Callable[[], str] = lambda: "en"):
        """`wanted()`: by action, whether the step offers its key now (missing: not a footer key);
        `priority`: the actions most needed first; `order`: where each is listed. Without
        `wanted`, every key the screen shows, q and ? first. `lang()`: the learner's language."""
        super().__init__(compact=True)  # compact: every key the README lists fits 80 columns
        self._wanted, self._priority, self._order, self._lang = wanted, priority, order or {}, lang
        self._fitted: tuple = ()
        self._composed: tuple | None = None  # what the keys shown were composed from (None: none yet)
        self.keys_due = False  # the screen's keys changed and their recompose waits for the next refresh

    # --- which screen's keys -----------------------------------------------------------------
    def keys_screen(self) -> Screen:
        """The screen whose keys work now: a modal on top of this footer's screen, else its own."""
        top = self.app.screen
        if top is not self.screen and isinstance(top, ModalScreen) and self.screen in self.app.screen_stack:
            return top
        return self.screen

    def entries(self) -> list[FooterEntry]:
        """The keys the screen on top shows (one per action), in the learner's language."""
        app, lang = self.app, self._lang()
        seen: dict[str, FooterEntry] = {}
        for _, binding, enabled, _ in self.keys_screen().active_bindings.values():
            if binding.show and binding.action not in seen:
                said = localised(binding, lang)
                if said.description:
                    seen[binding.action] = FooterEntry(said, app.get_key_display(said), enabled)
        return list(seen.values())

    def palette_entry(self) -> FooterEntry | None:
        """The palette's key, docked at the right, where the screen on top has it."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        active = self.keys_screen().active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if active is None:
            return None
        said = localised(active.binding, self._lang())
        return FooterEntry(said, self.app.get_key_display(said), active.enabled)

    def chosen(self) -> list[FooterEntry]:
        """The keys a draw at this width shows now, in the order they are listed."""
        entries = self.entries()
        names = [action_name(e.binding) for e in entries]
        if self.keys_screen() is self.screen and self._wanted is not None:
            wanted = self._wanted()
            priority, order = [a for a in self._priority if wanted.get(a)], self._order
        else:  # every key the modal (or the timeline) shows; q and ? first to fit, listed last
            priority = [*ALWAYS, *(n for n in names if n not in ALWAYS)]
            order = {n: i + (len(names) if n in ALWAYS else 0) for i, n in enumerate(names)}
        palette = self.palette_entry()
        room = self.width_now() - (1 + palette.cells if palette else 0)  # its rule, then the key
        by_name: dict[str, list[FooterEntry]] = {}
        for name, entry in zip(names, entries):
            by_name.setdefault(name, []).append(entry)
        candidates = [(name, sum(e.cells for e in by_name[name])) for name in priority if name in by_name]
        shown = fitting(candidates, room)
        kept = [(name, e) for name, e in zip(names, entries) if name in shown]
        return [e for _, e in sorted(kept, key=lambda ne: order.get(ne[0], -1))]

    def width_now(self) -> int:
        return self.size.width or self.app.size.width

    # --- composing ---------------------------------------------------------------------------
    def _keys_now(self) -> tuple:
        """What the keys would be composed from now: the keys chosen at this width, the palette's."""
        palette = self.palette_entry()
        return (tuple((e.label, e.enabled) for e in self.chosen()), palette and (palette.label, palette.enabled),
                self.compact)

    def _fit(self) -> tuple:
        # The screen by a weak reference, not id(): a modal closed and another opened in one turn
        # can take the freed one's address, and its keys were then taken as fitted already.
        wanted = tuple(sorted(self._wanted().items())) if self._wanted else ()
        return wanted, self.width_now(), weakref.ref(self.keys_screen())

    async def recompose(self) -> None:
        """Textual's footer recomposes once per change of the screen's keys, each after the next
        refresh: a key that changes two (a step's hint count and the focus, a language and the
        keys' words) composed the same keys twice. Once is enough; the same keys are not composed
        again, nor by a second call while the first composes (the screen on top changed, and the
        keys of the screen beneath: both ask). Once quitting removed the screens, nothing is."""
        self.keys_due = False
        if not self.is_attached or not self.app.screen_stack:
            return
        now = self._keys_now()
        if self._composed is not None and self._composed == now:
            return
        self._composed = now
        await super().recompose()
        self.call_after_refresh(self.show_through)

    def show_through(self) -> None:
        """Textual repaints the screen on top when one beneath it changes, not a modal between
        them: under the help over a question, the question's screen kept showing this footer as
        it was before the help opened."""
        stack = self.app.screen_stack
        if self.is_attached and self.screen in stack:
            for between in stack[stack.index(self.screen) + 1:-1]:
                between.refresh()

    def compose(self) -> ComposeResult:
        self.keys_due = False
        if not footer_ready(self):  # the screen's keys are not ready before its first refresh
            self._composed = None
            return
        self._composed = self._keys_now()
        self._fitted = self._fit()
        kept = self.chosen()
        self.styles.grid_size_columns = len(kept)
        for e in kept:
            yield self._key(e)
        palette = self.palette_entry()
        if palette is not None:
            yield self._key(palette, classes="-command-palette")

    def _key(self, e: FooterEntry, classes: str = "") -> FooterKey:
        b = e.binding
        return FooterKey(b.key, e.key_display, b.description, b.action, disabled=not e.enabled,
                         tooltip=b.tooltip, classes=classes).data_bind(compact=Footer.compact)

    def bindings_changed(self, screen: Screen) -> None:
        super().bindings_changed(screen)  # recomposes after the next refresh, when it is its screen's
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            self.keys_due = True

    def fit_again(self) -> None:
        """Fits the keys again when what the step offers, the width or the screen on top changed."""
        self.keys_due = self.is_attached and self._fit() != self._fitted
        if self.keys_due:
            self.refresh(recompose=True)

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)

    def _screen_changed(self, _screen: Screen) -> None:
        # the screen on top is set before its first refresh: its keys (focus) after it
        self.keys_due = True
        self.call_after_refresh(self.fit_again)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_again()
