"""A scroll view's new scroll range, and a Static's new content, without a layout of the whole
screen when none is needed."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from rich.console import RenderableType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widgets import Static

from tutor.ui.textual_compat import set_scroll_range


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Assigning virtual_size does a layout of the whole screen (it is a layout reactive), and then
    every widget is drawn again, in every frame where a pod or an event line came or went. This
    is what Textual does itself for a size change that needs no layout; the scrollbars' own
    reactives still ask for a layout when one appears or goes."""
    if size != view.virtual_size:
        set_scroll_range(view, size)


def content_rows(body: Static, content: RenderableType) -> int | None:
    """The rows `content` takes in `body`, measured as Textual will draw it: Rich's lines at the
    widget's content width. None before the widget is laid out, or for markup Textual parses."""
    width = body.content_size.width
    if width <= 0 or isinstance(content, str):
        return None
    console = body.app.console
    return len(console.render_lines(content, console.options.update(width=width, height=None), pad=False))


# Each Static's (content width, rows) when update_static last drew it: None when not measured.
_drawn_height: WeakKeyDictionary[Static, tuple[int, int] | None] = WeakKeyDictionary()


def update_static(body: Static, content: RenderableType, rows: int | None = None, least_rows: int = 0) -> None:
    """Static.update, with a layout of the whole screen only when the content's height changes.

    Static.update lays out every widget (10 to 20 ms at 100x30 on a small machine) since a new
    content may be taller; a pod changing phase in the groups pane, or a verdict's details
    moving on, keeps the same number of lines at the same width, and then repainting the widget
    is enough. `rows` is content_rows(body, content) when the caller measured it already;
    `least_rows` the widget's min-height, under which a shorter content keeps the height."""
    rows = content_rows(body, content) if rows is None else rows
    if rows is None:  # not laid out yet, or markup Textual parses itself
        _drawn_height[body] = None
        body.update(content)
        return
    key = (body.content_size.width, max(rows, least_rows))
    same = _drawn_height.get(body) == key
    _drawn_height[body] = key
    body.update(content, layout=not same)
