"""Every use of Textual's private API, in one place.

Textual is pinned below 9 (pyproject.toml): what is here is not promised across its releases, so
each use is small, says why no public way serves, and is pinned by tests/ui/test_textual_compat.py,
which names the Textual version it was read against and fails when a member is gone. Nothing
else in tutor/ touches a private Textual member (tests/ui/test_textual_private.py reads the code).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from textual import work
from textual.binding import Binding
from textual.command import CommandPalette
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.widget import Widget
from textual.widgets import Footer
# The footer's key, which Textual exports only from its private module: the lesson's footer
# composes its keys itself, from the screen on top (tutor/ui/widgets/key_footer.py).
from textual.widgets._footer import FooterKey as FooterKey

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.widgets import Markdown
    from textual.widgets.markdown import MarkdownBlock

# Textual's palette search, without its @work (ours re-adds it in the same group).
_TEXTUAL_GATHER = inspect.unwrap(CommandPalette._gather_commands)

READ_AGAINST = "8.2.8"  # the Textual whose source these uses were read against


def bindings_by_key(node: DOMNode) -> dict[str, list[Binding]]:
    """A node's own bindings by key, to change their words and whether the footer shows them.
    Textual's public `active_bindings` is read-only and rebuilt from this map on every
    refresh_bindings, so a word switched there would not last."""
    return node._bindings.key_to_bindings


def footer_ready(footer: Footer) -> bool:
    """Whether the footer's screen has told it its keys once: before, its screen's focus and keys
    are not settled, and Textual's own footer composes nothing (no public flag says so)."""
    return bool(footer._bindings_ready)


class SizedInOneLayout:
    """A widget whose new size, found by a layout of the screen, asks for no second layout.

    Textual's layout tells each widget its new size, and a widget whose scroll range (virtual
    size) changed with it sets a reactive that lays out the whole screen once more. That layout
    finds what the first one found: the range came from that arrangement, and the scrollbars
    were set from it already (a scrollbar that comes or goes still asks for its own layout). So
    a verdict growing by a line laid the screen out twice, the lesson's text included. This is
    what Textual itself does when a scroll moves widgets into view. `size_updated` is called
    after each new size (no public event tells of a new scroll range without a layout)."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        changed: bool = super()._size_updated(size, virtual_size, container_size, layout=False)  # type: ignore[misc]  # Textual leaves it unannotated
        self.size_updated()
        return changed

    def size_updated(self) -> None:
        """Called once the widget has its new size and scroll range."""


def scrollbars_sized_in_one_layout() -> None:
    """Every scrollbar's new size, found by a layout of the screen, asks for no second layout.

    A scrollbar is a widget of its own on Textual's screen, and the layout that gives a pane a
    new height gives the pane's scrollbar one too. The scrollbar then sets its virtual size, a
    layout reactive, and the whole screen is laid out once more to find the same arrangement: a
    verdict growing by a line beside a lesson that scrolls, or a pane's first scrollbar, took two
    layouts, the second some 5 to 20 ms on the lab. A scrollbar arranges nothing inside it; the
    pane it scrolls sets its thumb (Widget._scroll_update). What SizedInOneLayout does for
    the tutor's widgets, for Textual's scrollbars, which Textual makes itself (no public way to
    give a widget another scrollbar class). Called when this module is first imported: every
    screen of the tutor shows widgets that import it."""
    ScrollBar._size_updated = _sized_without_a_layout  # type: ignore[method-assign]


# Textual's own, called with layout=False (ScrollBar's, whichever class Textual defines it on).
_TEXTUAL_SCROLLBAR_SIZED = ScrollBar._size_updated


def _sized_without_a_layout(self: Widget, size: Size, virtual_size: Size, container_size: Size,
                            layout: bool = True) -> bool:
    changed: bool = _TEXTUAL_SCROLLBAR_SIZED(self, size, virtual_size, container_size, layout=False)
    return changed


scrollbars_sized_in_one_layout()


def markdown_parser(md: Markdown) -> Any:
    """The markdown-it parser Markdown.update would use (its factory), or None for the default."""
    factory = getattr(md, "_parser_factory", None)
    return None if factory is None else factory()


def can_parse_blocks(md: Markdown) -> bool:
    """Whether this Textual's Markdown makes its blocks as parse_blocks expects."""
    return hasattr(md, "_parse_markdown")


def parse_blocks(md: Markdown, tokens: list) -> list[MarkdownBlock]:
    """The blocks Markdown.update would mount for `tokens`, made without mounting them: the
    lesson pane mounts only the blocks a revealed hint adds (Markdown.append re-parses the
    whole text, and update replaces every block)."""
    return list(md._parse_markdown(tokens))


def note_source(md: Markdown, markdown: str) -> None:
    """What Markdown.update leaves behind, for the blocks' sources and a later append, when the
    blocks were mounted by the lesson pane itself."""
    md._markdown = markdown
    md._table_of_contents = None
    lines = markdown.splitlines()
    md._last_parsed_line = len(lines) - (1 if lines and lines[-1] else 0)


class SurePalette(CommandPalette):
    """Textual's palette, sure of its parts: its search runs in a worker that could finish after
    a key closed the palette, when its list is gone; and its line for an empty result is said
    by `nothing_found_line`, not in Textual's English."""

    def _on_mount(self, event: Any) -> None:
        if self.is_active:  # not closed by a key while it mounted (it reads the screen below it)
            super()._on_mount(event)

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        """Textual's search, when its list is still there: the worker starts a turn after the
        mount (or the keystroke) that asked for it, and a key that closed the palette in that
        turn removed the list first; Textual's query_one then ended the app (NoMatches)."""
        if self.has_list():
            await _TEXTUAL_GATHER(self, search_value)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """Textual's line for an empty search result, ours, after the same wait."""
        self._stop_no_matches_countdown()

        def nothing_found() -> None:
            from textual.command import CommandList
            from textual.widgets.option_list import Option

            for commands in self.query(CommandList):
                if search_value:
                    commands.add_option(Option(self.nothing_found_line(), disabled=True, id=self._NO_MATCHES))
                self._list_visible = bool(search_value)

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, nothing_found)

    def nothing_found_line(self) -> Any:
        raise NotImplementedError

    def has_list(self) -> bool:
        from textual.command import CommandList

        return bool(self.query(CommandList))

    def _watch__list_visible(self) -> None:
        if self.has_list():  # gone once the palette is closed
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self.has_list():
            await super()._watch__show_busy()

    def _action_command_list(self, action: str) -> None:
        # The list pages by the lines it has laid out: none while it is hidden (Textual 8.2
        # raises KeyError there, on pgup/pgdn typed before anything matched).
        from textual.command import CommandList

        if action.startswith("page_") and not any(c.scrollable_content_region for c in self.query(CommandList)):
            return
        super()._action_command_list(action)


def set_scroll_range(view: ScrollView, size: Size) -> None:
    """Sets a scroll view's range as Textual does itself for a size change that needs no layout
    (assigning virtual_size, a layout reactive, lays out and draws the whole screen again)."""
    scroll_update = getattr(view, "_scroll_update", None)
    if scroll_update is None:  # a Textual without it: the public way, with its layout
        view.virtual_size = size
    else:
        view.set_reactive(ScrollView.virtual_size, size)
        scroll_update(size)
