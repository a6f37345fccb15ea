"""A scroll view's new scroll range, and a Static's new content, without a layout of the whole
screen when none is needed."""

from __future__ import annotations

from rich.console import RenderableType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widgets import Static


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Assigning virtual_size does a layout of the whole screen (it is a layout reactive), and then
    every widget is drawn again, in every frame where a pod or an event line came or went. This
    is what Textual does itself for a size change that needs no layout; the scrollbars' own
    reactives still ask for a layout when one appears or goes."""
    if size == view.virtual_size:
        return
    scroll_update = getattr(view, "_scroll_update", None)  # private in Textual 8: keep a way back
    if scroll_update is None:
        view.virtual_size = size
    else:
        view.set_reactive(ScrollView.virtual_size, size)
        scroll_update(size)


def update_static(body: Static, content: RenderableType) -> None:
    """Static.update, with a layout of the whole screen only when the content's height changes.

    Static.update lays out every widget (10 to 20 ms at 100x30 on a small machine) since a new
    content may be taller; a pod changing phase in the groups pane, or a verdict's details
    moving on, keeps the same number of lines at the same width, and then repainting the widget
    is enough. The height is measured as Textual will draw it: Rich's lines at the widget's
    content width."""
    width = body.content_size.width
    if width <= 0 or isinstance(content, str):  # not laid out yet, or markup Textual parses itself
        body._drawn_height = None
        body.update(content)
        return
    console = body.app.console
    height = len(console.render_lines(content, console.options.update(width=width, height=None), pad=False))
    same = getattr(body, "_drawn_height", None) == (width, height)
    body._drawn_height = (width, height)
    body.update(content, layout=not same)
