"""A scroll view's new scroll range without a layout of the whole screen."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView


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
